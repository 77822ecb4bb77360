"""Today's board and a player's name: the name chosen on "your progress", the board in both schemes and sizes, with and
without script, checked by axe, and refreshed live when another player's game of today's code ends."""
from arcade_browser import WebDriverWait, chromium
from mastermind_browser import MastermindHelpers, secret_of, wrong_guesses


class BoardTests(MastermindHelpers):
    def solve_daily(self, misses):
        self.open("/mastermind/daily")
        self.close_tutorial()
        self.tap("0123" if misses else "4567")
        WebDriverWait(self.driver, 10).until(lambda d: self.game() != "0")
        secret = secret_of(int(self.game()))
        done = 1
        for guess in wrong_guesses(secret)[:misses - 1]:
            if guess in ("0123", "4567"):
                continue
            self.tap(guess)
            done += 1
            self.wait_rows(done)
        if self.board().get_attribute("data-outcome") is None:
            self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome"))

    def test_a_named_solver_is_on_the_board_and_it_refreshes_live(self):
        self.open("/progress")
        field = self.driver.find_element("css selector", "[data-name-field]")
        field.send_keys("Robin")
        self.driver.find_element("css selector", "[data-name-save]").click()
        said = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-name-said]"))
        self.assertIn("Saved", said.text)
        self.solve_daily(misses=2)
        self.open("/mastermind/daily/board")
        # Read in one step: the board refreshes itself live, and an element found before a refresh is gone after it
        # (a CI run failed on a stale element here).
        names = "return [...document.querySelectorAll('.board-name')].map(e => e.textContent.trim())"
        WebDriverWait(self.driver, 10).until(lambda d: "Robin" in d.execute_script(names), "Robin on the board")
        for _ in self.schemes():
            self.assertEqual(self.axe_violations(), [])
        self.screenshots("daily-board", "/mastermind/daily/board")
        self.screenshots("progress-name", "/progress", prepare=lambda: self.driver.execute_script(
            "document.getElementById('name').scrollIntoView()"))

        self.open("/mastermind/daily/board")
        count = "return Number(document.querySelector('[data-played]').getAttribute('data-played'))"
        played = self.driver.execute_script(count)
        first = self.driver
        self.driver = chromium()
        self.addCleanup(self.driver.quit)
        self.addCleanup(setattr, self, "driver", first)
        self.solve_daily(misses=1)
        self.driver = first
        # The open page hears of it and swaps its board in, without a reload.
        WebDriverWait(self.driver, 30).until(
            lambda d: d.execute_script(count) == played + 1)
        self.assertTrue(self.driver.execute_script("return document.documentElement.hasAttribute('data-board-updated')"))
