"""The Name Game as one screen a round (issue 29): a round fits a 360x740 phone, the timed clock is a timer that stays
in view and turns urgent, learn mode introduces people before asking about them, and a wrong pick is a miss at once."""
import os
import sqlite3
import unittest

from arcade_browser import ARTIFACTS, BrowserTest
from arcade_browser import WebDriverWait
from test_namegame import DATABASE, NameGameHelpers, answer_of, asked_of

IN_VIEW_JS = """
    const r = arguments[0].getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
"""

# Every visible element whose touch-action keeps a vertical drag from scrolling the page.
PAN_BLOCKERS_JS = """
    return Array.from(document.querySelectorAll('*')).filter(e => {
        const box = e.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        // Issue 40: the play area owns its swipes (they are the cheat codes'); the rest of the page still scrolls.
        if (e.closest('[data-cheat-area]')) return false;
        const value = getComputedStyle(e).touchAction;
        return !(value === 'auto' || value === 'manipulation' || value.includes('pan-y'));
    }).map(e => e.tagName + '.' + e.className + ' ' + getComputedStyle(e).touchAction);
"""


def card_of(round_id):
    """What the round's player knows of the person it asks (the database as an oracle)."""
    with sqlite3.connect(DATABASE) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT c.* FROM namegame_cards c JOIN namegame_rounds r ON c.player = r.player"
                          " JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer"
                          " WHERE r.id = ? AND c.person = f.person", (int(round_id),)).fetchone()


