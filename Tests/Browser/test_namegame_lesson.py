"""The Name Game as a lesson (issue 41): one tap from the menu to a question in every mode, a right answer that
moves on by itself, a wrong tap that names who was tapped, recall by typing, a lesson's progress bar and summary,
the timed end's score in focus, and every mode played to its end without JavaScript."""
import os
import sqlite3
import unittest

from arcade_browser import ARTIFACTS, BrowserTest, gone
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from arcade_browser import WebDriverWait
from test_namegame import DATABASE, NameGameHelpers, answer_of, first_name_of, full_name_of, wait

MENU = ["normal", "matt", "reverse", "recall", "team", "hint", "fifty", "practice", "timed", "learn"]

IN_VIEW_JS = """
    const r = arguments[0].getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
"""


def person_of(round_id):
    """(full name, title) of the person a round asks for, and of each face by position."""
    with sqlite3.connect(DATABASE) as db:
        rows = db.execute("SELECT f.position, p.first_name || ' ' || p.last_name, p.job_title FROM namegame_round_faces f"
                          " JOIN people p ON p.id = f.person WHERE f.round = ? ORDER BY f.position",
                          (int(round_id),)).fetchall()
    return {position: (name, title) for position, name, title in rows}


def met_faces(round_id):
    """The positions of a round's faces whom the player has met."""
    with sqlite3.connect(DATABASE) as db:
        rows = db.execute("SELECT f.position FROM namegame_round_faces f JOIN namegame_rounds r ON r.id = f.round"
                          " JOIN namegame_sessions s ON s.id = r.session JOIN namegame_cards c"
                          " ON c.person = f.person AND c.player = s.player WHERE f.round = ?",
                          (int(round_id),)).fetchall()
    return {position for (position,) in rows}


def make_round_ask(round_id, first_name):
    """Test set-up through the database: the open recall round asks for the person with this first name, whom the
    player has met (the card of the person it asked becomes theirs, unless they have one)."""
    person = "(SELECT id FROM people WHERE first_name = ? ORDER BY last_name = 'Tanaka' DESC LIMIT 1)"
    with sqlite3.connect(DATABASE) as db:
        db.execute(f"UPDATE namegame_cards SET person = {person}"
                   " WHERE person = (SELECT person FROM namegame_round_faces WHERE round = ? AND position = 0)"
                   " AND player = (SELECT player FROM namegame_rounds WHERE id = ?)"
                   f" AND NOT EXISTS (SELECT 1 FROM namegame_cards c WHERE c.player = namegame_cards.player"
                   f" AND c.person = {person})", (first_name, int(round_id), int(round_id), first_name))
        db.execute(f"UPDATE namegame_round_faces SET person = {person} WHERE round = ? AND position = 0",
                   (first_name, int(round_id)))


# A finger's tap on an element, as the page's listeners see it.
TAP_JS = """const r = arguments[0].getBoundingClientRect();
    for (const type of ["pointerdown", "pointerup"]) arguments[0].dispatchEvent(new PointerEvent(type,
      {bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));"""


class LessonHelpers(NameGameHelpers):

    def tap(self, selector):
        element = self.driver.find_element("css selector", selector)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def play_from_menu(self, mode, meet=True):
        """One tap on the menu; then, unless `meet` is False, past any introduction of someone new to the question."""
        self.open("/namegame")
        page = self.driver.find_element("css selector", "html")
        self.reveal_mode(mode)
        self.tap(f'button[data-play="{mode}"]')
        WebDriverWait(self.driver, 10).until(gone(page))
        wait(self.driver).until(lambda d: d.execute_script("return document.readyState") == "complete" and self.game())
        if meet:
            self.meet()

    def in_view(self, element):
        return self.driver.execute_script(IN_VIEW_JS, element)

    def counts(self):
        stats = self.driver.find_element("css selector", "[data-session-correct]")
        return int(stats.get_attribute("data-session-correct")), int(stats.get_attribute("data-session-incorrect"))

    def miss_then_go_on(self, click):
        """A wrong pick, then the tap on the answer it shows (issue 41: that tap was scored "Right" and counted
        correct): the round stays a miss, counted once, and the tap only moves on to the next round."""
        self.meet()
        round_id = self.game().get_attribute("data-round")
        answer = answer_of(round_id)
        faces = len(self.driver.find_elements("css selector", "button[data-choice]"))
        before = self.counts()
        click(f'button[data-choice="{(answer + 1) % faces}"]')
        self.assertEqual(self.counts(), (before[0], before[1] + 1), "the miss counts once")
        click(f'button[data-choice="{answer}"]')
        self.assertEqual(self.counts(), (before[0], before[1] + 1), "the tap after a miss is not a right answer")
        self.assertFalse(self.driver.find_elements("css selector", "[data-right-name].outcome-won"), "no Right")
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id, "it moves on to the next round")
        self.assertFalse(self.game().get_attribute("data-answered"))


