"""Challenge a friend: the link from a finished game's results, the page before and after the friend's game, in
both schemes, on a phone and a desktop, with and without script, checked by axe."""
import os

from arcade_browser import ARTIFACTS, WebDriverWait, chromium
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
        self.phone()  # the friend, on a phone
        self.open(path)
        self.driver.find_element("css selector", "[data-take-challenge]").click()
        WebDriverWait(self.driver, 10).until(lambda d: d.current_url.endswith("/mastermind"))
        self.close_tutorial()
        self.assertEqual(self.start(), secret)
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        # The card keeps the promise at once: both games' rows in pegs, side by side, and the way to both boards on
        # screen, not under "How each guess did".
        card = self.settled_card()
        self.assertEqual(len(card.find_elements("css selector", "[data-result-rows] li")), 2)
        self.assertEqual(len(card.find_elements("css selector", "[data-challenge-rows] li")), 1)
        compare = card.find_element("css selector", "[data-compare]")
        self.assertTrue(compare.is_displayed())
        box, view = self.box(compare), self.box(card)
        self.assertTrue(view["top"] <= box["top"] and box["bottom"] <= view["bottom"], (box, view))
        self.assertEqual(compare.get_attribute("href"), link)
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "challenge-card-360.png"))
        fit = self.driver.execute_script("return [arguments[0].scrollHeight, arguments[0].clientHeight]", card)
        self.assertLessEqual(fit[0], fit[1] + 1, "the card scrolls inside")
        self.open(path)
        scores = [side.get_attribute("data-score") for side in
                  self.driver.find_elements("css selector", "[data-side]")]
        self.assertEqual(scores, ["1/10", "2/10"])
        for _ in self.schemes():
            self.assertEqual(self.axe_violations(), [])
        self.screenshots("challenge-done", path)
