"""The site around the games (issue 29): a home page with identity (pictures, today's daily code, who to review, the
cheats found), the phone menu, Japanese line breaks, the peg legend, the Name Game's spacing, the cheats' progress bar."""
import struct
import time
import unittest
import zlib

from arcade_browser import BASE_URL, BrowserTest
from arcade_browser import WebDriverWait
from test_namegame import NameGameHelpers


def pixel(png, x, y):
    """The (r, g, b) of one pixel of a PNG (8-bit RGB or RGBA, as Chromium's screenshots are)."""
    chunks, at = {}, 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunks[kind] = chunks.get(kind, b"") + png[at + 8:at + 8 + length]
        at += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    size = 4 if color == 6 else 3
    raw, stride, previous = zlib.decompress(chunks[b"IDAT"]), width * size, bytearray(width * size)
    for row in range(y + 1):
        kind, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - size] if i >= size else 0
            b, c = previous[i], previous[i - size] if i >= size else 0
            p = a + b - c
            predictor = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                         else b if abs(p - b) <= abs(p - c) else c][kind]
            line[i] = (line[i] + predictor) & 0xFF
        previous = line
    return tuple(previous[x * size:x * size + 3])


class Home(NameGameHelpers, BrowserTest):
    def test_every_game_has_its_picture_and_the_count_is_gone(self):
        self.open("/")
        for slug in ("mastermind", "namegame"):
            art = self.driver.find_element("css selector", f"[data-game={slug}] svg.game-art")
            self.assertTrue(art.is_displayed())
            self.assertGreater(art.size["height"], 60, slug)
        shown = self.driver.execute_script(
            "return Array.from(document.querySelectorAll('main *')).filter(e => e.textContent.includes('(2 games)')"
            " && e.children.length === 0 && e.getBoundingClientRect().width > 1).length")
        self.assertEqual(shown, 0, "no (2 games) on screen (the heading keeps it for screen readers only)")
        # Themed: the pictures draw in the page's colours, so they change with the theme.
        fill = "return getComputedStyle(document.querySelector('.art-panel')).fill"
        self.emulate_scheme("light")
        light = self.driver.execute_script(fill)
        self.emulate_scheme("dark")
        self.assertNotEqual(self.driver.execute_script(fill), light)

    def test_a_narrow_window_gives_the_pitch_the_cards_width(self):
        """A low-vision review at 400 % (320 CSS px across): the picture beside the pitch left it two or three words a
        line. There the picture gives way and the words take the card's width; a 360 px phone keeps it beside them."""
        try:
            for width, shown in ((320, False), (360, True)):
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": 225 if width == 320 else 740, "deviceScaleFactor": 1, "mobile": False})
                self.open("/")
                for slug in ("mastermind", "namegame"):
                    art = self.driver.find_element("css selector", f"[data-game={slug}] svg.game-art")
                    self.assertEqual(art.is_displayed(), shown, (width, slug))
                    share = self.driver.execute_script("""const card = arguments[0], p = card.querySelector(':scope > p');
                        const style = getComputedStyle(card);
                        const inner = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
                        return p.getBoundingClientRect().width / inner;""",
                        self.driver.find_element("css selector", f"[data-game={slug}]"))
                    if not shown:
                        self.assertGreater(share, 0.95, (width, slug))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def test_todays_daily_code_counts_down_and_shows_the_streak(self):
        self.open("/")
        daily = self.driver.find_element("css selector", "[data-daily]")
        self.assertEqual(daily.get_attribute("data-outcome"), "playing")
        self.assertEqual(daily.find_element("css selector", "[data-daily-streak]").text, "Daily streak: 0")
        link = daily.find_element("css selector", "a[href='/mastermind/daily']")
        clock = daily.find_element("css selector", "[data-countdown]")
        first = int(clock.get_attribute("data-countdown"))
        self.assertTrue(0 < first <= 86400)
        WebDriverWait(self.driver, 5).until(lambda _: int(clock.get_attribute("data-countdown")) < first)
        # The daily's own link is above the card's whole-card link: it is the one a click follows.
        self.click_and_wait("[data-daily] a[href='/mastermind/daily']")
        self.assertTrue(self.driver.current_url.endswith("/mastermind/daily"))
        del link

    def test_people_to_review_today(self):
        self.open("/")
        review = self.driver.find_element("css selector", "[data-review-today]")
        self.assertEqual(review.get_attribute("data-review-today"), "", "a new player is invited to meet people")
        start = review.find_element("css selector", "a[data-learn-start]")
        self.assertEqual((start.text, start.get_attribute("href").endswith("/namegame/learn")),
                         ("Meet your colleagues", True))
        # Beside it on a desktop, what a lesson asks (a review: a gap there, where the daily's figures stand in the
        # other card); the gap between the card's words and its button is no taller than the other card's.
        about = review.find_element("css selector", "[data-learn-about]")
        self.assertTrue(about.is_displayed() and about.text.startswith("A few faces at a time"), about.text)
        gaps = self.driver.execute_script("""return [...document.querySelectorAll('.game-card')].map(card =>
            card.querySelector('.home-daily, .home-review').getBoundingClientRect().top
            - card.querySelector('h3 + p').getBoundingClientRect().bottom);""")
        self.assertLessEqual(gaps[1], gaps[0] + 30, gaps)
        # One tap from home to the first person met, no Start card between (a review counted three taps to a
        # question: the link's page asked for Start first).
        self.click_and_wait("a[data-learn-start]")
        self.assertTrue(self.driver.current_url.endswith("/namegame/learn"), self.driver.current_url)
        self.assertFalse(self.driver.find_elements("css selector", "[data-start]"), "no Start card")
        self.assertTrue(self.driver.find_elements("css selector", "[data-intro], #round-question"),
                        "someone met, or a question")
        round_id, answer = self.fresh_round("learn")
        # A miss (a wrong name typed, as a newcomer's first questions are): due again within a minute, so today.
        if self.game().get_attribute("data-recall"):
            self.type_name(round_id, typed="Nobody")
        else:
            self.choose((answer + 1) % self.choice_count())
        self.open("/")
        review = self.driver.find_element("css selector", "[data-review-today]")
        self.assertGreaterEqual(int(review.get_attribute("data-review-today")), 1)
        self.assertRegex(review.text, r"^\d+ (person|people) to review today$")

    def test_the_cabinet_shows_cheats_found_and_silhouettes_for_the_rest(self):
        self.open("/")
        missing = len(self.driver.find_elements("css selector", "[data-cheat-missing]"))
        self.assertGreaterEqual(missing, 2)
        self.assertFalse(self.driver.find_elements("css selector", ".cabinet-item.is-found"))
        body = self.driver.find_element("css selector", "body")
        for key in "retro":
            body.send_keys(key)
            time.sleep(0.05)
        WebDriverWait(self.driver, 10).until(
            lambda d: "theme-crt" in (d.find_element("css selector", "html").get_attribute("class") or ""))
        self.open("/")
        found = self.driver.find_elements("css selector", ".cabinet-item.is-found[data-cheat=crt]")
        self.assertEqual(len(found), 1)
        self.assertIn("Retro screen", found[0].text)
        self.assertEqual(len(self.driver.find_elements("css selector", "[data-cheat-missing]")), missing - 1)
        # The cheats page's progress bar is in the theme's colours in the retro theme, not the browser's blue.
        self.open("/cheats")
        bar = self.driver.find_element("css selector", "progress")
        # The filled part (a quarter at the left) is drawn in the retro green, the accent: not blue.
        r, g, b = pixel(bar.screenshot_as_png, 8, bar.size["height"] // 2)
        self.assertGreater(g, 150, (r, g, b))
        self.assertGreater(g, b, (r, g, b))
        self.assertEqual(self.axe_violations(), [])
        self.open("/")
        self.assertEqual(self.axe_violations(), [])
        self.type_off_retro()

    def type_off_retro(self):
        body = self.driver.find_element("css selector", "body")
        for key in "retro":
            body.send_keys(key)
            time.sleep(0.05)
        WebDriverWait(self.driver, 10).until(
            lambda d: "theme-crt" not in (d.find_element("css selector", "html").get_attribute("class") or ""))

    def test_screenshots(self):
        self.assertEqual(len(self.screenshots("home", "/")), self.shots)
        self.assertEqual(len(self.screenshots("cheats-page", "/cheats")), self.shots)


class PhoneChrome(NameGameHelpers, BrowserTest):
    width, height = 360, 740

    def test_the_open_menu_keeps_the_mark_beside_the_name(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.open("/")
        brand = self.driver.find_element("css selector", ".brand")
        # Its own height, the lines it takes (not the touch target's minimum).
        self.driver.execute_script("arguments[0].style.minHeight = '0'", brand)
        closed = brand.size["height"]
        self.driver.find_element("css selector", ".site-menu > summary").click()
        self.assertTrue(self.driver.find_element("css selector", ".site-menu-body").is_displayed())
        self.assertEqual(brand.size["height"], closed, "the ▶ stays on the line of ARCADE")
        self.assertLess(closed, 40)

    def test_the_peg_legend_keeps_each_symbol_beside_its_meaning(self):
        for width in (360, 1280):
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 600})
            self.open("/mastermind")
            pairs = self.driver.execute_script("""
                return Array.from(document.querySelectorAll('.legend-item')).map(item => {
                    // The words shown (a phone's short ones, a wider screen's long ones).
                    const words = Array.from(item.children).filter(e => !e.classList.contains('peg')
                        && e.getClientRects().length)[0];
                    const range = document.createRange(); range.selectNodeContents(words);
                    const text = range.getClientRects()[0];
                    const box = item.querySelector('.peg').getBoundingClientRect();
                    return [box.top, box.bottom, text.top, text.bottom, box.right <= text.left];
                });""")
            self.assertEqual(len(pairs), 3)
            for top, bottom, text_top, text_bottom, before in pairs:
                self.assertTrue(before, f"{width}: the symbol comes first")
                self.assertLess(abs((top + bottom) / 2 - (text_top + text_bottom) / 2), 12,
                                f"{width}: a symbol and its meaning share a line")

    def test_i_dont_know_keeps_its_distance_from_the_stats(self):
        self.fresh_round("normal")
        gap = self.driver.execute_script(
            "return document.querySelector('.stats').getBoundingClientRect().top"
            " - document.querySelector('button[data-dontknow]').getBoundingClientRect().bottom")
        self.assertGreaterEqual(gap, 12)


