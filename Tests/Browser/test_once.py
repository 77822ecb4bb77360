"""The once-store in a real browser: a dismissed tutorial stays gone."""
import unittest

from arcade_browser import BrowserTest
from selenium.webdriver.support.ui import WebDriverWait

from arcade_browser import gone


class Tutorial(BrowserTest):
    def test_dismiss_the_tutorial_and_it_stays_gone(self):
        self.open("/mastermind")
        card = self.driver.find_element("css selector", '[data-once="tutorial.mastermind"]')
        self.assertIn("How to play", card.text)
        card.find_element("css selector", "button[data-dismiss]").click()
        WebDriverWait(self.driver, 10).until(gone(card))
        self.assertFalse(self.driver.find_elements("css selector", '[data-once="tutorial.mastermind"]'))
        self.driver.refresh()
        self.assertFalse(self.driver.find_elements("css selector", '[data-once="tutorial.mastermind"]'))
        self.open("/progress")
        self.assertTrue(self.driver.find_elements("css selector", '[data-task="tutorial.mastermind"]'))


if __name__ == "__main__":
    unittest.main()
