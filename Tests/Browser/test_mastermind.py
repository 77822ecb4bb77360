"""Mastermind in a real browser: keypad, keyboard, losing, errors, statistics, a phone."""
import os
import unittest

from mastermind_browser import MastermindHelpers, WebDriverWait, secret_of
from arcade_browser import ARTIFACTS
from selenium.webdriver.common.keys import Keys


def wrong_guess(secret, n):
    guess = "".join(str((n >> (3 * (3 - i))) & 7) for i in range(4))
    return guess if guess != secret else wrong_guess(secret, n + 1)


class Mastermind(MastermindHelpers):

    def start(self):
        self.open("/mastermind")
        if self.game() == "0":  # the unstarted board: start a game as "new game" does, so its secret exists
            self.assertEqual(self.post("/mastermind/new"), 200)
            self.open("/mastermind")
        WebDriverWait(self.driver, 10).until(
            lambda d: not d.find_element("css selector", "[data-keypad]").get_attribute("hidden"))
        if self.board().get_attribute("data-outcome"):
            self.driver.find_element("css selector", ".result button[type=submit]").click()
            WebDriverWait(self.driver, 10).until(lambda d: not self.board().get_attribute("data-outcome"))
        return secret_of(int(self.game()))

    def test_the_unstarted_board_starts_with_the_first_guess(self):
        self.open("/mastermind")
        self.assertEqual(self.game(), "0", "looking stores no game")
        self.assertEqual(self.board().get_attribute("data-attempts-left"), "10")
        WebDriverWait(self.driver, 10).until(
            lambda d: not d.find_element("css selector", "[data-keypad]").get_attribute("hidden"))
        self.tap("0123")
        self.wait_rows(1)
        game = self.game()
        self.assertNotEqual(game, "0")
        self.assertEqual(len(secret_of(int(game))), 4)
        if not self.board().get_attribute("data-outcome"):  # 0123 may be the secret itself
            self.assertEqual(self.board().get_attribute("data-attempts-left"), "9")

    def test_won_with_the_keypad(self):
        secret = self.start()
        miss = wrong_guess(secret, 5)
        self.tap(miss)
        self.wait_rows(1)
        row = self.driver.find_element("css selector", "#board .row")
        self.assertEqual(row.get_attribute("data-guess"), miss)
        # Delete only touches the row being typed (its cells are the input now).
        self.tap_digits("77")
        self.driver.find_element("css selector", "[data-keypad] button[data-key='Backspace']").click()
        cells = [c.text for c in self.driver.find_elements("css selector", "[data-current-row] [data-cell]")]
        self.assertEqual(cells, ["7", "", "", ""])
        self.driver.find_element("css selector", "[data-keypad] button[data-key='Backspace']").click()
        self.assertEqual(self.rows(), 1)
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        self.assertEqual(self.driver.find_element("css selector", "[data-secret]").get_attribute("data-secret"), secret)
        # Focus moved to the result, and the result was announced.
        # (once the last pegs are shown, in the results dialog)
        WebDriverWait(self.driver, 10).until(lambda d: d.switch_to.active_element.tag_name == "h2")
        self.assertTrue(self.driver.find_element("id", "mastermind-live").get_attribute("textContent"))

    def tap_digits(self, digits):
        for digit in digits:
            self.driver.find_element("css selector", f"[data-keypad] button[data-key='{digit}']").click()

    def test_won_with_the_physical_keyboard(self):
        secret = self.start()
        body = self.driver.find_element("css selector", "body")
        body.send_keys(wrong_guess(secret, 9) + Keys.ENTER)
        self.wait_rows(1)
        # The row is the input: typing goes on filling it, wherever focus is.
        self.driver.find_element("css selector", "body").send_keys(secret + Keys.ENTER)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")

    def test_lost_after_ten_tries(self):
        secret = self.start()
        for n in range(10):
            self.tap(wrong_guess(secret, 100 + n))
            self.wait_rows(n + 1)
        self.assertEqual(self.board().get_attribute("data-outcome"), "lost")
        self.assertEqual(self.board().get_attribute("data-attempts-left"), "0")
        # The results show once, in their card, after the last pegs (not first in the page, then again).
        WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "dialog[open] .result"))
        self.assertIn(secret, self.text(".result"))

    def test_an_invalid_guess_shows_a_clear_error(self):
        """With scripts a digit the rules do not use is refused at its key (the board's tests); without, the server
        refuses the guess and says which digit."""
        self.start()
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/mastermind")
            self.driver.find_element("id", "guess").send_keys("0189" + Keys.ENTER)
            error = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-error]"))
            self.assertIn("“8” is not one of them", error.text)
            self.assertEqual(self.rows(), 0)
            self.assertEqual(self.driver.find_element("id", "guess").get_attribute("aria-invalid"), "true")
            # Said by the field it is about, just above it (a review found it beside row 2, a screen's width away).
            said, field = (self.box(e) for e in (error, self.driver.find_element("id", "guess")))
            self.assertTrue(0 <= field["top"] - said["bottom"] < 120 and said["left"] < field["right"]
                            and said["right"] > field["left"], f"the error {said}, the field {field}")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

    def test_statistics_update_after_a_game(self):
        self.open("/mastermind/stats")
        before = int(self.driver.find_element("css selector", "[data-played]").get_attribute("data-wins"))
        secret = self.start()
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        self.open("/mastermind/stats")
        stats = self.driver.find_element("css selector", "[data-played]")
        self.assertEqual(int(stats.get_attribute("data-wins")), before + 1)
        bar = self.driver.find_element("css selector", "[data-chart='distribution'] li[data-guesses='≤4']")
        self.assertGreaterEqual(int(bar.get_attribute("data-count")), 1)
        # Every label, "10" included, ends before its bar starts, and grows with the text (a low-vision review: the
        # chart's labels, drawn in an image, stayed small at 200 %).
        LABELS_JS = """
            return Array.from(document.querySelectorAll('[data-chart] li')).map(li => {
              const label = li.querySelector('.dist-label').getBoundingClientRect();
              const bar = li.querySelector('progress').getBoundingClientRect();
              return [li.dataset.guesses, label.right <= bar.left, parseFloat(getComputedStyle(
                li.querySelector('.dist-label')).fontSize)]; });"""
        labels = self.driver.execute_script(LABELS_JS)
        self.assertEqual([g for g, clear, _ in labels if not clear], [])
        self.driver.execute_script("document.documentElement.style.fontSize = '200%'")
        bigger = self.driver.execute_script(LABELS_JS)
        self.assertEqual([g for g, clear, _ in bigger if not clear], [])
        self.assertTrue(all(b[2] >= 1.9 * a[2] for a, b in zip(labels, bigger)), (labels, bigger))

    def test_the_result_panel_shares_and_looks_right(self):
        secret = self.start()
        self.tap(wrong_guess(secret, 2))
        self.wait_rows(1)
        # Until its card opens, the result is out of sight: a review saw it in the page first, then in the card.
        self.driver.execute_script("""
            window.resultInPage = false;
            new MutationObserver(() => {
              const result = document.querySelector('.result');
              if (result && !result.closest('dialog') && result.getClientRects().length) window.resultInPage = true;
            }).observe(document.body, {subtree: true, childList: true, attributes: true});""")
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "dialog[open] .result"))
        self.assertFalse(self.driver.execute_script("return window.resultInPage"), "shown in the page first")
        # Issue 40: the share text is what Share shares (shown only without a script); the card's distribution is a
        # compact list.
        share = self.driver.find_element("css selector", "[data-share]").get_attribute("textContent")
        self.assertTrue(share.startswith("Arcade Mastermind 2/10"), share)
        self.assertTrue(self.driver.find_element("css selector", "[data-share-button]").is_displayed())
        self.assertTrue(self.driver.find_elements("css selector", "[data-distribution] li[data-current]"))
        # Shared, what was shared shows (a review pasted blind after "Copied").
        preview = self.driver.find_element("css selector", "[data-share]")
        self.assertFalse(preview.is_displayed())
        self.driver.execute_script("document.querySelector('[data-share-button]').click()")
        WebDriverWait(self.driver, 10).until(lambda d: preview.is_displayed())
        self.assertIn("Arcade Mastermind 2/10", preview.text)
        self.assertEqual(len(self.screenshots("mastermind-result", "/mastermind")), self.shots)

    def test_the_daily_code_and_its_archive(self):
        self.open("/mastermind/daily")
        self.assertEqual(self.board().get_attribute("data-daily"), "0")
        self.assertIn("#1", self.driver.find_element("tag name", "h1").text, "numbered from 1")
        self.tap("0123")
        self.wait_rows(1)
        self.assertNotEqual(self.game(), "0")
        self.assertEqual(len(self.screenshots("mastermind-daily", "/mastermind/daily")), self.shots)
        self.assertEqual(len(self.screenshots("mastermind-archive", "/mastermind/archive")), self.shots)
        self.assertTrue(self.driver.find_elements("css selector", "[data-empty=archive]"))

    def test_pegs_reveal_in_turn_unless_motion_is_reduced(self):
        secret = self.start()
        self.tap(wrong_guess(secret, 3))
        self.wait_rows(1)
        script = ("return Array.from(document.querySelectorAll('#board .row.is-newest .peg'))"
                  ".map(p => getComputedStyle(p).animationName + ' ' + getComputedStyle(p).animationDelay)")
        moving = self.driver.execute_script(script)
        self.assertTrue(moving and all(m.startswith("peg-in") for m in moving), moving)
        self.assertEqual(len(set(moving)), len(moving), "each peg has its own delay")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            self.assertTrue(all(m.startswith("none") for m in self.driver.execute_script(script)))
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_without_javascript_the_keypad_stays_hidden(self):
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/mastermind")
            self.assertFalse(self.driver.find_element("css selector", "[data-keypad]").is_displayed())
            self.assertTrue(self.driver.find_element("id", "guess").is_displayed())
            # A guess posted without a script lands on its new row.
            self.driver.find_element("id", "guess").send_keys("0123")
            self.driver.find_element("css selector", ".guess-form button[type=submit]").click()
            WebDriverWait(self.driver, 10).until(lambda d: "#board" in d.current_url or "#result" in d.current_url)
            # A refused one answers with the page at its field, the reason above it, in sight (a review: the page
            # opened at its top and the reason was below the fold).
            self.driver.find_element("id", "guess").send_keys("1289")
            self.driver.find_element("css selector", ".guess-form button[type=submit]").click()
            WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("id", "guess-error"))
            for part in ("guess-error", "guess"):
                box = self.driver.execute_script(
                    "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, innerHeight]",
                    self.driver.find_element("id", part))
                self.assertTrue(box[0] >= 0 and box[1] <= box[2], (part, box))
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


