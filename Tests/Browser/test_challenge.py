"""Challenge a friend: the link from a finished game's results, the page before and after the friend's game, in
both schemes, on a phone and a desktop, with and without script, checked by axe."""
from arcade_browser import WebDriverWait, chromium
from mastermind_browser import MastermindHelpers, wrong_guesses


class ChallengeTests(MastermindHelpers):
    def test_a_friend_plays_the_same_code_and_both_see_the_rows(self):
        secret = self.start()
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        link = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-challenge] a")).get_attribute("href")
        path = "/" + link.split("/", 3)[3]
        self.screenshots("challenge-owner", path)
        self.open(path)
        self.assertIn(path, self.driver.find_element("css selector", "[data-challenge-link]").get_attribute("value"))

        first = self.driver
        self.driver = chromium()
        self.addCleanup(self.driver.quit)
        self.addCleanup(setattr, self, "driver", first)
        self.open(path)
        self.assertEqual(self.driver.find_element("css selector", "[data-to-beat]").get_attribute("data-to-beat"),
                         "1/10")
        self.assertNotIn(secret, self.driver.page_source)
        self.screenshots("challenge-open", path)
        self.open(path)
        self.driver.find_element("css selector", "[data-take-challenge]").click()
        WebDriverWait(self.driver, 10).until(lambda d: d.current_url.endswith("/mastermind"))
        self.close_tutorial()
        self.assertEqual(self.start(), secret)
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        self.open(path)
        scores = [side.get_attribute("data-score") for side in
                  self.driver.find_elements("css selector", "[data-side]")]
        self.assertEqual(scores, ["1/10", "2/10"])
        for _ in self.schemes():
            self.assertEqual(self.axe_violations(), [])
        self.screenshots("challenge-done", path)
