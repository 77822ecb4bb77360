"""Mastermind and the cheat codes played as a new player would (issue 40): gestures stay in the game on a touch
phone, input never lies, a row reads at a glance, a win ends on one card, and an unlock is an event."""
import os
import time
import unittest

from mastermind_browser import BADGE_OVER_TEXT_JS, MastermindHelpers, WebDriverWait, score, secret_of, wrong_guesses
from arcade_browser import ARTIFACTS, BASE_URL, FOCUS_MARK_JS, SETTLE_JS
from test_namegame import answer_of
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import test_site_screen

KONAMI_SWIPES = ["up", "up", "down", "down", "left", "right", "left", "right"]
MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


PLACE_JS = """return {history: history.length, location: location.href, scrollY: scrollY,
                      scrollable: document.documentElement.scrollHeight - innerHeight};"""


class Play(MastermindHelpers):

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, 10).until(condition)
        except Exception:
            self.fail(what + ": not seen; cheat progress " + str(self.driver.execute_script(
                "return document.documentElement.getAttribute('data-cheat-progress')")))

    def assert_in_sight_above_the_card(self, selector):
        """On a phone the card is a sheet at the foot, and the page scrolls the board's last row up above it (three
        reviews: the card covered the whole board)."""
        def above(d):
            card = d.execute_script(CARD_JS)
            row = self.box(d.find_element("css selector", selector))
            return card and row["top"] >= 0 and row["bottom"] <= card["top"] and card["bottom"] <= card["height"]
        self.wait(above, selector + " in sight above the card " + str(self.driver.execute_script(CARD_JS)))

    # A finger, through the DevTools protocol (the browser makes its own gestures of it: scrolls, clicks, back).

    def swipe(self, x, y, direction):
        dx, dy = MOVES[direction]
        # Few moves, so a busy machine's slow DevTools calls still make a quick swipe (at most 800 ms).
        self.finger([(x + dx * step, y + dy * step) for step in (0, 40, 75)], pause=0)

    def konami_swipes(self, x, y):
        """The code's eight swipes; where the page was after each (up then down would scroll back to the start)."""
        places = []
        for direction in KONAMI_SWIPES:
            self.swipe(x, y, direction)
            places.append(self.driver.execute_script("return [scrollY, scrollX, history.length, location.href]"))
        return places

    def double_tap(self, x, y):
        # Two real touches (the browser's own synthesized double tap makes no clicks, so it could not show that a
        # code's taps press nothing).
        self.finger([(x, y)], pause=0)
        time.sleep(0.06)
        self.finger([(x, y)], pause=0)


