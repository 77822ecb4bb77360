"""Every language's player pages as a native reader meets them (issue 46): the home page, Mastermind mid-game and
finished, a Name Game round, the statistics and the progress page, at 360x740 (a few at 1280x900), saved as
.artifacts/screenshots/lang-LANG-PAGE-WIDTH.png to be looked at. Checked on each: nothing wider than the phone, axe
clean, and the language's own typography (French no-break spaces, no ASCII spaces glued after Japanese text)."""
import os
import unittest

from arcade_browser import ARTIFACTS, SETTLE_JS, BrowserTest
from arcade_browser import WebDriverWait

LANGUAGES = ["en", "de", "fr", "es", "ja", "ru"]
WIDE = {"de", "ja"}  # the longest words and the widest script, also at 1280x900


class Languages(BrowserTest):

    def setUp(self):
        super().setUp()
        self.viewport(360, 740)
        self.addCleanup(lambda: self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {}))

    def viewport(self, width, height):
        # A headless window is never narrower than 500 px: a phone's width is emulated.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})

    def shoot(self, language, page, width=360, height=740):
        if width != 360:
            self.viewport(width, height)
        self.driver.execute_script(SETTLE_JS)
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.assertTrue(self.driver.save_screenshot(os.path.join(ARTIFACTS, f"lang-{language}-{page}-{width}.png")))
        if width != 360:
            self.viewport(360, 740)

    def check(self, language, page, axe=False):
        where = f"{language} {page}"
        self.assertEqual(self.driver.find_element("css selector", "html").get_attribute("lang"), language, where)
        wide = self.driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        self.assertLessEqual(wide, 0, f"{where}: the page scrolls sideways")
        text = self.driver.find_element("css selector", "body").get_attribute("innerText")
        self.assertNotRegex(text, r"%[0-9$]*[@dif]|#@|\{\{", f"{where}: a placeholder shows")
        if language == "fr":
            # French typography is in the strings: no plain space (or none) before : ; ! ? and inside « ».
            self.assertNotRegex(text, r"[^\s\d][ ]?[;!?]|\w :|« | »", f"{where}: French spacing")
        if language == "ja":
            self.assertNotRegex(text, r"[。！？：][ ][^\s]", f"{where}: an ASCII space after Japanese punctuation")
            # The full-width dot between the footer's facts sits halfway between them (pulled in, it hugged the one
            # before it, "1.1.0・", a native reader).
            gaps = self.driver.execute_script("""const items = [...document.querySelector('footer .dot-list').children];
                const range = document.createRange(), right = e => { range.selectNodeContents(e);
                  return range.getBoundingClientRect().right; };
                const a = right(items[0]), b = items[1].querySelector('a').getBoundingClientRect().left,
                      end = items[0].getBoundingClientRect().right, after = getComputedStyle(items[0], '::after'),
                      width = parseFloat(after.width), margin = parseFloat(after.marginRight);
                const centre = end - margin - width / 2; return [centre - a, b - centre];""")
            self.assertLess(abs(gaps[0] - gaps[1]), 3, f"{where}: the dot between the footer's facts {gaps}")
        # Wherever facts set apart by dots wrap, no line starts with a dot (a Japanese reader saw 「・」 begin one): each
        # list narrowed until it wraps, every fact that starts a line has its words at its left edge.
        starts = self.driver.execute_script("""const found = [];
            for (const list of document.querySelectorAll('.dot-list:not(.result-figures)')) {
              if (!list.offsetParent || list.children.length < 2) continue;
              const width = list.style.width;
              list.style.width = '4em';
              const left = list.getBoundingClientRect().left, range = document.createRange();
              for (const item of [...list.children].slice(1)) {
                const box = item.getClientRects()[0];
                if (!box || box.left - left > 2) continue;
                range.selectNodeContents(item);
                const words = range.getClientRects()[0];
                if (words && words.left - box.left > 2) found.push(item.textContent.trim());
              }
              list.style.width = width;
            }
            return found;""")
        self.assertEqual(starts, [], f"{where}: a line starts with a dot")
        if axe:
            self.assertEqual(self.axe_violations(), [], where)
        return text

    def guess(self, code):
        game = self.driver.find_element("css selector", "#board").get_attribute("data-game")
        turn = len(self.driver.find_elements("css selector", "#board .row"))
        fields = f"game={game}&turn={turn}&guess={code}"
        self.assertEqual(self.post("/mastermind/guess", fields), 200)

    def play(self, language):
        self.open(f"/?lang={language}")
        self.check(language, "home", axe=True)
        self.shoot(language, "home")
        if language in WIDE:
            self.shoot(language, "home", 1280, 900)

        self.open("/mastermind")
        self.assertEqual(self.post("/mastermind/new"), 200)
        self.open("/mastermind")
        self.guess("0123")
        self.open("/mastermind")
        self.guess("4567")
        self.open("/mastermind")
        self.check(language, "mastermind", axe=True)
        rows = self.driver.find_elements("css selector", "#board .row .row-summary .visually-hidden")
        self.assertEqual(len(rows), 2)
        for row in rows:  # a whole sentence of the language, ending as the language ends one
            self.assertRegex(row.get_attribute("textContent"), r"[.。]$")
        self.shoot(language, "mastermind")

        game = self.driver.find_element("css selector", "#board").get_attribute("data-game")
        self.assertEqual(self.post("/mastermind/giveup", f"game={game}"), 200)
        self.open("/mastermind")
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "#board").get_attribute("data-outcome"))
        self.check(language, "mastermind-over")
        self.shoot(language, "mastermind-over")
        if language in WIDE:
            self.shoot(language, "mastermind-over", 1280, 900)

        self.open("/mastermind/stats")
        text = self.check(language, "mastermind-stats")
        percent = {"en": "0%", "ja": "0%"}.get(language, "0\u00a0%")
        self.assertIn(percent, text, f"{language}: the win rate as the language writes a percentage")
        self.shoot(language, "mastermind-stats")

        self.open("/namegame/normal")
        self.check(language, "namegame-start")
        self.click_and_wait("[data-start] button[data-next]")  # someone new introduced, then the question
        # What the page says aloud (its live region, filled a moment after the load) is checked with the rest.
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-announce]").get_attribute("textContent").strip())
        self.check(language, "namegame", axe=True)
        self.shoot(language, "namegame")

        # The people met, each with a link to add a note (a language review: in Spanish it ran 77 px off the phone).
        self.click_and_wait("form[action='/namegame/meet'] button")
        self.open("/namegame/people")
        self.assertTrue(self.driver.find_elements("css selector", ".note-edit summary"), f"{language}: someone met")
        self.check(language, "namegame-people")
        self.shoot(language, "namegame-people")

        # The menu's figures: in Japanese one a line (joined by 「・」 they read as one noun, and a dot began a line).
        self.open("/namegame")
        tops = self.driver.execute_script("""return [...document.querySelectorAll('[data-menu-progress] > *')]
            .map(e => Math.round(e.getBoundingClientRect().top));""")
        self.assertEqual(len(tops), 4, f"{language}: the menu's figures")
        if language == "ja":
            self.assertEqual(sorted(set(tops)), tops, "one figure a line")
        self.check(language, "namegame-menu")

        self.open("/progress")
        self.check(language, "progress")
        self.shoot(language, "progress")


def _test(language):
    def test(self):
        self.play(language)
    test.__name__ = f"test_{language}"
    test.__doc__ = f"The player pages in {language}."
    return test


for _language in LANGUAGES:
    setattr(Languages, f"test_{_language}", _test(_language))


if __name__ == "__main__":
    unittest.main()