class OneScreenARound(NameGameHelpers, BrowserTest):
    width, height = 360, 740

    def setUp(self):
        super().setUp()
        # A phone, as its player holds it: the exact viewport and touch.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 2})

    def grid_top(self):
        return self.driver.execute_script("return document.querySelector('button[data-choice]').getBoundingClientRect().top")

    def in_view(self, selector):
        elements = self.driver.find_elements("css selector", selector)
        self.assertTrue(elements, selector)
        return all(self.driver.execute_script(IN_VIEW_JS, e) for e in elements)

    def assert_round_fits(self, mode):
        self.assertEqual(self.driver.execute_script("return scrollY"), 0, f"{mode}: the page did not scroll itself")
        self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"),
                             self.driver.execute_script("return innerWidth"), f"{mode}: nothing scrolls sideways")
        if self.game().get_attribute("data-recall"):
            # Learn asks someone already answered right by name (issue 41): the field and its buttons fit instead.
            self.assertTrue(self.in_view("input[data-recall-input]"), f"{mode}: the name field is in view")
            self.assertTrue(self.in_view("button[data-recall-check]"), f"{mode}: Check is in view")
            self.assertEqual(self.driver.execute_script(PAN_BLOCKERS_JS), [], f"{mode}: vertical panning")
            return
        self.assertTrue(self.in_view("h1.question"), f"{mode}: the question is in view")
        self.assertTrue(self.in_view("button[data-choice]"), f"{mode}: every choice is in view")
        self.assertTrue(self.in_view("button[data-dontknow]"), f"{mode}: I don't know is in view")
        for button in self.driver.find_elements("css selector", "button[data-choice]"):
            self.assertGreaterEqual(button.size["height"], 44, mode)
            self.assertGreaterEqual(button.size["width"], 44, mode)
        self.assertEqual(self.driver.execute_script(PAN_BLOCKERS_JS), [], f"{mode}: vertical panning is never blocked")

    def test_a_round_fits_a_phone_in_every_mode(self):
        for mode in ("normal", "matt", "reverse", "team", "hint", "fifty", "practice", "timed", "learn"):
            round_id, answer = self.fresh_round(mode)
            self.assert_round_fits(mode)
            if mode in ("normal", "reverse", "hint"):
                # Answered, the outcome and Next are in view too, still nothing scrolled, and the faces stay where
                # they were (a review: the grid jumped 45 px up as the first visit's how-to line went; another, in
                # Hints, saw a blank band where its mode's line had been).
                grid = self.grid_top()
                self.choose(answer)
                self.assertAlmostEqual(self.grid_top(), grid, delta=1, msg=f"{mode}: the faces moved")
                # Kept in place by the lines that were above them, not by a blank band (a later review).
                self.assertLess(self.driver.execute_script(
                    "return parseFloat(getComputedStyle(document.querySelector('[data-cheat-area]')).paddingTop) || 0"),
                    8, f"{mode}: a blank band above the faces")
                self.assertEqual(self.driver.execute_script("return scrollY"), 0, mode)
                self.assertTrue(self.in_view("button[data-next]"), f"{mode}: Next is in view")
                self.assertTrue(self.in_view("button[data-choice]"), f"{mode}: the answered faces stay in view")
                if mode == "hint":
                    continue
                # A wrong pick too (a review: after a wrong name in Reverse the page scrolled 32 px and Next sat at
                # 687-732 of 740): both named cards, the miss's words and Next fit, and nothing scrolled.
                self.fresh_round(mode)
                grid = self.grid_top()
                self.choose_wrong(answer_of(self.game().get_attribute("data-round")))
                self.assertAlmostEqual(self.grid_top(), grid, delta=1, msg=f"{mode}: a miss moved the faces")
                self.assertTrue(self.game().get_attribute("data-taught"), mode)
                self.assertEqual(self.driver.execute_script("return scrollY"), 0, f"{mode}: a miss scrolled the page")
                self.assertTrue(self.in_view("button[data-go-on]"), f"{mode}: Next is in view after a miss")
                self.assertTrue(self.in_view("button[data-choice]"), f"{mode}: the named faces stay in view")
                self.assertTrue(self.in_view("[data-tapped]") and self.in_view("[data-right-name]"), mode)

    def test_a_round_fits_other_screens_in_every_mode(self):
        for width, height in ((390, 844), (768, 1024)):
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
            # A new player's first learn round introduces someone: the card and its button fit too.
            self.driver.delete_all_cookies()
            self.open("/namegame/learn")
            if self.driver.find_elements("css selector", "[data-start]"):
                self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
            self.assertTrue(self.in_view("[data-intro] img") and self.in_view("[data-meet]"), f"intro at {width}")
            self.assertEqual(self.driver.execute_script("return scrollY"), 0)
            self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), width)
            self.meet_people()
            for mode in ("normal", "reverse", "team", "timed", "learn"):
                round_id, answer = self.fresh_round(mode)
                self.assert_round_fits(f"{mode} at {width}x{height}")
                if mode in ("normal", "reverse"):
                    self.choose(answer)
                    self.assertEqual(self.driver.execute_script("return scrollY"), 0, mode)
                    self.assertTrue(self.in_view("button[data-next]"), f"{mode} at {width}: Next is in view")
                    self.assertTrue(self.in_view("button[data-choice]"), f"{mode} at {width}: the faces stay")
            # Wider than the game's column, it sits in the middle as Mastermind's board does.
            left, right = self.driver.execute_script(
                "const r = document.querySelector('#namegame').getBoundingClientRect();"
                "return [r.left, document.documentElement.clientWidth - r.right];")
            self.assertLessEqual(abs(left - right), 2, f"the round is centred at {width}")
            self.driver.save_screenshot(os.path.join(ARTIFACTS, f"namegame-fit-{width}x{height}.png"))

    def test_the_clock_is_a_timer_in_view_that_turns_urgent_and_cuts_off(self):
        self.meet_people()
        round_id, answer = self.fresh_round("timed")
        timer = self.driver.find_element("css selector", "[role=timer]")
        self.assertTrue(timer.is_displayed())
        self.assertTrue(self.in_view("[role=timer]"))
        self.assertFalse(timer.get_attribute("data-ending"), "a full minute is not urgent")
        before = int(timer.get_attribute("data-seconds-left"))
        WebDriverWait(self.driver, 5).until(lambda _: int(timer.get_attribute("data-seconds-left")) < before)
        self.assertIn(timer.get_attribute("data-seconds-left"), timer.text, "the number counts down visibly")
        # Scrolled down to the round's last face and what follows it (a short screen), the clock stays in view. (Not to
        # the page's foot: past the game, the settings below it take the clock away with the round.)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 420, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_script(
            "scrollTo(0, scrollY + document.querySelector('#namegame').getBoundingClientRect().bottom - innerHeight)")
        self.assertGreater(self.driver.execute_script("return scrollY"), 0)
        self.assertTrue(self.in_view("[role=timer]"), "the clock stays in view when the page is scrolled")
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        # Four seconds left (time travel through the database): urgent, in colour and in an attribute.
        self.shift_timed(round_id, 56500)
        self.open("/namegame/timed")
        timer = self.driver.find_element("css selector", "[role=timer]")
        self.assertEqual(timer.get_attribute("data-ending"), "true")
        calm = self.driver.execute_script("return getComputedStyle(document.querySelector('h1.question')).color")
        self.assertNotEqual(self.driver.execute_script("return getComputedStyle(arguments[0]).color", timer), calm)
        # Its pulse never fades the number: a faded beat fell below the text's contrast (axe caught one mid-beat).
        fades = self.driver.execute_script(
            "return document.querySelector('.timer-text').getAnimations().some(a =>"
            " a.effect.getKeyframes().some(k => 'opacity' in k && Number(k.opacity) < 1))")
        self.assertFalse(fades)
        # The clock cuts the round off: the answer is shown as timed out, not as identified.
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-timed-out]"))
        right = self.driver.find_element("css selector", f'button[data-choice="{answer}"]')
        self.assertEqual(right.get_attribute("data-result"), "timeout")
        mark = self.driver.execute_script(
            "return getComputedStyle(arguments[0].querySelector('.face-name'), '::before').content", right)
        self.assertNotIn("\u2713", mark, "no check mark on a round nobody answered")
        # The summary leads with the score.
        first = self.driver.find_element("css selector", "[data-summary] h1 + p")
        self.assertEqual(first.get_attribute("data-score"), "0")
        self.assertIn("Score", first.text)
        # Under it, the last question's fate is a quiet note, not a red ✖ line after Play again (a review).
        note = self.driver.find_element("css selector", "[data-timed-out]")
        self.assertNotIn("outcome-lost", note.get_attribute("class"))

    def test_learn_mode_introduces_someone_before_asking_about_them(self):
        self.open("/namegame/learn")
        if self.driver.find_elements("css selector", "[data-start]"):
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        # Play until someone new comes (a fresh player meets someone at once).
        for _ in range(12):
            if self.driver.find_elements("css selector", "[data-intro]"):
                break
            if not self.game().get_attribute("data-answered"):
                self.answer_right()
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        intro = self.driver.find_element("css selector", "[data-intro]")
        round_id = self.game().get_attribute("data-round")
        name, person = self.text("[data-intro-name]"), asked_of(round_id)
        self.assertTrue(name)
        self.assertIsNone(card_of(round_id), "not met before the introduction")
        self.assertFalse(self.driver.find_elements("css selector", "button[data-choice]"), "no question yet")
        self.assertTrue(intro.find_element("css selector", "img").is_displayed())
        self.assertTrue(self.in_view("[data-intro] img") and self.in_view("[data-meet]"))
        self.assertEqual(self.driver.execute_script("return scrollY"), 0)
        self.navigate(lambda: self.driver.find_element("css selector", "[data-meet]").click())
        # Not asked at once (a review: asked a second after meeting them, the name was only remembered): first a
        # round about someone else (the next new face, or someone due), then them.
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id)
        for between in range(4):
            if self.driver.find_elements("css selector", "[data-intro]"):
                self.assertNotIn(name, self.text("[data-intro-name]"))
                self.navigate(lambda: self.driver.find_element("css selector", "[data-meet]").click())
                continue
            if asked_of(self.game().get_attribute("data-round")) == person:
                break
            self.answer_right()
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        # Asked by name, or (while fewer than three are met) by their face, its first letter given.
        self.assertEqual(asked_of(self.game().get_attribute("data-round")), person)
        self.assertGreater(between, 0, "one round came between")
        round_id = self.game().get_attribute("data-round")
        card = card_of(round_id)
        self.assertEqual((card["state"], card["reviews"]), ("learning", 0), "met, not yet asked")
        self.answer_right()
        card = card_of(round_id)
        self.assertEqual((card["state"], card["step"], card["reviews"]), ("learning", 1, 1))
        self.assertAlmostEqual((card["due_ms"] - card["last_ms"]) / 60000, 1, msg="asked again after a minute")

    def test_a_wrong_pick_then_leaving_the_round_is_a_miss(self):
        self.meet_people(stability=1)  # picked among faces (a newcomer's first names are typed)
        round_id, answer = self.fresh_round("learn")
        before = card_of(round_id)
        lapses = before["lapses"] if before else 0
        self.choose((answer + 1) % self.choice_count())
        self.open("/")  # the player leaves the round unfinished
        card = card_of(round_id)
        self.assertEqual(card["lapses"], lapses + 1, "the wrong pick counted at once")
        self.assertLessEqual(card["due_ms"] - card["last_ms"], 60000, "they come back within a minute")
        # Finishing the round later does not count the same miss twice.
        self.open("/namegame/learn")
        self.choose(answer)
        self.assertEqual(card_of(round_id)["lapses"], lapses + 1)

    def test_the_cards_keep_their_size_when_the_names_come(self):
        for mode in ("normal", "team"):
            round_id, answer = self.fresh_round(mode)
            sizes = "return Array.from(document.querySelectorAll('button[data-choice]')).map(b => b.offsetHeight)"
            before = self.driver.execute_script(sizes)
            self.choose(answer)
            names = [e.text for e in self.driver.find_elements("css selector", "button[data-choice] .face-name")]
            self.assertTrue(all(names), f"{mode}: the names show once answered {names}")
            self.assertEqual(self.driver.execute_script(sizes), before, f"{mode}: no card grew or shrank")

    def test_at_400_percent_a_timed_question_brings_its_faces_into_sight(self):
        """A low-vision review at 400 % (320×225): a timed question showed the breadcrumb, the clock and the name asked
        for, every face below the foot, and the minute ran while it scrolled. The question goes to the top, where it
        stays, with the faces under it."""
        self.meet_people()
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        for _ in range(2):  # the first question (with its how-to line), then the next
            round_id, answer = self.fresh_round("timed")
            seen = self.driver.execute_script("""
                const box = s => document.querySelector(s).getBoundingClientRect().toJSON();
                return {question: box('h1.question'), face: box('button[data-choice]'), height: innerHeight};""")
            self.assertGreaterEqual(seen["question"]["top"], -1, seen)
            self.assertLessEqual(seen["face"]["top"], seen["height"] - 60, f"a face in sight: {seen}")
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "ng-timed-400-question.png"))
            # Scrolled to the last face, the time left is in sight: on the question held at the top (a later review
            # raced a clock 500 px above the screen).
            self.driver.execute_script("document.querySelector('button[data-choice]:last-of-type')"
                                       ".scrollIntoView({block: 'end'})")
            held = self.driver.execute_script("""const q = document.querySelector('h1.question');
                return {top: q.getBoundingClientRect().top, time: getComputedStyle(q, '::after').content,
                        left: document.querySelector('[data-seconds-left]').getAttribute('data-seconds-left')};""")
            self.assertGreaterEqual(held["top"], -1, held)
            self.assertIn(f'{held["left"]}\u00a0s', held["time"], held)
            self.choose(answer)

    def test_with_large_text_a_timed_question_is_held_under_its_clock(self):
        """A low-vision review, text at 200 % on a phone: scrolled to the faces, the name asked for lay under the clock
        held at the top, and the clock's bar ran past the screen's edge (More time, unshown, kept the line)."""
        self.meet_people()
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            self.fresh_round("timed")
            for scrolled in (False, True):
                if scrolled:
                    self.driver.execute_script("window.scrollBy(0, 300)")
                seen = self.driver.execute_script("""
                    const box = s => document.querySelector(s).getBoundingClientRect().toJSON();
                    return {question: box('h1.question'), clock: box('.timer'), bar: box('.timer-bar'),
                            page: document.documentElement.scrollWidth, height: innerHeight};""")
                self.assertGreaterEqual(seen["question"]["top"], seen["clock"]["bottom"] - 1,
                                        f"scrolled {scrolled}: the question under the clock, not beneath it: {seen}")
                self.assertLessEqual(seen["question"]["bottom"], seen["height"], seen)
                self.assertLessEqual(seen["bar"]["right"], 360, f"the clock's bar inside the screen: {seen}")
                self.assertLessEqual(seen["page"], 360, seen)
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_with_large_text_names_keep_their_words_whole(self):
        """A low-vision review, text at 200 % on a phone: three narrow columns split names into letters ("Fara / h /
        Lind / qvis / t"). Two columns, and every word of every name on one line; in Reverse too, whose two columns
        of names split them ("Ibarr / a", a later one): there one."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        # The answered round is read, not the next: a clean clone's run on a busy machine read the next question's
        # names after the right answer had moved on.
        self.hold_answers()
        try:
            for mode in ("normal", "reverse"):
                round_id, answer = self.fresh_round(mode)
                self.choose(answer)
                split = self.driver.execute_script("""
                    const range = document.createRange(), broken = [];
                    for (const name of document.querySelectorAll('button[data-choice] .face-name')) {
                      const text = Array.from(name.childNodes).find(n => n.nodeType === 3 && n.textContent.trim());
                      if (!text) continue;
                      for (const m of text.textContent.matchAll(/\\S+/g)) {
                        range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
                        const lines = new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size;
                        if (lines > 1) broken.push(m[0]);
                      }
                    }
                    return broken;""")
                self.assertEqual(split, [], mode)
                self.assertEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), 360, mode)
                # And grow with the text: they are what is learnt (a later review read them at a third of its size).
                if mode == "normal":
                    # (A long name is set a size smaller to stay whole: the largest is the names' size. Read from
                    # the first, a round whose first face had a long name failed a run.)
                    size = self.driver.execute_script(
                        "return Math.max(...[...document.querySelectorAll('.faces .face-name')]"
                        ".map(n => parseFloat(getComputedStyle(n).fontSize)))")
                    self.assertGreaterEqual(size, 19, "names at 200 % text (16 px before)")
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_in_team_mode_a_named_portrait_slides_clear_of_its_name(self):
        """Two reviews, Team on a phone: once answered, each card's name band lay over the portrait's mouth and chin
        (slid up by 0.6 of the band, then by all of it). The portrait is now whole above the name, no smaller than
        the card is wide, and the card keeps its size; and the portrait keeps its own, before the answer as after (a
        later review: filling the card until then, every face shrank under the finger that picked it)."""
        round_id, answer = self.fresh_round("team")
        geometry = """return [...document.querySelectorAll('.team-faces .face')].map(card => {
              const img = card.querySelector('img').getBoundingClientRect(), box = card.getBoundingClientRect(),
                    band = card.querySelector('.face-name').getBoundingClientRect();
              // From the card's top: the page may scroll a little to bring the answer's line into sight.
              return {img: img.bottom - box.top, band: band.top - box.top, size: img.height, width: box.width - 6,
                      card: box.height}; })"""
        before = self.driver.execute_script(geometry)
        self.choose(answer)
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", ".face-name[data-named]"))
        after = self.driver.execute_script(geometry)
        for card, was in zip(after, before):
            self.assertLessEqual(card["img"], card["band"] + 1, f"the portrait's foot under its name: {card}")
            self.assertGreaterEqual(card["size"], card["width"] - 1, f"the portrait shrunk: {card}")
            self.assertAlmostEqual(card["card"], was["card"], delta=1, msg=f"the card changed size: {was} → {card}")
            self.assertAlmostEqual(card["size"], was["size"], delta=1, msg=f"the portrait changed: {was} → {card}")
            self.assertAlmostEqual(card["img"], was["img"], delta=1, msg=f"the portrait moved: {was} → {card}")

    def test_with_large_text_the_face_asked_about_stays_in_sight_with_the_names(self):
        """A low-vision review, text at 200 % on a phone and at 400 %: in Reverse the face scrolled away while it read
        names 3 to 6, and it compared them with the face from memory. The held question carries a copy of it."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            self.fresh_round("reverse")
            self.assertEqual(self.driver.execute_script(
                "return getComputedStyle(document.querySelector('.question-face')).display"), "none", "at the top")
            self.driver.execute_script("[...document.querySelectorAll('button[data-choice]')].pop().scrollIntoView()")
            copy = WebDriverWait(self.driver, 10).until(
                lambda d: d.find_elements("css selector", "h1.question.has-face-away .question-face"))[0]
            seen = self.driver.execute_script("""const r = arguments[0].getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, width: r.width, same: arguments[0].src === document
                    .getElementById('round-face').src, on: document.elementFromPoint(r.left + r.width / 2,
                    r.top + r.height / 2) === arguments[0], name: document.querySelector('h1.question').textContent};""",
                copy)
            self.assertTrue(seen["top"] >= 0 and seen["bottom"] <= 740 and seen["on"], f"in sight: {seen}")
            self.assertGreaterEqual(seen["width"], 48, seen)
            self.assertTrue(seen["same"], seen)
            self.assertEqual(seen["name"].strip(), "Who is this?", "the copy adds nothing to the heading's words")
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "namegame-large-text-reverse-scrolled-360.png"))
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_at_400_percent_a_miss_shows_its_words_with_the_right_face_in_sight(self):
        """A low-vision review at 400 %: after a miss the page went to the right card, and the words about the miss
        were cut off at the window's foot. A short window shows the words from their first line, the right face
        beside them and their Next focused; a tall one still focuses the right card."""
        round_id, answer = self.fresh_round("normal")
        self.choose_wrong(answer)
        self.assertIsNotNone(self.driver.switch_to.active_element.get_attribute("data-answer"), "a phone: the card")
        self.choose(answer)  # the round ends
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        round_id, answer = self.fresh_round("normal")
        wrong = next(b for b in self.driver.find_elements("css selector", "button[data-choice]")
                     if int(b.get_attribute("data-choice")) != answer)
        self.navigate(lambda: self.driver.execute_script("arguments[0].click()", wrong))
        WebDriverWait(self.driver, 10).until(lambda d: d.switch_to.active_element.get_attribute("data-go-on") is not None)
        seen = self.driver.execute_script("""const box = e => e.getBoundingClientRect(),
            outcome = box(document.querySelector('[data-outcome]')), face = document.querySelector('[data-right-face]'),
            next = box(document.activeElement);
            return {top: outcome.top, face: box(face).bottom, next: next.bottom, height: innerHeight,
                    same: face.src === document.querySelector('button[data-answer] img').src};""")
        self.assertTrue(seen["top"] >= -1 and seen["face"] <= seen["height"] and seen["next"] <= seen["height"], seen)
        self.assertTrue(seen["same"], f"the right person's face: {seen}")

    def test_with_large_text_the_name_typed_stays_below_the_held_question(self):
        """A low-vision review, text at 200 % on a phone: typing a name, the field lay under the question held at the
        top (with its copy of the face), and it could not see what it typed."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            self.meet_people()  # people met: recall has their names typed
            self.fresh_round("recall")
            field = self.driver.find_element("css selector", "[data-recall-input]")
            # Scrolled as the review's page was, the field at the window's top edge, then typed in.
            self.driver.execute_script("window.scrollBy(0, arguments[0].getBoundingClientRect().top - 4)", field)
            field.send_keys("M")
            WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
                "return arguments[0].getBoundingClientRect().top >= "
                "document.querySelector('h1.question').getBoundingClientRect().bottom", field), "the field in sight")
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_with_large_text_a_typed_miss_shows_the_face_beside_the_name_to_type(self):
        """A low-vision review, text at 200 % on a phone: after a wrong typed name the page showed the correction and
        the field to type it once, the face scrolled away, at the moment to link the two."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            self.meet_people()
            self.fresh_round("recall")
            field = self.driver.find_element("css selector", "[data-recall-input]")
            field.send_keys("Zzzz")
            self.navigate(lambda: field.submit())
            retype = WebDriverWait(self.driver, 10).until(
                lambda d: d.find_element("css selector", "[data-retype-input]"))
            WebDriverWait(self.driver, 10).until(lambda d: d.switch_to.active_element == retype)
            seen = self.driver.execute_script("""const box = e => e.getBoundingClientRect();
                return {face: box(document.querySelector('[data-miss-face]')), field: box(arguments[0]),
                        height: innerHeight};""", retype)
            for part in ("face", "field"):
                self.assertTrue(seen[part]["height"] > 40 and seen[part]["top"] >= -1
                                and seen[part]["bottom"] <= seen["height"] + 1, f"{part} in sight: {seen}")
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
        # At the usual size the question's own face is in sight: no second one.
        self.assertFalse(self.driver.find_element("css selector", "[data-miss-face]").is_displayed())

    def test_at_400_percent_the_face_met_its_name_and_got_it_share_the_screen(self):
        """A low-vision review at 400 %: meeting someone, the page brought Got it into view and only the foot of the
        face showed above the name. Face and name side by side, they and Got it fit the 225-pixel window."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.open("/namegame/learn")
        for _ in range(6):
            if self.driver.find_elements("css selector", "[data-intro]"):
                break
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click(), meet=False)
        self.assertTrue(self.driver.find_elements("css selector", "[data-intro]"), "someone to meet")
        # As the page leaves it: Got it brought into view (it glides there), the page still.
        settled = "return new Promise(done => { const y = scrollY; setTimeout(() => done(scrollY === y), 300); })"
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(settled))
        seen = self.driver.execute_script("""const box = s => document.querySelector(s).getBoundingClientRect();
            return {face: box('[data-intro] img'), name: box('[data-intro-name]'), meet: box('[data-meet]'),
                    height: innerHeight};""")
        for part in ("face", "name", "meet"):
            self.assertTrue(seen[part]["top"] >= -1 and seen[part]["bottom"] <= seen["height"] + 1, f"{part}: {seen}")

    def test_with_large_text_a_questions_faces_are_faces_not_blank_room(self):
        """A low-vision review, text at 200 % on a phone: in Team, Normal and Timed each card was 299 px tall around
        a 134 px face (room kept for the name and the role to come), and six faces took two screens while the minute
        ran. Before the answer a card is its face; once answered it grows, as names there always could."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            for mode in ("team", "normal"):
                self.fresh_round(mode)
                cards = self.driver.execute_script("""return [...document.querySelectorAll('.faces > li')].map(l =>
                    [l.getBoundingClientRect().height, l.querySelector('img').getBoundingClientRect().height]);""")
                self.assertEqual(len(cards), 6, mode)
                for card, face in cards:
                    self.assertLessEqual(card, face + 40, f"{mode}: a card {card} px around a face of {face} px")
                self.driver.save_screenshot(os.path.join(ARTIFACTS, f"namegame-large-text-{mode}-question-360.png"))
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_with_large_text_more_time_moves_no_face(self):
        """A low-vision review, text at 200 % on a phone: with 20 s left, More time came into the clock held at the top
        and pushed the question and the faces down 125 px, mid-minute."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            round_id, answer = self.fresh_round("timed")
            self.shift_timed(round_id, 36000)  # 24 s left: More time comes within seconds
            self.open("/namegame/timed")
            # (The clock held at the top grew by the button; the page's scroll anchoring kept the faces where they were,
            # under a taller header: four of six in sight.)
            face = "return document.querySelector('.timer').getBoundingClientRect().height"
            before = self.driver.execute_script(face)
            self.assertTrue(self.driver.find_elements("css selector", ".more-time.is-later"), "not yet offered")
            button = WebDriverWait(self.driver, 10).until(
                lambda d: d.find_elements("css selector", ".more-time:not(.is-later) [data-more-time]"))[0]
            self.assertTrue(button.is_displayed())
            self.assertAlmostEqual(self.driver.execute_script(face), before, delta=1, msg="the clock grew")
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_with_large_text_the_face_met_and_a_miss_stay_in_sight(self):
        """A low-vision review, text at 200 % on a phone: meeting someone, the held heading covered the face to learn
        once the page scrolled to Got it; after a miss, Next sat over its words, one word a line."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            round_id, answer = self.fresh_round("normal")
            self.choose_wrong(answer)
            boxes = self.driver.execute_script("""
                const next = document.querySelector('.is-miss [data-next]').getBoundingClientRect();
                return [...document.querySelectorAll('.is-miss p')].flatMap(p => {
                  const words = document.createRange(); words.selectNodeContents(p);
                  return [...words.getClientRects()]; }).filter(r =>
                  r.left < next.right && next.left < r.right && r.top < next.bottom && next.top < r.bottom).length""")
            self.assertEqual(boxes, 0, "Next lies over the miss's words")
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "namegame-large-text-miss-360.png"))
            # A new player, whom Learn introduces to someone at once (this browser's player has met people by now).
            self.driver.delete_all_cookies()
            self.open("/namegame/learn")
            for _ in range(12):
                if self.driver.find_elements("css selector", "[data-intro]"):
                    break
                if self.driver.find_elements("css selector", "[data-start]") or self.game().get_attribute("data-answered"):
                    self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click(), meet=False)
                    continue
                self.navigate(lambda: self.driver.find_element(
                    "css selector", f'button[data-choice="{answer_of(self.game().get_attribute("data-round"))}"]').click(),
                    meet=False)
            self.assertTrue(self.driver.find_elements("css selector", "[data-intro]"), "someone new to meet")
            # Got it has the focus; with it in view (as the page brings it), the face above it is in sight, uncovered.
            settled = "return new Promise(done => { const y = scrollY; setTimeout(() => done(scrollY === y), 300); })"
            WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(settled))
            self.assertEqual(self.driver.switch_to.active_element.get_attribute("data-meet"), "")
            self.driver.execute_script("document.querySelector('[data-meet]').scrollIntoView({block: 'end'})")
            face = self.driver.execute_script("""
                const img = document.querySelector('[data-intro] img'), r = img.getBoundingClientRect();
                const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
                return {shown: (bottom - top) / r.height, on: img === document.elementFromPoint(r.left + r.width / 2,
                        (top + bottom) / 2), width: r.width};""")
            self.assertGreater(self.driver.execute_script("return scrollY"), 0, "scrolled to Got it")
            self.assertTrue(face["shown"] > 0.75 and face["on"], face)
            # The face to learn grows with the text (a later review: 140 px under a name in 48-px type).
            self.assertGreaterEqual(face["width"], 240, face)
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "namegame-large-text-meet-360.png"))
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_a_face_fills_its_card_until_the_names_come_then_clears_them(self):
        """A review: a blank band under every face while picking, a quarter of each card. Until the answer the portrait
        fills the card; once the names come, its mouth (the picture's middle two thirds) is above the name."""
        round_id, answer = self.fresh_round("normal")
        geometry = """return Array.from(document.querySelectorAll('button[data-choice]')).map(b => {
            const card = b.getBoundingClientRect(), img = b.querySelector('img').getBoundingClientRect(),
                  name = b.querySelector('.face-name').getBoundingClientRect();
            return {card: card.height - 6, img: Math.min(img.bottom, card.bottom - 3) - Math.max(img.top, card.top + 3),
                    mouth: img.top + img.height * 0.67, name: name.top}; })"""
        for card in self.driver.execute_script(geometry):
            self.assertGreaterEqual(card["img"], card["card"] - 1, f"the face fills its card {card}")
        self.choose(answer)
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", ".face-name[data-named]"))
        for card in self.driver.execute_script(geometry):
            self.assertLessEqual(card["mouth"], card["name"], f"the name covers no mouth {card}")

    def test_in_reverse_a_wrong_pick_moves_no_name_and_its_face_is_in_the_words(self):
        """A review: after an answer in a names mode the picked names grew a role and a face, their rows doubled and
        the grid jumped under the thumb; a low-vision review could not tell who the 27-px face beside a name picked
        by mistake was. The names stay as they were; the words about the miss carry both faces, cropped to the
        head."""
        round_id, answer = self.fresh_round("reverse")
        heights = "return [...document.querySelectorAll('button[data-choice]')].map(b => b.getBoundingClientRect().height)"
        before = self.driver.execute_script(heights)
        self.choose_wrong(answer)
        self.assertEqual(self.driver.execute_script(heights), before, "no name button changed its height")
        seen = self.driver.execute_script("""return ['[data-tapped] img[data-name-face]',
            '[data-right-name] img[data-right-face]'].map(s => { const i = document.querySelector(s);
              return i && {width: i.getBoundingClientRect().width, crop: getComputedStyle(i).objectViewBox}; });""")
        for face in seen:
            self.assertTrue(face and face["width"] >= 44 and "inset" in face["crop"], seen)

    def test_reverse_names_and_roles_fit_their_buttons(self):
        """Issue 41: after an answer in Reverse the role was clipped ("Marketin…") and the marks sat past the buttons'
        edge at 360 px. Each button holds its mark, name and role."""
        fits = """
            return Array.from(document.querySelectorAll('button[data-choice]')).filter(b => {
              const r = b.getBoundingClientRect();
              const out = Array.from(b.querySelectorAll('span:not(.visually-hidden)')).some(s => {
                const q = s.getBoundingClientRect();
                return q.width > 0 && (q.left < r.left - 1 || q.right > r.right + 1 || s.scrollWidth > s.clientWidth + 1);
              });
              return out || b.scrollWidth > b.clientWidth + 1 || r.right > innerWidth;
            }).map(b => b.textContent.trim());"""
        round_id, answer = self.fresh_round("reverse")
        self.choose(answer)
        self.assertEqual(self.driver.execute_script(fits), [], "after a right answer")
        round_id, answer = self.fresh_round("reverse")
        self.choose((answer + 1) % self.choice_count())
        self.assertEqual(self.driver.execute_script(fits), [], "after a wrong pick")
        self.screenshots("namegame-reverse-miss", "/namegame/reverse")

    def test_a_touch_screen_is_not_told_about_keys(self):
        """No keyboard, no key hints: not in How to play, not under the round, not on the faces."""
        self.open("/namegame/help")
        self.assertNotIn("Keys", self.text("[data-help]"))
        self.assertTrue(self.driver.find_elements("css selector", "[data-help] [data-key-hint]"), "it is in the page")
        self.fresh_round("normal")
        self.assertFalse(self.driver.find_element("css selector", "[data-keys]").is_displayed())
        self.assertEqual([e.text for e in self.driver.find_elements("css selector", "button[data-choice]")],
                         [""] * 6, "no key numbers on the faces")
        # With a mouse and a keyboard, the keys are explained.
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        self.open("/namegame/help")
        self.assertIn("Press 1–6 to choose.", self.text("[data-help]"))
        self.open("/namegame/normal")
        self.assertTrue(self.driver.find_element("css selector", "[data-keys]").is_displayed())

    def test_screenshots(self):
        self.fresh_round("normal")
        self.screenshots("namegame-round", "/namegame/normal")
        round_id, answer = self.fresh_round("team")
        self.choose(answer)
        self.screenshots("namegame-team-answered", "/namegame/team")
        self.fresh_round("reverse")
        self.screenshots("namegame-round-reverse", "/namegame/reverse")
        # Hints with its speed button beside "I don't know"; 50/50's two faces centred.
        self.fresh_round("hint")
        self.screenshots("namegame-hint", "/namegame/hint")
        self.fresh_round("fifty")
        self.screenshots("namegame-fifty", "/namegame/fifty")
        self.meet_people()
        self.fresh_round("timed")
        self.screenshots("namegame-timed", "/namegame/timed")
        self.open("/namegame/learn")
        self.screenshots("namegame-stats", "/namegame/stats")