class Gestures(Play):
    """Swipes and taps on a 360x740 touch phone: the play area owns them."""

    def test_konami_by_swipes_and_taps_stays_in_the_game_and_its_taps_press_nothing(self):
        self.phone()
        secret = self.start()
        before = self.driver.execute_script(PLACE_JS)
        self.assertGreater(before["scrollable"], 0, "the page could scroll (the footer is below the board)")
        board = self.box(self.driver.find_element("css selector", "#board .board"))
        self.driver.execute_script("window.samePage = true")
        # The vertical swipes start low and the horizontal ones near the left edge, where a browser would scroll or
        # go back.
        places = self.konami_swipes(board["left"] + 90, board["cy"])
        still = [before["scrollY"], 0, before["history"], before["location"]]
        self.assertEqual(places, [still] * 8, "no swipe scrolled or navigated")
        # The taps land on the board, as the clue says: they are the code's, and type nothing.
        self.double_tap(board["left"] + 90, board["cy"])
        revealed = self.wait(lambda d: d.find_element("css selector", "[data-revealed]"), "the unlock")
        revealed = revealed.get_attribute("data-revealed")
        position, digit = revealed.split(":")
        self.assertEqual(secret[int(position) - 1], digit)
        after = self.driver.execute_script(PLACE_JS)
        self.assertEqual((after["history"], after["location"], after["scrollY"]),
                         (before["history"], before["location"], before["scrollY"]))
        self.assertTrue(self.driver.execute_script("return window.samePage === true"), "no reload")
        typed = self.driver.find_elements("css selector", "[data-current-row] .cell.is-filled")
        self.assertEqual(typed, [], "the code's taps typed nothing")
        # Once the code is done, a tap on a key presses it.
        key = self.box(self.driver.find_element("css selector", "[data-keypad] button[data-key='5']"))
        self.double_tap(key["cx"], key["cy"])
        WebDriverWait(self.driver, 10).until(
            lambda d: len(d.find_elements("css selector", "[data-current-row] .cell.is-filled")) == 2)

    def test_a_long_drag_over_the_board_scrolls_the_page(self):
        """A review dragged 300 to 500 px over the board and the keys for the settings under them: the page never
        moved. A code's swipes are shorter; a long vertical drag scrolls, from where it passes 200 px."""
        self.phone()
        self.start()
        before = self.driver.execute_script(PLACE_JS)
        self.assertGreater(before["scrollable"], 200, "the page could scroll (the settings are below the keys)")
        board = self.box(self.driver.find_element("css selector", "#board .board"))
        x, y = board["left"] + 90, board["bottom"] - 10
        self.finger([(x, y - step) for step in range(0, 401, 50)], pause=0.02)
        after = self.driver.execute_script(PLACE_JS)
        self.assertGreaterEqual(after["scrollY"], before["scrollY"] + 140, "scrolled down by the drag past 200 px")
        self.assertLessEqual(after["scrollY"], before["scrollY"] + 210)
        self.assertEqual((after["history"], after["location"]), (before["history"], before["location"]))
        # …and a drag back down scrolls back up.
        self.finger([(x, 200 + step) for step in range(0, 401, 50)], pause=0.02)
        self.assertLessEqual(self.driver.execute_script("return scrollY"), after["scrollY"] - 140)

    def test_a_codes_long_swipes_scroll_nothing_and_count(self):
        """A review swiped the "who" code 180 px at a time: swipes that long are a code's, and scroll nothing."""
        self.who_swipes_on_a_round(length=180)
        self.assertEqual(self.driver.execute_script("return scrollY"), 0)

    def test_konami_by_slow_drags_unlocks_too(self):
        """A review's ordinary drags, each about a second, were not swipes (the limit was 0.8 s): only quick flicks
        unlocked the code, and nothing said why. A drag of a second is a swipe."""
        self.phone()
        secret = self.start()
        board = self.box(self.driver.find_element("css selector", "#board .board"))
        x, y = board["left"] + 90, board["cy"]
        for direction in KONAMI_SWIPES:
            dx, dy = MOVES[direction]
            began = time.monotonic()
            self.finger([(x + dx * step, y + dy * step) for step in (0, 20, 40, 60, 75)], pause=0.25)
            self.assertGreater(time.monotonic() - began, 0.9, "a slow drag")
        self.double_tap(x, y)
        revealed = self.wait(lambda d: d.find_element("css selector", "[data-revealed]"), "the unlock")
        position, digit = revealed.get_attribute("data-revealed").split(":")
        self.assertEqual(secret[int(position) - 1], digit)

    def test_on_a_short_phone_a_drag_on_the_board_reaches_the_keys(self):
        """A review on a 360x600 phone: Enter lay below the window at the smallest cells, and a drag on the board did
        not scroll (it was kept for the codes), so the keys were out of reach but by the strips around the game. (600
        now fits; 560 does not.)"""
        self.phone()
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 560, "deviceScaleFactor": 1, "mobile": True})
        self.start()
        enter = self.driver.find_element("css selector", "[data-keypad] button[data-key='Enter']")
        self.assertGreater(self.box(enter)["bottom"], 560, "Enter starts below the window (else nothing to show)")
        board = self.box(self.driver.find_element("css selector", "#board .board"))
        self.swipe(board["left"] + 90, board["cy"], "up")
        self.wait(lambda d: self.box(enter)["bottom"] <= 560, "Enter brought into the window by the drag")
        self.wait(lambda d: d.execute_script(
            "return document.documentElement.getAttribute('data-cheat-progress')") == "1", "the swipe still counted")

    def test_a_stray_swipe_leaves_the_keypad_working(self):
        """A review's upward swipe on the board (as often a scroll as the Konami code's first step) left the keypad dead
        for about two seconds: the browser's fling swallowed the next tap, and then the code took taps on keys."""
        self.phone()
        self.start()
        board = self.box(self.driver.find_element("css selector", "#board .board"))
        self.swipe(board["left"] + 90, board["cy"], "up")
        self.wait(lambda d: d.execute_script(
            "return document.documentElement.getAttribute('data-cheat-progress')") == "1", "the code's first step")
        key = self.box(self.driver.find_element("css selector", "[data-keypad] button[data-key='5']"))
        self.finger([(key["cx"], key["cy"])], pause=0)
        WebDriverWait(self.driver, 10).until(lambda d: [c.text for c in d.find_elements(
            "css selector", "[data-current-row] .cell.is-filled")] == ["5"])

    def test_konami_swiped_over_the_keypad_unlocks_and_its_taps_on_the_keys_type(self):
        """A review followed the clue lower on the screen, over the keys: the page scrolled, and the swipes were lost.
        The swipes count there; a key tapped then types as ever (a later review: two quick taps of a digit after the
        retro code's swipes switched the screen and typed nothing), and the taps on the board unlock."""
        self.phone()
        secret = self.start()
        before = self.driver.execute_script(PLACE_JS)
        key = self.box(self.driver.find_element("css selector", "[data-keypad] button[data-key='2']"))
        # (Measured first: the code's steps must come within two seconds of each other, and a loaded machine's
        # WebDriver calls between the last swipe and the taps once took longer.)
        board = self.box(self.driver.find_element("css selector", "#board .board"))
        self.driver.execute_script("window.samePage = true")
        places = self.konami_swipes(key["cx"] + 40, key["cy"] - 20)
        still = [before["scrollY"], 0, before["history"], before["location"]]
        self.assertEqual(places, [still] * 8, "no swipe over the keys scrolled or navigated")
        self.double_tap(key["cx"], key["cy"])
        # The key typed twice: its taps were not the code's (those press nothing), so nothing unlocked yet.
        WebDriverWait(self.driver, 10).until(lambda d: self.cells()[:2] == ["2", "2"])
        self.double_tap(board["left"] + 90, board["cy"])
        revealed = self.wait(lambda d: d.find_element("css selector", "[data-revealed]"), "the unlock")
        position, digit = revealed.get_attribute("data-revealed").split(":")
        self.assertEqual(secret[int(position) - 1], digit)

    def who_swipes_on_a_round(self, length=75):
        """A Name Game round on a phone, and the "who" code's two swipes, down and up, over its faces."""
        self.phone()
        self.meet_people()  # people met: the quiz asks rather than introduces
        self.open("/namegame/normal")
        if self.driver.find_elements("css selector", "[data-start]"):
            self.click_and_wait("button[data-next]")
        area = self.box(self.driver.find_element("css selector", "[data-cheat-area]"))
        x, y = area["cx"], min(area["cy"], area["top"] + 100)
        if length == 75:
            self.swipe(x, y, "down")
            self.swipe(x, y + 75, "up")
        else:
            self.finger([(x, y + step) for step in range(0, length + 1, length // 6)], pause=0)
            self.finger([(x, y + length - step) for step in range(0, length + 1, length // 6)], pause=0)
        self.wait(lambda d: d.execute_script(
            "return document.documentElement.getAttribute('data-cheat-progress')") == "2", "two steps")

    def test_whos_taps_count_on_the_question_too(self):
        """Two reviews swiped down and up over the faces, then tapped the question three times: nothing counted (a
        touch outside the play area was the page's), and the trail's two dots stayed."""
        self.who_swipes_on_a_round()
        question = self.box(self.driver.find_element("css selector", ".question"))
        for _ in range(3):
            self.finger([(question["cx"], question["cy"])], pause=0)
        # Read in one step in the page: the cheat's refresh of the round can replace the toast between a find and a read
        # (a slow clean-clone run met a stale element).
        self.wait(lambda d: "Who is it?" in d.execute_script(
            "const toast = document.querySelector('[data-toast]'); return toast ? toast.textContent : ''"), "the unlock")
        self.assertEqual(self.driver.find_elements("css selector", "[data-result]"), [], "no face was pressed")

    def test_a_lone_tap_on_a_face_after_a_drag_down_and_up_answers(self):
        """A review dragged down and up over the faces (a try at scrolling: the "who" code's two swipes), then tapped a
        face: nothing happened, the tap taken for the code's. Codes' taps come two at once; a lone one presses."""
        self.who_swipes_on_a_round()
        face = self.box(self.driver.find_elements("css selector", "[data-cheat-area] button[data-choice]")[0])
        self.finger([(face["cx"], face["cy"])], pause=0)
        self.wait(lambda d: d.find_elements("css selector", "[data-result]"), "the face answered")
        self.assertFalse(self.driver.find_elements("css selector", "[data-cheat-help]"), "no code unlocked")

    def test_a_codes_taps_one_at_a_time_between_the_faces_press_none(self):
        """A review followed the Konami clue with two taps, one after the other, on the gap between two rows of faces:
        the browser gave the first to the nearest face, and it answered the round wrong. Once a code is four steps in
        (no scroll makes that), its taps are its own, one at a time too."""
        self.phone()
        self.meet_people()
        self.open("/namegame/normal")
        if self.driver.find_elements("css selector", "[data-start]"):
            self.click_and_wait("button[data-next]")
        faces = self.driver.find_elements("css selector", "[data-cheat-area] button[data-choice]")
        upper = self.box(faces[0])
        lower = next(self.box(f) for f in faces[1:] if self.box(f)["top"] >= upper["bottom"])
        gap = (upper["bottom"] + lower["top"]) / 2
        self.assertFalse(self.driver.execute_script(
            "return document.elementFromPoint(arguments[0], arguments[1]).closest('button')", upper["cx"], gap),
            "the point is between the faces")
        round_id = self.driver.find_element("css selector", "#namegame").get_attribute("data-round")
        area = self.box(self.driver.find_element("css selector", "[data-cheat-area]"))
        self.konami_swipes(area["cx"], min(area["cy"], area["top"] + 100))
        progress = "return document.documentElement.getAttribute('data-cheat-progress')"
        self.wait(lambda d: d.execute_script(progress) == "8", "eight swipes")
        self.driver.execute_script("window.samePage = true")
        # A fingertip's breadth: the browser takes the touch for the nearest face's.
        self.finger([(upper["cx"], gap)], pause=0, radius=12)
        self.wait(lambda d: d.execute_script(progress) == "9", "the first tap, the code's")
        self.assertTrue(self.driver.execute_script("return window.samePage === true"), "no answer was sent")
        self.finger([(upper["cx"], gap)], pause=0, radius=12)
        self.wait(lambda d: d.execute_script("return window.samePage !== true"), "the round comes again, helped")
        toast = self.wait(lambda d: d.find_element("css selector", "[data-toast]"), "the unlock")
        self.assertIn("Konami", toast.get_attribute("textContent"))
        game = self.driver.find_element("css selector", "#namegame")
        self.assertEqual(game.get_attribute("data-round"), round_id, "the same round")
        self.assertIsNone(game.get_attribute("data-answered"), "no answer was sent")
        self.assertEqual(self.driver.find_elements("css selector", "[data-result]"), [], "no face was pressed")

    def test_the_name_games_faces_are_never_pressed_by_a_codes_taps(self):
        """A review followed the clue ("then tap it twice") and tapped the faces: each time the first tap answered the
        round wrong, and the code did not unlock. Two quick taps on a face, once a code is under way, are the code's."""
        self.phone()
        self.meet_people()  # people met: the quiz asks rather than introduces
        self.open("/namegame/fifty")
        if self.driver.find_elements("css selector", "[data-start]"):
            self.click_and_wait("button[data-next]")
        faces = self.driver.find_elements("css selector", "[data-cheat-area] button[data-choice]")
        self.assertTrue(faces, "a round of faces")
        area = self.box(self.driver.find_element("css selector", "[data-cheat-area]"))
        round_id = self.driver.find_element("css selector", "#namegame").get_attribute("data-round")
        before = self.driver.execute_script(PLACE_JS)
        self.driver.execute_script("window.samePage = true")
        # Inside the grid and well inside the screen (the grid may run below it).
        places = self.konami_swipes(area["cx"], min(area["cy"], area["top"] + 100))
        still = [before["scrollY"], 0, before["history"], before["location"]]
        self.assertEqual(places, [still] * 8, "no swipe scrolled or navigated")
        # The code's taps on a face, as the clue says: the board is all faces.
        face = self.box(faces[0])
        self.double_tap(face["cx"], face["cy"])
        # The Konami code helps the round as "who is it?" does: a fresh copy of the same round, still open.
        self.wait(lambda d: d.execute_script("return window.samePage !== true"), "the round comes again, helped")
        toast = self.wait(lambda d: d.find_element("css selector", "[data-toast]"), "the unlock")
        self.assertIn("Konami", toast.get_attribute("textContent"))
        after = self.driver.execute_script(PLACE_JS)
        self.assertEqual((after["history"], after["location"]), (before["history"], before["location"]))
        game = self.driver.find_element("css selector", "#namegame")
        self.assertEqual(game.get_attribute("data-round"), round_id, "the same round")
        self.assertIsNone(game.get_attribute("data-answered"), "no answer was sent")
        self.assertEqual(self.driver.find_elements("css selector", "[data-result]"), [], "no face was pressed")


class Input(Play):
    """Input that never lies: Enter sends, menus give focus back, a double Enter counts once, words fit."""

    def message(self):
        return [p.text for p in self.driver.find_elements("css selector", "[data-message] [data-flash]")]

    def test_guesses_typed_in_one_burst_are_all_played(self):
        """A review typed five guesses in one burst on a desktop: two were played, the rest gone without a word. Keys
        typed while a row is sent, or after an Enter that waits for a reveal, are kept for the rows that follow."""
        secret = self.start()
        misses = wrong_guesses(secret)[:3]
        self.keys("".join(guess + Keys.ENTER for guess in misses))
        self.wait_rows(3)
        played = [row.get_attribute("data-guess") for row in self.driver.find_elements("css selector", "#board .row")]
        self.assertEqual(played, misses)

    def test_enter_after_the_game_menu_sends_the_guess(self):
        secret = self.start()
        misses = wrong_guesses(secret)
        self.keys(misses[0])
        summary = self.driver.find_element("css selector", ".mm-menu summary")
        summary.click()
        summary.click()
        self.assertIsNone(self.driver.find_element("css selector", ".mm-menu").get_attribute("open"))
        self.keys(Keys.ENTER)
        self.wait_rows(1)
        self.assertEqual(self.driver.find_element("css selector", "#row-1").get_attribute("data-guess"), misses[0])
        # Escape closes the menu and gives the board the focus: Enter sends again.
        time.sleep(1.6)
        self.keys(misses[1])
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.assertTrue(self.driver.find_element("css selector", ".mm-menu").get_attribute("open"))
        self.keys(Keys.ESCAPE)
        self.assertIsNone(self.driver.find_element("css selector", ".mm-menu").get_attribute("open"))
        self.assertTrue(self.driver.execute_script("return document.activeElement.id === 'board'"))
        self.keys(Keys.ENTER)
        self.wait_rows(2)
        self.assertEqual(self.message(), [])

    def test_space_on_the_board_scrolls_nothing(self):
        """A keyboard review pressed Space on the board: the page slid 328 px down, the row being typed with it."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 600, "deviceScaleFactor": 1, "mobile": False})
        self.start()
        self.driver.execute_script("document.getElementById('board').focus(); window.scrollTo(0, 0)")
        self.assertGreater(self.driver.execute_script("return document.documentElement.scrollHeight - innerHeight"), 0,
                           "a page that could scroll")
        self.keys(" ")
        self.keys("1")
        WebDriverWait(self.driver, 10).until(lambda d: self.cells()[0] == "1")
        self.assertEqual(self.driver.execute_script("return scrollY"), 0)

    def test_a_key_tapped_with_the_board_scrolled_away_brings_the_board_back_whole(self):
        """A review scrolled a phone's page down past the first rows and typed: the row being typed was pinned to the
        window's top edge, the rows before it out of sight. The board comes back from its top."""
        self.phone()
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.driver.execute_script("window.scrollTo(0, document.getElementById('row-1').getBoundingClientRect().bottom"
                                   " + scrollY + 40)")
        self.driver.find_element("css selector", "[data-keypad] button[data-key='5']").click()
        WebDriverWait(self.driver, 10).until(lambda d: self.cells()[0] == "5")
        board, row = (self.box(self.driver.find_element("css selector", selector)) for selector in ("#board", "#row-1"))
        self.assertGreaterEqual(board["top"], 0, "the board's top in sight")
        self.assertGreaterEqual(row["top"], 0, "the row played before in sight")

    def test_enter_on_a_focused_key_presses_it_and_a_clicked_key_keeps_no_focus(self):
        self.start()
        self.driver.find_element("css selector", "[data-keypad] button[data-key='3']").click()
        self.assertNotEqual(self.driver.execute_script("return document.activeElement.getAttribute('data-key')"), "3")
        self.driver.execute_script("document.querySelector(\"[data-keypad] button[data-key='4']\").focus()")
        self.keys(Keys.ENTER)
        self.assertEqual(self.cells(), ["3", "4", "", ""])
        # A key clicked while a setting has focus takes it to the board: the keys typed next go into the row, not the
        # select (a review's digits went into the Theme select and Enter opened it).
        self.driver.execute_script("document.getElementById('theme-select').focus()")
        self.driver.find_element("css selector", "[data-keypad] button[data-key='5']").click()
        self.keys("6")
        self.assertEqual(self.cells(), ["3", "4", "5", "6"])
        self.assertEqual(self.driver.execute_script("return document.activeElement.id"), "board")

    def test_a_double_enter_adds_one_row_and_shows_no_message(self):
        secret = self.start()
        self.keys(wrong_guesses(secret)[0] + Keys.ENTER)
        self.wait_rows(1)
        self.keys(Keys.ENTER)  # the second Enter of a double press, after the answer came
        time.sleep(0.8)
        self.assertEqual(self.rows(), 1)
        self.assertEqual(self.message(), [], "no 'not enough digits' for the same Enter")
        self.assertEqual(self.driver.find_elements("css selector", "[data-current-row].is-refused"), [])

    def test_the_archive_has_no_daily_zero_and_no_stray_button(self):
        self.open("/mastermind/archive")
        main = self.driver.find_element("tag name", "main")
        self.assertNotIn("#0", main.text)
        self.assertEqual(main.find_elements("css selector", "a.button"), [], main.text)
        self.assertIn("#1", main.find_element("css selector", "[data-empty]").text)

    def test_how_to_play_opens_at_its_top(self):
        self.phone()
        self.start()
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.driver.find_element("css selector", ".mm-menu a[data-help-link]").click()
        dialog = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "dialog[open]"))
        WebDriverWait(self.driver, 10).until(lambda d: dialog.find_elements("css selector", "h1, h2"))
        self.assertGreater(self.driver.execute_script("return arguments[0].scrollHeight - arguments[0].clientHeight",
                                                      dialog), 0, "the dialog is taller than the phone")
        self.assertEqual(self.driver.execute_script("return arguments[0].scrollTop", dialog), 0)
        # Its text below the fold says so, by Close (a review never saw the last example: nothing showed it scrolled),
        # until it is read to its end.
        self.wait(lambda d: "has-more" in dialog.get_attribute("class"), "more below")
        cue = self.driver.execute_script(
            "return getComputedStyle(arguments[0], '::before').content",
            dialog.find_element("css selector", "form[method=dialog]"))
        self.assertNotIn(cue, ("none", "normal", ""), "a mark by Close")
        self.driver.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight", dialog)
        self.wait(lambda d: "has-more" not in dialog.get_attribute("class"), "read to its end")
        self.driver.execute_script("arguments[0].scrollTop = 0", dialog)
        # Its Close is in sight without scrolling (a review found it 30 px below a phone's screen), and closes it.
        close = dialog.find_element("css selector", "form[method=dialog] button")
        self.assertLessEqual(self.box(close)["bottom"], 740, "Close is on the screen")
        self.assertGreaterEqual(self.box(close)["top"], 0)
        close.click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        # Its opener sat in a menu that closed: focus goes to the board, not to the page's body (a review).
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "board")

    def test_a_loss_that_narrowed_nothing_does_not_praise_the_rows(self):
        self.phone()
        secret = self.start()
        # Four digits the code lacks, then the same four in another order: the second row (all gray again) narrowed
        # nothing. (A repeated guess would be refused.)
        first = "".join([d for d in "01234567" if d not in secret][:4])
        rows = [first, first[::-1]] + [g for g in wrong_guesses(secret) if g not in (first, first[::-1])][:8]
        for n, guess in enumerate(rows):
            self.keys(guess + Keys.ENTER)
            self.wait_rows(n + 1)
        dialog = self.settled_card()
        self.assertNotIn("every row", dialog.find_element("css selector", "[data-encourage]").text)
        self.assert_in_sight_above_the_card("#board .secret-row")
        self.assertGreaterEqual(self.box(self.driver.find_element("css selector", "#board .row"))["bottom"], 0)

    def test_a_give_up_after_a_first_win_shows_no_code_cracked(self):
        self.tap(self.start())
        WebDriverWait(self.driver, 30).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        self.assertEqual(self.post("/mastermind/new"), 200)
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        # The game's page pushes no other game (two reviews): the invitation was in the first win's card only.
        self.assertFalse(self.driver.find_elements("css selector", "[data-once='namegame.try']"), "no banner")
        self.open("/mastermind/giveup")
        # Keep playing is the primary button; Give up is a quiet one, never mistaken for it (issue 41).
        keep = self.driver.find_element("css selector", "[data-keep-playing]")
        give_up = self.driver.find_element("css selector", "[data-confirm-giveup]")
        self.assertNotEqual(keep.value_of_css_property("background-color"),
                            give_up.value_of_css_property("background-color"), "the two buttons look different")
        self.assertLess(keep.location["x"], give_up.location["x"], "Keep playing comes first")
        self.screenshots("mastermind-giveup", "/mastermind/giveup")
        self.open("/mastermind/giveup")
        self.click_and_wait("main form button[type=submit]")
        self.assertEqual(self.board().get_attribute("data-outcome"), "lost")
        # The outcome's heading has the focus, whole in sight, the board's rows above it where there is room (a review
        # landed on the heading cut off at the top, the rows scrolled away); the fragment goes from the address
        # (kept, it went on into the next game).
        WebDriverWait(self.driver, 10).until(lambda d: "#" not in d.current_url, "the fragment is gone")
        WebDriverWait(self.driver, 10).until(lambda d: d.switch_to.active_element.get_attribute("id") == "result-title")
        seen = self.driver.execute_script(
            "const t = document.getElementById('result-title').getBoundingClientRect(),"
            " r = document.querySelector('#board .row').getBoundingClientRect();"
            " return {top: t.top, bottom: t.bottom, row: r.top, height: innerHeight}")
        self.assertTrue(0 <= seen["top"] and seen["bottom"] <= seen["height"], seen)
        if self.driver.get_window_size()["height"] >= 800:
            self.assertGreaterEqual(seen["row"], 0, seen)
        # Nothing says the code was cracked (the chart's "Not cracked" bar counts this game among the losses).
        said = self.driver.find_element("tag name", "main").text.lower()
        self.assertNotRegex(said, r"(?<!not )cracked", said)


    def test_give_up_asks_over_the_board(self):
        """A review: Give up was a page of its own. With scripts it asks in a dialog over the board; Keep playing
        closes it with the board focused and the game going on; confirming ends the game."""
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        where = self.driver.current_url

        def ask():
            self.driver.find_element("css selector", ".mm-menu summary").click()
            self.driver.find_element("css selector", ".mm-menu a[data-giveup-link]").click()
            return WebDriverWait(self.driver, 10).until(
                lambda d: d.find_element("css selector", "dialog[open][data-giveup-dialog]"))

        dialog = ask()
        self.assertEqual(self.driver.current_url, where, "no page of its own")
        self.assertEqual(self.driver.execute_script(
            "return document.getElementById(arguments[0].getAttribute('aria-labelledby')).textContent", dialog),
            dialog.find_element("css selector", "h2").text, "named by its question")
        dialog.find_element("css selector", "[data-keep-playing]").click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        self.assertEqual(self.driver.current_url, where)
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "board", "back on the board")
        self.assertEqual(self.board().get_attribute("data-outcome") or "playing", "playing")
        self.keys(wrong_guesses(secret)[1] + Keys.ENTER)
        self.wait_rows(2)
        self.hint()
        ask().find_element("css selector", "[data-confirm-giveup]").click()
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "lost")
        # The rows played stay as they were: the last does not turn over again (a review saw its pegs gone, half drawn
        # again beside the code turning over).
        self.assertEqual(self.driver.execute_script("""
            const row = document.getElementById('row-2');
            return [row.classList.contains('is-settled'), Array.from(row.querySelectorAll('.peg, .pegs, .row-counts'))
              .flatMap(p => p.getAnimations()).filter(a => a.playState === 'running').length];"""), [True, 0])
        # In place, and its results are the card every ending shows (a review: give-up alone ended on a page).
        self.assertEqual(self.driver.current_url, where)
        self.settled_card()
        # The hint asked for went with the game: beside the card it read as still in play (two native readers).
        self.assertEqual([h for h in self.driver.find_elements("css selector", "[data-hint], [data-hint-type]")
                          if h.is_displayed()], [])
        self.assertEqual(self.driver.find_element("css selector", "[data-secret]").get_attribute("data-secret"), secret)
        # The outcome's heading has the focus, so it is read (a review: focus was on nothing after giving up).
        WebDriverWait(self.driver, 10).until(
            lambda d: d.execute_script("return document.activeElement && document.activeElement.id") == "result-title")

    def test_a_give_up_on_a_phone_shows_the_code_within_the_screen_and_the_card_soon(self):
        """A review, on a phone with the codes-left aid on: after giving up the board grew past both edges of the
        screen (the code's row had a wider row's columns), and seconds passed before the card."""
        self.phone()
        secret = self.start()
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.driver.find_element("css selector", "[data-codes-left-switch]").click()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-codes-left-switch]").get_attribute("aria-checked") == "true")
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.assertTrue(self.driver.find_elements("css selector", "#row-1 [data-left-shown]"), "the aid is on")
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.driver.find_element("css selector", ".mm-menu a[data-giveup-link]").click()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "dialog[open][data-giveup-dialog] [data-confirm-giveup]")).click()
        row = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-secret-row]"))
        self.assertEqual([c.text for c in row.find_elements("css selector", ".cell")], list(secret))
        self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), 360)
        for element in self.driver.find_elements("css selector", "#board .row, [data-secret-row]"):
            box = self.box(element)
            self.assertTrue(box["left"] >= 0 and box["right"] <= 360, box)
        # The card follows at once: the player asked to end it (no reveal is waited on).
        self.settled_card()

    def test_on_a_phone_a_long_message_leaves_the_last_rows_in_sight(self):
        """Two reviews: on a phone a hint (with why it is offered) and Notes' explanation grew over rows 9 and 10, the
        rows typed last. Such a message lies over the title and the legend instead; every row stays uncovered."""
        self.phone()
        secret = self.start()
        for n, guess in enumerate(wrong_guesses(secret)[:8]):
            self.tap(guess)
            self.wait_rows(n + 1)
        overlap = """
            const m = arguments[0].getBoundingClientRect();
            return Array.from(document.querySelectorAll('#board .row, #board .slot')).filter(r => {
                const b = r.getBoundingClientRect();
                return b.bottom > m.top + 1 && b.top < m.bottom - 1;
            }).map(r => r.id || r.className);"""
        hint = self.hint()
        WebDriverWait(self.driver, 10).until(lambda d: hint.size["height"] > 0)
        self.assertEqual(self.driver.execute_script(overlap, hint), [], "the hint covers no row")
        self.assertGreaterEqual(self.box(hint)["top"], 0, "in sight")
        self.keys("0")
        self.driver.find_element("css selector", "[data-keypad] [data-notes]").click()
        notes = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-notes-on]"))
        self.assertEqual(self.driver.execute_script(overlap, notes), [], "Notes' words cover no row")

    def test_on_a_phone_an_early_long_message_lies_under_the_row_being_typed(self):
        """A review: over the title, a hint hid the peg legend and read as the header jumping. With rows still to play
        it lies just under the row being typed, over those rows only."""
        self.phone()
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.tap(wrong_guesses(secret)[0])  # refused, in three lines: "You already tried this guess in row 1. …"
        hint = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-message] [data-error]"))
        WebDriverWait(self.driver, 10).until(lambda d: hint.size["height"] > 0)
        line = self.box(self.driver.find_element("css selector", "[data-message]"))
        self.assertGreater(self.box(hint)["bottom"] - self.box(hint)["top"], line["bottom"] - line["top"] + 1,
                           "longer than its line")
        covered = self.driver.execute_script("""
            const m = arguments[0].getBoundingClientRect();
            return Array.from(document.querySelectorAll('#board .row, [data-current-row], [data-legend], main > h1'))
              .filter(r => { const b = r.getBoundingClientRect(); return b.bottom > m.top + 1 && b.top < m.bottom - 1; })
              .map(r => r.id || r.className || r.tagName);""", hint)
        self.assertEqual(covered, [], "the message covers only rows still to play")
        row = self.box(self.driver.find_element("css selector", "[data-current-row]"))
        self.assertLess(self.box(hint)["top"] - row["bottom"], 16, "just under the row being typed")

    def test_a_digit_on_a_full_row_says_how_to_go_on(self):
        """A review: with the row full, Enter on a focused key typed nothing and said nothing."""
        self.start()
        self.keys("01234")
        WebDriverWait(self.driver, 10).until(lambda d: self.message())
        self.assertEqual(self.driver.find_element("css selector", "[data-message] [data-flash]")
                         .get_attribute("data-flash"), "full")
        self.assertIn("Press Enter to submit it", self.message()[0])
        self.assertEqual(self.cells(), list("0123"), "the row keeps what was typed")

    def test_a_repeated_guess_is_refused_and_kept_to_change(self):
        """A review: a repeated guess went through silently and spent a try. It is refused with its row named, the
        row keeps its digits, and no try is spent."""
        secret = self.start()
        miss = wrong_guesses(secret)[0]
        self.keys(miss + Keys.ENTER)
        self.wait_rows(1)
        self.keys(miss + Keys.ENTER)
        message = WebDriverWait(self.driver, 10).until(
            lambda d: "row 1" in d.find_element("tag name", "main").text and d.find_element("tag name", "main").text)
        self.assertIn("You already tried this guess in row 1", message)
        self.assertEqual(len(self.driver.find_elements("css selector", "#board .row")), 1, "no try spent")
        self.assertEqual(self.cells(), list(miss), "the row keeps its digits, to change one")
        self.assertEqual(self.board().get_attribute("data-attempts-left"), "9")
        # Turning to the Game menu puts the refusal away (a review still had it beside the board behind Give up's
        # question).
        self.driver.find_element("css selector", ".mm-menu > summary").click()
        WebDriverWait(self.driver, 10).until(
            lambda d: not d.find_element("css selector", "[data-message] [data-error]").is_displayed())
        self.keys(Keys.ESCAPE)
        # A digit typed then starts the row afresh (a review tapped digits into the refused row and nothing happened
        # until it had deleted all four); Backspace would have changed the last one.
        other = wrong_guesses(secret)[1]
        self.keys(other[0])
        self.assertEqual(self.cells(), [other[0], "", "", ""], "a fresh row")
        self.keys(other[1:] + Keys.ENTER)
        self.wait_rows(2)

    def test_a_loss_after_a_first_win_says_nothing_of_a_win(self):
        """Review: "Code cracked! Now try the Name Game" stood over "Out of tries" when the loss came by a script."""
        self.tap(self.start())
        WebDriverWait(self.driver, 30).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        self.assertEqual(self.post("/mastermind/new"), 200)
        secret = self.start()
        for n, guess in enumerate(wrong_guesses(secret)):
            self.tap(guess)
            self.wait_rows(n + 1)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "lost")
        self.assertFalse(self.driver.find_elements("css selector", "[data-once='namegame.try'], [data-try-namegame]"))
        self.assertNotIn("cracked", self.driver.find_element("tag name", "body").text.lower())