# Each example: its tiles, the one tile the peg speaks of (marked in the peg's colour), the peg, and its text.
EXAMPLES_JS = """
    const colour = (e, p) => getComputedStyle(e)[p];
    return Array.from(arguments[0].querySelectorAll(arguments[1])).map(item => {
        const row = item.querySelector('.example-row'), peg = row.querySelector('.peg');
        const kind = peg.className.match(/peg-(\\w+)/)[1], marked = row.querySelector('.cell.is-' + kind);
        const plain = row.querySelector('.cell:not([class*="is-"])'), box = marked.getBoundingClientRect();
        return {kind: kind, cells: row.querySelectorAll('.cell').length, digit: marked.textContent,
                marked: colour(marked, 'borderTopColor'),
                look: ['borderTopColor', 'borderTopStyle', 'borderTopWidth'].map(p => colour(marked, p)).join(' '),
                plain: ['borderTopColor', 'borderTopStyle', 'borderTopWidth'].map(p => colour(plain, p)).join(' '),
                peg: kind === 'gray' ? getComputedStyle(peg, '::after').borderTopColor : colour(peg, 'backgroundColor'),
                visible: box.width > 8 && box.height > 8 && peg.getBoundingClientRect().width > 8,
                text: item.lastElementChild.textContent.replace(/\\s+/g, ' ').trim()};
    });
"""