class QuizIntroduction(NameGameHelpers, BrowserTest):
    width, height = 360, 740

    def test_a_quiz_introduces_someone_new_and_asks_about_them_later(self):
        """Teach before testing (issue 41; two reviews in a row: the quizzes opened on strangers, and a guess among
        strangers teaches nothing). A newcomer's first Reverse round opens on someone new: face, name and Got it on one
        phone screen, and a screen reader told who it is; Got it meets them, and the question about them comes later,
        not next (a later review: asked at once, it was matching a picture just seen)."""
        self.open("/namegame")
        self.reveal_mode("reverse")
        self.click_and_wait('button[data-play="reverse"]')
        round_id = self.game().get_attribute("data-round")
        name = self.text("[data-intro-name]")
        self.assertTrue(name)
        self.assertIsNone(card_of(round_id), "not met by looking")
        self.assertFalse(self.driver.find_elements("css selector", "button[data-choice]"), "no question yet")
        for part in ("[data-intro] img", "[data-intro-name]", "[data-meet]", "[role=progressbar]"):
            self.assertTrue(self.driver.execute_script(IN_VIEW_JS, self.driver.find_element("css selector", part)), part)
        self.assertEqual(self.driver.execute_script("return scrollY"), 0)
        WebDriverWait(self.driver, 10).until(lambda _: name in self.text("[data-announce]"), "its name is said")
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("namegame-quiz-intro", "/namegame/reverse")
        self.navigate(lambda: self.driver.find_element("css selector", "[data-meet]").click(), meet=False)
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id, "another round")
        asked = self.driver.find_elements("css selector", "[data-intro-name]") or self.driver.find_elements(
            "css selector", "button[data-choice]")
        self.assertTrue(asked, "someone else introduced, or a question")
        self.assertNotIn(name, " ".join(a.text for a in asked if a.get_attribute("data-intro-name") is not None),
                         "not the person just met again")


