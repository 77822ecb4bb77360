"""An admin hotfixes the French home heading; a player sees it; the admin reverts it."""
import os
import re
import unittest

from arcade_browser import BrowserTest, chromium, BASE_URL


def admin_password():
    """The first-start admin password, printed once to the server's log."""
    with open(os.environ["ARCADE_LOG"]) as log:
        match = re.search(r"'admin' with the password (\S+)", log.read())
    return match.group(1)


class HotfixJourney(BrowserTest):
    def test_hotfix_seen_by_a_player_then_reverted(self):
        self.open("/admin/login")
        self.driver.find_element("id", "admin-name").send_keys("admin")
        self.driver.find_element("id", "admin-password").send_keys(admin_password())
        self.click_and_wait("form.admin-login button[type=submit]")
        self.assertIn("/admin", self.driver.current_url)
        self.open("/admin/hotfixes?q=home.heading")
        card = self.driver.find_element("css selector", 'section[data-key="home.heading"]')
        card.find_element("css selector", 'select[name="language"] option[value="fr"]').click()
        field = card.find_element("css selector", 'input[name="value"]')
        field.clear()
        field.send_keys("Choisissez vite un jeu")
        self.click_and_wait('section[data-key="home.heading"] button[data-set]')

        player = chromium("fr-FR,fr")
        self.addCleanup(player.quit)
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Choisissez vite un jeu")

        self.open("/admin/hotfixes?q=home.heading")
        self.click_and_wait("button[data-revert]")
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Choisissez un jeu")


if __name__ == "__main__":
    unittest.main()
