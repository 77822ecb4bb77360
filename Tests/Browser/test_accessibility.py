"""axe-core on every player page, at both widths, in light and dark, in the default, retro and high-contrast themes;
the chosen light and dark themes paint what the default one does."""
import os
import sqlite3
import unittest

from arcade_browser import BrowserTest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import Select
from arcade_browser import WebDriverWait

NAME_GAME = ["/namegame/" + mode for mode in
             ("normal", "matt", "reverse", "recall", "team", "hint", "fifty", "practice", "timed", "learn", "review", "help",
              "stats")]
PAGES = ["/", "/mastermind", "/mastermind/stats", "/mastermind/daily", "/mastermind/archive", "/mastermind/help",
         "/namegame"] + NAME_GAME + ["/progress", "/cheats", "/nowhere"]


class Accessibility(BrowserTest):
    def play_a_little(self):
        """The states a first visit does not show: a finished game (/mastermind shows its result), a daily in play
        with a row, and a Name Game round (once per test: the player keeps them)."""
        if getattr(self, "played", False):
            return
        self.played = True
        self.open("/mastermind")
        self.assertEqual(self.post("/mastermind/new"), 200)
        self.open("/mastermind")
        game = self.driver.find_element("id", "board").get_attribute("data-game")
        self.assertEqual(self.post("/mastermind/giveup", f"game={game}"), 200)
        self.assertEqual(self.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0123"), 200)
        self.assertEqual(self.post("/namegame/next", "mode=normal"), 200)
        self.assertEqual(self.post("/namegame/next", "mode=learn"), 200)
        self.meet_people()  # the normal round above stays an introduction; Timed waits for four met
        self.assertEqual(self.post("/namegame/next", "mode=timed"), 200)  # the clock, a role=timer
        # An hour on its clock: run out during the checks, the page reloaded itself between two looks (a CI run).
        with sqlite3.connect(os.environ["ARCADE_DB"]) as db:
            db.execute("UPDATE namegame_sessions SET extra_ms = 3600000 WHERE mode = 'timed' AND ended = 0")
        self.assertEqual(self.post("/namegame/next", "mode=recall"), 200)  # a text field for the name

    def check_all(self, theme, aaa=False):
        """Every page at both sizes; in light and dark only for the default theme, the one that follows the system's
        scheme (a chosen theme sets its own colours and `color-scheme`, so the scheme cannot change what axe sees).
        `aaa`: and no text under 7:1."""
        self.play_a_little()
        found = []
        for width in self.sizes():
            # The pointer rests in the page's left margin, not over a button a click left it on: a hover that comes
            # into effect between two looks is not a theme's doing.
            self.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 1, "y": 300})
            for path in PAGES:
                self.open(path)
                for scheme in self.schemes() if theme == "default" else ["light"]:
                    where = f"{path} {width}px {scheme} {theme}"
                    found += [f"{where}: {v}" for v in self.axe_violations()]
                    if aaa:
                        found += [f"{where}: under 7:1: {v}" for v in self.low_contrast(aaa=True)]
                    if theme == "default":
                        found += [f"{where}: the {scheme} theme differs: {v}" for v in self.chosen_differs(scheme)]
        return found

    # Every colour an element and its ::before and ::after are painted with, kept by element: the first call (no
    # argument) notes them, the second returns the elements painted otherwise since (one a line, 'before → after'; an
    # element a script added or removed in between is not compared). Endless animations (a timer's pulse) held still.
    PAINT_JS = """
        document.getAnimations().forEach(a => a.pause());
        const props = ['color', 'backgroundColor', 'backgroundImage', 'borderTopColor', 'borderRightColor',
            'borderBottomColor', 'borderLeftColor', 'outlineColor', 'textDecorationColor', 'caretColor', 'fill',
            'stroke', 'boxShadow', 'textShadow', 'opacity', 'filter', 'accentColor'];
        const paint = el => [null, '::before', '::after'].map(pseudo => {
            const style = getComputedStyle(el, pseudo);
            return (pseudo || '') + ' ' + props.map(p => style[p]).join(' / ');
        }).join(' ');
        const elements = Array.from(document.querySelectorAll('*'));
        if (!arguments[0]) {
            window.arcadePaint = new Map(elements.map(el => [el, paint(el)]));
            return elements.length;
        }
        const differ = [];
        for (const el of elements) {
            const before = window.arcadePaint.get(el), after = before && paint(el);
            if (before && before !== after) {
                const kind = (el.getAttribute('class') || '').split(' ').filter(c => c && !c.startsWith('theme-'));
                differ.push(el.tagName.toLowerCase() + (kind.length ? '.' + kind.join('.') : '') + ': ' + before +
                    ' → ' + after);
            }
        }
        return differ;
    """

    def chosen_differs(self, scheme):
        """The light and dark themes are the system's two schemes made a choice: on the page as it is, with
        the theme's class added and the system's scheme turned to the other one, every element is painted as
        before (so axe's verdict on the default theme is theirs too, without loading every page again). The
        elements painted otherwise, as 'element: before → after'."""
        self.assertGreater(self.driver.execute_script(self.PAINT_JS, False), 30, "the page has elements")
        self.driver.execute_script("document.documentElement.classList.add(arguments[0])", f"theme-{scheme}")
        self.emulate_scheme("dark" if scheme == "light" else "light")
        try:
            return self.driver.execute_script(self.PAINT_JS, True)[:3]
        finally:
            self.driver.execute_script("document.documentElement.classList.remove(arguments[0])", f"theme-{scheme}")
            self.emulate_scheme(scheme)

    def choose(self, theme):
        self.open("/")
        self.driver.add_cookie({"name": "arcade_theme", "value": theme, "path": "/", "httpOnly": True})

    def test_axe_reports_what_it_should(self):
        # The harness itself: a planted faint paragraph and an image without alt text are caught (styles set through
        # the CSSOM: the page's CSP refuses style attributes).
        self.open("/")
        self.driver.execute_script(
            "const p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#eee'; p.style.background = '#fff';"
            "const i = document.createElement('img'); i.src = '/favicon.ico';"
            "document.querySelector('main').append(p, i);")
        found = " ".join(self.axe_violations())
        self.assertIn("serious color-contrast", found)
        self.assertIn("critical image-alt", found)

    def test_no_serious_violations_in_the_default_theme(self):
        self.open("/")
        self.assertEqual(self.check_all("default"), [])

    # One test a theme, so the groups share them (the three chosen themes in one test ran 620 s on a busy machine).
    # The light and dark themes are checked with the default one (`chosen_differs`).
    def test_no_serious_violations_in_the_retro_theme(self):
        self.choose("crt")
        self.assertEqual(self.check_all("retro"), [])

    def test_no_serious_violations_in_high_contrast_and_it_is_aaa(self):
        self.choose("contrast")
        self.assertEqual(self.check_all("contrast", aaa=True), [])

    def test_the_systems_more_contrast_is_honoured_light_and_dark(self):
        """A review: the System theme ignored the system's "more contrast", and high contrast came only dark."""
        self.play_a_little()
        found = []
        try:
            for scheme, paper in (("light", "rgb(255, 255, 255)"), ("dark", "rgb(0, 0, 0)")):
                self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
                    {"name": "prefers-contrast", "value": "more"}, {"name": "prefers-color-scheme", "value": scheme}]})
                for path in ("/", "/mastermind", "/namegame/normal"):
                    self.open(path)
                    background = self.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
                    self.assertEqual(background, paper, f"{path} {scheme}")
                    found += [f"{path} {scheme}: {v}" for v in self.axe_violations() + self.low_contrast(aaa=True)]
        finally:
            self.emulate_scheme("light")
        self.assertEqual(found, [])

    def test_high_contrast_comes_light_too_and_it_is_aaa(self):
        """A review: the high contrast a player chooses came only dark. Its light one: white paper, every text at least
        7:1, nothing serious for axe."""
        self.choose("contrast-light")
        self.play_a_little()
        found = []
        for path in ("/", "/mastermind", "/namegame/normal"):
            self.open(path)
            background = self.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
            self.assertEqual(background, "rgb(255, 255, 255)", path)
            found += [f"{path}: {v}" for v in self.axe_violations() + self.low_contrast(aaa=True)]
        self.assertEqual(found, [])

    def test_the_theme_chooser_works_with_and_without_a_script(self):
        self.open("/mastermind")
        Select(self.driver.find_element("id", "theme-select")).select_by_value("contrast")
        self.wait_for_class("theme-contrast")
        self.assertIn("/mastermind", self.driver.current_url)
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.open("/")
            Select(self.driver.find_element("id", "theme-select")).select_by_value("light")
            self.driver.find_element("css selector", ".theme-chooser button[type=submit]").click()
            self.wait_for_class("theme-light")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
        self.assertEqual(len(self.screenshots("theme-light-home", "/")), self.shots)

    def wait_for_class(self, name):
        # While the page navigates, Chromium may answer for the old document's node (stale, or "does not belong to
        # the document"): ask again; a class that never comes still times out.
        WebDriverWait(self.driver, 10, ignored_exceptions=[StaleElementReferenceException, WebDriverException]).until(
            lambda d: name in (d.find_element("css selector", "html").get_dom_attribute("class") or ""))

    def test_a_round_and_a_finished_game_too(self):
        # A Name Game round in play and a Mastermind result, the states a first visit does not show.
        self.open("/namegame/normal")
        self.driver.find_element("css selector", "button[data-next]").click()
        found = [f"round: {v}" for v in self.axe_violations()]
        self.open("/mastermind")
        self.assertEqual(self.post("/mastermind/new"), 200)
        self.open("/mastermind/giveup")
        found += [f"give up: {v}" for v in self.axe_violations()]
        self.driver.find_element("css selector", "[data-confirm-giveup]").click()
        found += [f"result: {v}" for v in self.axe_violations()]
        self.assertEqual(found, [])


if __name__ == "__main__":
    unittest.main()
