"""The Name Game in a real browser: every mode by click and by keys, statistics, a phone."""
import os
import sqlite3
import unittest

from arcade_browser import ARTIFACTS, BrowserTest, gone
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait as SeleniumWait

DATABASE = os.environ.get("ARCADE_DB")
MODES = ["normal", "matt", "reverse", "team", "hint", "fifty", "practice", "timed"]


def wait(driver, timeout=10):
    return SeleniumWait(driver, timeout, ignored_exceptions=[NoSuchElementException, StaleElementReferenceException])


def answer_of(round_id):
    """The right choice, read from the server's database as an oracle."""
    with sqlite3.connect(DATABASE) as db:
        return db.execute("SELECT answer FROM namegame_rounds WHERE id = ?", (int(round_id),)).fetchone()[0]


class NameGame(BrowserTest):
    def game(self):
        return self.driver.find_element("id", "namegame")

    def navigate(self, act):
        """Does something that posts a form, and waits for the next page."""
        old = self.game()
        act()
        SeleniumWait(self.driver, 10).until(gone(old))
        wait(self.driver).until(lambda d: d.execute_script("return document.readyState") == "complete" and self.game())

    def choose(self, index):
        self.navigate(lambda: self.driver.find_element("css selector", f'button[data-choice="{index}"]').click())

    def fresh_round(self, mode):
        self.open(f"/namegame/{mode}")
        game = self.game()
        started = not self.driver.find_elements("css selector", "[data-start]")
        if game.get_attribute("data-answered") or game.get_attribute("data-ended") or not started:
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        game = self.game()
        self.assertEqual(game.get_attribute("data-mode"), mode)
        return game.get_attribute("data-round"), answer_of(game.get_attribute("data-round"))

    def test_every_mode_by_click(self):
        for mode in MODES:
            round_id, answer = self.fresh_round(mode)
            choices = self.driver.find_elements("css selector", "button[data-choice]")
            self.assertEqual(len(choices), 2 if mode == "fifty" else 6, mode)
            if mode != "practice":  # a wrong tap first marks that face
                wrong = (answer + 1) % len(choices)
                self.choose(wrong)
                self.assertEqual(self.driver.find_element("css selector", f'button[data-choice="{wrong}"]').get_attribute("data-result"), "wrong")
            self.choose(answer)
            self.assertEqual(self.game().get_attribute("data-answered"), "true")
            self.assertEqual(self.driver.find_element("css selector", f'button[data-choice="{answer}"]').get_attribute("data-result"), "correct", mode)
            if mode == "team":
                self.assertTrue(self.driver.find_element("css selector", ".face-title").text, "the title shows after the answer")

    def test_every_mode_by_keys(self):
        for mode in MODES:
            round_id, answer = self.fresh_round(mode)
            self.navigate(lambda: self.driver.find_element("css selector", "body").send_keys(str(answer + 1)))
            self.assertEqual(self.game().get_attribute("data-answered"), "true", mode)
            # Enter goes on to the next round.
            self.navigate(lambda: self.driver.switch_to.active_element.send_keys(Keys.ENTER))
            self.assertNotEqual(self.game().get_attribute("data-round"), round_id)
            self.assertFalse(self.game().get_attribute("data-answered"))

    def test_faces_have_alt_text_that_gives_nothing_away(self):
        self.fresh_round("normal")
        alts = [img.get_attribute("alt") for img in self.driver.find_elements("css selector", "button[data-choice] img")]
        self.assertEqual(alts, [f"Face {i}" for i in range(1, 7)])

    def test_statistics_update(self):
        self.open("/namegame/stats")
        def correct_in_normal():
            rows = self.driver.find_elements("css selector", 'tr[data-mode="normal"]')
            return int(rows[0].get_attribute("data-correct")) if rows else 0
        before = correct_in_normal()
        round_id, answer = self.fresh_round("normal")
        self.choose(answer)
        self.open("/namegame/stats")
        self.assertEqual(correct_in_normal(), before + 1)
        self.assertTrue(self.driver.find_elements("css selector", "svg.chart rect"))

    def test_a_mode_starts_with_the_start_button(self):
        self.open("/namegame/timed")
        self.assertTrue(self.driver.find_elements("css selector", "[data-start]"))
        self.assertFalse(self.driver.find_elements("css selector", "button[data-choice]"), "no round dealt by looking")
        self.navigate(lambda: self.driver.find_element("css selector", "[data-start] button[data-next]").click())
        self.assertTrue(self.game().get_attribute("data-round"))
        self.assertEqual(len(self.driver.find_elements("css selector", "button[data-choice]")), 6)
        self.assertTrue(self.driver.find_element("css selector", ".timer").text)

    def test_the_start_card_looks_right_everywhere(self):
        def check():
            start = self.driver.find_element("css selector", "[data-start] button[data-next]")
            self.assertTrue(start.is_displayed())
            self.assertGreaterEqual(start.size["height"], 44)
            width = self.driver.execute_script("return document.documentElement.clientWidth")
            self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), width)
        self.assertEqual(len(self.screenshots("namegame-start", "/namegame/hint", check)), 8)


class NameGameOnAPhone(BrowserTest):
    width, height = 360, 800

    def test_targets_are_large_on_a_phone(self):
        self.open("/namegame/normal")
        game = self.driver.find_element("id", "namegame")
        if game.get_attribute("data-answered") or self.driver.find_elements("css selector", "[data-start]"):
            self.driver.find_element("css selector", "button[data-next]").click()
            wait(self.driver).until(lambda d: d.find_elements("css selector", "button[data-choice]"))
        for button in self.driver.find_elements("css selector", "button[data-choice]"):
            self.assertGreaterEqual(button.size["height"], 44)
            self.assertGreaterEqual(button.size["width"], 44)
        width = self.driver.execute_script("return document.documentElement.clientWidth")
        self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), width)
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.assertTrue(self.driver.save_screenshot(os.path.join(ARTIFACTS, "namegame-360.png")))


if __name__ == "__main__":
    unittest.main()