class HintCost(Play):

    def test_a_hint_says_what_it_costs_before_the_win_on_a_phone(self):
        """A review learnt only from the results that a hinted win leaves the chart: the phone's hint line left the
        cost out. It says it, under the row being typed, inside the screen; and asks first (another review: one tap
        took the win out of the chart), where "Not now" leaves the game as it was."""
        self.phone()
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.driver.find_element("css selector", "form[action='/mastermind/hint'] button").click()
        ask = self.wait(lambda d: d.find_element("css selector", "[data-hint-ask]"), "Hint's question")
        self.assertIn("guess chart", ask.text)
        for part in ("[data-hint-confirm]", "[data-hint-cancel]"):
            box = self.box(self.driver.find_element("css selector", part))
            self.assertTrue(0 <= box["left"] and box["right"] <= 360 and box["bottom"] <= 740, box)
            self.assertGreaterEqual(box["bottom"] - box["top"], 44, f"{part}: a target a finger can hit")
        self.driver.find_element("css selector", "[data-hint-cancel]").click()
        self.assertEqual(self.driver.find_elements("css selector", "[data-hint-ask], [data-message] [data-hint]"), [])
        self.assertTrue(self.driver.find_element("css selector", "[data-message] [data-rules]").is_displayed())
        # Asked and answered, the cost is not shown again on the card (a review: its lines lay over the board).
        hint = self.hint()
        self.assertEqual(hint.find_elements("css selector", ".hint-cost"), [])
        self.assertIn("guess chart", hint.get_attribute("data-hint-spoken"))
        box, row = self.box(hint), self.box(self.driver.find_element("css selector", ".slot-current"))
        self.assertTrue(0 <= box["left"] and box["right"] <= 360 and box["bottom"] <= 740, box)
        self.assertGreaterEqual(self.box(self.driver.find_element("css selector", "[data-hint]"))["top"],
                                row["bottom"] - 1, "the row being typed stays in sight")
        # The Game menu opened, the hint waits behind it, and is back once it closes (a review saw the box stand half
        # under the open menu).
        menu = self.driver.find_element("css selector", ".mm-menu > summary")
        menu.click()
        self.wait(lambda d: not hint.is_displayed(), "the hint waits while the menu is open")
        menu.click()
        self.wait(lambda d: hint.is_displayed(), "the hint back")


    def test_hint_with_notes_on_still_asks_and_shows_the_hint(self):
        """A blind review pressed Hint with notes on: the notes' help took the message line, and Hint asked nothing."""
        secret = self.start()
        self.keys(wrong_guesses(secret)[0] + Keys.ENTER)
        self.wait_rows(1)
        self.driver.find_element("css selector", "[data-keypad] [data-notes]").click()
        self.wait(lambda d: d.find_elements("css selector", "[data-message] [data-notes-on]"), "the notes' help")
        self.driver.find_element("css selector", "form[action='/mastermind/hint'] button").click()
        ask = self.wait(lambda d: d.find_element("css selector", "[data-message] [data-hint-ask]"), "Hint's question")
        self.assertTrue(ask.is_displayed())
        ask.find_element("css selector", "[data-hint-confirm]").click()
        shown = self.wait(lambda d: d.find_element("css selector", "[data-message] [data-hint]"), "the hint")
        self.assertTrue(shown.is_displayed())