class LearnIntroScreenshots(NameGameHelpers, BrowserTest):
    def test_the_introduction_card(self):
        self.open("/namegame/learn")
        if self.driver.find_elements("css selector", "[data-start]"):
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        self.assertTrue(self.driver.find_elements("css selector", "[data-intro]"), "a new player meets someone first")
        # On a desktop the face met is the largest thing on the page, with Got it in view (a review: 190 px in a
        # 640 px column, the rest of the screen empty).
        seen = self.driver.execute_script("""const face = document.querySelector('[data-intro] img').getBoundingClientRect(),
            got = document.querySelector('[data-meet]').getBoundingClientRect();
            return {face: face.width, got: got.bottom, height: innerHeight};""")
        self.assertTrue(seen["face"] >= 280 and seen["got"] <= seen["height"], seen)
        self.screenshots("namegame-intro", "/namegame/learn")

    def test_the_name_met_can_be_heard(self):
        """A review: "names like Nwosu and Adeyemi are never spoken; Duolingo speaks". Where the browser has a voice,
        "Hear the name" says the name met in the page's language; without one (this headless browser has none) the
        button is not shown. (The browser's voice is stood in for: what it was asked to say is recorded.)"""
        self.open("/namegame/learn")
        if self.driver.find_elements("css selector", "[data-start]"):
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        button = self.driver.find_element("css selector", "[data-intro] button[data-say]")
        self.assertFalse(button.is_displayed(), "no voice, no button")
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.said = [];
            Object.defineProperty(speechSynthesis, 'getVoices', {value: () => [{name: 'a voice'}]});
            Object.defineProperty(speechSynthesis, 'speak', {value: words => window.said.push([words.text, words.lang])});"""})
        self.driver.refresh()
        button = self.driver.find_element("css selector", "[data-intro] button[data-say]")
        name = self.text("[data-intro-name]")
        button.click()
        self.assertEqual(self.driver.execute_script("return window.said"), [[name, "en"]])


if __name__ == "__main__":
    unittest.main()


class PeopleMet(NameGameHelpers, BrowserTest):
    """People you've met (reviews: nowhere to look someone up, no intervals to see): a search narrows the list as it
    is typed, on a phone as on a desktop; nobody unmet is listed."""

    def test_the_people_met_are_found_as_the_name_is_typed(self):
        self.meet_people(6)
        self.open("/namegame")
        self.click_and_wait("[data-people-link]")
        rows = self.driver.find_elements("css selector", "[data-met-people] > li")
        self.assertEqual(len(rows), 6)
        name = rows[2].find_element("css selector", "strong").text
        field = self.driver.find_element("id", "people-q")
        field.send_keys(name.split(" ")[1][:4].upper())
        shown = [r.find_element("css selector", "strong").text for r in rows if r.is_displayed()]
        self.assertIn(name, shown)
        self.assertLess(len(shown), 6, "narrowed as it is typed")
        self.assertFalse(self.driver.find_element("css selector", "[data-no-match]").is_displayed())
        # Said as it narrows (a blind review: the list narrowed in silence).
        found = self.driver.find_element("css selector", "[data-found]")
        self.assertEqual(found.get_attribute("role"), "status")
        self.assertEqual(found.text, "1 person found" if len(shown) == 1 else f"{len(shown)} people found")
        field.send_keys("zzz")
        self.assertEqual([r for r in rows if r.is_displayed()], [])
        self.assertTrue(self.driver.find_element("css selector", "[data-no-match]").is_displayed(), "nobody matches")
        self.assertEqual(found.text, "Nobody you’ve met matches that search.")
        # Asked of the server (Enter), the count comes with the page, the field focused and described by it (a blind
        # review landed on the page's body, told nothing).
        self.open("/namegame/people?q=" + name.split(" ")[0])
        focused = self.driver.switch_to.active_element
        self.assertEqual(focused.get_attribute("id"), "people-q")
        self.assertRegex(self.driver.find_element("id", "people-found").text, r"^\d+ (person|people) found$")
        self.assertEqual(self.axe_violations(), [])
        self.assertEqual(self.low_contrast(), [])
        # The faces grow with the text (a low-vision review, text at 200 %: 56 pixels beside 32-pixel names).
        face = "return document.querySelector('[data-met-people] img').getBoundingClientRect().width"
        self.open("/namegame/people")
        self.assertEqual(self.driver.execute_script(face), 64)
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        try:
            self.assertEqual(self.driver.execute_script(face), 128)
        finally:
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
        self.screenshots("namegame-people", "/namegame/people")
        # Test yourself: a face, then its name at a tap (or Enter), the rest still hidden; axe passes, light and dark.
        self.open("/namegame/people?view=study")
        cards = self.driver.find_elements("css selector", "details.study-card")
        self.assertGreater(len(cards), 1)
        name = cards[0].find_element("css selector", "[data-study-name]")
        self.assertFalse(name.is_displayed())
        cards[0].find_element("css selector", "summary").click()
        self.assertTrue(name.is_displayed())
        self.assertFalse(cards[1].find_element("css selector", "[data-study-name]").is_displayed())
        for theme in ("light", "dark"):
            self.emulate_scheme(theme)
            self.assertEqual(self.axe_violations(), [], theme)
            self.assertEqual(self.low_contrast(), [], theme)
        self.emulate_scheme("light")
        self.screenshots("namegame-people-study", "/namegame/people?view=study")

    def test_the_wall_of_faces_keeps_each_name_in_its_cell_on_a_phone(self):
        # An English reader's phone read "RavensworthDunmore": a long surname ran into the next face's cell.
        self.meet_people(200)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        try:
            self.open("/namegame/stats")
            spill = self.driver.execute_script("""
                return [...document.querySelectorAll('[data-wall] li:not(.wall-unknown)')]
                  .filter(li => li.scrollWidth > li.clientWidth + 1).map(li => li.textContent);""")
            self.assertGreater(len(self.driver.find_elements("css selector", "[data-wall] li img")), 100)
            self.assertEqual(spill, [])
            # And no name of the bundled directory breaks inside a word ("Underwoo / d", a later review).
            broken = self.driver.execute_script("""
                const range = document.createRange(), broken = [];
                for (const li of document.querySelectorAll('[data-wall] li')) {
                  const walk = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
                  for (let t = walk.nextNode(); t; t = walk.nextNode()) for (const m of t.textContent.matchAll(/\\S+/g)) {
                    range.setStart(t, m.index); range.setEnd(t, m.index + m[0].length);
                    if (new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1) broken.push(m[0]);
                  }
                }
                return broken;""")
            self.assertEqual(broken, [])
            self.driver.save_screenshot(os.path.join(ARTIFACTS, "namegame-wall-360.png"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
