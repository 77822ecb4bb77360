"""The home page and the language menu in a real browser."""
import os
import unittest

from arcade_browser import ARTIFACTS, BrowserTest, WebDriverWait
from selenium.webdriver.common.keys import Keys


class EnglishHome(BrowserTest):
    def test_home_page_in_english(self):
        self.open("/")
        self.assertEqual(self.driver.find_element("css selector", "html").get_attribute("lang"), "en")
        self.assertEqual(self.text("h1"), "Pick a game")
        self.assertIn("Arcade", self.driver.title)
        card = self.driver.find_element("css selector", "[data-game=mastermind] a")
        self.assertEqual(card.text, "Mastermind")
        # The stylesheet and the deferred script loaded (the script marks <html>).
        self.assertIn("js", self.driver.find_element("css selector", "html").get_attribute("class"))
        color = self.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        self.assertNotEqual(color, "rgba(0, 0, 0, 0)")

    def test_language_menu_switches_and_the_choice_sticks(self):
        self.open("/")
        # On a wide screen the languages fold into one button naming the current one: one Tab, not six (a review).
        picker = self.driver.find_element("css selector", ".language-picker > summary")
        self.assertEqual(picker.text.strip(), "English")
        self.assertFalse(self.driver.find_element("css selector", "a[data-lang=fr]").is_displayed())
        tabbable = self.driver.execute_script(
            "return [...document.querySelectorAll('header a, header summary')]"
            ".filter(e => e.getClientRects().length && e.checkVisibility()).length")
        self.assertLessEqual(tabbable, 7, "brand, four links, Settings and the language button")
        # Escape closes the list and gives its button the focus back.
        picker.click()
        self.assertTrue(self.driver.find_element("css selector", "a[data-lang=fr]").is_displayed())
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.assertFalse(self.driver.find_element("css selector", "a[data-lang=fr]").is_displayed())
        self.assertTrue(self.driver.execute_script("return document.activeElement.matches('.language-picker > summary')"))
        picker.click()
        self.click_and_wait("a[data-lang=fr]")
        self.assertEqual(self.text("h1"), "Choisissez un jeu")
        self.assertEqual(self.driver.find_element("css selector", "html").get_attribute("lang"), "fr")
        # The script tidies ?lang= out of the address; the cookie remembers.
        self.assertNotIn("lang=", self.driver.current_url)
        self.open("/no-such-page")
        self.assertEqual(self.text("h1"), "Page introuvable")
        self.open("/")
        self.assertEqual(self.text("h1"), "Choisissez un jeu")
        current = self.driver.find_element("css selector", "a[aria-current=true][data-lang]")
        self.assertEqual(current.get_attribute("data-lang"), "fr")
        # And back again.
        self.driver.find_element("css selector", ".language-picker > summary").click()
        self.click_and_wait("a[data-lang=en]")
        self.assertEqual(self.text("h1"), "Pick a game")

    def test_the_header_reaches_the_theme_in_one_step(self):
        """A low-vision review: the theme (high contrast among them) was the last thing on every page, 14 Tabs down and
        below the footer at 400 %. The header's Settings goes to it, with the focus on it."""
        self.open("/namegame")
        self.driver.find_element("css selector", "[data-settings-link]").click()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.execute_script("return document.activeElement.id") == "theme-select")
        box = self.driver.execute_script("return document.activeElement.getBoundingClientRect().toJSON()")
        self.assertTrue(0 <= box["top"] and box["bottom"] <= self.driver.execute_script("return innerHeight"), box)

    def test_the_phones_menu_closes_on_its_way_to_the_settings(self):
        """A phone review opened the menu mid-game and tapped Settings: the menu stayed open above the game, and the
        page it lengthened pushed Mastermind's Enter key below the screen."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.open("/mastermind")
        self.driver.find_element("css selector", ".site-menu > summary").click()
        link = self.driver.find_element("css selector", "[data-settings-link]")
        WebDriverWait(self.driver, 10).until(lambda d: link.is_displayed())
        link.click()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.execute_script("return document.activeElement.id") == "theme-select")
        self.assertIsNone(self.driver.find_element("css selector", ".site-menu").get_attribute("open"), "closed")
        box = self.driver.execute_script("return document.activeElement.getBoundingClientRect().toJSON()")
        self.assertTrue(0 <= box["top"] and box["bottom"] <= self.driver.execute_script("return innerHeight"), box)

    def test_keyboard_reaches_the_skip_link_first(self):
        self.open("/")
        self.driver.find_element("css selector", "body").send_keys(Keys.TAB)
        focused = self.driver.switch_to.active_element
        self.assertEqual(focused.get_attribute("class"), "skip-link")
        self.assertTrue(focused.is_displayed())


class RussianHome(BrowserTest):
    languages = "ru-RU,ru"

    def test_home_page_in_russian_when_the_browser_prefers_it(self):
        self.open("/")
        self.assertEqual(self.driver.find_element("css selector", "html").get_attribute("lang"), "ru")
        self.assertEqual(self.text("h1"), "Выберите игру")
        self.assertEqual(self.text("[data-game=mastermind] a"), "Мастермайнд")


class PhoneHome(BrowserTest):
    width, height = 360, 800

    def test_works_at_360_pixels_and_saves_a_screenshot(self):
        self.open("/")
        width = self.driver.execute_script("return document.documentElement.clientWidth")
        scroll = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(scroll, width, "no sideways scrolling on a phone")
        # Both games whole on a 740 px phone's first screen (a review: the Name Game's card was cut off at the fold).
        bottoms = self.driver.execute_script(
            "return [...document.querySelectorAll('.game-card')].map(c => c.getBoundingClientRect().bottom)")
        self.assertEqual(len(bottoms), 2)
        self.assertTrue(all(bottom <= 740 for bottom in bottoms), bottoms)
        os.makedirs(ARTIFACTS, exist_ok=True)
        path = os.path.join(ARTIFACTS, "home-360.png")
        self.assertTrue(self.driver.save_screenshot(path))
        self.assertGreater(os.path.getsize(path), 1000)


if __name__ == "__main__":
    unittest.main()
