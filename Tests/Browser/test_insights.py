"""The admin's insights and the player's own data in a browser: axe at both sizes in light, dark and high contrast,
no sideways scroll, screenshots; download and forget me without a script."""
import unittest

from arcade_browser import BrowserTest
from test_admin import AdminBrowserTest


class Insights(AdminBrowserTest):
    def test_insights_are_accessible_in_every_theme_and_screenshotted(self):
        # Something to chart: a game given up, a daily guess, a Name Game round.
        self.open("/mastermind")
        self.assertEqual(self.post("/mastermind/new"), 200)
        self.open("/mastermind")
        game = self.driver.find_element("id", "board").get_attribute("data-game")
        self.assertEqual(self.post("/mastermind/giveup", f"game={game}"), 200)
        self.assertEqual(self.post("/namegame/next", "mode=normal"), 200)
        self.sign_in()
        self.open("/admin/insights")
        charts = self.driver.find_elements("css selector", "svg.chart[role=img]")
        self.assertEqual(len(charts), 8)
        for chart in charts:
            self.assertTrue(chart.find_element("css selector", "title").get_attribute("textContent"))
            self.assertTrue(chart.find_element("css selector", "desc").get_attribute("textContent"))
        found = self.axe_everywhere("/admin/insights")
        self.driver.add_cookie({"name": "arcade_theme", "value": "contrast", "path": "/", "httpOnly": True})
        found += self.axe_everywhere("/admin/insights")
        self.assertEqual(self.low_contrast(aaa=True), [], "high contrast is AAA")
        self.driver.delete_cookie("arcade_theme")
        self.assertEqual(found, [])
        self.assertEqual(len(self.screenshots("admin-insights", "/admin/insights")), self.shots)


class YourData(BrowserTest):
    def test_download_and_forget_me_work_without_a_script(self):
        self.open("/mastermind")
        self.assertEqual(self.post("/mastermind/new"), 200)
        self.open("/progress")
        link = self.driver.find_element("css selector", "[data-download]")
        self.assertEqual(link.get_attribute("href").split("/", 3)[3], "progress/data")
        scroll = lambda: self.driver.execute_script(
            "document.querySelector('[data-my-data]').scrollIntoView({block: 'start'})")
        self.assertEqual(len(self.screenshots("progress-data", "/progress", prepare=scroll)), self.shots)
        for width in self.sizes():
            for path in ("/progress", "/progress/forget"):
                self.open(path)
                for scheme in self.schemes():
                    self.assertEqual(self.axe_violations(), [], f"{path} {width}px {scheme}")
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/progress")
            before = self.driver.get_cookie("arcade_player")["value"]
            self.click_and_wait("[data-forget-link]")
            self.click_and_wait("[data-confirm-forget]")
            self.assertTrue(self.driver.find_element("css selector", "[data-forgotten]").is_displayed())
            after = self.driver.get_cookie("arcade_player")
            self.assertNotEqual(after and after["value"], before, "a stranger now")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


if __name__ == "__main__":
    unittest.main()
