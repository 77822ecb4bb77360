"""The once-store in a real browser: How to play shows once, as a dialog with scripts and a card without."""
import unittest

from arcade_browser import BASE_URL, BrowserTest
from arcade_browser import WebDriverWait
from selenium.webdriver.common.action_chains import ActionChains


class Tutorial(BrowserTest):
    def test_the_tutorial_opens_once_as_a_dialog(self):
        self.driver.get(BASE_URL + "/mastermind")  # not self.open, which closes it
        dialog = self.driver.find_element("css selector", "dialog[open]")
        self.assertIn("How to play", dialog.text)
        # Its title stands above its words, the rules read as text, and the examples are a part of their own (a
        # review: a bold paragraph, "Examples" jammed under it, the title no larger than either).
        look = self.driver.execute_script("""const d = arguments[0], size = e => parseFloat(getComputedStyle(e).fontSize);
            const rules = d.querySelector('[data-rules]'), examples = d.querySelector('.peg-examples-title');
            return {title: size(d.querySelector('h2')), rules: size(rules), weight: getComputedStyle(rules).fontWeight,
                    gap: examples.getBoundingClientRect().top - rules.getBoundingClientRect().bottom};""", dialog)
        self.assertGreaterEqual(look["title"], 1.2 * look["rules"], look)
        self.assertEqual(look["weight"], "400", look)
        self.assertGreaterEqual(look["gap"], 12, look)
        # Where there is a keyboard it says its keys (a keyboard review: nothing said digits, Backspace and Enter work).
        keys = dialog.find_element("css selector", "[data-keyboard-help]")
        self.assertTrue(keys.is_displayed() and "Enter sends the row" in keys.text, keys.get_attribute("outerHTML"))
        # …and how a screen reader's player types them (a blind review: browse mode takes digits for its own keys).
        self.assertIn("focus mode", keys.text)
        self.assertFalse(self.driver.find_elements("css selector", "main [data-once='tutorial.mastermind']"),
                         "no card in the page's flow")
        dialog.find_element("css selector", "form[method=dialog] button").click()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "html").get_attribute("data-tutorial-dismissed"))
        # Closed, it leaves focus on the game's board, not on the page's body (a review's Escape left it nowhere).
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "board")
        self.driver.refresh()
        self.assertFalse(self.driver.find_elements("css selector", "dialog[open]"), "closed once, gone for good")
        # The help stays a click away (in the board's Game menu), in the same kind of dialog.
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.driver.find_element("css selector", "a[data-help-link]").click()
        help_dialog = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "dialog[open]"))
        self.assertIn("round peg", help_dialog.text)
        self.open("/progress")
        self.assertTrue(self.driver.find_elements("css selector", '[data-task="tutorial.mastermind"]'))

    def test_a_digit_typed_or_a_tap_beside_it_closes_it_and_play_goes_on(self):
        # A review typed behind the first visit's how-to, and tapped the keys behind it on a phone: nothing happened.
        self.driver.get(BASE_URL + "/mastermind")
        self.driver.find_element("css selector", "dialog[open]")
        ActionChains(self.driver).send_keys("3").perform()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "html").get_attribute("data-tutorial-dismissed"))
        self.assertFalse(self.driver.find_elements("css selector", "dialog[open]"))
        cells = self.driver.find_elements("css selector", ".slot-current [data-cell]")
        self.assertEqual(cells[0].text, "3", "the digit went into the row")
        # A new player: a tap on the backdrop, beside the dialog, closes it as its Close button does.
        self.driver.delete_all_cookies()
        self.driver.get(BASE_URL + "/mastermind")
        dialog = self.driver.find_element("css selector", "dialog[open]")
        box = dialog.rect
        ActionChains(self.driver).move_to_element_with_offset(dialog, 0, -box["height"] / 2 - 8).click().perform()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "html").get_attribute("data-tutorial-dismissed"))
        self.assertFalse(self.driver.find_elements("css selector", "dialog[open]"))
        # A tap on a key behind it closes it and presses that key (a review's first tap on a phone only closed it,
        # and its guess went in a digit short).
        self.driver.delete_all_cookies()
        self.driver.get(BASE_URL + "/mastermind")
        self.driver.find_element("css selector", "dialog[open]")
        key = self.driver.find_element("css selector", "[data-keypad] button[data-key='5']")
        ActionChains(self.driver).move_to_element(key).click().perform()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        cells = self.driver.find_elements("css selector", ".slot-current [data-cell]")
        self.assertEqual([c.text for c in cells], ["5", "", "", ""], "the key tapped behind it was pressed")

    def test_on_a_phone_it_leaves_the_keys_free_and_a_tap_on_one_presses_it(self):
        """A review on a phone: four taps on digits visible under the first visit's how-to did nothing (it covered the
        keypad's first row), and the fifth, on Enter, closed it and said "Not enough digits"."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.get(BASE_URL + "/mastermind")
        dialog = self.driver.find_element("css selector", "dialog[open]")
        bottom = self.driver.execute_script("return arguments[0].getBoundingClientRect().bottom", dialog)
        keys = self.driver.execute_script(
            "return document.querySelector('[data-keypad]').getBoundingClientRect().top")
        self.assertLessEqual(bottom, keys, "the how-to ends above the keys")
        key = self.driver.find_element("css selector", "[data-keypad] button[data-key='2']")
        ActionChains(self.driver).move_to_element(key).click().perform()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        cells = self.driver.find_elements("css selector", ".slot-current [data-cell]")
        self.assertEqual([c.text for c in cells], ["2", "", "", ""], "the key tapped was pressed")

    def test_without_scripts_it_is_a_card_with_a_dismiss_button(self):
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.driver.get(BASE_URL + "/mastermind")
            card = self.driver.find_element("css selector", '[data-once="tutorial.mastermind"]')
            card.find_element("css selector", "button[data-dismiss]").click()
            WebDriverWait(self.driver, 10).until(
                lambda d: not d.find_elements("css selector", '[data-once="tutorial.mastermind"]'))
            self.driver.get(BASE_URL + "/mastermind/help")
            self.assertIn("round peg", self.driver.find_element("css selector", "[data-help]").text)
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


if __name__ == "__main__":
    unittest.main()
