import os
import time
"""Issue 46, by ear and by keyboard: what a screen reader is told (the accessibility tree, and a log of every live
region's changes) and where focus goes, in Mastermind and the Name Game; the settings beside Theme apply without a
reload, and single-key shortcuts can be turned off (WCAG 2.1.4)."""
import unittest

import test_namegame
from arcade_browser import ARTIFACTS, BrowserTest, gone
from mastermind_browser import MastermindHelpers, WebDriverWait, secret_of, wrong_guesses
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

# Installed before any page's own script: records the text of every live region (aria-live, role=status or alert)
# each time it changes after the page loaded. Text a region had at load, or was inserted with, is not recorded: a
# screen reader does not read it either (issue 46, item 6).
LIVE_LOG = """
window.__live = [];
(function () {
  var last = new Map();
  function regions() { return document.querySelectorAll('[aria-live], [role=status], [role=alert]'); }
  function look() {
    regions().forEach(function (el) {
      var text = el.textContent.trim();
      if (!last.has(el)) { last.set(el, text); return; }
      if (last.get(el) !== text) { last.set(el, text); if (text) window.__live.push(text); }
    });
  }
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true});
  document.addEventListener('DOMContentLoaded', look);
})();
"""

# Counts the cheat actions a page posts (one a key, in turn: the first at once from the key's own handler, when no
# earlier one is in flight).
CHEAT_SPY = """
window.__cheatPosts = 0;
var original = window.fetch;
window.fetch = function (url) {
  if (String(url).indexOf('/cheats/actions') >= 0) window.__cheatPosts += 1;
  return original.apply(this, arguments);
};
"""

# Notes the pitch of every tone a page starts (the site makes its sounds with the Web Audio API, not files).
SOUND_SPY = """
window.__tones = [];
if (window.AudioContext) {
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    const tone = make.call(this), start = tone.start.bind(tone);
    tone.start = (...at) => { window.__tones.push(Math.round(tone.frequency.value)); return start(...at); };
    return tone;
  };
}
"""


class Ear:
    """What a screen reader is told and where focus is; a mixin for the classes below."""

    def setUp(self):
        super().setUp()
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LIVE_LOG})

    def stretch_timers(self, from_ms):
        """The page's timers of `from_ms` or more stretched a hundredfold, on every page from now: what the page does
        after a beat is looked at before it, however slow the machine."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": f"""
            const later = window.setTimeout;
            window.setTimeout = (f, ms, ...rest) => later(f, ms >= {from_ms} ? ms * 100 : ms, ...rest);"""})

    def said(self):
        return self.driver.execute_script("return window.__live || []")

    def wait_said(self, check, what):
        WebDriverWait(self.driver, 10).until(lambda d: any(check(text) for text in self.said()),
                                             f"never said: {what}")

    def ax_names(self):
        """The names of every node a screen reader can reach (not ignored, not hidden), from the browser's own tree."""
        tree = self.driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
        return [node["name"]["value"] for node in tree["nodes"]
                if not node.get("ignored") and node.get("name", {}).get("value")]

    def focused(self):
        """What has focus, and whether it is inside the viewport."""
        return self.driver.execute_script(
            "const a = document.activeElement, b = a.getBoundingClientRect();"
            "return {tag: a.tagName, id: a.id, key: a.getAttribute('data-key'), next: a.hasAttribute('data-next'),"
            " answer: a.hasAttribute('data-answer'), text: a.textContent.trim(),"
            " inView: b.bottom > 0 && b.top < innerHeight && b.right > 0 && b.left < innerWidth}")