class Rows(Play):
    """A row reads at a glance: pegs of at least 16 px, counts beside them; the codes-left count is opt-in."""

    def test_on_a_phone_no_match_rings_stand_apart(self):
        """A review: on a phone the four dashed rings of a row with nothing in the code ran into one another. Each is
        drawn inside its 16 px place, with room between neighbours; the place stays 16 px."""
        self.phone()
        secret = self.start()
        absent = next(d for d in "01234567" if d not in secret)
        self.tap(absent * 4)
        self.wait_rows(1)
        self.wait(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('#row-1 .peg'))"
            ".every(p => p.getAnimations().every(a => a.playState === 'finished'))"),
            "the pegs in place")
        rings = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('#row-1 .peg-gray')).map(peg => {
                const box = peg.getBoundingClientRect(), ring = getComputedStyle(peg, '::after');
                return [box.left, box.width, parseFloat(ring.width)];
            });""")
        self.assertEqual(len(rings), 4, rings)
        for (left, width, ring), (next_left, _, next_ring) in zip(rings, rings[1:]):
            self.assertGreaterEqual(width, 16, rings)
            gap = (next_left + (width - next_ring) / 2) - (left + (width + ring) / 2)
            self.assertGreaterEqual(gap, 4, f"rings {gap:.1f} px apart: {rings}")

    def test_a_count_of_none_is_grey(self):
        """A low-vision review at 400 %: every row read as a pink dot and a blue square whatever it scored, "0● 0■"
        too. A count of none draws its symbol grey, the digit as dark as ever."""
        secret = self.start()
        absent = next(d for d in "01234567" if d not in secret)
        self.tap(absent * 4)
        self.wait_rows(1)
        seen = self.driver.execute_script("""
            const counts = document.querySelector('#row-1 .row-counts'), after = e => getComputedStyle(e, '::after').color;
            const one = counts.querySelector('.count-red').cloneNode(true);
            one.setAttribute('data-n', '1');
            counts.appendChild(one);
            const found = {zero: after(counts.querySelector('.count-red')), one: after(one),
                           digit: getComputedStyle(counts.querySelector('.count-red')).color,
                           ink: getComputedStyle(counts).color};
            one.remove();
            return found;""")
        self.assertNotEqual(seen["zero"], seen["one"], seen)
        self.assertEqual(seen["digit"], seen["ink"], seen)

    def test_the_keys_marks_are_explained_once_where_they_first_appear(self):
        """Two reviews never learned what a green or crossed-out key meant: a phone's first how-to leaves it out. Each
        mark is explained the first time it shows, and only it (a later review read "Green keys are in the code" over
        a keypad with no green key)."""
        self.phone()
        secret = self.start()
        self.driver.execute_script("Object.keys(localStorage).filter(k => k.startsWith('arcade-mm-keys-tip'))"
                                   ".forEach(k => localStorage.removeItem(k))")
        absent = next(d for d in "01234567" if d not in secret)
        self.tap(absent * 4)
        self.wait_rows(1)
        tip = self.wait(lambda d: d.find_element("css selector", "[data-message] [data-keys-tip]"), "the tip")
        self.assertEqual(tip.text, "Crossed-out keys are not in the code.")
        key = self.driver.find_element("css selector", f"[data-keypad] button[data-key='{absent}']")
        self.assertIn("is-absent", key.get_attribute("class"))
        # Struck in a colour of its own: in the digit's, the strike ran along the 4's crossbar (a low-vision review).
        self.assertTrue(self.driver.execute_script(
            "const s = getComputedStyle(arguments[0]); return s.textDecorationColor !== s.color", key))
        other = next(d for d in "76543210" if d not in secret and d != absent)
        self.tap(other * 4)
        self.wait_rows(2)
        self.assertEqual(self.driver.find_elements("css selector", "[data-message] [data-keys-tip]"), [], "once")
        # Four of one of the code's digits: that row alone proves it in, its key turns green, and that mark is
        # explained now. (Not the code itself, or the game would end.)
        self.tap(secret[0] * 4 if secret[0] * 4 != secret else secret[0] * 3 + absent)
        self.wait_rows(3)
        tip = self.wait(lambda d: d.find_element("css selector", "[data-message] [data-keys-tip]"), "the green keys")
        # Named by its dot as well as its colour (a low-vision review in forced colours read "green" and saw none).
        self.assertEqual(tip.text, "Keys with a dot (green) are in the code.")

    def test_notes_show_in_their_boxes_and_a_win_leaves_the_keys_agreeing(self):
        """A review: the notes showed nowhere on the board (a badge on a key, one place at a time), and after a win two
        of the code's digits stayed plain on the keypad under the solved row."""
        self.phone()
        secret = self.start()
        notes = self.driver.find_element("css selector", "[data-keypad] [data-notes]")
        notes.click()
        key = self.driver.find_element("css selector", "[data-keypad] button[data-key='4']")
        key.click()
        self.driver.find_element("css selector", "[data-keypad] button[data-key='5']").click()
        first = self.driver.find_elements("css selector", "[data-current-row] [data-cell]")[0]
        self.assertEqual(first.get_attribute("data-ruled"), "45")
        shown = self.driver.execute_script(
            "return getComputedStyle(arguments[0], '::before').content", first)
        self.assertIn("45", shown, "drawn in the box")
        # Readable: two notes are drawn at about half the box's height, not a third along its foot (a review could
        # barely read them on a phone).
        size, box = self.driver.execute_script(
            "return [parseFloat(getComputedStyle(arguments[0], '::before').fontSize),"
            " arguments[0].getBoundingClientRect().height]", first)
        self.assertGreaterEqual(size, 0.42 * box, (size, box))
        # …as pencil marks, not digits: light, in the box's corner (a later review read a lone note as a typed digit).
        weight, corner = self.driver.execute_script(
            "const s = getComputedStyle(arguments[0], '::before'); return [s.fontWeight, s.alignItems]", first)
        self.assertEqual((weight, corner), ("400", "flex-start"))
        notes.click()
        self.tap(secret)
        self.wait(lambda d: d.find_elements("css selector", "dialog[open][data-results-dialog]"), "the results")
        keys = {k.get_attribute("data-key"): k.get_attribute("class") for k in self.driver.find_elements(
            "css selector", ".is-spent [data-keypad] button[data-key]") if k.get_attribute("data-key").isdigit()}
        self.assertTrue(keys, "the spent keys stay behind the card")
        for digit, classes in keys.items():
            self.assertIn("is-present" if digit in secret else "is-absent", classes, digit)

    def test_a_note_goes_once_the_rows_rule_its_digit_out(self):
        """A review read notes kept to row 10 for digits the keypad had long crossed out: a digit ruled out by the
        rows everywhere needs no note."""
        self.phone()
        secret = self.start()
        a, b = [d for d in "01234567" if d not in secret][:2]
        notes = self.driver.find_element("css selector", "[data-keypad] [data-notes]")
        notes.click()
        for digit in (a, b):
            self.driver.find_element("css selector", f"[data-keypad] button[data-key='{digit}']").click()
        cell = lambda: self.driver.find_elements("css selector", "[data-current-row] [data-cell]")[0]
        self.assertEqual(cell().get_attribute("data-ruled"), a + b)
        notes.click()
        self.tap(a * 2 + b * 2)
        self.wait_rows(1)
        self.assertTrue(self.driver.find_elements("css selector", f"[data-keypad] [data-absent][data-key='{a}']"))
        self.assertIsNone(cell().get_attribute("data-ruled"), "the rows crossed both out: no note left")

    def test_the_peg_counts_match_the_feedback_and_pegs_are_big_enough(self):
        self.phone()
        secret = self.start()
        for n, guess in enumerate(wrong_guesses(secret)[:3]):
            self.tap(guess)
            self.wait_rows(n + 1)
        # The newest row's entrance finished: a count still fading in reads as no text.
        self.driver.execute_script(SETTLE_JS)
        for row in self.driver.find_elements("css selector", "#board .row"):
            red, blue = score(secret, row.get_attribute("data-guess"))
            counts = row.find_element("css selector", "[data-counts]")
            self.assertEqual(counts.text.split(), [str(red), str(blue)])
            self.assertEqual(len(row.find_elements("css selector", ".peg-red")), red)
            self.assertEqual(len(row.find_elements("css selector", ".peg-blue")), blue)
            for peg in row.find_elements("css selector", ".peg"):
                box = self.box(peg)
                self.assertGreaterEqual(box["right"] - box["left"], 16)
                self.assertGreaterEqual(box["bottom"] - box["top"], 16)
            self.assertLessEqual(self.box(counts)["right"], 360, "the counts are on the screen")

    def test_on_a_phone_the_codes_left_count_moves_nothing(self):
        """A review switched the aid on mid-game on a phone: every row shrank and the keypad jumped (36 px), the count's
        wider column taking its room from the cells. The count fits under the counts; nothing else moves."""
        self.phone()
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        # (Measured settled: a row turning over, or a page's first rows turning, is mid-flip.)
        where = SETTLE_JS + """return ['#row-1 .cell', '.slot-current .cell', '[data-keypad] button', '#board .slot:last-child']
            .map(s => { const r = document.querySelector(s).getBoundingClientRect();
                        return [s, Math.round(r.top), Math.round(r.height), Math.round(r.width)]; });"""
        before = self.driver.execute_script(where)
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.driver.find_element("css selector", "[data-codes-left-switch]").click()
        shown = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "#row-1 [data-left-shown]"))
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.assertEqual(self.driver.execute_script(where), before)
        box = self.box(shown)
        self.assertTrue(box["right"] <= 360 and box["bottom"] <= self.box(self.driver.find_element(
            "css selector", "#row-1"))["bottom"] + 1, box)
        # …nor when the page is loaded with it on (in French and Russian, whose longer count stuck out a little
        # further, the cells came out 2 px smaller).
        self.open("/mastermind")
        self.assertEqual(self.driver.execute_script(where), before)

    def test_on_a_phone_the_rows_use_the_screen_and_their_digits_sit_centred(self):
        """A review's phone: boxes and rows nearly touched with 80 px to spare under the keys, the digits sat high in
        their boxes, and the daily's "9 guesses / left" broke over two lines beside "No hints on the daily code"."""
        self.phone()
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.driver.execute_script(SETTLE_JS)
        geometry = self.driver.execute_script("""const box = s => document.querySelector(s).getBoundingClientRect();
            return [box('#row-1 .cell').bottom, box('.slot-current .cell').top, box('[data-keypad]').bottom];""")
        cell = self.box(self.driver.find_element("css selector", "#row-1 .cell"))
        self.assertGreaterEqual(geometry[1] - geometry[0], (cell["bottom"] - cell["top"]) / 4, f"rows apart: {geometry}")
        self.assertLessEqual(geometry[2], 740, "the keys still on the screen")
        # The digit's ink (its glyph's bounds, from a canvas's measure of the same font) as far from its box's top as
        # from its bottom.
        ink = self.driver.execute_script("""return [...document.querySelectorAll('#row-1 .cell')].map(cell => {
            const text = cell.firstChild, range = document.createRange(), style = getComputedStyle(cell);
            range.selectNodeContents(cell);
            const line = range.getBoundingClientRect(), box = cell.getBoundingClientRect();
            const context = document.createElement('canvas').getContext('2d');
            context.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
            const m = context.measureText(cell.textContent.trim());
            const baseline = line.top + m.fontBoundingBoxAscent * line.height
              / (m.fontBoundingBoxAscent + m.fontBoundingBoxDescent);
            return (baseline - m.actualBoundingBoxAscent - box.top) - (box.bottom - baseline - m.actualBoundingBoxDescent);
        });""")
        self.assertTrue(all(abs(offset) <= 1.5 for offset in ink), f"ink above minus below, px: {ink}")
        self.start("/mastermind/daily")
        left = self.box(self.driver.find_element("css selector", "#attempts-left"))
        self.assertLess(left["bottom"] - left["top"], 24, "the guesses left on one line")

    def test_the_codes_left_switch_is_off_by_default_and_persists(self):
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.assertEqual(self.driver.find_elements("css selector", "[data-left-shown]"), [], "off by default")
        self.driver.find_element("css selector", ".mm-menu summary").click()
        switch = self.driver.find_element("css selector", "[data-codes-left-switch]")
        self.assertEqual(switch.get_attribute("aria-checked"), "false")
        switch.click()
        shown = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-left-shown]"))
        self.assertIn("left", shown.text)
        self.open("/mastermind")
        self.assertTrue(self.driver.find_elements("css selector", "#row-1 [data-left-shown]"), "remembered")
        self.assertEqual(self.driver.find_element("css selector", "[data-codes-left-switch]").get_attribute(
            "aria-checked"), "true")
        # Without a script the switch is a form: off again, back on the board.
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/mastermind")
            self.driver.find_element("css selector", ".mm-menu summary").click()
            self.click_and_wait("[data-codes-left-switch]")
            self.assertEqual(self.driver.find_elements("css selector", "[data-left-shown]"), [])
            self.assertTrue(self.driver.current_url.endswith("/mastermind#board"), self.driver.current_url)
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
        self.open("/mastermind")
        self.assertEqual(self.driver.find_elements("css selector", "[data-left-shown]"), [])


CARD_JS = """
    const d = document.querySelector('dialog[open][data-results-dialog]'); if (!d) return null;
    const r = d.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: innerHeight, width: innerWidth,
            scroll: d.scrollHeight - d.clientHeight, pageScroll: scrollY};
"""
SCHEDULE_JS = """
    return Math.max(0, ...document.querySelector('#board .row.is-won').getAnimations({subtree: true})
        .filter(a => !arguments[0] || a.effect.target.matches(arguments[0])).map(a => {
        const t = a.effect.getComputedTiming(); return t.delay + t.activeDuration; }));
"""

NOTED_KEY = "[data-keypad] button.is-noted"


class CodesLeftInFrench(Play):
    """(Its count is longer than the English one.)"""
    languages = "fr-FR,fr"
    test_on_a_phone_the_codes_left_count_moves_nothing = Rows.test_on_a_phone_the_codes_left_count_moves_nothing