class PegExamples(BrowserTest):
    """How to play shows example tiles, as Wordle's help does, and the legend the pegs: in every theme and language."""

    def body(self):
        return self.driver.find_element("tag name", "body")

    def examples(self, scope, selector):
        return self.driver.execute_script(EXAMPLES_JS, scope, selector)

    def assert_examples(self, found, where):
        # (The fourth: a repeated digit scores once for each time the code holds it.)
        self.assertEqual([e["kind"] for e in found], ["red", "blue", "gray", "red"], where)
        for e in found:
            self.assertEqual(e["cells"], 4, f"{where}: a whole row of tiles")
            self.assertTrue(e["visible"], f"{where}: {e}")
            self.assertEqual(e["marked"], e["peg"], f"{where}: the marked tile wears its peg's colour {e}")
            self.assertNotEqual(e["look"], e["plain"], f"{where}: the marked tile stands out {e}")

    def assert_legend(self, where):
        # The legend shows the board's pegs alone, no tiles: a review read a ringed tile as the board marking digits.
        found = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('.legend-item')).map(item => {
                const peg = item.querySelector('.peg'), box = peg.getBoundingClientRect();
                return [peg.className, item.querySelectorAll('.cell').length, box.width >= 16 && box.height >= 16,
                        item.lastElementChild.textContent.trim().length > 0];
            });""")
        self.assertEqual([f[0] for f in found], ["peg peg-red", "peg peg-blue", "peg peg-gray"], where)
        for _, cells, big, said in found:
            self.assertTrue(cells == 0 and big and said, f"{where}: {found}")

    def test_example_tiles_in_every_language_and_theme(self):
        texts = {}
        for lang in ("en", "de", "es", "fr", "ja", "ru"):
            self.open(f"/mastermind/help?lang={lang}")
            help_page = self.driver.find_element("css selector", "[data-help] [data-peg-examples]")
            found = self.examples(help_page, "li[data-example]")
            self.assert_examples(found, f"help in {lang}")
            for e in found:
                self.assertIn(e["digit"], e["text"], f"{lang}: the text names the marked digit")
                self.assertNotIn("mastermind.", e["text"], f"{lang}: translated, not a key")
            texts[lang] = [e["text"] for e in found]
            self.assertTrue(help_page.find_element("css selector", ".peg-examples-note").text)
            self.open("/mastermind")
            self.assert_legend(f"legend in {lang}")
        self.assertEqual(len({tuple(t) for t in texts.values()}), 6, "six languages, six texts")
        self.open("/mastermind/help?lang=en")
        for theme in ("light", "dark", "contrast", "crt"):
            self.driver.add_cookie({"name": "arcade_theme", "value": theme, "path": "/", "httpOnly": True})
            for scheme in ("light", "dark"):
                self.emulate_scheme(scheme)
                self.open("/mastermind/help")
                self.assert_examples(self.examples(self.body(), "[data-peg-examples] li"), f"help in {theme}")
                self.open("/mastermind")
                self.assert_legend(f"legend in {theme}/{scheme}")
            self.open("/mastermind/help")
            self.assertEqual(self.axe_violations(), [], f"How to play in {theme}")

    def test_the_first_visit_tutorial_shows_them_with_and_without_scripts(self):
        self.driver.get(BASE_URL + "/mastermind")  # not self.open, which closes the tutorial
        dialog = self.driver.find_element("css selector", "dialog[open]")
        self.assert_examples(self.examples(dialog, "[data-peg-examples] li"), "the tutorial dialog")
        # The rules once, by their examples, on a desktop too (a review read them twice, then the keys' and notes'
        # help: a wall of text); the rest is How to play's.
        shown = [part for part in (".tutorial-text", "[data-rules]", "[data-keys-help]", "[data-notes-help]")
                 if any(e.is_displayed() for e in dialog.find_elements("css selector", part))]
        self.assertEqual(shown, ["[data-rules]"], "only the rules line")
        self.assertEqual(self.axe_violations(), [], "the tutorial dialog")
        self.driver.delete_all_cookies()
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            self.driver.get(BASE_URL + "/mastermind")
            card = self.driver.find_element("css selector", "[data-tutorial]")
            self.assert_examples(self.examples(card, "[data-peg-examples] li"), "the tutorial card")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})

    def test_screenshots(self):
        self.screenshots("peg-examples-help", "/mastermind/help")


class JapaneseBreaks(NameGameHelpers, BrowserTest):
    languages = "ja"
    width, height = 360, 740

    def test_japanese_breaks_between_phrases(self):
        self.fresh_round("normal")
        question = self.driver.find_element("css selector", "h1.question")
        self.assertEqual(self.driver.execute_script("return getComputedStyle(arguments[0]).wordBreak", question),
                         "auto-phrase")
        self.assertFalse(question.text.endswith("\n人？"))
        self.screenshots("namegame-round-ja", "/namegame/normal")
        self.screenshots("home-ja", "/")


if __name__ == "__main__":
    unittest.main()