class MastermindByEarAndKeyboard(Ear, MastermindHelpers):
    def test_a_row_typed_at_speed_is_said_once_its_score(self):
        """A blind review typed 7777 and Enter in one burst and heard eight changes in 210 ms: each digit, the row, the
        same digit again, then the score that mattered, behind the echo. A burst is said once: its last words."""
        secret = self.start()
        guess = "7777" if secret != "7777" else "6666"
        # The keys in one burst however busy the machine: dispatched together, as a fast typist's arrive.
        self.driver.execute_script(
            "const b = document.getElementById('board'); b.focus();"
            "for (const key of arguments[0]) b.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));",
            list(guess) + ["Enter"])
        self.wait_rows(1)
        self.wait_said(lambda t: t.startswith(", ".join(guess) + ":"), "the row's score")
        said = self.said()
        self.assertEqual([t for t in said if not t.startswith(", ".join(guess) + ":")], [],
                         "nothing but the score: no digit, no row before it")

    def test_a_rows_pegs_are_heard_and_felt_as_they_turn(self):
        """A review heard sound only at a game's end, and no haptics. Each peg of a scored row ticks as it turns over,
        high for a right place, lower for a misplaced digit, low for neither, with a short buzz where a phone can; with
        Sounds off, neither."""
        spy = SOUND_SPY + "window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };"
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": spy})
        secret = self.start()
        guess = next(g for g in ("0123", "4567", "0011", "2345") if g != secret)
        red = sum(a == b for a, b in zip(guess, secret))
        blue = sum(min(guess.count(d), secret.count(d)) for d in set(guess)) - red
        self.keys(guess + Keys.ENTER)
        self.wait_rows(1)
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return window.__tones.length") >= 4)
        self.assertEqual(self.driver.execute_script("return window.__tones"),
                         [1175] * red + [784] * blue + [262] * (4 - red - blue), f"{guess} against {secret}")
        self.assertEqual(self.driver.execute_script("return window.__buzz"), [[8]])
        Select(self.driver.find_element("css selector", "[data-sound-select]")).select_by_value("off")
        WebDriverWait(self.driver, 10).until(
            lambda d: (d.find_element("tag name", "html").get_attribute("data-settings-saved") or "").endswith("/off"))
        self.open("/mastermind")
        self.keys(next(g for g in ("7654", "3210") if g != secret) + Keys.ENTER)
        self.wait_rows(2)
        self.assertEqual(self.driver.execute_script("return [window.__tones, window.__buzz]"), [[], []], "Sounds off")

    def test_mastermind_by_ear_and_by_keyboard(self):
        secret = self.start()
        # The row being typed is readable at any time (it was aria-hidden): empty, it says so.
        names = self.ax_names()
        self.assertIn("Your guess: blank, blank, blank, blank", names)
        # Decorative glyphs are drawn, not read ("▶︎ ARCADE", "Game ▾").
        self.assertEqual([n for n in names if "\u25b6" in n or "\u25be" in n], [])
        # The board, which takes the focus as the page loads, says which game it is (a blind review started mid-page
        # on "10 guesses left" and never heard "Daily #2").
        self.assertIn("Mastermind 10 guesses left", names)
        # Typing digits one by one: each is said, and the row reads as words in the accessibility tree (it was
        # aria-hidden).
        self.keys("1")
        self.wait_said(lambda t: t == "1", "the first digit")
        self.keys("2")
        self.wait_said(lambda t: t == "2", "the second digit")
        self.assertIn("Your guess: 1, 2, blank, blank", self.ax_names())
        self.keys(Keys.BACKSPACE)
        self.wait_said(lambda t: t == "2 deleted", "the deletion")
        # Enter on a focused keypad key types that key, and the key keeps focus.
        self.driver.execute_script("document.querySelector(\"[data-keypad] button[data-key='3']\").focus()")
        self.keys(Keys.ENTER)
        self.assertEqual(self.cells(), ["1", "3", "", ""])
        self.assertEqual(self.focused()["key"], "3")
        self.assertIn("Your guess: 1, 3, blank, blank", self.ax_names())
        # A full row is said whole, so it can be checked before it is sent.
        guess = "1300" if secret != "1300" else "1301"
        self.driver.execute_script("document.getElementById('board').focus()")
        self.keys(guess[2:])
        self.wait_said(lambda t: t.endswith("Your guess: " + ", ".join(guess)), "the whole row")
        # Sent from the keypad's Enter key by keyboard: the row's result is said, and focus stays on that key, in view.
        self.driver.execute_script("document.querySelector(\"[data-keypad] button[data-key='Enter']\").focus()")
        self.keys(Keys.ENTER)
        self.wait_rows(1)
        self.wait_said(lambda t: t.startswith(", ".join(guess) + ":"), "the row's result, digit by digit")
        focus = self.focused()
        self.assertEqual((focus["key"], focus["inView"]), ("Enter", True), focus)
        # Hint, pressed by Enter from the keyboard: first its question (a hint takes a win out of the chart), said,
        # with focus on its answer, in view; Enter again, and the hint itself is said, stays on screen, and focus goes
        # to its "Type it in" (a keyboard review found it three Tabs away), in view.
        hint = self.driver.find_element("css selector", "form[action='/mastermind/hint'] button")
        self.driver.execute_script("arguments[0].focus()", hint)
        self.keys(Keys.ENTER)
        ask = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-hint-ask]"))
        # A question with its answers: a dialog, named by its words (a review found no role and no name).
        self.assertEqual((ask.aria_role, ask.accessible_name), ("dialog", ask.get_attribute("data-hint-spoken")))
        self.wait_said(lambda t: t == ask.get_attribute("data-hint-spoken") and "guess chart" in t, "Hint's question")
        focus = self.focused()
        self.assertEqual((focus["text"], focus["inView"]), ("Show a hint", True), focus)
        self.keys(Keys.ENTER)
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-message] [data-hint]"))
        shown = self.driver.find_element("css selector", "[data-message] [data-hint]")
        # Its code said digit by digit (a blind review heard "4455" as a number).
        spelled = ", ".join(shown.get_attribute("data-hint"))
        self.wait_said(lambda t: t == shown.get_attribute("data-hint-spoken") and spelled in t, "the hint")
        focus = self.focused()
        self.assertEqual((focus["text"], focus["inView"]), ("Type it in", True), focus)
        self.assertEqual(self.rows(), 1, "Enter on Hint gave a hint, not the row")
        # A digit typed there goes to the row, the focus with it to the board; taken back, Enter on "Type it in" types
        # the hint in.
        self.keys("5")
        self.assertEqual((self.cells()[0], self.focused()["id"]), ("5", "board"))
        self.keys(Keys.BACKSPACE)
        self.driver.execute_script("document.querySelector('[data-message] [data-hint-type]').focus()")
        self.keys(Keys.ENTER)
        self.assertEqual(self.cells(), list(shown.get_attribute("data-hint")))
        self.assertEqual((self.focused()["id"], self.rows()), ("board", 1), "typed in, not sent")
        # axe, in every theme, each chosen with the select (no reload) on this board with its hint.
        select = Select(self.driver.find_element("css selector", "[data-theme-select]"))
        for value in ["", "light", "dark", "contrast"]:
            select.select_by_value(value)
            self.assertEqual(self.axe_violations(), [], value or "system")
        self.assertEqual(self.rows(), 1)


    def test_a_keyboard_opens_the_game_menu_with_enter(self):
        """A review: Enter on the Game button, reached with Tab, sent the row and spent a try. Reached by keyboard it
        opens the menu; Escape closes it and gives focus back to the button."""
        self.start()
        self.keys("12")
        for _ in range(40):
            self.keys(Keys.TAB)
            if self.driver.execute_script("return document.activeElement.matches('.mm-menu > summary')"):
                break
        self.assertTrue(self.driver.execute_script("return document.activeElement.matches('.mm-menu > summary')"))
        self.keys(Keys.ENTER)
        menu = self.driver.find_element("css selector", ".mm-menu")
        WebDriverWait(self.driver, 10).until(lambda d: menu.get_attribute("open"))
        self.assertEqual(self.rows(), 0, "no row sent")
        self.assertEqual([p.text for p in self.driver.find_elements("css selector", "[data-message] [data-flash]")], [],
                         "no 'not enough digits'")
        # Escape closes it and gives focus back to its button, as a menu button does, where Enter opens it again.
        self.keys(Keys.ESCAPE)
        self.assertIsNone(menu.get_attribute("open"))
        self.assertTrue(self.driver.execute_script("return document.activeElement.matches('.mm-menu > summary')"))
        self.keys(Keys.ENTER)
        WebDriverWait(self.driver, 10).until(lambda d: menu.get_attribute("open"))
        self.assertEqual(self.rows(), 0, "no row sent")
        # The arrows move between its items, as a menu's do (a keyboard review: only Tab did), and wrap; Home and End
        # go to the ends; the page does not scroll.
        items = self.driver.execute_script(
            "return Array.from(document.querySelectorAll('.mm-menu[open] > ul a, .mm-menu[open] > ul button'))"
            ".filter(e => e.getClientRects().length).map(e => e.textContent.trim())")
        self.assertGreaterEqual(len(items), 3, items)
        scrolled = self.driver.execute_script("return scrollY")
        focused = lambda: self.driver.execute_script("return document.activeElement.textContent.trim()")
        self.keys(Keys.ARROW_DOWN)
        self.assertEqual(focused(), items[0])
        self.keys(Keys.ARROW_DOWN)
        self.assertEqual(focused(), items[1])
        self.keys(Keys.ARROW_UP + Keys.ARROW_UP)
        self.assertEqual(focused(), items[-1], "Up from the first wraps to the last")
        self.keys(Keys.HOME)
        self.assertEqual(focused(), items[0])
        self.keys(Keys.END)
        self.assertEqual(focused(), items[-1])
        self.assertEqual(self.driver.execute_script("return scrollY"), scrolled)
        self.keys(Keys.ESCAPE)
        self.assertIsNone(menu.get_attribute("open"))
        self.keys(Keys.ENTER)
        WebDriverWait(self.driver, 10).until(lambda d: menu.get_attribute("open"))
        # A digit typed there goes to the board, which takes the focus (and the menu closes): the Enter that follows
        # sends the row, not the button's (a review: digits typed on Hint, then Enter, spent a hint).
        self.keys("34")
        self.assertIsNone(menu.get_attribute("open"))
        self.assertEqual(self.focused()["id"], "board")
        self.assertEqual(self.cells(), ["1", "2", "3", "4"])
        self.keys(Keys.ENTER)
        self.wait_rows(1)

    def test_a_dialog_chosen_from_the_menu_by_keyboard_gives_focus_back_to_the_menu_button(self):
        """A review: Escape on How to play or Give up, chosen from the Game menu with the keyboard, left focus on the
        board, away from the menu. Chosen by keyboard, both give it back to the Game button (a menu button's way)."""
        secret = self.start()
        self.tap(wrong_guesses(secret)[0])  # a guess made: something to give up
        self.wait_rows(1)
        self.keys("12")
        on_button = "return document.activeElement.matches('.mm-menu > summary')"
        for item in ("a[data-help-link]", "a[data-giveup-link]"):
            with self.subTest(item=item):
                self.driver.execute_script("document.querySelector('.mm-menu > summary').focus()")
                self.keys(Keys.ENTER)
                menu = self.driver.find_element("css selector", ".mm-menu")
                WebDriverWait(self.driver, 10).until(lambda d: menu.get_attribute("open"))
                self.driver.execute_script("document.querySelector(arguments[0]).focus()", ".mm-menu " + item)
                self.keys(Keys.ENTER)
                WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "dialog[open]"))
                self.keys(Keys.ESCAPE)
                WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
                self.assertTrue(self.driver.execute_script(on_button), self.focused())
        self.assertEqual(self.rows(), 1, "nothing sent, nothing given up")
        self.assertEqual(self.cells()[:2], ["1", "2"])

    def test_focus_stays_on_the_board_through_a_win_and_a_refusal_says_only_itself(self):
        secret = self.start()
        miss = [g for g in ("0123", "4567", "7654") if g != secret][0]
        self.driver.execute_script("window.boardBefore = document.getElementById('board'); window.boardBefore.focus()")
        self.keys(miss + Keys.ENTER)
        self.wait_rows(1)
        # The board focused before the guess is the board focused after it: focus did not move, so a screen reader
        # says the row's result alone, not the board's name on top of it (a review).
        self.assertTrue(self.driver.execute_script(
            "return document.activeElement === window.boardBefore && window.boardBefore.isConnected"))
        self.wait_said(lambda t: t.startswith(", ".join(miss) + ":"), "the row's score, said a beat after the keys")
        said = len(self.said())
        self.keys(miss + Keys.ENTER)
        WebDriverWait(self.driver, 10).until(lambda d: any("already" in t for t in self.said()[said:]))
        self.assertFalse(any(t.startswith(", ".join(miss) + ":") for t in self.said()[said:]),
                         "the refused row is not said as if it were scored again")
        for _ in range(4):
            self.keys(Keys.BACKSPACE)
        said = len(self.said())
        self.keys(secret + Keys.ENTER)
        # Through the reveal until the results take it, focus never falls to the page's body.
        seen = set()
        for _ in range(60):
            seen.add(self.driver.execute_script("return document.activeElement.tagName"))
            if self.driver.find_elements("css selector", "dialog[open][data-results-dialog]"):
                break
            self.driver.execute_script("return new Promise(r => setTimeout(r, 50))")
        self.assertNotIn("BODY", seen, seen)
        # The win is said at once with the row's score, in two words (a blind review heard the card's title after
        # 1.3 s of silence), once: the card's heading, focused, then says it in full (an earlier blind review heard
        # the whole win twice, 2 s apart).
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
            "return document.activeElement && document.activeElement.id") == "result-title")
        self.assertEqual([t for t in self.said()[said:] if "racked" in t],
                         [", ".join(secret) + ": 4 in place, 0 misplaced. Code cracked!"], self.said()[said:])

    def test_the_codes_left_switch_and_a_konami_reveal_are_each_said_once(self):
        """A blind review: the switch's state went unsaid (the last row was said again), and a Konami's unlock, the
        board's last row and the revealed digit came as three announcements close together."""
        secret = self.start()
        miss = wrong_guesses(secret)[0]
        self.keys(miss + Keys.ENTER)
        self.wait_rows(1)
        row = ", ".join(miss) + ":"
        self.wait_said(lambda t: t.startswith(row), "the row's result")
        said = len(self.said())
        self.driver.find_element("css selector", ".mm-menu summary").click()
        self.driver.find_element("css selector", "[data-codes-left-switch]").click()
        self.wait_said(lambda t: t.startswith("Possible codes are shown"), "the switch's new state")
        self.assertFalse(any(t.startswith(row) for t in self.said()[said:]), "the last row is not said again")
        # Switched back by keyboard, focus stays on the switch, its menu open (a blind review was moved to the board and
        # had to go back through the menu to hear the switch's state; a keyboard review, left on the closed menu's
        # button, could not see it); Escape then closes the menu to its button.
        summary = self.driver.find_element("css selector", ".mm-menu summary")
        self.driver.execute_script("arguments[0].focus()", summary)
        self.keys(Keys.ENTER)
        switch = self.driver.find_element("css selector", "[data-codes-left-switch]")
        self.driver.execute_script("arguments[0].focus()", switch)
        self.keys(Keys.SPACE)
        self.wait_said(lambda t: t.startswith("Possible codes are hidden"), "the switch's state, off")
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
            "return document.activeElement.matches('.mm-menu[open] [data-codes-left-switch]')"), "focus on the switch")
        switch = self.driver.switch_to.active_element
        self.assertEqual(switch.get_attribute("aria-checked"), "false")
        self.assertTrue(switch.is_displayed(), "the switch in sight")
        self.keys(Keys.ESCAPE)
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
            "return document.activeElement.matches('.mm-menu:not([open]) > summary')"), "Escape: to the Game button")
        # A note says the place it is for (the same review: "5: ruled out here" named no place); notes on say where
        # they go and how to move them, the arrows move them, and a note taken back says so (a blind review heard
        # neither the place nor a way to change it, and a note removed sounded like a digit typed).
        self.driver.find_element("css selector", "[data-keypad] button[data-notes]").click()
        self.wait_said(lambda t: t.startswith("Notes on: a digit you press is ruled out for place 1.")
                       and "arrow keys" in t, "where notes go")
        self.driver.execute_script("document.getElementById('board').focus()")
        self.keys("5")
        self.wait_said(lambda t: t == "5: ruled out in place 1", "the note and its place")
        # The row's words carry it (a blind review walked every place with the arrows to hear its notes).
        WebDriverWait(self.driver, 10).until(
            lambda d: "Your guess: blank, blank, blank, blank Place 1. Ruled out: 5." in self.ax_names(),
            "the row's words with its note")
        self.keys(Keys.ARROW_RIGHT)
        self.wait_said(lambda t: t == "Place 2. Nothing ruled out.", "the place moved")
        self.keys(Keys.ARROW_LEFT)
        self.wait_said(lambda t: t == "Place 1. Ruled out: 5.", "back, with its note")
        self.keys("5")
        self.wait_said(lambda t: t == "5: no longer ruled out in place 1", "the note taken back")
        self.driver.find_element("css selector", "[data-keypad] button[data-notes]").click()
        self.wait_said(lambda t: t == "Notes off.", "notes off")
        self.driver.execute_script("document.getElementById('board').focus()")
        said = len(self.said())
        self.keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT, Keys.ARROW_RIGHT,
                   Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b", "a"])
        self.wait_said(lambda t: t.startswith("Cheat unlocked") and "Position " in t,
                       "the unlock with the reveal's place and digit, as one announcement")
        later = [t for t in self.said()[said:] if t]
        self.assertFalse(any(t.startswith(row) for t in later), later)
        # Once (a blind review heard the place and digit twice in the one announcement).
        self.assertEqual(sum(t.lower().count("position ") for t in later), 1, later)

    def test_a_key_reached_by_tab_is_ringed_twice(self):
        """A review tabbing through the keypad lost its place: on a row of orange keys one ring was hard to find. The
        focused key has the page's colour inside its ring as well, in light and dark; the others none."""
        self.start()
        self.driver.execute_script("document.querySelector(\"[data-keypad] button[data-key='7']\").focus()")
        self.keys(Keys.TAB)
        self.assertTrue(self.driver.execute_script("return !!document.activeElement.closest('[data-keypad]')"))
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": scheme}]})
            rings = self.driver.execute_script("""return [...document.querySelectorAll('[data-keypad] button')]
                .filter(b => b.offsetParent).map(b => [b === document.activeElement,
                  getComputedStyle(b).boxShadow.includes('inset'), getComputedStyle(b).outlineStyle]);""")
            self.assertIn([True, True, "solid"], rings, scheme)
            self.assertTrue(all(not inset for focus, inset, _ in rings if not focus), rings)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_a_320_pixel_screen_keeps_the_rows_on_it(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        try:
            self.start()
            self.keys("0123" + Keys.ENTER)
            self.wait_rows(1)
            edges = self.driver.execute_script(
                "return [...document.querySelectorAll('#board .board > li')].map(li => {"
                " const r = li.getBoundingClientRect(); return [r.left, r.right]; })")
            self.assertTrue(all(left >= 0 and right <= 320 for left, right in edges), edges)
            self.assertEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), 320)
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