class Results(Play):
    """The win is a moment (pegs one by one, the row hops), then one card that fits the phone."""

    def win_after(self, misses):
        secret = self.start()
        for n, guess in enumerate(wrong_guesses(secret)[:misses]):
            self.tap(guess)
            self.wait_rows(n + 1)
        # When the winning row comes, its burst goes up, and its card opens; and whether anything is laid over the
        # board meanwhile (a review's phone: a word and confetti over a settled board, the card a second later).
        self.driver.execute_script("""
            window.winAt = {};
            const seen = (what, yes) => { if (!(what in window.winAt) && yes) window.winAt[what] = performance.now(); };
            new MutationObserver(() => {
              const won = document.querySelector('#board [data-status-won]');
              seen('status', won && !won.closest('.is-revealing'));
              seen('row', document.querySelector('#board .row.is-won'));
              seen('burst', document.querySelector('.win-burst'));
              seen('card', document.querySelector('dialog[open][data-results-dialog]'));
              seen('toast', document.querySelector('.win-praise, body > .toast'));
            }).observe(document.body, {childList: true, subtree: true, attributes: true, attributeFilter: ['open', 'class']});""")
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "#board .row.is-won"))
        schedule = self.driver.execute_script(SCHEDULE_JS)
        self.pegs_in = self.driver.execute_script(SCHEDULE_JS, ".peg, .row-counts")
        dialog = self.settled_card()
        return secret, schedule, dialog

    def test_on_a_phone_held_sideways_the_card_stands_beside_the_board(self):
        """A review's phone in landscape (740×360): the card, a sheet, covered the whole board. It stands at the right,
        the board's played rows in sight beside it, and the board at the window's left comes back when it closes."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 740, "height": 360, "deviceScaleFactor": 1, "mobile": True,
            "screenOrientation": {"type": "landscapePrimary", "angle": 90}})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        self.win_after(1)
        card = self.driver.execute_script(CARD_JS)
        self.assertGreaterEqual(card["left"], card["width"] / 2, card)
        self.assertEqual((round(card["top"]), round(card["bottom"])), (0, card["height"]), card)
        for row in self.driver.find_elements("css selector", "#board .row :is(.row-guess, .row-counts)"):
            box = self.box(row)
            self.assertTrue(box["top"] >= 0 and box["bottom"] <= card["height"] and box["right"] <= card["left"] + 1,
                            (box, card))
        self.driver.find_element("css selector", "dialog[open] [data-close-results]").click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.execute_script(CARD_JS))
        self.assertGreater(self.box(self.driver.find_element("css selector", "#board .row .row-counts"))["right"],
                           card["left"] + 1, "the board in the middle again")

    def test_the_results_card_on_a_phone_leaves_its_board_and_line_in_sight(self):
        self.phone()
        # A first win after six misses: the invitation to the Name Game shows too.
        secret, schedule, dialog = self.win_after(6)
        self.assertGreater(schedule, 600, "the row celebrates after its pegs")
        # (The card opens as the row lands, and its sheet is up 260 ms later: a review waited 3 s for Share.)
        self.assertLessEqual(schedule, 1100, "the card can be up within 1.5 s")
        # The burst goes up as the row jumps, not after it has settled, and the card follows it as the row lands; no
        # word is laid over the board (the card's title is the win's word).
        at = self.driver.execute_script("return window.winAt")
        # (Before the row settles, with room for a busy machine's late timer: two clean clones beside a release build
        # saw 820 ms against a limit of 800.)
        self.assertLess(at["burst"] - at["row"], schedule - 150, at)
        # (Within a second and a half of the row's landing: a clean clone's run beside a build took 0.9 s, its timers
        # late; the card "a second later" than the settled row, as a review saw it, still fails.)
        self.assertLess(at["burst"], at["card"], at)
        self.assertLess(at["card"] - at["row"], schedule + 1500, at)
        self.assertNotIn("toast", at)
        # The bar over the board tells the ending once the row's pegs are in, not while they still come (a review saw
        # "Wins: 1" before the last peg), and as the row jumps, not after (a later one saw "4 guesses left" and Hint
        # beside the burst).
        self.assertGreaterEqual(at["status"] - at["row"], self.pegs_in - 50, (self.pegs_in, at))
        self.assertLessEqual(at["status"], at["burst"] + 50, at)
        self.assert_in_sight_above_the_card("#board .row.is-won")
        card = self.driver.execute_script(CARD_JS)
        self.assertGreaterEqual(card["top"], 0, card)
        self.assertGreaterEqual(card["left"], 0, card)
        self.assertLessEqual(card["bottom"], card["height"], card)
        self.assertLessEqual(card["right"], card["width"], card)
        # At most a little over half the phone's height (a review: at two thirds, the page scrolled the header and the
        # game's line away); what it scrolls to is under its actions: Share and New game in sight as it opens, and
        # the game's line above it.
        self.assertLessEqual(card["bottom"] - card["top"], card["height"] * 0.56, card)
        sight = self.driver.execute_script("""const d = document.querySelector('dialog[open][data-results-dialog]'),
            box = d.getBoundingClientRect();
            return ['[data-share-button]', '[data-new-game]'].map(s => { const r = d.querySelector(s).getBoundingClientRect();
              return r.top >= box.top && r.bottom <= box.bottom; })
              .concat([document.getElementById('attempts-left').getBoundingClientRect().top >= 0]);""")
        self.assertEqual(sight, [True, True, True], f"the outcome's actions and the game's line in sight {card}")
        # Its words, not its look: the heading pops in (opacity from 0), and read in that first instant it says nothing.
        self.assertEqual(dialog.find_element("css selector", "h2").get_attribute("textContent"),
                         "Well played! You cracked the code!", "said to be a win too (visually hidden)")
        self.assertIn("7 of 10", dialog.find_element("css selector", "[data-guesses-used]").get_attribute("textContent"))
        self.assertEqual(dialog.find_element("css selector", "[data-secret] [aria-hidden]").text, secret)
        bars = dialog.find_elements("css selector", "[data-distribution] li")
        self.assertTrue(1 <= len(bars) <= 5, len(bars))
        self.assertTrue(dialog.find_elements("css selector", "[data-distribution] li[data-current]"))
        self.assertIn("Won in", bars[0].find_element("css selector", ".visually-hidden").get_attribute("textContent"))
        for needed in ("[data-share-button]", "[data-new-game]", "[data-streak]", "[data-more] > summary"):
            self.assertTrue(dialog.find_element("css selector", needed).is_displayed(), needed)
        # A fact that wraps starts its line without the dot (a review: "· Streak" began a phone's second line): each
        # fact's dot lies wholly left of the box, where it is cut off, or the fact does not start a line.
        figures = self.driver.execute_script("""
            const box = document.querySelector('dialog[open] .result-figures');
            const left = box.getBoundingClientRect().left;
            return {clip: getComputedStyle(box).clipPath, facts: Array.from(box.children).map(fact => {
              const at = fact.getBoundingClientRect(), dot = parseFloat(getComputedStyle(fact, '::before').width);
              return {left: at.left - left, top: at.top, dot: dot}; })};""")
        self.assertTrue(figures["clip"].startswith("inset("), figures)
        self.assertGreater(len({f["top"] for f in figures["facts"]}), 1, f"the facts wrap at 360 px {figures}")
        for fact in figures["facts"]:
            self.assertTrue(fact["left"] + fact["dot"] <= 0.5 or fact["left"] >= 1, figures)
        # The depth is one tap away: the solver's review behind "How each guess did".
        self.assertFalse(dialog.find_element("css selector", "[data-analysis]").is_displayed())
        dialog.find_element("css selector", "[data-more] > summary").click()
        self.assertEqual(len(dialog.find_elements("css selector", "[data-analysis] [data-step]")), 7)

    def test_scrolled_on_a_phone_nothing_of_the_card_shows_above_its_band(self):
        """A review's phone scrolled the card to "How each guess did": half its heading showed above the × band."""
        self.phone()
        _, _, dialog = self.win_after(3)
        dialog.find_element("css selector", "[data-more] > summary").click()
        self.driver.execute_script("arguments[0].scrollTop = 120; arguments[0].dispatchEvent(new Event('scroll'))",
                                   dialog)
        self.wait(lambda d: "is-scrolled" in dialog.get_attribute("class"), "the card scrolled")
        # Down the card's top, across its width: the band, or the card's edge, never its content.
        seen = self.driver.execute_script("""
            const card = arguments[0], box = card.getBoundingClientRect(), seen = [];
            for (let y = box.top + 3; y < box.top + 40; y += 4)
              for (let x = box.left + 10; x < box.right - 10; x += 20) {
                const at = document.elementFromPoint(x, y);
                if (at && at !== card && !at.closest('.results-top')) seen.push([x, y, at.tagName, at.textContent.slice(0, 20)]);
              }
            return seen;""", dialog)
        self.assertEqual(seen, [], "the card's content above its band")
        # The band says whose card it is: the outcome and the code, beside the × (a review: an empty band sliced the
        # text under it); it is the heading's echo, so a screen reader does not hear it twice.
        title = dialog.find_element("css selector", ".results-top-title")
        heading = dialog.find_element("css selector", "h2").text.split("\n")[0]  # (its words seen, not those heard)
        code = dialog.find_element("css selector", "[data-secret]").get_attribute("data-secret")
        self.assertTrue(title.is_displayed())
        self.assertEqual(title.text, f"{heading} · {code}")
        self.assertEqual(title.get_attribute("aria-hidden"), "true")

    def test_a_card_opened_after_taps_draws_no_box_round_its_title_and_a_key_does(self):
        """A player's screenshots: a box round "Brilliant!" as the card rose after keypad taps, and round "How to
        play" on a first visit (the browser's own :focus-visible rings a heading focused by script there)."""
        self.phone()
        self.driver.delete_all_cookies()
        self.driver.get(BASE_URL + "/mastermind")  # (not self.open: it closes the how-to)
        outline = ("if (!document.activeElement.closest('dialog')) return null; "
                   + FOCUS_MARK_JS.replace("arguments[0]", "document.activeElement"))
        self.wait(lambda d: d.execute_script(outline), "the how-to open and focused")
        self.assertEqual(self.driver.execute_script(outline), "none", "how-to's title on a first visit")
        self.close_tutorial()
        self.win_after(1)
        self.assertEqual(self.driver.execute_script(outline), "none", "the card's title after taps")
        ActionChains(self.driver).send_keys(Keys.SHIFT).perform()
        self.wait(lambda d: d.execute_script(outline) == "bar", "a mark after a key")

    def test_a_tap_as_the_card_rises_presses_nothing_and_one_after_does(self):
        """A review: the card rose under a thumb still tapping, where the keys had been, and its buttons took the tap
        (Play in hard mode, New game). Its first half second takes no tap; the Enter key is not held."""
        self.phone()
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        self.driver.execute_script("""
            window.earlyTaps = [];
            new MutationObserver((_, watch) => {
              const card = document.querySelector('dialog[open][data-results-dialog]');
              if (!card) return;
              watch.disconnect();
              for (const b of [card.querySelector('[data-new-game]'), card.querySelector('[data-close-results]'), card])
                window.earlyTaps.push(b.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: 1})));
            }).observe(document.body, {childList: true, subtree: true, attributes: true, attributeFilter: ['open']});""")
        game = self.game()
        self.tap(secret)
        card = self.settled_card()
        self.assertEqual(self.driver.execute_script("return window.earlyTaps"), [False, False, False], "all held")
        self.assertTrue(card.is_displayed())
        self.assertEqual(self.game(), game, "no new game")
        card.find_element("css selector", "[data-new-game]").click()
        WebDriverWait(self.driver, 10).until(lambda d: self.game() != game)

    def test_on_a_wide_screen_the_card_is_the_phones_and_once_closed_stays_closed(self):
        # Two reviews: docked at the top right it covered the Game menu, the lead and the Theme select; a later one
        # could not see the board it had solved under the centred card. Where there is room, the card stands beside
        # the rows, below the Game menu's line, and covers neither.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        _, _, dialog = self.win_after(2)
        d = self.box(dialog)
        rows = [self.box(row) for row in self.driver.find_elements("css selector", "#board .board .row")]
        menu = self.box(self.driver.find_element("css selector", ".mm-menu > summary"))
        self.assertGreaterEqual(d["left"], max(r["right"] for r in rows), f"beside the rows: {d}")
        self.assertGreaterEqual(d["top"], menu["bottom"], f"below the Game menu {menu}: {d}")
        self.assertTrue(d["top"] >= 0 and d["bottom"] <= 900 and d["right"] <= 1280, f"inside the window: {d}")
        # So in a browser whose window leaves 757 pixels for the page (a review's): below the Game menu still.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 757, "deviceScaleFactor": 1, "mobile": False})
        low = self.box(dialog)
        self.assertGreaterEqual(low["top"], menu["bottom"], f"757 px: below the Game menu {menu}: {low}")
        self.assertLessEqual(low["bottom"], 757, f"757 px: inside the window {low}")
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        self.assertEqual(self.driver.execute_script(CARD_JS)["scroll"], 0, "the card does not scroll")
        dialog.find_element("css selector", "[data-close-results]").click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        # A later visit shows the finished board with its results in the page, not the card over it again.
        self.open("/mastermind")
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-results-inline") is not None)
        self.assertTrue(self.driver.find_element("css selector", "#board [data-results]").is_displayed())
        self.assertFalse(self.driver.find_elements("css selector", "dialog[open]"))
        # Its winning row does not turn over again (a review caught a cell mid-jump and read it as broken).
        moving = self.driver.execute_script(
            "return [...document.querySelectorAll('#board .row.is-won .cell')].map(c => getComputedStyle(c).animationName)")
        self.assertEqual(moving, ["none"] * 4, "the won row is still")
        # A key typed there says the game is over and how to go on, New game in sight (a review typed ten rows into a
        # finished board and nothing happened); the note has the focus, so a row's Enter presses nothing (a keyboard
        # review typed 0 1 2 3 Enter there and lost the board to a new game).
        game = self.game()
        self.driver.execute_script("""window.newGameClicks = 0; document.addEventListener("click", e => {
            if (e.target.closest && e.target.closest("[data-new-game]")) window.newGameClicks++; }, true);""")
        note = self.driver.find_element("css selector", "[data-results] [data-over-note]")
        self.assertFalse(note.is_displayed())
        self.keys("7")
        WebDriverWait(self.driver, 10).until(lambda d: note.is_displayed())
        self.assertEqual(note.text, "This game is over. Press N for a new game.")
        focused = self.driver.switch_to.active_element
        self.assertIsNotNone(focused.get_attribute("data-over-note"), "the note has the focus")
        n = self.box(self.driver.find_element("css selector", "[data-results] [data-new-game]"))
        self.assertTrue(n["top"] >= 0 and n["bottom"] <= 900, f"New game in sight: {n}")
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("id", "mastermind-live").get_attribute("textContent")
            == "This game is over. Press N for a new game.")
        for key in ["0", "1", "2", Keys.ENTER, Keys.ENTER]:
            self.keys(key)
        # Enter on the board does the same, and starts nothing (a review's reflex Enter lost the board it had won).
        self.driver.execute_script("document.getElementById('board').focus()")
        self.keys(Keys.ENTER)
        self.keys(Keys.ENTER)
        WebDriverWait(self.driver, 10).until(lambda d: self.driver.switch_to.active_element.get_attribute(
            "data-over-note") is not None)
        self.assertEqual(self.driver.execute_script("return window.newGameClicks"), 0, "New game was not pressed")
        self.assertEqual(self.game(), game, "the finished game stays")

    def test_enter_on_a_desktop_win_card_says_how_to_go_on_and_starts_nothing(self):
        """A review pressed Enter after a desktop win and nothing happened (the card's heading had the focus); a blind
        review's Enters, pressed as on a row, went on to press New game once it had the focus, and the card was gone.
        Enter says how to go on, New game in sight; N starts it."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        _, _, dialog = self.win_after(1)
        game = self.game()
        self.assertEqual(self.driver.switch_to.active_element.tag_name, "h2", "the card's heading has the focus")
        share = "return document.querySelector('dialog[open] [data-share-button]').getBoundingClientRect().top"
        before = self.driver.execute_script(share)
        self.keys(Keys.ENTER)
        note = dialog.find_element("css selector", "[data-over-note]")
        self.wait(lambda d: note.is_displayed(), "the note says N starts a new game")
        self.assertEqual(note.text, "This game is over. Press N for a new game.")
        # Under the two actions: above them it pushed Share and New game 50 px down (a review).
        self.assertAlmostEqual(self.driver.execute_script(share), before, delta=1)
        self.assertIsNotNone(self.driver.switch_to.active_element.get_attribute("data-over-note"))
        self.keys(Keys.ENTER)
        self.keys(Keys.ENTER)
        self.assertTrue(dialog.is_displayed(), "the card stays: Enters start nothing")
        self.assertEqual(self.game(), game)
        self.keys("n")
        self.wait(lambda d: self.game() != game and not d.find_elements("css selector", "dialog[open]"), "a new game")

    def test_enter_on_how_each_guess_did_in_the_page_opens_it(self):
        """A blind review closed the card and pressed Enter on "How each guess did" in the page: the board said the
        game was over, and the review stayed shut."""
        _, _, dialog = self.win_after(1)
        dialog.find_element("css selector", "[data-close-results]").click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        more = self.driver.find_element("css selector", "#board [data-results] [data-more]")
        self.driver.execute_script("arguments[0].focus()", more.find_element("css selector", "summary"))
        self.keys(Keys.ENTER)
        self.wait(lambda d: more.get_attribute("open") is not None, "the review opened")
        self.assertFalse(self.driver.find_element("css selector", "#board [data-over-note]").is_displayed())

    def test_in_forced_colours_the_charts_bars_are_filled(self):
        """A low-vision review in forced colours: the results chart's bars were all empty outlines, the one with a
        count of 1 as empty as those of 0."""
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "forced-colors", "value": "active"}, {"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            _, _, dialog = self.win_after(1)
            bars = dialog.find_elements("css selector", "[data-distribution] progress")
            full = [b for b in bars if b.find_element("xpath", "./ancestor::li").get_attribute("data-count") != "0"]
            empty = [b for b in bars if b.find_element("xpath", "./ancestor::li").get_attribute("data-count") == "0"]
            self.assertEqual(len(full), 1, "one bar with a win")
            shot = dialog.find_element("css selector", "[data-distribution]")
            png, box = shot.screenshot_as_png, shot.rect

            def middle(bar):
                r = bar.rect
                return test_site_screen.pixel(png, int(r["x"] - box["x"] + r["width"] / 2), int(r["y"] - box["y"] + r["height"] / 2))
            self.assertNotEqual(middle(full[0]), middle(empty[0]), "the won bar is filled, the empty one is not")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
                {"name": "prefers-color-scheme", "value": "light"}]})

    def test_the_results_glance_has_a_line_for_every_row_no_match_too(self):
        """A review: the results' rows of pegs left out a row that matched nothing (its rings were not drawn), so the
        glance had a row fewer than the board."""
        secret = self.start()
        absent = [d for d in "01234567" if d not in secret]
        miss = (absent * 4)[:4]  # no digit of the code: four no-match pegs
        self.tap(miss)
        self.wait_rows(1)
        self.tap(secret)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        drawn = WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("""
            const rows = [...document.querySelectorAll('[data-result-rows] li')];
            return rows.length && rows.map(li => [...li.querySelectorAll('.peg')].filter(p =>
              getComputedStyle(p).backgroundColor !== 'rgba(0, 0, 0, 0)'
              || getComputedStyle(p, '::after').content !== 'none').length);"""))
        self.assertEqual(drawn, [4, 4], "every peg of both rows drawn")

    def test_hard_mode_is_offered_after_a_win_and_says_its_rule(self):
        _, _, dialog = self.win_after(1)
        # Behind "How each guess did", with the rest of what a finished game offers beyond its two actions.
        dialog.find_element("css selector", "[data-more] > summary").click()
        dialog.find_element("css selector", "[data-new-hard-game]").click()
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-mode") == "hard")
        rule = self.driver.find_element("css selector", "[data-hard-badge] [data-hard-rule]")
        self.assertTrue(rule.is_displayed())
        self.assertIn("fit all the feedback", rule.text)

    def test_the_board_breaks_no_content_security_rule(self):
        """Review: the console showed CSP errors for an inline style on the board, on every guess."""
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        errors = [e["message"] for e in self.driver.get_log("browser") if "Content Security Policy" in e["message"]]
        self.assertEqual(errors, [])

    def test_share_uses_the_share_sheet_where_there_is_one(self):
        self.phone()
        self.start()
        self.driver.execute_script(
            "window.shared = []; navigator.share = t => { window.shared.push(t); return Promise.resolve(); }")
        secret = secret_of(int(self.board().get_attribute("data-game")))
        self.tap(secret)
        dialog = self.settled_card()
        dialog.find_element("css selector", "[data-share-button]").click()
        shared = WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return window.shared"))
        text = dialog.find_element("css selector", "[data-share]").get_attribute("textContent")
        self.assertEqual(shared, [{"text": text}])
        self.assertTrue(text.startswith("Arcade Mastermind 1/10"), text)

    def test_share_copies_where_there_is_no_share_sheet(self):
        self.start()
        self.driver.execute_script("delete Navigator.prototype.share; delete navigator.share")
        self.tap(secret_of(int(self.board().get_attribute("data-game"))))
        dialog = self.settled_card()
        button = dialog.find_element("css selector", "[data-share-button]")
        # Without the clipboard API (a plain-HTTP page), the old way: its hidden field took the focus and left it on
        # the page's body, and nothing was said (a blind review).
        self.driver.execute_script("delete Navigator.prototype.clipboard; delete navigator.clipboard")
        button.click()
        WebDriverWait(self.driver, 10).until(lambda d: button.text == "Copied")
        self.assertTrue(self.driver.execute_script("return document.activeElement === arguments[0]", button),
                        "focus stays on Share")
        WebDriverWait(self.driver, 10).until(
            lambda d: dialog.find_element("css selector", "[data-share-said]").get_attribute("textContent") == "Copied")

    def test_at_400_percent_copied_stays_in_sight(self):
        """A low-vision review at 400 %: Share scrolled the card to the shared text, and the button, saying "Copied"
        and holding the focus, went above the card's band, out of sight."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.start()
        self.driver.execute_script("delete Navigator.prototype.share; delete navigator.share")
        self.tap(secret_of(int(self.board().get_attribute("data-game"))))
        dialog = self.settled_card()
        button = dialog.find_element("css selector", "[data-share-button]")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", button)
        WebDriverWait(self.driver, 10).until(lambda d: button.text == "Copied")
        self.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
        seen = self.driver.execute_script("""const [b, d] = arguments, box = e => e.getBoundingClientRect().toJSON();
            return {button: box(b), dialog: box(d), band: box(d.querySelector('.results-top [data-close-results]'))};""",
                                          button, dialog)
        self.assertGreaterEqual(seen["button"]["top"], seen["band"]["bottom"] - 1, seen)
        self.assertLessEqual(seen["button"]["bottom"], seen["dialog"]["bottom"] + 1, seen)

    def test_without_javascript_the_card_is_in_the_page(self):
        secret = self.start()
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/mastermind")
            self.driver.find_element("id", "guess").send_keys(secret)
            self.driver.find_element("css selector", ".guess-form button[type=submit]").click()
            WebDriverWait(self.driver, 10).until(lambda d: "#result" in d.current_url)
            self.driver.execute_script(SETTLE_JS)  # the card's entrance: while it fades in, nothing reads as shown
            result = self.driver.find_element("css selector", "[data-results]")
            for needed in ("h2", "[data-secret]", "[data-streak]", "[data-distribution]", "[data-share]",
                           "[data-new-game]", "[data-more] > summary"):
                self.assertTrue(result.find_element("css selector", needed).is_displayed(), needed)
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