class MastermindOnAPhone(Mastermind):
    width, height = 360, 800

    def fits(self, selector):
        return self.driver.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;", selector)

    def test_without_javascript_a_first_visit_shows_the_board_in_its_first_screen(self):
        """A review, without a script on a phone: the first visit's How to play, examples and all, filled the first
        screen, and the board was below it."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.delete_all_cookies()
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/mastermind")
            self.assertTrue(self.driver.find_element("css selector", "[data-tutorial] [data-rules]").is_displayed())
            top = self.driver.execute_script("return document.querySelector('#board .board').getBoundingClientRect().top")
            self.assertLess(top, 740 - 120, "the board's first rows in the first screen")
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-nojs-first-visit-360.png"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

    def test_the_retro_screen_switched_in_play_keeps_every_key_on_a_phone(self):
        """A review switched the retro screen on by its cheat in a phone game: its type is wider, the legend took two
        lines, and the last row of keys, Enter with it, fell below the screen. The board is fitted again."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        secret = self.start()
        self.tap(wrong_guess(secret, 40))
        self.wait_rows(1)
        self.assertTrue(self.fits("[data-keypad] button[data-key='Enter']"), "Enter in sight before")
        self.driver.execute_script("document.documentElement.classList.add('theme-crt')")
        WebDriverWait(self.driver, 10).until(lambda d: self.fits("[data-keypad] button[data-key='Enter']"),
                                             "Enter in sight on the retro screen")
        self.assertTrue(self.fits("[data-current-row]"))

    def test_phone_first_the_guess_the_newest_row_and_the_whole_keypad_show(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        secret = self.start()
        # A new player, without scrolling: the row being typed and every key, Enter included.
        self.assertTrue(self.fits("[data-current-row]"))
        for key in ["0", "7", "Backspace", "Enter"]:
            self.assertTrue(self.fits(f"[data-keypad] button[data-key='{key}']"), key)
        self.assertEqual(self.driver.find_element("id", "guess").get_attribute("inputmode"), "none",
                         "the phone's own keyboard stays down while the keypad types")
        self.assertFalse(self.driver.find_element("css selector", ".nav a[href='/namegame']").is_displayed(),
                         "the menu is folded")
        # The row being typed fills digit by digit.
        for digit in "52":
            self.driver.find_element("css selector", f"[data-keypad] button[data-key='{digit}']").click()
        cells = [c.text for c in self.driver.find_elements("css selector", "[data-current-row] [data-cell]")]
        self.assertEqual(cells, ["5", "2", "", ""])
        self.driver.find_element("css selector", "[data-keypad] button[data-key='Backspace']").click()
        self.driver.find_element("css selector", "[data-keypad] button[data-key='Backspace']").click()
        for n in range(6):
            self.tap(wrong_guess(secret, 40 + n * 57))
            self.wait_rows(n + 1)
        top_of_keypad = self.driver.execute_script(
            "return document.querySelector('[data-keypad]').getBoundingClientRect().top")
        newest = self.driver.execute_script(
            "const r = document.querySelector('#board .row.is-newest').getBoundingClientRect(); return [r.top, r.bottom]")
        guess = self.driver.execute_script(
            "return document.querySelector('[data-current-row]').getBoundingClientRect().bottom")
        self.assertGreaterEqual(newest[0], 0)
        self.assertLessEqual(newest[1], top_of_keypad, "the newest row is above the keypad")
        self.assertLessEqual(guess, top_of_keypad, "so is the row being typed")
        self.assertTrue(self.driver.save_screenshot(os.path.join(ARTIFACTS, "mastermind-phone-six-rows.png")))

    def test_the_folded_menu_opens_without_a_script(self):
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/")
            link = self.driver.find_element("css selector", ".nav a[href='/mastermind']")
            self.assertFalse(link.is_displayed())
            self.driver.find_element("css selector", ".site-menu > summary").click()
            self.assertTrue(link.is_displayed())
            # Shown (selenium's own test calls anything in a closed <details> hidden; on a phone the languages' list
            # is drawn open, and a tap there lands on the link).
            self.assertTrue(self.driver.execute_script(
                "const a = document.querySelector('a[data-lang=ja]'); const r = a.getBoundingClientRect();"
                "return r.width > 0 && document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === a"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

    def test_the_board_fits_a_phone(self):
        secret = self.start()
        self.tap(wrong_guess(secret, 1))
        self.wait_rows(1)
        width = self.driver.execute_script("return document.documentElement.clientWidth")
        scroll = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(scroll, width)
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.assertTrue(self.driver.save_screenshot(os.path.join(ARTIFACTS, "mastermind-360.png")))


class LaptopWindow(MastermindHelpers):
    def test_a_laptops_window_shows_the_whole_daily_board_and_its_keys(self):
        # A review at 1280×757 found the daily's last row of keys below the fold (the cells stopped shrinking at 36 px,
        # a floor for pages zoomed in, which are narrower).
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 757, "deviceScaleFactor": 1, "mobile": False})
        try:
            self.start("/mastermind/daily")
            bottom = self.driver.execute_script(
                "return document.querySelector('[data-keypad]').getBoundingClientRect().bottom")
            self.assertLessEqual(bottom, 757)
            self.assertEqual(self.driver.execute_script("return scrollY"), 0)
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


if __name__ == "__main__":
    unittest.main()