class Lesson(LessonHelpers):
    """Shared by the desktop and the phone classes below."""

    def test_one_tap_reaches_a_question_in_every_mode(self):
        for mode in MENU:
            if mode == "timed":
                self.meet_people()  # a timed minute waits for eight people met
            self.play_from_menu(mode, meet=False)
            self.assertFalse(self.driver.find_elements("css selector", "[data-start]"), f"{mode}: no start card")
            game = self.game()
            self.assertEqual(game.get_attribute("data-mode"), mode)
            self.assertTrue(game.get_attribute("data-round"), f"{mode}: a round is dealt")
            if mode == MENU[0]:
                # A new player's first step is meeting the person asked about: face, name and Got it in view.
                for part in ("[data-intro] img", "[data-intro-name]", "[data-meet]"):
                    self.assertTrue(self.in_view(self.driver.find_element("css selector", part)), part)
            self.meet()
            self.assertTrue(self.in_view(self.driver.find_element("css selector", "h1.question")), mode)
            if mode == MENU[0]:
                howto = self.driver.find_elements("css selector", "[data-howto]")
                self.assertTrue(howto and howto[0].text, "a first visit's how-to is one line on the round")
                self.assertFalse(self.driver.find_elements("css selector", "dialog[open], [data-tutorial]"), "no modal")
            answers = self.driver.find_elements("css selector", "button[data-choice], [data-recall-input]")
            self.assertTrue(answers and all(self.in_view(a) for a in answers), f"{mode}: the answers are in view")

    def note_answers(self):
        """Each page that shows a right answer notes when it was ready (the wall clock, as the server's) and the beat it
        waits before moving on, so a test need not catch that page in its second on screen."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            addEventListener("DOMContentLoaded", () => {
                const game = document.getElementById("namegame");
                if (game && game.hasAttribute("data-identified"))
                    sessionStorage.setItem("answeredAt", String(performance.timeOrigin + performance.now()));
                if (game && game.classList.contains("is-advancing"))
                    sessionStorage.setItem("advanceMs", game.style.getPropertyValue("--advance-ms").replace("ms", ""));
            });"""})

    def test_a_right_answer_moves_on_by_itself(self):
        self.note_answers()
        self.play_from_menu("normal")
        round_id = self.game().get_attribute("data-round")
        self.tap(f'button[data-choice="{answer_of(round_id)}"]')
        # The next question comes with no tap: the browser shows a new, open round...
        wait(self.driver).until(lambda _: self.game().get_attribute("data-round") != round_id
                                and not self.game().get_attribute("data-answered"))
        shown = float(self.driver.execute_script("return sessionStorage.getItem('answeredAt')"))
        # ...which the server dealt within 2 s of the answer being on the screen (issue 41's acceptance).
        with sqlite3.connect(DATABASE) as db:
            dealt = db.execute("SELECT started_ms FROM namegame_rounds WHERE session = (SELECT session FROM"
                               " namegame_rounds WHERE id = ?) AND id > ? ORDER BY id LIMIT 1",
                               (int(round_id), int(round_id))).fetchone()[0]
        self.assertLess(dealt - shown, 2000, "the next question within 2 s, with no tap")
        # The beat itself is about a second, the design's (a review timed 1.95 s from Enter to the next round at 1.7 s).
        self.assertLessEqual(float(self.driver.execute_script("return sessionStorage.getItem('advanceMs')")), 1200)
        self.assertEqual(self.driver.find_element("css selector", "[data-announce]").get_attribute("aria-live"), "polite")

    def test_team_mode_leaves_the_roles_time_to_be_read(self):
        """Team mode's answer shows every face's name and role, what the mode is for: a review saw them for about a
        second and a half before the round moved on. Its beat is four seconds; it still moves on by itself."""
        self.note_answers()
        self.play_from_menu("team")
        round_id = self.game().get_attribute("data-round")
        self.tap(f'button[data-choice="{answer_of(round_id)}"]')
        wait(self.driver).until(lambda _: self.game().get_attribute("data-round") != round_id)
        self.assertGreaterEqual(float(self.driver.execute_script("return sessionStorage.getItem('advanceMs')")), 4000)

    def answer_right_with_slow_timers(self, mode, from_ms):
        """Answers a round of `mode` right with the page's timers of `from_ms` or more stretched a hundredfold, so the
        answered round is looked at before it moves on, however slow the machine."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            const later = window.setTimeout;
            window.setTimeout = (f, ms, ...rest) => later(f, ms >= %d ? ms * 100 : ms, ...rest);""" % from_ms})
        self.play_from_menu(mode)
        round_id = self.game().get_attribute("data-round")
        self.navigate(lambda: self.tap(f'button[data-choice="{answer_of(round_id)}"]'))
        return round_id

    def test_a_tap_on_an_answered_face_skips_the_wait(self):
        """A review tapped an answered face while the round waited to move on: the wait stopped, and nothing said
        why. The answered faces are buttons no more: a tap there skips the wait, as a tap beside them does."""
        round_id = self.answer_right_with_slow_timers("normal", 1000)
        self.assertIn("is-advancing", self.game().get_attribute("class"))
        face = self.driver.find_element("css selector", 'button[data-choice]:not([data-choice="%s"])'
                                        % answer_of(round_id))
        self.assertFalse(face.is_enabled(), "an answered face")
        # A tap within half a second of the answer showing is a double tap's second and skips nothing (see below): on
        # a busy machine the page's script may run late, so the finger taps until the next round comes.
        def tapped(_):
            if self.game().get_attribute("data-round") != round_id:
                return True
            self.driver.execute_script(TAP_JS, face)
            return False
        wait(self.driver).until(tapped, "the next round")

    def test_a_double_taps_second_tap_does_not_skip_the_answer(self):
        """A review double-tapped Check on a lesson's last round: the second tap skipped its answer straight to the
        summary. A tap within half a second of the answer showing is the answering tap's twin, and skips nothing."""
        round_id = self.answer_right_with_slow_timers("normal", 1000)
        soon = self.driver.execute_script(
            "const t = performance.now(); if (t < 400) { " + TAP_JS + " } return t;", self.game())
        if soon >= 400:
            self.skipTest(f"the page was slow: the tap came {soon:.0f} ms after it showed")
        self.assertEqual(self.game().get_attribute("data-round"), round_id, "still the answered round")
        self.assertIn("is-advancing", self.game().get_attribute("class"), "still moving on by itself")

    def test_a_timed_minutes_right_answer_moves_on_at_once(self):
        """The clock runs while an answer shows: a review's timed score "measures waiting, not knowing" at 2.5 s a
        right answer. The page's timers are stretched, so the beat is read before it ends on any machine."""
        self.meet_people()
        self.answer_right_with_slow_timers("timed", 500)
        self.assertIn("is-advancing", self.game().get_attribute("class"))
        self.assertEqual(self.driver.execute_script(
            "return document.getElementById('namegame').style.getPropertyValue('--advance-ms')"), "600ms")

    def test_a_timed_minutes_miss_moves_on_by_itself(self):
        """A review lost ten seconds of its minute on Next after a wrong pick: a timed miss shows the right face a
        moment, then the next round comes by itself, as a right answer's does."""
        self.meet_people()
        self.play_from_menu("timed")
        round_id = self.game().get_attribute("data-round")
        wrong = (answer_of(round_id) + 1) % self.choice_count()
        self.navigate(lambda: self.tap(f'button[data-choice="{wrong}"]'))
        self.assertTrue(self.game().get_attribute("data-taught"), "the miss is shown")
        self.assertEqual(self.driver.execute_script(
            "return document.getElementById('namegame').style.getPropertyValue('--advance-ms')"), "1500ms")
        WebDriverWait(self.driver, 10).until(
            lambda _: self.game().get_attribute("data-round") not in (None, round_id), "on to the next round")
        # With large text, twice as long (a low-vision review lost the correction's twenty words in 2 s).
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        self.addCleanup(self.driver.execute_cdp_cmd, "Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 2000, "deviceScaleFactor": 1, "mobile": False})
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
        self.open("/namegame/timed")
        round_id = self.game().get_attribute("data-round")
        wrong = (answer_of(round_id) + 1) % self.choice_count()
        self.navigate(lambda: self.driver.execute_script("arguments[0].click()", self.driver.find_element(
            "css selector", f'button[data-choice="{wrong}"]')))
        self.assertEqual(self.driver.execute_script(
            "return document.getElementById('namegame').style.getPropertyValue('--advance-ms')"), "3000ms")

    def test_a_switch_under_next_keeps_right_answers_on_screen(self):
        """WCAG 2.2.1: a review's slow reader lost every right answer after a second. "Wait for Next after a right
        answer", ticked, holds this answer and every later one (kept in the browser)."""
        # The page's beat before it moves on is stretched, so the tap on the switch comes within it.
        round_id = self.answer_right_with_slow_timers("normal", 1000)
        self.assertIn("is-advancing", self.game().get_attribute("class"), "a right answer moves on by itself")
        # And says so where the player looks: Next fills up as the beat runs (a review could not tell whether it
        # moved on by itself; a line under the answer went unseen).
        self.assertEqual(self.driver.execute_script(
            "return getComputedStyle(document.querySelector('[data-outcome] [data-next]')).animationName"), "advance")
        box = self.driver.find_element("css selector", "[data-wait-next]")
        self.assertTrue(box.is_displayed() and not box.is_selected())
        self.tap("[data-advance-choice] label")
        self.assertTrue(box.is_selected())
        self.assertNotIn("is-advancing", self.game().get_attribute("class"), "this answer stays")
        self.assertEqual(self.game().get_attribute("data-round"), round_id)
        self.navigate(lambda: self.tap("[data-outcome] button[data-next]"))
        following = self.game().get_attribute("data-round")
        self.navigate(lambda: self.tap(f'button[data-choice="{answer_of(following)}"]'))
        self.assertNotIn("is-advancing", self.game().get_attribute("class"), "and the next right answer too")
        self.assertTrue(self.driver.find_element("css selector", "[data-wait-next]").is_selected())
        self.driver.execute_script("localStorage.removeItem('namegame.autoAdvance')")

    def test_a_right_answer_shows_the_name(self):
        self.hold_answers()
        self.play_from_menu("normal")
        round_id = self.game().get_attribute("data-round")
        answer = answer_of(round_id)
        self.navigate(lambda: self.tap(f'button[data-choice="{answer}"]'))
        self.assertEqual(self.game().get_attribute("data-identified"), "true")
        self.assertIn(person_of(round_id)[answer][0], self.text("[data-right-name]"))
        self.assertEqual(self.driver.switch_to.active_element,
                         self.driver.find_element("css selector", "[data-outcome] button[data-next]"), "focus on Next")

    def test_a_wrong_tap_names_the_person_tapped(self):
        self.hold_answers()
        self.play_from_menu("normal")
        round_id = self.game().get_attribute("data-round")
        answer = answer_of(round_id)
        people = person_of(round_id)
        met = met_faces(round_id) - {answer}
        # Someone met, named; someone not met yet is named by their introduction only (a review saw a name before it).
        for wrong in sorted(met)[:1] or [(answer + 1) % self.choice_count()]:
            self.navigate(lambda: self.tap(f'button[data-choice="{wrong}"]'))
            if wrong in met:
                self.assertIn(people[wrong][0], self.text("[data-tapped]"), "\"That's …\" names the person tapped")
                self.assertIn(people[wrong][0], self.text(f'button[data-choice="{wrong}"] .face-name'))
            else:
                self.assertIn("someone you haven’t met yet", self.text("[data-tapped]"))
                self.assertEqual(self.text(f'button[data-choice="{wrong}"] .face-name'), "Not met yet")
                self.assertNotIn(people[wrong][0], self.text("main"))
        right = self.driver.find_element("css selector", "button[data-answer]")
        self.assertEqual(right.get_attribute("data-choice"), str(answer), "the right one is highlighted")
        self.assertIn(people[answer][0], right.text)
        if people[answer][1]:
            # On a phone the role is said in the outcome line under the faces (on the card it was cut to "Content…",
            # two reviews); wider, on the card too.
            phone = self.driver.execute_script("return innerWidth") <= 360
            self.assertIn(people[answer][1], self.text("[data-right-name]") if phone else right.text, "with the role")
        self.assertEqual(self.driver.switch_to.active_element, right, "focus is on the right one, to go on")
        self.assertTrue(self.in_view(right))
        self.assertTrue(self.in_view(self.driver.find_element("css selector", "[data-outcome] button[data-next]")))
        if self.width >= 1280:
            # On a desktop the faces fill the column (a review: 160 px faces looked small), Next still in view.
            self.assertGreaterEqual(right.size["width"], 190)
        self.assertGreaterEqual(self.contrast_of(right.find_element("css selector", ".face-name")), 4.5)
        self.navigate(lambda: self.driver.switch_to.active_element.send_keys(Keys.ENTER))
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id, "tapping it (or Enter) goes on")

    def test_learn_is_where_a_newcomer_starts(self):
        """Issue 41: ten equal text cards, Learn last. Learn comes first as "Start here", the primary button; the
        rest follow as practice, and no mode is named by an in-joke."""
        self.open("/namegame")
        first = self.driver.find_element("css selector", "button[data-play]")
        self.assertEqual(first.get_attribute("data-play"), "learn", "the first thing to tap is Learn")
        self.assertTrue(self.driver.find_elements("css selector", "[data-start-here] button[data-play=learn]"))
        other = self.driver.find_element("css selector", "button[data-play=normal]")
        self.assertNotEqual(first.value_of_css_property("background-color"),
                            other.value_of_css_property("background-color"), "Learn is the primary button")
        self.assertTrue(self.in_view(first))
        self.assertNotIn("Mat(t)", self.text("main"))
        self.assertEqual(self.reveal_mode("matt").text, "Similar names")
        if self.__class__.__name__ == "LessonOnAPhone":
            self.screenshots("namegame-menu", "/namegame")

    def test_a_miss_stays_a_miss_in_every_mode(self):
        self.meet_people()
        self.hold_answers()
        # (Hint is left out: its faces hide on a timer, so a slow machine can lose the wrong face before the tap.)
        for mode in ["normal", "matt", "reverse", "team", "fifty", "timed", "learn"]:
            with self.subTest(mode=mode):
                self.play_from_menu(mode)
                self.miss_then_go_on(lambda selector: self.navigate(lambda: self.tap(selector)))

    def test_a_lesson_counts_each_round_once(self):
        self.hold_answers()
        self.play_from_menu("normal")
        self.miss_then_go_on(lambda selector: self.navigate(lambda: self.tap(selector)))
        for _ in range(9):
            answer = answer_of(self.game().get_attribute("data-round"))
            self.navigate(lambda: self.tap(f'button[data-choice="{answer}"]'))
            self.navigate(lambda: self.tap("[data-outcome] button[data-next]"))
        self.assertEqual(self.game().get_attribute("data-ended"), "true")
        self.assertEqual(self.counts(), (9, 1), "ten rounds, each counted once")
        self.assertEqual(self.driver.find_element("css selector", "[data-summary-accuracy]").text, "90%")

    def test_a_typed_name_moves_on_by_itself_on_a_touch_screen(self):
        """A review's phone waited for Next after every typed name and moved on after every tapped face: on a touch
        screen, whose keys are the screen's own, a typed right answer moves on too. With a keyboard (a screen reader's
        user) it waits for Enter, as a key's pick does."""
        self.meet_people()
        self.play_from_menu("recall")
        round_id = self.game().get_attribute("data-round")
        self.assertTrue(self.game().get_attribute("data-recall"), "a name to type")
        self.type_name(round_id)
        self.assertTrue(self.game().get_attribute("data-identified"))
        if self.width < 400:
            WebDriverWait(self.driver, 10).until(
                lambda d: self.game().get_attribute("data-round") not in (None, round_id), "moved on by itself")
        else:
            # The countdown is set as the page loads, or not at all.
            self.assertNotIn("is-advancing", self.game().get_attribute("class"), "no countdown to the next round")
            self.assertEqual(self.game().get_attribute("data-round"), round_id)

    def test_recall_accepts_small_differences_and_refuses_another_name(self):
        self.hold_answers()
        self.play_from_menu("recall")
        self.reach_a_typed_round()
        # (The bundled team has two Marens: the full name is asked, and a typo in it forgiven.)
        for typed, right in (("maren tanaka", True), ("Marén Tanaka", True), ("Mraen Tanaka", True), ("Ugo", False)):
            round_id = self.game().get_attribute("data-round")
            make_round_ask(round_id, "Maren")
            self.open("/namegame/recall")
            self.assertEqual(self.driver.find_element("css selector", "[data-recall-input]"),
                             self.driver.switch_to.active_element, "the field has focus")
            self.type_name(round_id, typed)
            game = self.game()
            self.assertEqual(game.get_attribute("data-answered"), "true")
            self.assertEqual(bool(game.get_attribute("data-identified")), right, typed)
            if not right:
                self.assertIn("Maren", self.text("[data-recall-miss]"), "a wrong name shows the right one")
            # A forgiven typo is said, with the spelling; case and accents are not typos.
            notes = self.driver.find_elements("css selector", "[data-typo]")
            if typed == "Mraen Tanaka":
                self.assertEqual(len(notes), 1, "a typo accepted is said")
                self.assertIn("spelled Maren Tanaka", notes[0].text)
            else:
                self.assertEqual(notes, [], typed)
            if right:
                self.navigate(lambda: self.tap("[data-outcome] button[data-next]"))
            else:
                # A miss goes on once the right name is typed into its field (the test that follows says more).
                field = self.driver.find_element("css selector", "[data-retype-input]")
                self.navigate(lambda: field.send_keys("Maren Tanaka"))

    def assert_a_second_enter_waits(self, still, meet=True, asks_first=False):
        """The second Enter of a double press (a moment after the Enter that left the last page) sends nothing and
        leaves `still` in place; an Enter of its own goes on, however soon the page came (a desktop review's single
        Enters were swallowed three times in a lesson when every Enter within 0.7 s of a load was)."""
        round_id = self.game().get_attribute("data-round")
        def enter():
            for kind in ("keyDown", "keyUp"):
                self.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {
                    "type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"})
        self.driver.execute_script("""sessionStorage.setItem("namegame.enterAt", String(Date.now()));
            window.sent = false; document.addEventListener("submit", () => { window.sent = true; }, true);""")
        enter()
        self.assertFalse(self.driver.execute_script("return window.sent"), "nothing sent")
        self.assertTrue(self.driver.find_elements("css selector", still), f"{still} stays")
        self.assertEqual(self.game().get_attribute("data-round"), round_id)
        # The last Enter half a second ago: this one is the player's own.
        self.driver.execute_script('sessionStorage.setItem("namegame.enterAt", String(Date.now() - 500))')
        if asks_first:
            # In the empty field to type a missed name once, Enter asks for it, and goes on once it is typed.
            enter()
            WebDriverWait(self.driver, 5).until(lambda d: "to go on" in self.text("[data-retype] .field-help"))
            self.assertEqual(self.game().get_attribute("data-round"), round_id)
            field = self.driver.find_element("css selector", "[data-retype-input]")
            self.driver.execute_script('sessionStorage.setItem("namegame.enterAt", String(Date.now() - 500))')
            self.navigate(lambda: field.send_keys(
                self.driver.find_element("css selector", "[data-retype]").get_attribute("data-retype")), meet=meet)
            return
        self.navigate(enter, meet=meet)  # Enter goes on (navigate waits for the next page)

    def assert_a_typed_answer_outlives_a_second_enter(self, typed, still, asks_first=False):
        """A typed round answered with `typed(round_id)`, then a double Enter: `still` stays a moment, then goes."""
        self.hold_answers()
        self.play_from_menu("recall")
        self.reach_a_typed_round()
        round_id = self.game().get_attribute("data-round")
        self.type_name(round_id, typed(round_id))
        self.assert_a_second_enter_waits(still, asks_first=asks_first)
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id, "a moment later Enter goes on")

    def test_a_second_enter_does_not_skip_a_typed_miss_correction(self):
        """A review typed a wrong name and pressed Enter twice: the correction ("You typed …, but this is …") never
        stayed. For a moment after it shows, Enter waits."""
        self.assert_a_typed_answer_outlives_a_second_enter(lambda _: "Nobody", "[data-recall-miss]", asks_first=True)

    def test_a_second_enter_does_not_skip_a_right_typed_name(self):
        """A review typed a right name and pressed Enter twice: it went straight on to the next round, the "Right"
        unseen. For a moment after it shows, Enter waits."""
        self.assert_a_typed_answer_outlives_a_second_enter(full_name_of, "[data-outcome] [data-right-name]")

    def test_a_missed_name_is_typed_once_right_before_going_on(self):
        """A review: a typed miss showed the right name, and Next took it away unpractised. The field to type it once
        has the focus; a wrong copy is said and stays; the right one (case and accents aside) goes on by itself."""
        self.hold_answers()
        self.play_from_menu("recall")
        self.reach_a_typed_round()
        round_id = self.game().get_attribute("data-round")
        make_round_ask(round_id, "Maren")
        self.open("/namegame/recall")
        self.type_name(round_id, "Nobody")
        field = self.driver.find_element("css selector", "[data-retype-input]")
        self.assertEqual(field, self.driver.switch_to.active_element, "the field to type the name has the focus")
        self.assertIn("Maren Tanaka", self.text("label[for=retype]"), "it says what to type (a namesake's full name)")
        self.driver.save_screenshot(os.path.join(ARTIFACTS, f"namegame-retype-{self.width}.png"))
        # (Past the moment a double Enter's second press is held: the test types faster than a player.)
        self.driver.execute_script('sessionStorage.setItem("namegame.enterAt", "0")')
        # Enter in the empty field asks for it, out loud too (two reviews skipped the step without a word), and so
        # does a second Enter: nothing goes on until it is typed (a later review skipped every one).
        for _ in range(2):
            field.send_keys(Keys.ENTER)
            WebDriverWait(self.driver, 5).until(
                lambda d: "Type “Maren Tanaka” to go on" in self.text("[data-retype] .field-help"))
            self.assertEqual(self.game().get_attribute("data-round"), round_id, "Enter in the empty field stays")
            self.driver.execute_script("document.querySelector('[data-retype] .field-help').textContent = ''")
            self.driver.execute_script('sessionStorage.setItem("namegame.enterAt", "0")')
        # Next, tapped or clicked, is held too, and the field takes the focus back.
        next_button = self.driver.find_element("css selector", "[data-outcome] button[data-next]")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", next_button)
        next_button.click()
        WebDriverWait(self.driver, 5).until(
            lambda d: "Type “Maren Tanaka” to go on" in self.text("[data-retype] .field-help"))
        self.assertEqual(self.game().get_attribute("data-round"), round_id, "Next with the field empty stays")
        self.assertEqual(field, self.driver.switch_to.active_element, "the field has the focus again")
        self.driver.execute_script('sessionStorage.setItem("namegame.enterAt", "0")')
        field.send_keys("Marne Tanaka" + Keys.ENTER)
        WebDriverWait(self.driver, 5).until(lambda d: "Not quite" in self.text("[data-retype] .field-help"))
        self.assertEqual(self.game().get_attribute("data-round"), round_id, "a wrong copy stays")
        field.clear()
        self.navigate(lambda: field.send_keys("marén tanaka"))
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id, "the right copy goes on by itself")
        # Its "That's it." is said on the next page, whose load cut it off where it was shown (a blind review): in the
        # next question's heading, or else its live region.
        WebDriverWait(self.driver, 5).until(lambda d: "That’s it." in d.execute_script(
            "const c = document.querySelector('h1.question [data-carried]'), a = document.querySelector('[data-announce]');"
            "return (c ? c.textContent : '') + ' ' + (a ? a.textContent : '')"), "That's it, said")

    def test_a_second_enter_does_not_skip_the_next_introduction(self):
        """A review pressed Enter twice on Got it: the second skipped the next person's introduction, who then came up
        in a question never shown. For a moment after an introduction shows, Enter waits."""
        self.play_from_menu("learn", meet=False)
        self.assert_a_second_enter_waits("[data-intro]", meet=False)

    def test_who_is_it_takes_half_the_wrong_faces_and_its_toast_outlives_the_reload(self):
        # A review: the cheat reloaded the round at once, so its toast was never seen.
        self.hold_answers()
        self.play_from_menu("normal")
        grid = self.driver.execute_script("return document.querySelector('[data-cheat-area]').getBoundingClientRect().top")
        page = self.driver.find_element("css selector", "html")
        body = self.driver.find_element("css selector", "body")
        for key in "who":
            body.send_keys(key)
        WebDriverWait(self.driver, 10).until(gone(page))
        toast = WebDriverWait(self.driver, 10).until(
            lambda d: next(iter(d.find_elements("css selector", "[data-toast]:not([hidden])")), None))
        WebDriverWait(self.driver, 10).until(lambda d: "Cheat unlocked: Who is it?" in toast.text,
                                             toast.get_attribute("textContent"))
        # At the window's foot, clear of the question (two reviews: at the top it covered the name asked for).
        box = self.driver.execute_script(
            "const t = arguments[0].getBoundingClientRect(), q = document.querySelector('h1').getBoundingClientRect();"
            " return {top: t.top, height: innerHeight, question: q.bottom}", toast)
        self.assertGreater(box["top"], box["height"] / 2, box)
        self.assertGreater(box["top"], box["question"], box)
        self.assertIn("half the wrong faces are gone", self.text("[data-cheat-help]"))
        # The faces stay where they were: the cheat's words come under them (a review: above, they pushed the faces
        # down 65 px).
        self.assertAlmostEqual(self.driver.execute_script(
            "return document.querySelector('[data-cheat-area]').getBoundingClientRect().top"), grid, delta=1)
        self.assertEqual(len(self.driver.find_elements("css selector", "button[data-choice][data-hidden]")), 2,
                         "half of the five wrong faces, rounded down")

    def test_enter_on_a_summary_with_misses_reviews_them(self):
        """A review pressed Enter on a lesson's end with misses: it met new people, skipping the summary's first
        button, Review my misses."""
        self.meet_someone()
        self.play_from_menu("practice")
        round_id = self.game().get_attribute("data-round")
        wrong = (answer_of(round_id) + 1) % self.choice_count()
        self.navigate(lambda: self.driver.find_element("css selector", f'button[data-choice="{wrong}"]').click())
        self.navigate(lambda: self.driver.find_element("css selector", "[data-outcome] button[data-next]").click())
        self.assertTrue(self.driver.find_elements("css selector", "button[data-review]"))
        self.navigate(lambda: ActionChains(self.driver).send_keys(Keys.ENTER).perform())
        self.assertIn("/namegame/review", self.driver.current_url)

    def test_recall_hint_and_i_dont_know(self):
        # People past their learning steps: a first typed round gives the letter itself, as a step of the lesson.
        self.meet_people()
        self.hold_answers()
        self.play_from_menu("recall")
        self.reach_a_typed_round()
        round_id = self.game().get_attribute("data-round")
        first = first_name_of(round_id)
        face_top = self.driver.find_element("css selector", "#round-face").rect["y"]
        self.navigate(lambda: self.tap("[data-recall-hint]"))
        self.assertIn(f"“{first[0]}”", self.text("[data-cheat-help]"), "the hint gives the first letter")
        # The letter shows in the box, not typed into it (a review typed the whole name after it: "ZZora"); the face
        # stays put (a review: the hint pushed the face and the field down).
        field = self.driver.find_element("css selector", "[data-recall-input]")
        self.assertEqual(field.get_attribute("value"), "")
        self.assertEqual(field.get_attribute("placeholder"), first[0] + "…")
        self.assertAlmostEqual(self.driver.find_element("css selector", "#round-face").rect["y"], face_top, delta=1)
        self.navigate(lambda: self.tap("button[data-dontknow]"))
        self.assertIn(first, self.text("[data-revealed]"), "I don't know shows the answer")

    def test_a_lesson_has_a_progress_bar_and_ends_on_a_summary(self):
        self.hold_answers()
        self.play_from_menu("normal")
        asked = []
        # At 0 of 10 the bar reads empty in high contrast too: its track is the panel's white inside a black edge (a
        # low-vision review: filled black, the track looked like a full bar of dark green).
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-contrast", "value": "more"}, {"name": "prefers-color-scheme", "value": "light"}]})
        try:
            meter = self.driver.find_element("css selector", ".lesson-meter")
            self.assertEqual(self.driver.execute_script(
                "return getComputedStyle(arguments[0]).backgroundColor", meter), "rgb(255, 255, 255)")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        for done in range(10):
            bar = self.driver.find_element("css selector", "[role=progressbar]")
            self.assertEqual(bar.get_attribute("aria-valuenow"), str(done))
            self.assertEqual(bar.get_attribute("aria-valuemax"), "10")
            round_id = self.game().get_attribute("data-round")
            answer = answer_of(round_id)
            asked.append(person_of(round_id)[answer][0])
            self.navigate(lambda: self.tap(f'button[data-choice="{answer}"]'))
            if done < 9:
                self.assertEqual(self.driver.find_element("css selector", "[role=progressbar]")
                                 .get_attribute("aria-valuenow"), str(done + 1), "the bar advances")
            self.navigate(lambda: self.tap("[data-outcome] button[data-next]"))
        summary = self.driver.find_element("css selector", "[data-summary]")
        self.assertTrue(self.in_view(summary.find_element("css selector", "h1")))
        listed = [li.get_attribute("data-person") for li in summary.find_elements("css selector", "[data-summary-people] li")]
        self.assertEqual(sorted(set(asked)), sorted(listed), "the summary lists the people it covered")
        # Faces large enough to know again (a review could recognise nobody in 45 px circles).
        face = summary.find_element("css selector", "[data-summary-people] img").size
        self.assertGreaterEqual(min(face["width"], face["height"]), 56 if self.width < 400 else 70, face)
        self.assertEqual(self.driver.find_element("css selector", "[data-summary-accuracy]").text, "100%")
        self.assertEqual(self.driver.find_element("css selector", "[data-day-streak]").text, "1")
        self.assertTrue(self.driver.find_element("css selector", "[data-due]").text)
        self.assertEqual(len(summary.find_elements("css selector", "button[data-continue]")), 1, "one button on")
        # …in sight with its heading, not a screen down under the faces and the figures (a review's taps missed it).
        self.assertTrue(self.in_view(summary.find_element("css selector", "button[data-continue]")))
        # Said: how it went and the heading, not the day's goal run into its figure (a blind review heard "Today's goal
        # Answered today: 12 of 20").
        # (Waited for: the page says it a moment after its load, and a fast test read the region empty.)
        announce = self.driver.find_element("css selector", "[data-announce]")
        said = WebDriverWait(self.driver, 10).until(lambda d: announce.get_attribute("textContent"))
        self.assertIn("Session over", said)
        self.assertNotIn("Today’s goal", said)

    def test_the_timed_end_keeps_the_score_in_view_and_focused(self):
        # (The answered round held: on a busy machine its move to the next round, 600 ms on, came after the clock was
        # run out below and began a new minute.)
        self.hold_answers()
        self.meet_people()
        self.play_from_menu("timed")
        round_id = self.game().get_attribute("data-round")
        self.navigate(lambda: self.tap(f'button[data-choice="{answer_of(round_id)}"]'))
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE namegame_sessions SET started_ms = started_ms - 61000 WHERE id ="
                       " (SELECT session FROM namegame_rounds WHERE id = ?)", (int(round_id),))
        self.open("/namegame/timed")
        score = self.driver.find_element("css selector", "[data-score]")
        self.assertEqual(score.get_attribute("data-score"), "1")
        self.assertEqual(self.driver.switch_to.active_element, score, "focus is on the score")
        self.assertTrue(self.in_view(score))
        self.assertEqual(self.driver.find_element("css selector", "[data-best]").get_attribute("data-best"), "1")
        # Enter on the score changes nothing: playing again is a deliberate press of its button.
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.driver.execute_script("return 1")
        self.assertEqual(self.game().get_attribute("data-ended"), "true")
        self.assertTrue(score.is_displayed(), "still the same page")
        # Nor does a tap on Play again as the end appears (a review's tap meant for a face, where Play again now is,
        # began a new minute and threw the score away unseen); a moment later it plays again. (The page's second is
        # held until the test lets it pass: a slow machine's load would otherwise outlast it.)
        hold = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.__held = []; const later = window.setTimeout;
            window.setTimeout = (f, ms, ...rest) => ms === 1000 ? window.__held.push(f) : later(f, ms, ...rest);"""})
        self.addCleanup(self.driver.execute_cdp_cmd, "Page.removeScriptToEvaluateOnNewDocument",
                        {"identifier": hold["identifier"]})
        self.open("/namegame/timed")
        self.assertIsNotNone(self.game().get_attribute("data-settling"))
        self.driver.execute_script("window.samePage = true")
        again = self.driver.find_element("css selector", "[data-summary] button[data-continue]")
        self.driver.execute_script("""const b = arguments[0], r = b.getBoundingClientRect();
            b.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: 1,
              clientX: r.x + 2, clientY: r.y + 2}));""", again)
        self.assertTrue(self.driver.execute_script("return window.samePage === true"), "the early tap started nothing")
        self.assertEqual(self.game().get_attribute("data-ended"), "true")
        self.driver.execute_script("window.__held.forEach(f => f())")
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("""
            if (!window.samePage) return true;
            const b = document.querySelector('[data-summary] button[data-continue]');
            if (b) b.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, detail: 1}));
            return false;"""))


    def test_more_time_is_in_view_and_adds_half_a_minute(self):
        """Issue 46 (WCAG 2.2.1): the clock's More time button comes in its last 20 seconds (offered from the start, a
        review bought a minute's score off with it), in view beside the clock, big enough to tap; it adds half a
        minute to the same question, and nothing moves when it comes."""
        self.meet_people()
        self.play_from_menu("timed")
        round_id = self.game().get_attribute("data-round")
        button = self.driver.find_element("css selector", ".timer [data-more-time]")
        self.assertFalse(button.is_displayed(), "not offered with most of the minute left")
        faces_top = lambda: self.driver.execute_script(
            "return document.querySelector('ul.faces').getBoundingClientRect().top + window.scrollY")
        top = faces_top()
        self.shift_timed(round_id, 39000)  # the clock comes to 20 s while the page is open
        self.driver.refresh()
        wait(self.driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
        button = self.driver.find_element("css selector", ".timer [data-more-time]")
        WebDriverWait(self.driver, 10).until(lambda d: button.is_displayed())
        self.assertAlmostEqual(faces_top(), top, delta=1, msg="the faces did not move")
        self.assertTrue(self.in_view(button))
        height, right = self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.height, r.right];", button)
        self.assertGreaterEqual(height, 44, "a target a finger can hit")
        self.assertLessEqual(right, self.driver.execute_script("return document.documentElement.clientWidth"))
        before = int(self.driver.find_element("css selector", "[data-seconds-left]").get_attribute("data-seconds-left"))
        page = self.driver.find_element("css selector", "html")
        button.click()
        WebDriverWait(self.driver, 10).until(gone(page))
        wait(self.driver).until(lambda d: d.execute_script("return document.readyState") == "complete" and self.game())
        after = int(self.driver.find_element("css selector", "[data-seconds-left]").get_attribute("data-seconds-left"))
        self.assertGreaterEqual(after, before + 28, "half a minute more")
        self.assertFalse(self.driver.find_element("css selector", ".timer [data-more-time]").is_displayed(),
                         "offered again in the last 20 seconds")
        self.assertEqual(self.game().get_attribute("data-round"), round_id, "the same question")
        self.assertAlmostEqual(faces_top(), top, delta=1, msg="the faces did not move")
        # In every language the clock and the button's place lie side by side, inside the screen (a Russian reader's
        # phone: "Добавить время (+30 с)" covered the time left).
        try:
            for language in ("de", "es", "fr", "ja", "ru"):
                self.open(f"/namegame/timed?lang={language}")
                boxes = self.driver.execute_script("""
                    const box = e => e.getBoundingClientRect();
                    const text = box(document.querySelector('.timer-text')), button = box(document.querySelector(
                      '.timer [data-more-time]'));
                    return {apart: text.right <= button.left || text.bottom <= button.top, right: button.right,
                            width: document.documentElement.clientWidth};""")
                self.assertTrue(boxes["apart"] and boxes["right"] <= boxes["width"], f"{language}: {boxes}")
                self.driver.save_screenshot(os.path.join(ARTIFACTS, f"ng-timed-clock-{language}-{self.width}.png"))
        finally:
            self.open("/namegame?lang=en")


class LessonOnADesktop(Lesson, BrowserTest):
    width, height = 1280, 900


class LessonOnAPhone(Lesson, BrowserTest):
    width, height = 360, 740

    def setUp(self):
        super().setUp()
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 2})

    def test_a_name_typed_on_the_screens_keyboard_draws_no_ring_after_it(self):
        """A review's phone had a box drawn round every lesson's end heading, and round Next, after its typed names:
        the screen's own keyboard counted as a keyboard player's. Tab there still does."""
        self.meet_people()  # people met long ago: recall has their names typed at once
        self.play_from_menu("recall")
        self.driver.execute_script('sessionStorage.setItem("namegame.autoAdvance", "off")')  # the answer stays
        self.type_name(self.game().get_attribute("data-round"))
        self.assertNotEqual(self.driver.execute_script("return Arcade.lastInput()"), "key")
        focused = self.driver.switch_to.active_element
        self.assertEqual(self.driver.execute_script("return getComputedStyle(arguments[0]).outlineStyle", focused),
                         "none", focused.get_attribute("outerHTML")[:120])
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(self.driver.execute_script("return Arcade.lastInput()"), "key")

    def test_with_large_text_a_right_answer_stays_twice_as_long(self):
        """A low-vision review, text at 200 % on a phone: a right answer moved on after 1.7 s, before it had studied
        the face, and the switch to keep it was out of sight. (A phone's: a desktop's typed answer waits for Enter.)"""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            const later = window.setTimeout;
            window.setTimeout = (f, ms, ...rest) => later(f, ms >= 1000 ? ms * 100 : ms, ...rest);"""})
        try:
            # A name typed (faces to pick from, at this size, are not all in sight: their answer waits for Next).
            self.meet_people()  # people met long ago: recall has their names typed at once
            self.play_from_menu("recall")
            self.assertTrue(self.driver.find_elements("css selector", "[data-recall-input]"), "a name to type")
            self.type_name(self.game().get_attribute("data-round"))
            self.assertIn("is-advancing", self.game().get_attribute("class"))
            self.assertEqual(self.driver.execute_script(
                "return document.getElementById('namegame').style.getPropertyValue('--advance-ms')"), "2400ms")
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})