class Unlock(Play):
    """An unlock is an event: a toast that says what it did, the effect in place, every open page's cabinet; a code
    in progress shows a trail of pips that resets visibly on a wrong step."""

    def type_keys(self, keys):
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        self.keys(keys)

    def test_the_trail_grows_with_each_step_and_resets_visibly(self):
        self.start()
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP])
        WebDriverWait(self.driver, 10).until(lambda d: len(d.find_elements("css selector", "#cheat-progress .pip")) == 2)
        # Seen from a desktop's chair (a review: tiny dots on the window's top edge went unseen).
        pip = self.driver.execute_script("return document.querySelector('#cheat-progress .pip').offsetHeight")
        self.assertGreaterEqual(pip, 10, "a pip's size on a desktop (as it lands, not while it grows)")
        self.type_keys(["x"])
        WebDriverWait(self.driver, 10).until(
            lambda d: "is-reset" in d.find_element("css selector", "#cheat-progress").get_attribute("class"))
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "#cheat-progress .pip") == [])
        self.assertEqual(self.driver.execute_script("return scrollY"), 0, "the arrows did not scroll")

    def test_a_code_left_off_takes_its_trail_away_quietly(self):
        """A review's ordinary swipes lit pips that stayed on, unexplained. When the code's time is up they go, without
        the wrong step's shake."""
        self.start()
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP])
        WebDriverWait(self.driver, 10).until(lambda d: len(d.find_elements("css selector", "#cheat-progress .pip")) == 2)
        WebDriverWait(self.driver, 15).until(lambda d: d.find_elements("css selector", "#cheat-progress .pip") == [])
        self.assertNotIn("is-reset", self.driver.find_element("css selector", "#cheat-progress").get_attribute("class"))
        self.assertEqual(self.driver.execute_script(
            "return document.documentElement.getAttribute('data-cheat-progress')"), "0")

    def test_on_a_scrolled_phone_the_toast_leaves_the_rows_in_sight(self):
        """A review: with a phone's page scrolled, the unlock toast at the window's top lay over the rows just played;
        it goes to the foot then, where it covers less of the game (at the top again on a page not scrolled)."""
        self.phone()
        secret = self.start()
        wrong = next(d for d in "01234567" if d not in secret)
        self.tap(wrong * 4)
        self.wait_rows(1)
        # Row 1 just under the window's top, where a toast at the top would lie.
        self.driver.execute_script(
            "window.scrollTo(0, document.querySelector('#board .row').getBoundingClientRect().top + scrollY - 20)")
        self.assertGreater(self.driver.execute_script("return scrollY"), 100, "the page scrolls")
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT,
                        Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b", "a"])
        toast = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-toast]"))
        row = self.box(self.driver.find_element("css selector", "#board .row"))
        at = self.box(toast)
        self.assertTrue(at["bottom"] <= row["top"] or at["top"] >= row["bottom"], (at, row))
        self.assertIn("is-low", toast.get_attribute("class"))

    def test_the_toast_says_what_the_cheat_did_and_the_digit_lands_as_a_hint(self):
        secret = self.start()
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT,
                        Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b", "a"])
        toast = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-toast]"))
        # Read whether or not it has gone already (a busy machine may look late).
        self.assertIn("Konami", toast.get_attribute("textContent"))
        did = toast.find_element("css selector", ".toast-did").get_attribute("textContent")
        position, digit = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-revealed]")).get_attribute("data-revealed").split(":")
        self.assertIn(f"Position {position} is {digit}.", did, "which digit, and where")
        cell = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-current-row] .cell.is-revealed.is-flying"))
        position = int(self.driver.find_element("css selector", "[data-revealed]").get_attribute(
            "data-revealed").split(":")[0])
        # Its text, however far its flight in has gone (selenium reads no text while it is still transparent).
        self.assertEqual(cell.get_attribute("textContent"), secret[position - 1])
        # Its flight starts inside the game, below the site's header (a review: from 40 % of the window up, it crossed
        # the header's links, a layout glitch rather than a reward).
        start, header = self.driver.execute_script("""const cell = arguments[0];
            cell.getAnimations().forEach(a => { a.pause(); a.currentTime = 0; });
            const at = cell.getBoundingClientRect().top;
            cell.getAnimations().forEach(a => a.finish());
            return [at, document.querySelector('.site-header').getBoundingClientRect().bottom];""", cell)
        self.assertGreaterEqual(start, header, "the digit's flight begins below the header")
        # The digits typed next go around it, never over it (a review's next two taps wrote over the reveal).
        others = [d for d in "01234567" if d != secret[position - 1]][:3]
        self.type_keys(others)
        cells = [c.text for c in self.driver.find_elements("css selector", "[data-current-row] .cell")]
        expected = list(others)
        expected.insert(position - 1, secret[position - 1])
        self.assertEqual(cells, expected)

    def test_the_cabinet_counts_an_unlock_on_every_open_page(self):
        self.open("/")
        home = self.driver.current_window_handle
        self.assertEqual(self.driver.find_element("css selector", "[data-cabinet]").get_attribute("data-found"), "0")
        self.driver.execute_script("window.samePage = true")
        self.driver.switch_to.new_window("tab")
        self.open("/cheats")
        cheats = self.driver.current_window_handle
        self.driver.execute_script("window.samePage = true")
        self.driver.switch_to.new_window("tab")
        self.start()
        self.type_keys(list("retro"))
        WebDriverWait(self.driver, 10).until(
            lambda d: "theme-crt" in d.find_element("tag name", "html").get_attribute("class"))
        self.driver.switch_to.window(home)
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-cabinet]").get_attribute("data-found") == "1")
        self.assertTrue(self.driver.execute_script("return window.samePage === true"), "no reload")
        self.assertIn("theme-crt", self.driver.find_element("tag name", "html").get_attribute("class"))
        self.driver.switch_to.window(cheats)
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-cheats-found] [data-found]").get_attribute(
                "data-found") == "1")
        self.assertTrue(self.driver.execute_script("return window.samePage === true"), "no reload")


class Small(Play):
    def test_a_phone_legend_is_one_line_in_every_language(self):
        """A review counted 230 px above row 1 on a phone, two lines of them the peg legend: one line of short words."""
        self.phone()
        for language in ("en", "de", "fr", "es", "ja", "ru"):
            self.open("/mastermind?lang=" + language)
            legend = self.driver.find_element("css selector", "[data-legend]")
            items = legend.find_elements("css selector", ".legend-item")
            tops = {round(self.box(item)["top"]) for item in items}
            self.assertEqual(len(tops), 1, f"{language}: {[i.text for i in items]}")
            self.assertLessEqual(self.box(legend)["right"], 360, language)
        self.open("/mastermind?lang=en")

    def test_the_stats_say_plainly_where_the_daily_is_counted(self):
        self.open("/mastermind/stats")
        note = self.driver.find_element("css selector", "[data-daily-apart]")
        self.assertIn("the daily code has its own figures below", note.text)
        self.assertLess(self.box(note)["top"], self.box(self.driver.find_element("id", "daily-stats"))["top"])


class Screenshots(Play):
    """The moments of issue 40 at 360x740 and 1280x900, light and dark, with JavaScript on and off (where a moment
    needs a script, on only), in .artifacts/screenshots/, to be looked at."""

    def moments(self, name, act):
        """`act` brings the moment about on a fresh page; its animations are frozen where they are, then shot."""
        os.makedirs(ARTIFACTS, exist_ok=True)
        try:
            for width, height in ((360, 740), (1280, 900)):
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
                for theme in ("light", "dark"):
                    self.emulate_scheme(theme)
                    act()
                    self.driver.execute_script("document.getAnimations().forEach(a => a.pause())")
                    self.assertTrue(self.driver.save_screenshot(
                        os.path.join(ARTIFACTS, f"{name}-{width}-{theme}-js.png")))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_screenshots(self):
        secret = self.start()
        misses = iter(wrong_guesses(secret))
        for n in range(3):
            self.tap(next(misses))
            self.wait_rows(n + 1)
        self.assertEqual(len(self.screenshots("mm40-row", "/mastermind")), self.shots)

        def reveal():
            self.open("/mastermind")
            rows = self.rows()
            self.keys(next(misses) + Keys.ENTER)
            WebDriverWait(self.driver, 10).until(lambda d: self.rows() == rows + 1)
            time.sleep(0.25)
        self.moments("mm40-reveal", reveal)
        # The moments froze the page's animations mid-reveal, and input waits for a reveal: a fresh page plays on.
        self.open("/mastermind")
        self.tap(secret)
        WebDriverWait(self.driver, 30).until(lambda d: self.board().get_attribute("data-outcome") == "won")

        self.assertEqual(len(self.screenshots("mm40-results", "/mastermind", self.open_results)), self.shots)

        def unlock():
            self.post("/mastermind/new")
            self.start()
            self.driver.execute_script("document.activeElement && document.activeElement.blur()")
            self.keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT,
                       Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b"])
            WebDriverWait(self.driver, 10).until(
                lambda d: len(d.find_elements("css selector", "#cheat-progress .pip")) == 9)
            self.keys(["a"])
            WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", ".cell.is-flying"))
            time.sleep(0.3)
        self.moments("mm40-unlock", unlock)
        # Midway through a code: the trail.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.open("/mastermind")
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        self.keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN])
        WebDriverWait(self.driver, 10).until(lambda d: len(d.find_elements("css selector", "#cheat-progress .pip")) == 4)
        self.driver.execute_script(SETTLE_JS)
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm40-trail-360-light-js.png"))