class NameGameByEar(Ear, test_namegame.NameGameHelpers, BrowserTest):
    def test_name_game_says_what_happened_and_who(self):
        round_id, answer = self.fresh_round("normal")
        wrong = (answer + 1) % self.choice_count()
        self.choose(wrong)
        # Called a miss first ("Wrong."), as a right answer is "Right: …" (a blind review heard no "wrong").
        tapped = " ".join(self.text("[data-tapped]").split())
        right = self.text("[data-right-name]")
        self.assertTrue(tapped.startswith("Wrong. "), tapped)
        # Said as the right face takes the focus, its words first, then whom it was looking for: by the live region
        # too, the two came at once, one over the other (a blind review).
        focus = self.focused()
        self.assertTrue(focus["answer"] and focus["inView"], focus)
        heard = " ".join(focus["text"].split())
        name = self.text(f'button[data-choice="{answer}"] .face-name')
        self.assertTrue(name and name in right, (name, right))
        self.assertTrue(heard.startswith(tapped) and name in heard, heard)
        time.sleep(0.5)  # the region fills 150 ms after the load: give it the chance to say it anyway
        self.assertEqual([t for t in self.said() if tapped in t], [], "not said over the focus")
        # The face focused says it is the answer (a blind review heard a face's description and name, nothing more),
        # its name first, then how it looks (a later one waited 20 words for the name).
        self.assertTrue(any(n.startswith(tapped + " The answer: " + name) and "Face" in n for n in self.ax_names()),
                        self.ax_names())
        # After a miss the right face only moves on (a miss stays a miss): a right answer, in the next round.
        self.choose(answer)
        answer = test_namegame.answer_of(self.game().get_attribute("data-round"))
        self.choose(answer)
        line = self.text("[data-outcome] [data-right-name]")
        self.wait_said(lambda t: line in t, "the right answer")
        focus = self.focused()
        self.assertTrue(focus["next"] and focus["inView"], focus)
        self.assertEqual(self.axe_violations(), [])


    def test_enter_on_add_a_note_opens_it(self):
        """A keyboard review pressed Enter on "Add a note to remember them by", twice, and went on to the next round,
        the person met gone. Enter opens it; the round stays."""
        self.start_mode("learn")
        round_id = self.game().get_attribute("data-round")
        self.assertTrue(self.driver.find_elements("css selector", "[data-intro]"), "someone to meet")
        summary = self.driver.find_element("css selector", "[data-intro] .note-edit summary")
        self.driver.execute_script("arguments[0].focus()", summary)
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()
        WebDriverWait(self.driver, 5).until(
            lambda d: d.find_element("css selector", "[data-intro] .note-edit").get_attribute("open") is not None)
        self.assertEqual(self.game().get_attribute("data-round"), round_id, "the same introduction")

    def start_mode(self, mode):
        """A first visit to a mode by address (its start card), started; auto-advance stays on."""
        self.open(f"/namegame/{mode}")
        if self.driver.find_elements("css selector", "[data-start]"):
            self.navigate(lambda: self.driver.find_element("css selector", "[data-start] button[data-next]").click())

    def test_a_right_answer_is_said_once_before_the_round_moves_on(self):
        """A review heard nothing after a right answer (the round moved on after a second); carried to the next
        round, it was heard twice (a later one). It is said on its own page, which stays 1.7 s, and not again."""
        self.meet_people()  # people met: the quiz asks rather than introduces
        self.start_mode("normal")
        round_id = self.game().get_attribute("data-round")
        self.choose(test_namegame.answer_of(round_id))
        line = self.text("[data-outcome] [data-right-name]")
        self.wait_said(lambda t: line in t, "the right answer, on its page")
        WebDriverWait(self.driver, 10).until(
            lambda d: self.game().get_attribute("data-round") not in (None, round_id), "moved on by itself")
        self.assertTrue(self.text("#round-question"))
        time.sleep(0.5)  # the new page's region fills 150 ms after its load: give it the chance to say it again
        self.assertFalse(any(line in t for t in self.said()), "said again on the next round (its own log)")

    def test_an_answer_is_heard_once_and_never_with_sounds_off(self):
        """A review: "no sound", where Duolingo's feedback is heard as well as seen. A right answer rises, a miss
        falls, each once (a reload is quiet); "I don't know" is not punished with one; Sounds off in the settings, none."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOUND_SPY})
        self.hold_answers()
        self.meet_people()
        self.start_mode("normal")
        tones = lambda: self.driver.execute_script("return window.__tones")
        round_id = self.game().get_attribute("data-round")
        self.choose(test_namegame.answer_of(round_id))
        self.assertEqual(tones(), [660, 880], "right: a rising pair")
        self.navigate(lambda: self.driver.refresh())
        self.assertEqual(tones(), [], "heard once")
        self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        self.choose_wrong(test_namegame.answer_of(self.game().get_attribute("data-round")))
        self.assertEqual(tones(), [330, 247], "a miss: a falling pair")
        # The right face tapped after the miss: the round's own, heard already (and then the next round).
        self.navigate(lambda: self.driver.find_element("css selector", "button[data-answer]").click())
        self.assertEqual(tones(), [], "the miss's round is heard once")
        if self.game().get_attribute("data-answered"):
            self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        self.navigate(lambda: self.driver.find_element("css selector", "button[data-dontknow]").click())
        self.assertEqual(tones(), [], "I don't know")
        self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
        Select(self.driver.find_element("css selector", "[data-sound-select]")).select_by_value("off")
        WebDriverWait(self.driver, 10).until(
            lambda d: (d.find_element("tag name", "html").get_attribute("data-settings-saved") or "").endswith("/off"))
        self.navigate(lambda: self.driver.refresh())
        self.assertEqual(self.driver.find_element("tag name", "html").get_attribute("data-sound"), "off")
        self.choose(test_namegame.answer_of(self.game().get_attribute("data-round")))
        self.assertEqual(tones(), [], "sounds off")

    def test_with_reduced_motion_next_counts_down_before_the_round_moves_on(self):
        """A review with reduced motion: the round moved on by itself after 4 s with nothing to warn of it (the bar
        along Next stands still then). Next counts the seconds down instead, hidden from the ear; from 2, the pace of
        a right answer without reduced motion (a later review: 4 s slowed every right answer)."""
        self.meet_people()
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            self.start_mode("normal")
            round_id = self.game().get_attribute("data-round")
            self.choose(test_namegame.answer_of(round_id))
            count = WebDriverWait(self.driver, 5).until(
                lambda d: d.find_element("css selector", "button[data-next] [data-advance-count]"))
            self.assertEqual(count.get_attribute("aria-hidden"), "true")
            first = int(count.text)
            self.assertEqual(first, 2)
            WebDriverWait(self.driver, 5).until(lambda d: count.text and int(count.text) < first, "it counts down")
            WebDriverWait(self.driver, 10).until(
                lambda d: self.game().get_attribute("data-round") not in (None, round_id), "then moves on")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_a_digit_pressed_on_a_link_answers_nothing(self):
        """A keyboard review pressed 3 with "How to play" focused, and the round was answered (wrongly): on a link a
        digit is the link's, as on Mastermind's board. The round is then answered right by the next digit."""
        self.start_mode("normal")
        answer = test_namegame.answer_of(self.game().get_attribute("data-round"))
        wrong = str((answer + 1) % 6 + 1)
        self.driver.execute_script("document.querySelector('[data-help-link]').focus()")
        ActionChains(self.driver).send_keys(wrong).perform()
        self.driver.execute_script("document.activeElement.blur()")
        self.navigate(lambda: ActionChains(self.driver).send_keys(str(answer + 1)).perform())
        self.assertEqual(self.driver.find_elements("css selector", "[data-result='wrong']"), [], "no wrong pick")
        self.assertTrue(self.game().get_attribute("data-identified") is not None)

    def test_a_right_answer_by_keyboard_waits_for_enter(self):
        """A blind review: the page moved on 2.6 s after a right answer, while it was still being read. An answer
        given by keyboard stays, said, until Enter; a tap's moves on by itself (the test above)."""
        self.start_mode("normal")
        round_id = self.game().get_attribute("data-round")
        answer = test_namegame.answer_of(round_id)
        self.navigate(lambda: ActionChains(self.driver).send_keys(str(answer + 1)).perform())
        line = self.text("[data-outcome] [data-right-name]")
        self.wait_said(lambda t: line in t, "the right answer")
        self.assertNotIn("is-advancing", self.game().get_attribute("class"), "no countdown to the next round")
        self.assertEqual(self.game().get_attribute("data-round"), round_id)
        # The switch says so: "Pause after right answers" ticked (two reviews saw it unticked while every keyboard
        # answer waited).
        box = self.driver.find_element("css selector", "[data-wait-next]")
        self.assertTrue(box.is_displayed() and box.is_selected(), "the switch shows the pause")
        self.navigate(lambda: ActionChains(self.driver).send_keys(Keys.ENTER).perform())
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id)
        # Unticked, by keyboard, it moves this answer on, and the next keyboard answer moves on by itself too. (The
        # page's beat is stretched, so the answer is looked at before it ends on any machine; Next then ends it.)
        self.stretch_timers(1000)
        try:
            for _ in range(2):
                round_id = self.game().get_attribute("data-round")
                if not self.driver.find_elements("css selector", "button[data-choice]"):  # someone new, met first
                    self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
                    round_id = self.game().get_attribute("data-round")
                answer = test_namegame.answer_of(round_id)
                self.navigate(lambda: ActionChains(self.driver).send_keys(str(answer + 1)).perform())
                box = self.driver.find_element("css selector", "[data-wait-next]")
                if box.is_selected():
                    self.driver.execute_script("arguments[0].focus()", box)
                    ActionChains(self.driver).send_keys(Keys.SPACE).perform()
                    self.assertFalse(box.is_selected())
                else:
                    self.assertIn("is-advancing", self.game().get_attribute("class"), "the next one moves on itself")
                self.assertIn("is-advancing", self.game().get_attribute("class"), "moving on by itself")
                self.navigate(lambda: self.driver.find_element("css selector", "button[data-next]").click())
                self.assertNotEqual(self.game().get_attribute("data-round"), round_id)
        finally:
            self.driver.execute_script("localStorage.removeItem('namegame.autoAdvance')")

    def test_a_timed_right_answer_by_keyboard_moves_on_by_itself(self):
        """A review: in a timed minute a number key's answer waited for Enter while the clock ran (59 to 54 s)."""
        self.meet_people()
        self.start_mode("timed")
        round_id = self.game().get_attribute("data-round")
        answer = test_namegame.answer_of(round_id)
        self.navigate(lambda: ActionChains(self.driver).send_keys(str(answer + 1)).perform())
        WebDriverWait(self.driver, 10).until(
            lambda d: self.game().get_attribute("data-round") not in (None, round_id), "moved on by itself")

    def question_heard(self):
        """What a screen reader reads as the focus lands on a question: its heading's words, when it has the focus."""
        return self.driver.execute_script(
            "const a = document.activeElement;"
            "return a.matches('h1.question') ? a.textContent.replace(/\\s+/g, ' ').trim() : ''")

    def test_a_timed_answer_is_said_once(self):
        """A blind review heard every timed answer twice: in full on its own page, then shorter on the next question,
        where its words are carried. They are said there only, first: a later review heard them a second after the next
        question, from the live region; they open that question's heading, read as it takes the focus. (The page's
        beat is stretched so it is looked at.)"""
        self.meet_people()
        self.stretch_timers(500)
        self.start_mode("timed")
        round_id = self.game().get_attribute("data-round")
        answer = test_namegame.answer_of(round_id)
        self.navigate(lambda: ActionChains(self.driver).send_keys(str(answer + 1)).perform())
        self.assertIn("is-advancing", self.game().get_attribute("class"))
        line = self.text("[data-outcome] [data-right-name]")
        self.driver.execute_script("window.__looked = false; setTimeout(() => { window.__looked = true; }, 400)")
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return window.__looked"))
        self.assertEqual([t for t in self.said() if line in t], [], "not said on the answer's own page")
        self.navigate(lambda: ActionChains(self.driver).send_keys(Keys.ENTER).perform())
        WebDriverWait(self.driver, 10).until(lambda d: self.question_heard().startswith(line), "the answer, first")
        self.driver.execute_script("window.__looked = false; setTimeout(() => { window.__looked = true; }, 400)")
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return window.__looked"))
        self.assertEqual([t for t in self.said() if line in t], [], "not said again after the question")

    def timed_miss_by_key(self):
        """A timed minute's first round missed by its key, the page's own beat stretched so only a key moves it on:
        the round and the (0-based) face picked."""
        self.meet_people()
        self.stretch_timers(1000)
        self.start_mode("timed")
        round_id = self.game().get_attribute("data-round")
        wrong = (test_namegame.answer_of(round_id) + 1) % len(self.driver.find_elements("css selector", "[data-choice]"))
        self.navigate(lambda: ActionChains(self.driver).send_keys(str(wrong + 1)).perform())
        return round_id, wrong

    def test_a_timed_miss_says_who_was_asked_for(self):
        """A blind review heard a timed miss as "Wrong. That's Rosa Xiong." and never who was right: the next question
        says both, as a miss outside a timed minute does."""
        round_id, wrong = self.timed_miss_by_key()
        words = "return document.querySelector(arguments[0]).textContent.replace(/\\s+/g, ' ').trim()"
        tapped = self.driver.execute_script(words, "[data-outcome] [data-tapped]")
        right = self.driver.execute_script(words, "[data-outcome] [data-right-name]")
        self.assertTrue(tapped and right, (tapped, right))
        self.navigate(lambda: ActionChains(self.driver).send_keys(str(wrong + 1)).perform())
        WebDriverWait(self.driver, 10).until(
            lambda d: (lambda t: tapped in t and right in t)(self.question_heard()), "who was tapped, who asked for")

    def test_a_timed_miss_by_keyboard_goes_on_at_the_next_digit(self):
        """A review pressed digits after a timed miss and the round stood still while the clock ran: the next digit
        goes on at once (the page's own beat is stretched here, so only the key can move it on)."""
        round_id, wrong = self.timed_miss_by_key()
        self.assertTrue(self.game().get_attribute("data-taught") and self.game().get_attribute("data-round") == round_id)
        self.assertIn("is-advancing", self.game().get_attribute("class"))
        # The same digit again: its face is done, and the one to go on with is the next question.
        self.navigate(lambda: ActionChains(self.driver).send_keys(str(wrong + 1)).perform())
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id, "on to the next question")

    def test_someone_new_is_said_by_name(self):
        self.start_mode("learn")
        name = self.text("[data-intro-name]")
        self.wait_said(lambda t: name in t, "the new person's name")

    def test_a_mode_that_waits_for_people_met_gives_the_focus_to_its_way_on(self):
        """A keyboard review pressed Timed before meeting enough people: the page said "Start with Learn", the focus on
        the page's body. It is on that link, which says why."""
        self.open("/namegame/timed")
        focused = self.driver.switch_to.active_element
        self.assertEqual(focused.get_attribute("data-start-learn"), "", focused.get_attribute("outerHTML")[:120])
        self.assertEqual(focused.get_attribute("aria-describedby"), "meet-first")

    def test_hints_speed_is_the_first_tab_after_the_question(self):
        """A keyboard review: the button that slows Hints came after all six faces, which went one by one while they
        were read. It is the first Tab from the question, seen once focused, and slows the faces down."""
        self.meet_people()
        self.start_mode("hint")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "round-question")
        early = self.driver.find_element("css selector", "[data-hint-speed-early]")
        self.assertLess(early.size["width"], 2, "out of sight until focused")
        ActionChains(self.driver).send_keys(Keys.TAB).perform()
        self.assertEqual(self.driver.switch_to.active_element, early)
        self.assertGreater(early.size["width"], 40, "seen once focused")
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "namegame-hints-speed-focused-1280.png"))
        self.assertTrue(self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", early))
        fast = int(self.game().get_attribute("data-hint-ms"))
        self.navigate(lambda: ActionChains(self.driver).send_keys(Keys.ENTER).perform())
        self.assertEqual(int(self.game().get_attribute("data-hint-ms")), fast * 10)
        # Back to the usual speed, for the tests after.
        self.navigate(lambda: self.driver.find_element("css selector", "button[data-hint-speed]").click())

    def test_a_hints_introduction_counts_no_faces(self):
        """A review found "Faces left: 0" said on a Hints introduction, which has no faces: the faces' count is for a
        question only. (Three of the mode's intervals pass on the page's own clock first: the count came after one.)"""
        self.open("/namegame/hint")
        self.navigate(lambda: self.driver.find_element("css selector", "[data-start] button[data-next]").click(),
                      meet=False)
        self.assertTrue(self.driver.find_elements("css selector", "[data-intro]"), "a newcomer meets someone first")
        interval = int(self.game().get_attribute("data-hint-ms"))
        WebDriverWait(self.driver, 30).until(
            lambda d: d.execute_script("return performance.now()") > 3 * interval + 500, "three intervals")
        said = " ".join(self.said()) + self.driver.execute_script(
            "return document.querySelector('[data-announce]').textContent")
        self.assertNotIn("Faces left", said)

    def test_a_recall_hint_is_said_and_describes_the_field(self):
        self.meet_people()  # past their learning steps: the letter is the hint's to give
        self.start_mode("recall")
        self.reach_a_typed_round()
        self.navigate(lambda: self.driver.find_element("css selector", "[data-recall-hint]").click())
        hint = self.text("[data-cheat-help]")
        self.wait_said(lambda t: hint in t, "the first letter")
        field = self.driver.find_element("css selector", "[data-recall-input]")
        # The field says whose face it asks for (a blind review: focus in the field, the face was never said).
        # (With a namesake on the team, the line asking for the full name, and why, too.)
        namesake = " round-namesake" if self.driver.find_elements("css selector", "#round-namesake") else ""
        self.assertEqual(field.get_attribute("aria-describedby"), f"round-question round-face{namesake} round-help")
        face = self.driver.find_element("css selector", "#round-face").get_attribute("alt")
        self.assertTrue(face)

    def test_the_next_name_typed_during_an_answer_goes_into_the_next_field(self):
        """A desktop review typed the next name while the last one's answer showed: its first letters were lost, and
        only Enter went on. A letter typed there goes on, into the next typed round's field."""
        self.meet_people()
        self.start_mode("recall")
        self.reach_a_typed_round()
        round_id = self.game().get_attribute("data-round")
        self.type_name(round_id)
        self.assertTrue(self.game().get_attribute("data-answered"))
        self.navigate(lambda: ActionChains(self.driver).send_keys("x").perform())
        self.assertNotEqual(self.game().get_attribute("data-round"), round_id, "the letter went on")
        field = self.driver.find_element("css selector", "[data-recall-input]")
        ActionChains(self.driver).send_keys("yz").perform()
        self.assertEqual(field.get_attribute("value"), "xyz", "typed on from the letter that went on")
        self.assertEqual(field, self.driver.switch_to.active_element)

    def test_the_konami_code_typed_in_a_name_field_is_the_codes(self):
        """A desktop review typed the Konami code in a typed round, whose name field has the focus: the field read
        "ba", and nothing unlocked. The arrows only move the caret there; the b and a that follow them are the code's,
        every other key the field's, in the order typed however fast."""
        self.meet_people()
        self.start_mode("recall")
        self.reach_a_typed_round()
        field = self.driver.find_element("css selector", "[data-recall-input]")
        self.assertEqual(field, self.driver.switch_to.active_element)
        ActionChains(self.driver).send_keys(Keys.ARROW_UP, Keys.ARROW_UP, "Maren").perform()
        WebDriverWait(self.driver, 10).until(lambda d: field.get_attribute("value") == "Maren", "the name typed")
        self.driver.execute_script("arguments[0].value = ''", field)
        konami = [Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT, Keys.ARROW_RIGHT,
                  Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b", "a"]
        self.navigate(lambda: ActionChains(self.driver).send_keys(*konami).perform())
        toast = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-toast]"))
        self.assertIn("Konami", toast.get_attribute("textContent"))
        self.assertNotIn("ba", self.driver.find_element("css selector", "[data-recall-input]").get_attribute("value"))

    def test_a_first_name_refused_for_a_namesake_is_said_and_kept_to_mend(self):
        """A blind review typed "Matt" where two share the name: the page came back with its alert already in it (not
        read) and the field emptied. The refusal is said, and the name stays in the field, marked invalid."""
        from test_namegame_lesson import make_round_ask
        self.meet_people()
        self.start_mode("recall")
        self.reach_a_typed_round()
        make_round_ask(self.game().get_attribute("data-round"), "Maren")
        self.driver.refresh()
        self.meet()  # (Maren Tanaka is introduced first, where the player has not met her)
        field = self.driver.find_element("css selector", "[data-recall-input]")
        self.navigate(lambda: field.send_keys("Maren" + Keys.ENTER))
        self.wait_said(lambda t: "Someone else here has that name too" in t, "the refusal")
        field = self.driver.find_element("css selector", "[data-recall-input]")
        self.assertEqual(field, self.driver.switch_to.active_element)
        self.assertEqual((field.get_attribute("value"), field.get_attribute("aria-invalid")), ("Maren", "true"))
        # Said once, by the live region: not by an alert as well (a blind review heard it two or three times).
        self.assertEqual(self.driver.find_element("css selector", "[data-error]").get_attribute("role"), None)
        # Typed on, the surname follows the first name (a keyboard review's caret stood before "Mat", and its answer
        # went in as " HollowayMat", marked wrong).
        self.navigate(lambda: ActionChains(self.driver).send_keys(" Tanaka" + Keys.ENTER).perform())
        self.assertEqual(self.game().get_attribute("data-identified"), "true", "Maren Tanaka, right")

    def test_a_name_typed_again_whole_after_a_namesake_refusal_counts(self):
        """A blind review did as the refusal said, "type the first name and the surname", after the name kept in the
        field: "MarenMaren Tanaka" went in, marked wrong."""
        from test_namegame_lesson import make_round_ask
        self.meet_people()
        self.start_mode("recall")
        self.reach_a_typed_round()
        make_round_ask(self.game().get_attribute("data-round"), "Maren")
        self.driver.refresh()
        self.meet()
        field = self.driver.find_element("css selector", "[data-recall-input]")
        self.navigate(lambda: field.send_keys("Maren" + Keys.ENTER))
        self.wait_said(lambda t: "Someone else here has that name too" in t, "the refusal")
        self.navigate(lambda: ActionChains(self.driver).send_keys("Maren Tanaka" + Keys.ENTER).perform())
        self.assertEqual(self.game().get_attribute("data-identified"), "true", "Maren Tanaka, right")

    def test_more_time_is_announced_and_says_the_time_now_left(self):
        self.meet_people()
        self.start_mode("timed")
        self.shift_timed(self.game().get_attribute("data-round"), 38000)
        self.driver.refresh()
        self.wait_said(lambda t: "Twenty seconds left. The “More time” button" in t, "More time offered, and said")
        self.navigate(lambda: self.driver.find_element("css selector", "[data-more-time]").click())
        import re
        # What was done, then the time now left (a blind review heard the time alone, and could not tell).
        self.wait_said(lambda t: "30 s added. Time left: " in t and
                       any(int(n) >= 40 for n in re.findall(r"Time left: (\d+)", t)),
                       "the time added and the time now left, half a minute more")


class SettingsByKeyboard(Ear, MastermindHelpers):
    def test_settings_apply_without_a_reload_and_shortcuts_turn_off(self):
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CHEAT_SPY})
        self.start()
        self.driver.execute_script("window.__samePage = true")
        root = self.driver.find_element("tag name", "html")
        # The theme changes with no navigation (and is kept for the next page).
        Select(self.driver.find_element("css selector", "[data-theme-select]")).select_by_value("dark")
        self.assertIn("theme-dark", root.get_attribute("class"))
        WebDriverWait(self.driver, 10).until(lambda d: root.get_attribute("data-settings-saved") == "dark/on/on")
        self.assertTrue(self.driver.execute_script("return window.__samePage === true"))
        # With shortcuts on, `retro` typed on the page is a cheat (the control): the theme goes retro, and the unlock
        # is said in full through a live region the page had from its load (the toast alone was often not read).
        # A digit pressed on a link of the header is the link's, not the game's (a keyboard review's "1" on Home typed
        # into the row).
        self.driver.execute_script("document.querySelector('header a[href]').focus()")
        self.keys("1")
        self.assertEqual(self.cells(), ["", "", "", ""])
        self.driver.execute_script("document.activeElement.blur()")
        self.keys("retro")
        WebDriverWait(self.driver, 10).until(lambda d: "theme-crt" in root.get_attribute("class"))
        self.assertEqual(self.driver.execute_script("return window.__cheatPosts"), 5, "one post a key, in turn")
        self.wait_said(lambda t: t.startswith("Cheat unlocked") and "Retro screen on" in t, "the unlock and what it did")
        # The theme chooser follows (a review saw "System" under the CRT); dark again, chosen the same way.
        WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-theme-select]")
                                             .get_attribute("value") == "crt")
        Select(self.driver.find_element("css selector", "[data-theme-select]")).select_by_value("dark")
        WebDriverWait(self.driver, 10).until(lambda d: root.get_attribute("data-settings-saved") == "dark/on/on")
        # Shortcuts off: chosen the same way, kept for the next page.
        Select(self.driver.find_element("css selector", "[data-shortcuts-select]")).select_by_value("off")
        self.assertEqual(root.get_attribute("data-shortcuts"), "off")
        WebDriverWait(self.driver, 10).until(lambda d: root.get_attribute("data-settings-saved") == "dark/off/on")
        self.open("/mastermind")
        root = self.driver.find_element("tag name", "html")
        self.assertEqual((root.get_attribute("data-shortcuts"), sorted(root.get_attribute("class").split())),
                         ("off", ["js", "theme-dark"]))
        # Typing `retro` (and digits) on the page changes nothing: no cheat key is posted, no digit typed.
        self.driver.execute_script("document.activeElement.blur()")
        self.keys("retro12")
        self.assertEqual(self.driver.execute_script("return window.__cheatPosts"), 0)
        self.assertNotIn("theme-crt", root.get_attribute("class"))
        self.assertEqual(self.cells(), ["", "", "", ""])
        # In the play area, with focus there, the keys still play.
        self.driver.execute_script("document.getElementById('board').focus()")
        self.keys("12")
        self.assertEqual(self.cells(), ["1", "2", "", ""])
        self.assertEqual(self.driver.execute_script("return window.__cheatPosts"), 0)
        self.assertEqual(self.axe_violations(), [])
        # A game's page puts the focus there as it loads, the daily's too: the keys play at once (a keyboard review,
        # shortcuts off, found the daily's board 8 Tabs away).
        self.open("/mastermind/daily")
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
            "return document.activeElement === document.getElementById('board')"), "the board has the focus")
        self.keys("3")
        self.assertEqual(self.cells()[0], "3")
        # A game over, loaded again, puts it on its outcome, where Share and New game follow (a keyboard review: the
        # focus on the page's body, "See today's board" 12 Tabs away).
        self.keys(Keys.BACKSPACE + "0123" + Keys.ENTER)
        WebDriverWait(self.driver, 30).until(lambda d: self.driver.find_elements("css selector", "#row-1"))
        if self.board().get_attribute("data-outcome") != "won":
            self.keys(secret_of(int(self.board().get_attribute("data-game"))) + Keys.ENTER)
        WebDriverWait(self.driver, 30).until(lambda d: self.board().get_attribute("data-outcome") == "won")
        self.open("/mastermind/daily")
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
            "return document.activeElement && document.activeElement.id") == "result-title", "the outcome has the focus")
        # …in sight, a lost game's too, under its ten rows (a later review: a pixel under the screen's foot).
        secret = self.start()
        game = self.board().get_attribute("data-game")
        for turn, guess in enumerate(wrong_guesses(secret)[:10]):
            self.assertEqual(self.post("/mastermind/guess", f"game={game}&turn={turn}&guess={guess}"), 200)
        self.open("/mastermind")
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(
            "return document.activeElement && document.activeElement.id") == "result-title", "the outcome has the focus")
        self.assertTrue(self.driver.execute_script(
            "const r = document.activeElement.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight"))

    def test_the_brand_is_named_in_its_own_letters(self):
        """A blind review: the brand link, drawn in capitals, was named "ARCADE", which some readers spell out."""
        self.open("/")
        self.assertEqual(self.driver.find_element("css selector", "header a.brand").accessible_name, "Arcade")

    def test_after_a_language_switch_the_focus_is_on_the_language_button(self):
        """A keyboard review chose Deutsch on a game's page: the focus went to the board, and nothing said the change.
        It stays on the language button, which says the language now chosen (the Name Game's round too)."""
        for path in ("/mastermind", "/namegame/normal"):
            self.open(path)
            summary = self.driver.find_element("css selector", ".language-picker > summary")
            summary.send_keys(Keys.ENTER)
            german = self.driver.find_element("css selector", ".language-picker a[data-lang=de]")
            self.load_by(lambda: german.send_keys(Keys.ENTER))
            self.assertEqual(self.driver.find_element("tag name", "html").get_attribute("lang"), "de")
            focused = self.driver.switch_to.active_element
            self.assertEqual(focused, self.driver.find_element("css selector", ".language-picker > summary"), path)
            self.assertIn("Deutsch", focused.text)
            # Back to English the same way, for the tests after.
            focused.send_keys(Keys.ENTER)
            english = self.driver.find_element("css selector", ".language-picker a[data-lang=en]")
            self.load_by(lambda: english.send_keys(Keys.ENTER))

    def load_by(self, act):
        """Does something that loads another page, and waits until its scripts have run."""
        old = self.driver.find_element("tag name", "html")
        act()
        WebDriverWait(self.driver, 10).until(gone(old))
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def test_screenshots_of_the_settings(self):
        def bottom():
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.screenshots("ear-settings", "/mastermind", bottom)


if __name__ == "__main__":
    unittest.main()