class Screenshots(LessonHelpers, BrowserTest):
    """A question, the feedback after a wrong tap, a recall round and a lesson's summary, at 360 and 1280, light
    and dark, with and without scripts; axe finds nothing serious on them."""

    def test_screenshots(self):
        self.hold_answers()
        # Whether a page's burst went up, noted as it happens: on a busy machine it was over before the test looked.
        seen = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            new MutationObserver(() => { if (document.querySelector('.win-burst i')) window.__burst = true; })
              .observe(document, {childList: true, subtree: true});"""})
        self.addCleanup(self.driver.execute_cdp_cmd, "Page.removeScriptToEvaluateOnNewDocument",
                        {"identifier": seen["identifier"]})
        # A lesson to its end (team mode: roles show on the faces after each answer).
        self.play_from_menu("team")
        while not self.game().get_attribute("data-ended"):
            if self.game().get_attribute("data-answered"):
                self.navigate(lambda: self.tap("[data-outcome] button[data-next]"))
                continue
            answer = answer_of(self.game().get_attribute("data-round"))
            self.navigate(lambda: self.tap(f'button[data-choice="{answer}"]'))
        # A perfect lesson's end is a payoff the first time: its praise pops and pegs burst; seen again, it is still.
        praise = self.driver.find_element("css selector", "[data-praise]")
        self.assertEqual((praise.get_attribute("data-praise"), praise.text), ("perfect", "Perfect!"))
        self.assertIn("is-fresh", praise.get_attribute("class"))
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return window.__burst === true"), "the burst")
        self.assertEqual(self.axe_violations(), [])
        self.open("/namegame/team")
        self.assertNotIn("is-fresh", self.driver.find_element("css selector", "[data-praise]").get_attribute("class"))
        self.screenshots("namegame-lesson-summary", "/namegame/team")
        self.play_from_menu("reverse")
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("namegame-question", "/namegame/reverse")
        self.play_from_menu("normal")
        answer = answer_of(self.game().get_attribute("data-round"))
        self.navigate(lambda: self.tap(f'button[data-choice="{(answer + 1) % self.choice_count()}"]'))
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("namegame-wrong-tap", "/namegame/normal")
        self.play_from_menu("recall")
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("namegame-recall", "/namegame/recall")


class WithoutJavaScript(LessonHelpers, BrowserTest):
    """Every mode, played to its end with forms alone."""

    def setUp(self):
        super().setUp()
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})

    def click(self, selector):
        page = self.driver.find_element("css selector", "html")
        self.driver.find_element("css selector", selector).click()
        WebDriverWait(self.driver, 10).until(gone(page))
        wait(self.driver).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def answer(self, right=True):
        game = self.game()
        while self.driver.find_elements("css selector", "[data-intro]"):
            self.click("[data-meet]")
            game = self.game()
        round_id = game.get_attribute("data-round")
        if game.get_attribute("data-recall"):
            field = self.driver.find_element("css selector", "[data-recall-input]")
            field.send_keys(full_name_of(round_id) if right else "Nobody")
            self.click("[data-recall-check]")
        else:
            answer = answer_of(round_id)
            self.click(f'button[data-choice="{answer if right else (answer + 1) % 2}"]')

    def test_a_miss_stays_a_miss_without_scripts(self):
        self.meet_people()
        for mode in ["normal", "reverse", "timed", "learn"]:
            with self.subTest(mode=mode):
                self.open("/namegame")
                self.reveal_mode(mode)
                self.click(f'button[data-play="{mode}"]')
                self.miss_then_go_on(self.click)

    def play_to_the_end(self, mode):
        self.open("/namegame")
        self.reveal_mode(mode)
        self.click(f'button[data-play="{mode}"]')
        # Ten rounds; a lesson of Learn's then asks whom it met and only picked to type their names, five more at most.
        for played in range(15 if mode == "learn" else 10):
            if played >= 10 and self.game().get_attribute("data-ended"):
                break
            self.answer()
            self.assertEqual(self.game().get_attribute("data-answered"), "true", mode)
            self.assertTrue(self.driver.find_element("css selector", "[data-outcome] button[data-next]").is_displayed(),
                            "without scripts, Next stays")
            self.click("[data-outcome] button[data-next]")
        self.assertEqual(self.game().get_attribute("data-ended"), "true", f"{mode}: the lesson ends")
        self.assertTrue(self.driver.find_elements("css selector", "[data-summary-people] li"), mode)

    # Two modes a test: one test of all eight held a group for two minutes while the others had finished.
    def test_normal_and_similar_names_play_to_their_end(self):
        self.play_to_the_end("normal")
        self.play_to_the_end("matt")

    def test_reverse_and_recall_play_to_their_end(self):
        self.play_to_the_end("reverse")
        self.play_to_the_end("recall")

    def test_team_and_hint_play_to_their_end(self):
        self.play_to_the_end("team")
        self.play_to_the_end("hint")

    def test_fifty_fifty_and_learn_play_to_their_end(self):
        self.play_to_the_end("fifty")
        self.play_to_the_end("learn")

    def test_practice_ends_at_a_mistake_and_timed_when_its_minute_is_up(self):
        # Practice ends at the first mistake; the misses it made are reviewed to their end.
        self.meet_someone()
        self.open("/namegame")
        self.reveal_mode("practice")
        self.click('button[data-play="practice"]')
        self.answer(right=False)
        # The miss is shown first, as in every mode: who was tapped, who was asked (a review saw "Session over" at once).
        self.assertFalse(self.game().get_attribute("data-ended"))
        self.assertTrue(self.driver.find_elements("css selector", "[data-outcome] [data-tapped]"))
        self.assertTrue(self.driver.find_elements("css selector", "[data-outcome] [data-right-name]"))
        self.click("[data-outcome] button[data-next]")
        self.assertEqual(self.game().get_attribute("data-ended"), "true", "practice ends at a mistake")
        self.assertFalse(self.driver.find_elements("css selector", "button[data-choice], h1.question"),
                         "its summary stands alone, not over the last question (issue 41)")
        self.assertTrue(self.driver.find_elements("css selector", "[data-summary]"))
        self.screenshots("namegame-practice-over", "/namegame/practice")
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        self.click("button[data-review]")
        while not self.game().get_attribute("data-ended"):
            self.answer()
            self.click("[data-outcome] button[data-next]")
        self.assertTrue(self.driver.find_elements("css selector", "[data-summary]"), "review ends on its summary")
        # Keep learning starts a lesson (it opened Learn's last page: a start card, or an old lesson's summary).
        self.click("button[data-go-learn]")
        # (The person reviewed is met now, so the question may be to type their name.)
        self.assertTrue(self.driver.find_elements("css selector", "[data-intro], button[data-choice], [data-recall-input]"),
                        "Keep learning meets someone or asks a question")
        # Timed (it waits for four people met): the minute runs out (time travel through the database) and the end
        # shows the score.
        self.meet_people()
        self.open("/namegame")
        self.reveal_mode("timed")
        self.click('button[data-play="timed"]')
        self.answer()
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE namegame_sessions SET started_ms = started_ms - 61000 WHERE id ="
                       " (SELECT session FROM namegame_rounds WHERE id = ?)", (int(self.game().get_attribute("data-round")),))
        self.open("/namegame/timed")
        self.assertEqual(self.driver.find_element("css selector", "[data-score]").get_attribute("data-score"), "1")


if __name__ == "__main__":
    unittest.main()