class Zoomed(Play):
    """A desktop window zoomed to 200 % and 400 % (640×450 and 320×225 CSS pixels): a low-vision review found the
    keypad held at the screen's foot covering the whole 400 % screen, the row typed and its pegs never in sight."""

    def test_at_200_and_400_percent_the_row_typed_and_its_pegs_come_into_sight(self):
        # The last: 400 % with text at 200 % too, where the keys were taller than the screen.
        for width, height, text in ((640, 450, 16), (320, 225, 16), (320, 225, 32)):
            with self.subTest(zoom=f"{width}x{height}", text=text):
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
                self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": text, "fixed": text}})
                secret = self.start()
                self.driver.execute_script("document.getElementById('board').focus()")
                guess = wrong_guesses(secret)[0]
                self.keys(guess[:2])
                seen = self.driver.execute_script("""
                    const box = s => document.querySelector(s).getBoundingClientRect();
                    return {keys: box('[data-keypad]'), row: box('#board .slot-current'), height: innerHeight};""")
                row, keys = seen["row"], seen["keys"]
                self.assertGreaterEqual(row["top"], -1, seen)
                self.assertLessEqual(row["bottom"], seen["height"] + 1, seen)
                self.assertFalse(keys["top"] < row["bottom"] and keys["bottom"] > row["top"],
                                 f"the keypad lies over the row being typed: {seen}")
                self.keys(guess[2:] + Keys.ENTER)
                self.wait_rows(1)
                self.keys(guess[0])
                pegs = self.driver.execute_script("""
                    const box = s => document.querySelector(s).getBoundingClientRect();
                    return {counts: box('#board .row.is-newest .row-counts'), keys: box('[data-keypad]'),
                            height: innerHeight};""")
                counts, keys = pegs["counts"], pegs["keys"]
                self.assertTrue(counts["bottom"] <= pegs["height"] + 1 and counts["top"] >= -1, pegs)
                self.assertFalse(keys["top"] < counts["bottom"] and keys["bottom"] > counts["top"],
                                 f"the keypad lies over the row's pegs: {pegs}")
                self.driver.save_screenshot(os.path.join(ARTIFACTS, f"mm-zoomed-{width}x{height}-text{text}.png"))
                self.assertEqual(self.post("/mastermind/new"), 200)


    def test_with_large_text_on_a_phone_the_keys_take_two_rows_and_rows_stay_in_sight(self):
        """A low-vision review, text at 200 % on a phone: three rows of large keys held at the foot left two rows of
        the board in sight. Two rows of keys, each still larger than 44 px and than its glyph."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            secret = self.start()
            for n, guess in enumerate(wrong_guesses(secret)[:3]):
                self.tap(guess)
                self.wait_rows(n + 1)
            seen = self.driver.execute_script("""
                const keys = [...document.querySelectorAll('[data-keypad] button')].map(b => {
                    const r = b.getBoundingClientRect();
                    return {top: Math.round(r.top), width: r.width, height: r.height,
                            fits: b.scrollWidth <= b.clientWidth + 1};
                });
                const pad = document.querySelector('[data-keypad]').getBoundingClientRect();
                const rows = [...document.querySelectorAll('#board .board > li')].filter(li => {
                    const r = li.getBoundingClientRect(); return r.top >= -1 && r.bottom <= pad.top + 1; });
                return {keys, rows: rows.length};""")
            self.assertEqual(len({k["top"] for k in seen["keys"]}), 2, f"two rows of keys: {seen}")
            for key in seen["keys"]:
                self.assertTrue(key["width"] >= 44 and key["height"] >= 44 and key["fits"], key)
            self.assertGreaterEqual(seen["rows"], 4, f"rows of the board in sight above the keys: {seen}")
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-phone-text200-keys.png"))
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 16}})

    def test_with_large_text_on_a_phone_a_losss_code_is_named_whole(self):
        """A low-vision review, text at 200 % on a phone: the name beside a lost game's code was cut to "T / c"."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            secret = self.start()
            self.keys(wrong_guesses(secret)[0] + Keys.ENTER)
            self.wait_rows(1)
            self.assertEqual(self.post("/mastermind/giveup", f"game={self.board().get_attribute('data-game')}"), 200)
            self.open("/mastermind")
            seen = self.driver.execute_script("""
                const label = document.querySelector('[data-secret-row] .secret-label'), r = label.getBoundingClientRect();
                const cells = document.querySelector('[data-secret-row] .cells').getBoundingClientRect();
                return {whole: label.scrollWidth <= label.clientWidth + 1 && label.scrollHeight <= label.clientHeight + 1,
                        left: r.left, right: r.right, width: innerWidth, page: document.documentElement.scrollWidth,
                        overCells: r.top < cells.bottom && r.bottom > cells.top && r.left < cells.right,
                        cells: cells.width, played: document.querySelector('#board .row .cells').getBoundingClientRect().width};""")
            self.assertAlmostEqual(seen["cells"], seen["played"], delta=1, msg=f"the code as wide as a played row: {seen}")
            self.assertTrue(seen["whole"], seen)
            self.assertTrue(seen["left"] >= 0 and seen["right"] <= seen["width"] + 0.5, seen)
            self.assertLessEqual(seen["page"], seen["width"], seen)
            self.assertFalse(seen["overCells"], seen)
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-phone-text200-lost.png"))
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 16}})

    def test_zoomed_a_message_rides_on_the_keys_and_covers_no_row(self):
        """A low-vision review at 200 %: a message lay over the row just scored (above the row being typed; under it,
        an earlier one found it over the keys). Held keys carry it above them; the rows it would cover scroll clear."""
        for width, height in ((640, 450), (320, 225)):
            with self.subTest(zoom=f"{width}x{height}"):
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
                secret = self.start()
                self.driver.execute_script("document.getElementById('board').focus()")
                guess = wrong_guesses(secret)[0]
                self.keys(guess + Keys.ENTER)
                self.wait_rows(1)
                # The same guess again is refused, and says why.
                self.keys(guess + Keys.ENTER)
                WebDriverWait(self.driver, 10).until(
                    lambda d: d.find_elements("css selector", "[data-message] .is-error"))
                # Read at once (an error goes after a while, and a gone one covers nothing).
                self.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
                seen = self.driver.execute_script("""
                    const box = s => document.querySelector(s).getBoundingClientRect().toJSON();
                    return {message: box('[data-message] .is-error'), keys: box('[data-keypad]'),
                            scored: box('#board .row.is-newest'), typed: box('#board .slot-current'),
                            height: innerHeight};""")
                m = seen["message"]
                for name in ("keys", "scored", "typed"):
                    self.assertFalse(m["top"] < seen[name]["bottom"] - 1 and m["bottom"] > seen[name]["top"] + 1,
                                     f"{width}x{height}: the message over the {name}: {seen}")
                for name in ("message", "typed"):
                    self.assertTrue(seen[name]["top"] >= -1 and seen[name]["bottom"] <= seen["height"] + 1,
                                    f"{width}x{height}: the {name} in sight: {seen}")
                self.assertEqual(self.post("/mastermind/new"), 200)

    def test_on_a_phone_in_every_theme_a_notes_badge_sits_off_its_keys_digit(self):
        """A review's phone in the retro theme, whose digits are wide: the ✎ badges lay over the 4 and the 5."""
        self.phone()
        self.start()
        for theme in ("crt", "light", "dark"):
            self.driver.add_cookie({"name": "arcade_theme", "value": theme, "path": "/"})
            self.open("/mastermind")
            WebDriverWait(self.driver, 20).until(
                lambda d: not d.find_element("css selector", "[data-keypad]").get_attribute("hidden"))
            if not self.driver.find_elements("css selector", NOTED_KEY):  # (notes stay in the browser)
                for selector in (".key-notes", "button[data-key='5']"):
                    self.driver.execute_script("arguments[0].click()", self.driver.find_element(
                        "css selector", "[data-keypad] " + selector))
            self.assertIn(theme, self.driver.find_element("css selector", "html").get_attribute("class"))
            self.assertFalse(self.driver.execute_script(BADGE_OVER_TEXT_JS, NOTED_KEY),
                             f"{theme}: the ✎ badge over the key's digit")

    def test_at_400_percent_a_notes_badge_sits_off_its_keys_digit(self):
        """A low-vision review at 400 %: the ✎ badges lay over the 5 and most of the 6."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.start()
        for selector in (".key-notes", "button[data-key='5']"):
            self.driver.execute_script("arguments[0].click()", self.driver.find_element(
                "css selector", "[data-keypad] " + selector))
        self.assertFalse(self.driver.execute_script(BADGE_OVER_TEXT_JS, NOTED_KEY),
                         "the ✎ badge over the key's digit")

    def test_at_400_percent_the_cards_close_button_covers_nothing_of_the_code(self):
        """A low-vision review at 400 %: the results card's × lay over the code's last digit."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        secret = self.start()
        self.driver.execute_script("document.getElementById('board').focus()")
        self.keys(secret + Keys.ENTER)
        dialog = self.settled_card()
        close, code = (self.box(dialog.find_element("css selector", s))
                       for s in ("[data-close-results]", ".result-code .secret"))
        self.assertFalse(close["left"] < code["right"] and close["right"] > code["left"]
                         and close["top"] < code["bottom"] and close["bottom"] > code["top"],
                         f"the × over the code: {close} {code}")
        # The card and its × wholly in the window, beside the page's scrollbar, not under it (a sheet as wide as the
        # window was: the × cut in half).
        room = self.driver.execute_script("return document.documentElement.clientWidth")
        self.assertLessEqual(self.box(dialog)["right"], room)
        self.assertLessEqual(close["right"], room)
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-zoomed-400-win-card.png"))

    def test_at_400_percent_the_row_typed_says_its_number_and_give_up_shows_both_answers(self):
        """A low-vision review at 400 %: the guesses left had scrolled away by the third row, and row numbers give way
        to the digits' size; Give up's dialog showed Keep playing, its Give up under the dialog's foot, unseen."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        number = self.driver.find_element("css selector", ".slot-current [data-slot-of]")
        self.assertEqual(number.text, "2/10")
        cell = self.box(self.driver.find_elements("css selector", ".slot-current .cell")[-1])
        self.assertTrue(cell["right"] <= self.box(number)["left"] and self.box(number)["right"] <= 320, "beside the cells")
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.driver.find_element("css selector", ".mm-menu a[data-giveup-link]").click()
        dialog = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "dialog[open][data-giveup-dialog]"))
        for answer in ("[data-keep-playing]", "[data-confirm-giveup]"):
            box, frame = self.box(dialog.find_element("css selector", answer)), self.box(dialog)
            self.assertTrue(frame["top"] <= box["top"] and box["bottom"] <= frame["bottom"], f"{answer} {box} {frame}")
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-zoomed-400-give-up.png"))

    def test_at_400_percent_a_hard_game_says_so_beside_the_row_typed(self):
        """A low-vision review at 400 %: nothing in sight said the game was in hard mode (the status that says so had
        scrolled away)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.start()
        self.assertEqual(self.post("/mastermind/new", "hard=1"), 200)
        self.open("/mastermind")
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-mode") == "hard")
        self.driver.execute_script("document.getElementById('board').focus()")
        self.keys("1")
        seen = self.driver.execute_script("""const of = document.querySelector('#board .slot-current [data-slot-of]'),
            r = of.getBoundingClientRect(); return {text: of.innerText, top: r.top, bottom: r.bottom, height: innerHeight};""")
        self.assertIn("Hard", seen["text"], seen)
        self.assertTrue(seen["top"] >= 0 and seen["bottom"] <= seen["height"], f"in sight: {seen}")

    def test_at_400_percent_how_to_play_keeps_a_way_out_in_sight(self):
        """A low-vision review at 400 %: How to play showed its first lines and no way out; Close came after 550 px of
        text. A × stays at its top corner there, and only there."""
        self.start()
        opened = """document.querySelector('.mm-menu > summary').click();
            document.querySelector('.mm-menu a[data-help-link]').click();"""
        self.driver.execute_script(opened)
        dialog = WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "dialog[open]"))[0]
        corner = dialog.find_element("css selector", ".dialog-corner")
        self.assertFalse(corner.is_displayed(), "a window of 900 px: Close is in sight, no ×")
        dialog.find_element("css selector", "form[method=dialog] button").click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.driver.execute_script(opened)
        dialog = WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "dialog[open]"))[0]
        self.driver.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight / 2", dialog)
        seen = self.driver.execute_script("""const b = arguments[0].querySelector('.dialog-corner'),
            r = b.getBoundingClientRect(), d = arguments[0].getBoundingClientRect();
            return {inside: r.top >= d.top - 1 && r.bottom <= d.bottom + 1 && r.right <= d.right + 1,
                    on: document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b,
                    size: Math.min(r.width, r.height), name: b.getAttribute('aria-label'),
                    scrolled: arguments[0].scrollTop};""", dialog)
        self.assertGreater(seen["scrolled"], 0, seen)
        self.assertTrue(seen["inside"] and seen["on"], f"the × in sight, scrolled: {seen}")
        self.assertGreaterEqual(seen["size"], 44, seen)
        self.assertEqual(seen["name"], "Close")
        dialog.find_element("css selector", ".dialog-corner").click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))

    def test_at_400_percent_the_open_menu_reflows_and_the_name_asked_stays_in_sight(self):
        """A low-vision review at 400 %: the open site menu made the page 427 px wide in a 320-pixel window, and the
        Name Game's question scrolled away while six screens of faces went by."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 16}})
        self.open("/")
        self.driver.find_element("css selector", ".site-menu > summary").click()
        widths = self.driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        self.assertLessEqual(widths[0], widths[1], "the open menu fits the window")
        self.meet_people()  # people met: the quiz asks rather than introduces
        self.assertEqual(self.post("/namegame/next", "mode=normal"), 200)
        self.open("/namegame/normal")
        # Scrolled to the last face, as a player looking through them does: the question is still in sight.
        self.driver.execute_script(
            "const faces = document.querySelectorAll('button[data-choice]');"
            "faces[faces.length - 1].scrollIntoView({block: 'end'})")
        question = self.driver.execute_script(
            "const r = document.querySelector('h1.question').getBoundingClientRect(); return [r.top, r.bottom]")
        self.assertTrue(question[0] >= -1 and question[1] <= 225, f"the question in sight by the last face: {question}")
        # After a wrong pick it scrolls away: held at the top, it covered the ✓ and ✗ of the cards under it, and colour
        # alone told the right face from the one tapped (a later low-vision review).
        round_id = self.driver.find_element("id", "namegame").get_attribute("data-round")
        wrong = self.driver.find_element("css selector", f'button[data-choice="{(answer_of(round_id) + 1) % 6}"]')
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", wrong)
        wrong.click()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("id", "namegame").get_attribute("data-taught") == "true")
        # (The focus is on the words about the miss and their Next, the right face beside them, as a short window
        # has no room for both; the right card, scrolled back to, shows its mark.)
        covered = self.driver.execute_script("""
            const focused = document.activeElement.matches('[data-outcome] [data-go-on]');
            const face = document.querySelector('button.is-right'); face.scrollIntoView({block: 'nearest'});
            const box = face.getBoundingClientRect();
            const at = document.elementFromPoint(box.right - 12, Math.max(box.top, 0) + 6);
            return {focused: focused, top: box.top, mark: !!at && face.contains(at)};""")
        self.assertTrue(covered["focused"] and covered["top"] >= -1 and covered["mark"], covered)


class LargeText(Play):
    """A phone with its text at 200 % (a low-vision review: the page was 498 px wide, the Menu button beside the name
    ran off it, and the board's digits shrank as the text grew)."""

    def test_with_large_text_the_winning_row_jumps_in_sight(self):
        """A low-vision review, text at 200 % on a phone: the winning row jumped half under the keys held at the
        screen's foot, for a game that types nothing more."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        secret = self.start()
        for count, guess in enumerate(wrong_guesses(secret)[:2] + [secret], start=1):
            for key in list(guess) + ["Enter"]:
                self.driver.execute_script("arguments[0].click()", self.driver.find_element(
                    "css selector", f"[data-keypad] button[data-key='{key}']"))
            if count < 3:
                WebDriverWait(self.driver, 10).until(lambda d: self.rows() == count)
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        seen = self.driver.execute_script("""
            const box = s => document.querySelector(s).getBoundingClientRect().toJSON();
            return {row: box('#board .row.is-won'), keys: box('[data-keypad]'), height: innerHeight};""")
        row, keys = seen["row"], seen["keys"]
        self.assertTrue(row["top"] >= -1 and row["bottom"] <= seen["height"] + 1, f"in sight: {seen}")
        self.assertFalse(keys["top"] < row["bottom"] and keys["bottom"] > row["top"], f"the keys over the row: {seen}")
        # Its burst's pieces keep their size, not the text's (at twice the size they hid the winning row, a review).
        sizes = WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
            "return [...document.querySelectorAll('.win-burst i')].map(i => parseFloat(getComputedStyle(i).width))"))
        self.assertLessEqual(max(sizes), 16, sizes)

    def show_hint(self):
        """Hint pressed, and its question (if it asks one) answered "Show a hint"."""
        self.driver.execute_script("document.querySelector('form[action=\"/mastermind/hint\"] button').click()")
        confirm = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_elements("css selector", "[data-hint-confirm], [data-message] [data-hint]"))
        if confirm[0].get_attribute("data-hint-confirm") is not None:
            self.driver.execute_script("arguments[0].click()", confirm[0])

    def test_with_large_text_a_hint_leaves_the_row_being_typed_in_sight(self):
        """A low-vision review, text at 200 % on a phone: a hint 510 pixels tall rode on the held keys, and between
        them the row being typed was never in sight. It says less, smaller, and the row stays clear of both."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        self.start()
        # The opening hint, before any guess: the longest (why 0 1 2 3, and that it is free).
        self.show_hint()
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-message] [data-hint]"))
        self.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
        seen = self.driver.execute_script("""const box = s => document.querySelector(s).getBoundingClientRect().toJSON();
            return {row: box('#board .slot-current'), message: box('[data-message] [data-hint]'),
                    keys: box('[data-keypad]'), height: innerHeight};""")
        row = seen["row"]
        self.assertTrue(row["top"] >= -1 and row["bottom"] <= seen["height"] + 1, f"the row in sight: {seen}")
        for name in ("message", "keys"):
            self.assertFalse(seen[name]["top"] < row["bottom"] - 1 and seen[name]["bottom"] > row["top"] + 1,
                             f"the {name} over the row being typed: {seen}")
        # It can be put aside without acting on it (a later low-vision review: with the keys it took almost half the
        # screen, and only "Type it in" took it away).
        away = self.driver.find_element("css selector", "[data-message] [data-hint] .hint-away")
        box = self.driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", away)
        self.assertTrue(box["width"] >= 44 and box["height"] >= 44 and box["top"] >= 0, box)
        # Inside the panel's corner (a review: hung past its edge, it looked broken).
        panel = seen["message"]
        self.assertTrue(box["right"] <= panel["right"] + 0.5 and box["top"] >= panel["top"] - 0.5, (box, panel))
        self.assertEqual(away.get_attribute("aria-label"), "Close")
        away.click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_element(
            "css selector", "[data-message] [data-hint]").is_displayed())
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "board", "the keys type on")

    def test_escape_puts_a_hint_aside(self):
        """A keyboard review: the hint shown, Escape left it open with the focus on "Type it in", as nothing else in
        the site is. Escape puts it aside as its × does, the keys typing on."""
        self.start()
        self.show_hint()
        use = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-message] [data-hint] .hint-use"))
        use.send_keys(Keys.ESCAPE)
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_element(
            "css selector", "[data-message] [data-hint]").is_displayed())
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "board")

    def test_with_large_text_hint_s_question_waits_for_its_answer(self):
        """A low-vision review, text at 200 % on a phone: Hint's question ("a win won't appear in the guess chart",
        Show a hint, Not now) went after about 3 s, its focused button with it, the focus left on the page."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])
        self.wait_rows(1)
        # The page's clock runs fast: every wait of a second or more is over at once (no fixed wait in the test).
        self.driver.execute_script("""const later = window.setTimeout;
            window.setTimeout = (f, ms, ...rest) => later(f, ms >= 1000 ? 0 : ms, ...rest);
            document.querySelector('form[action="/mastermind/hint"] button').click()""")
        confirm = WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-hint-confirm]"))[0]
        WebDriverWait(self.driver, 10).until(lambda d: d.switch_to.active_element == confirm, "its answer focused")
        self.driver.execute_async_script("setTimeout(arguments[0], 0)")  # after every timer due by now
        self.assertTrue(confirm.is_displayed(), "the question went")
        self.assertEqual(self.driver.switch_to.active_element, confirm, "the focus went")
        # Escape answers "Not now", as it closes a dialog (a keyboard review pressed it, and nothing happened).
        self.keys(Keys.ESCAPE)
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "[data-hint-ask]"))
        # …and gives the focus back to Hint, which asked (a keyboard review: to the board, as no dialog does).
        self.assertEqual(self.driver.switch_to.active_element.text, "Hint")

    def test_with_large_text_the_codes_left_count_leaves_the_digits_their_size(self):
        """A low-vision review, text at 200 % on a phone: "Show codes left" fitted the cells down to half their size
        (33 px against 51) to make room for "1,296 left" on one line."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        secret = self.start()
        for count, guess in enumerate(wrong_guesses(secret)[:2], start=1):
            self.tap(guess)
            self.wait_rows(count)
        cell = "return document.querySelector('#board .slot-current .cell').getBoundingClientRect().width"
        off = self.driver.execute_script(cell)
        self.driver.execute_script("document.querySelector('.mm-menu > summary').click()")
        self.driver.execute_script("document.querySelector('[data-codes-left-switch]').click()")
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "#board .row-left"))
        self.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
        on = self.driver.execute_script(cell)
        self.assertGreaterEqual(on, off * 0.9, f"cells {on} px with the count, {off} px without")
        page = self.driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        self.assertLessEqual(page[0], page[1], f"no sideways scroll: {page}")

    def test_with_large_text_a_key_s_in_the_code_dot_clears_its_digit(self):
        """A low-vision review, text at 200 % on a phone: the dot that marks a key in the code touched the top of its
        digit."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        secret = self.start()
        guess = secret[0] * 4  # a digit of the code, not the code itself
        self.tap(guess if guess != secret else secret[0] * 3 + str((int(secret[0]) + 1) % 8))
        self.wait_rows(1)
        overlaps = self.driver.execute_script("""
            return [...document.querySelectorAll('[data-keypad] .is-present')].map(key => {
              const k = key.getBoundingClientRect(), dot = getComputedStyle(key, '::after');
              const right = k.right - parseFloat(dot.right) - parseFloat(key.style.borderRightWidth || 0);
              const d = {left: right - parseFloat(dot.width), top: k.top + parseFloat(dot.top), right: right};
              d.bottom = d.top + parseFloat(dot.height);
              const range = document.createRange(); range.selectNodeContents(key);
              const g = range.getBoundingClientRect();
              return {key: key.textContent.trim(), hits: d.left < g.right && g.left < d.right && d.top < g.bottom
                      && g.top < d.bottom, dot: d, glyph: g.toJSON()}; })""")
        self.assertTrue(overlaps, "a key in the code")
        self.assertEqual([o for o in overlaps if o["hits"]], [], overlaps)

    def test_with_large_text_the_row_s_count_lies_over_no_cell_and_notes_move_nothing(self):
        """A low-vision review, text at 200 % on a phone: on a fresh board "1/10" lay over the fourth cell and its digit;
        Notes on printed its word over the count and moved the board sideways."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        self.start()
        self.driver.execute_script("document.getElementById('board').focus()")
        self.keys("0123")
        seen = """const cells = [...document.querySelectorAll('#board .slot-current .cell')].map(c => c.getBoundingClientRect()),
            of = document.querySelector('#board .slot-current [data-slot-of]').getBoundingClientRect();
            return {cell: cells[cells.length - 1].right, of: of.left, right: of.right, left: cells[0].left,
                    width: innerWidth};"""
        fresh = self.driver.execute_script(seen)
        self.assertLessEqual(fresh["cell"], fresh["of"], f"the count over a cell: {fresh}")
        self.assertLessEqual(fresh["right"], fresh["width"], fresh)
        self.driver.execute_script("document.querySelector('[data-keypad] [data-notes]').click()")
        noting = self.driver.execute_script(seen)
        self.assertEqual((noting["left"], noting["of"]), (fresh["left"], fresh["of"]), "Notes moved the row")

    def test_with_large_text_notes_say_a_phone_s_words(self):
        """A low-vision review, text at 200 % on a phone: Notes on said eight lines about arrow keys a phone has none
        of, over the rows (the held keys took the desktop's words)."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        self.start()
        self.driver.execute_script("document.querySelector('[data-keypad] [data-notes]').click()")
        said = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-notes-on]")).text
        self.assertEqual(said, self.driver.find_element(
            "css selector", "[data-keypad] [data-notes]").get_attribute("data-touch-help"))
        self.assertNotIn("arrow", said)

    def test_with_large_text_a_loss_keeps_the_page_s_width_and_the_card_s_title_clear_of_its_close(self):
        """A low-vision review, text at 200 % on a phone: at a loss the page grew 38 px wider (the code's row named
        itself past the screen) and the card's × went off it; at a win the × lay over the title's "!"."""
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        secret = self.start()
        for count, guess in enumerate(wrong_guesses(secret)[:10], start=1):
            for key in list(guess) + ["Enter"]:
                self.driver.execute_script("arguments[0].click()", self.driver.find_element(
                    "css selector", f"[data-keypad] button[data-key='{key}']"))
            if count < 10:
                WebDriverWait(self.driver, 10).until(lambda d: self.rows() == count)
        dialog = self.settled_card()
        seen = self.driver.execute_script("""const box = e => e.getBoundingClientRect().toJSON();
            return {page: document.documentElement.scrollWidth, width: innerWidth, card: box(arguments[0]),
                    close: box(arguments[0].querySelector('[data-close-results]')),
                    title: box(arguments[0].querySelector('h2'))};""", dialog)
        # The phone's 360 pixels (a wider page widens the window it is laid out in, innerWidth with it).
        self.assertLessEqual(seen["page"], 360, f"no wider than the screen: {seen}")
        self.assertLessEqual(seen["close"]["right"], 360, f"the × on the screen: {seen}")
        close, title = seen["close"], seen["title"]
        self.assertFalse(close["left"] < title["right"] and close["right"] > title["left"]
                         and close["top"] < title["bottom"] and close["bottom"] > title["top"],
                         f"the × over the title: {seen}")
        # The game's pegs at a glance grow with the text (11 px, a low-vision review), set under the figures, not
        # beside them (floated, they left the figures a word a line).
        grid = self.driver.execute_script("""const box = s => arguments[0].querySelector(s).getBoundingClientRect();
            const rows = box('.result-rows'), figures = box('.result-figures');
            return {peg: box('.result-rows .peg').width, beside: rows.top < figures.bottom && figures.top < rows.bottom};
            """, dialog)
        self.assertGreaterEqual(grid["peg"], 20, grid)
        self.assertFalse(grid["beside"], grid)

    def test_a_phone_with_large_text_keeps_its_width_and_the_digits_grow(self):
        self.phone()
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        width = "return [document.documentElement.scrollWidth, innerWidth, getComputedStyle(document.body).fontSize]"
        # A page's title keeps its words whole ("Mastermin / d statistic / s", a low-vision review).
        split = """
            const range = document.createRange(), broken = [];
            for (const title of document.querySelectorAll('main h1, main .game-card h3')) {
              const walk = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
              for (let text = walk.nextNode(); text; text = walk.nextNode()) {
                for (const m of text.textContent.matchAll(/\\S+/g)) {
                  range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
                  if (new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1) broken.push(m[0]);
                }
              }
            }
            return broken;"""
        # The page's title stays the largest heading (a low-vision review: "Mastermind statistics" at 40 px under
        # "Free play" at 43).
        sizes = """const px = e => parseFloat(getComputedStyle(e).fontSize);
            return [px(document.querySelector('main h1')),
                    Math.max(0, ...[...document.querySelectorAll('main h2')].map(px))];"""
        for path in ["/", "/namegame", "/progress", "/mastermind/stats"]:
            self.open(path)
            self.assertEqual(self.driver.execute_script(width), [360, 360, "32px"], path)
            self.assertEqual(self.driver.execute_script(split), [], path)
            title, section = self.driver.execute_script(sizes)
            self.assertGreaterEqual(title, section, path)
        secret = self.start()
        for count, guess in enumerate(wrong_guesses(secret)[:2], start=1):
            # Each key brought to the middle of the screen first: the keypad is below the fold at this size.
            for key in list(guess) + ["Enter"]:
                button = self.driver.find_element("css selector", f"[data-keypad] button[data-key='{key}']")
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
                button.click()
            WebDriverWait(self.driver, 10).until(lambda d: self.rows() == count)
        self.assertEqual(self.driver.execute_script(width), [360, 360, "32px"], "the board")
        # The keys stay at the screen's foot with the last row, its pegs' counts and the row being typed above them
        # (a low-vision review scrolled between the keys and the rows on every guess).
        seen = self.driver.execute_script("""
            const box = s => document.querySelector(s).getBoundingClientRect();
            return {keys: box('[data-keypad]').top, enter: box('[data-keypad] [data-key=Enter]').bottom,
                    newest: box('#board .row.is-newest .row-counts'), next: box('#board .slot-current'),
                    height: innerHeight};""")
        self.assertLessEqual(seen["enter"], seen["height"] + 1, seen)
        for part in ("newest", "next"):
            self.assertGreaterEqual(seen[part]["top"], -1, (part, seen))
            self.assertLessEqual(seen[part]["bottom"], seen["keys"] + 1, (part, seen))
        # A note's ✎ on a key sits on its corner, off its digit (the same review read "3" and "5" as fragments).
        notes = self.driver.find_element("css selector", "[data-keypad] .key-notes")
        self.driver.execute_script("arguments[0].click()", notes)
        self.driver.execute_script("arguments[0].click()", self.driver.find_element(
            "css selector", "[data-keypad] button[data-key='5']"))
        over = self.driver.execute_script(BADGE_OVER_TEXT_JS, NOTED_KEY)
        self.assertFalse(over, "the ✎ badge over the key's digit")
        self.driver.execute_script("arguments[0].click()", notes)  # notes off, and their tip with them
        WebDriverWait(self.driver, 10).until(
            lambda d: not d.find_elements("css selector", "[data-message] > p:not([data-rules])"), "the tip gone")
        cell = self.box(self.driver.find_element("css selector", "#board .row .cell"))
        self.assertGreaterEqual(cell["right"] - cell["left"], 32, "digits no smaller than at normal text")
        # The row's counts stay beside its digits, inside the screen.
        counts = self.box(self.driver.find_element("css selector", "#board .row .row-counts"))
        self.assertLessEqual(counts["right"], 360)
        # The Game menu opens whole, inside the screen (a low-vision review read "tistics", "w to play": held to the
        # button's right edge, it ran 84 px off the left).
        summary = self.driver.find_element("css selector", ".mm-menu > summary")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        summary.click()
        # The list is moved on the menu's toggle event, which follows the click (a CI run looked in between).
        inside = lambda d: (lambda m: m["left"] >= 0 and m["right"] <= 360)(
            self.box(d.find_element("css selector", ".mm-menu[open] ul")))
        self.wait(inside, "the open menu inside the screen")
        self.assertEqual(self.driver.execute_script(width), [360, 360, "32px"], "the open menu")
        summary.click()
        self.driver.execute_script("document.querySelector('#board .board').scrollIntoView()")
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-large-text-360-light-js.png"))
        # The win's card: its title's words whole ("Phe / w, / cra / cke / d!" beside the ×, a low-vision review),
        # its figures inside it.
        for key in list(secret) + ["Enter"]:
            button = self.driver.find_element("css selector", f"[data-keypad] button[data-key='{key}']")
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        dialog = self.settled_card()
        lines = self.driver.execute_script("""
            const title = arguments[0].querySelector('h2'), text = title.firstChild, range = document.createRange();
            const words = [];
            for (const m of text.textContent.matchAll(/\\S+/g)) {
              range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
              words.push([m[0], new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size]);
            }
            return words;""", dialog)
        self.assertTrue(lines and all(n == 1 for _, n in lines), lines)
        figures = self.box(dialog.find_element("css selector", ".result-figures"))
        self.assertLessEqual(figures["right"], self.box(dialog)["right"])
        self.assertEqual(self.driver.execute_script(
            "const f = arguments[0].querySelector('.result-figures'); return f.scrollWidth <= f.clientWidth", dialog),
            True, "the figures wrap inside the card")
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-large-text-win-360-light-js.png"))
        # Scrolled until New game meets the ×, it passes under the ×'s band whole: never half under the × (a
        # low-vision review tapped the × for New game).
        row = self.driver.execute_script("""
            const dialog = arguments[0], button = dialog.querySelector('[data-new-game]');
            dialog.scrollTop += button.getBoundingClientRect().top - dialog.getBoundingClientRect().top - 8;
            return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
              const r = button.getBoundingClientRect(), xs = [0.05, 0.3, 0.5, 0.7, 0.9, 0.97];
              done([0.1, 0.3, 0.5, 0.7, 0.9].map(g => xs.map(f =>
                button.contains(document.elementFromPoint(r.left + r.width * f, r.top + r.height * g)))));
            })));""", dialog)
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "mm-large-text-card-scrolled-360-light-js.png"))
        self.assertTrue(all(len(set(line)) == 1 for line in row), f"New game half under the × {row}")
        self.driver.execute_script("arguments[0].scrollTop = 0", dialog)
        finished = self.game()
        dialog.find_element("css selector", "[data-new-game]").click()
        # The new game in (on a busy clean clone, opening the page at once raced the click's request and met the
        # finished game again).
        WebDriverWait(self.driver, 20).until(lambda d: self.game() != finished)
        # Give up's question fits the screen with both its answers (its Give up was under the foot, the same review).
        secret = self.start()
        for key in list(wrong_guesses(secret)[0]) + ["Enter"]:
            button = self.driver.find_element("css selector", f"[data-keypad] button[data-key='{key}']")
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        self.wait_rows(1)
        menu = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", ".mm-menu > summary"))
        self.driver.execute_script("arguments[0].click()", menu)
        self.driver.execute_script("document.querySelector('.mm-menu a[data-giveup-link]').click()")
        asked = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "dialog[open][data-giveup-dialog]"))
        box, give_up = self.box(asked), self.box(asked.find_element("css selector", "[data-confirm-giveup]"))
        self.assertLessEqual(give_up["bottom"], min(box["bottom"], 740), (give_up, box))

if __name__ == "__main__":
    unittest.main()
