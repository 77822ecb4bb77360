"""Cheat codes in a real browser: the Konami code by keyboard and by touch,
the retro theme, and the "cheats found" page."""
import time
import unittest

from mastermind_browser import MastermindHelpers, WebDriverWait
from arcade_browser import BrowserTest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys


class Cheats(MastermindHelpers):

    def check_revealed(self, secret):
        revealed = WebDriverWait(self.driver, 30).until(
            lambda d: d.find_element("css selector", "[data-revealed]")).get_attribute("data-revealed")
        position, digit = revealed.split(":")
        self.assertEqual(secret[int(position) - 1], digit)

    def type_keys(self, keys):
        # Keys go to the page, not to a field: cheats ignore typing in fields.
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        chain = ActionChains(self.driver)
        for key in keys:
            chain.send_keys(key).pause(0.05)
        chain.perform()

    def test_konami_with_the_keyboard_reveals_a_digit(self):
        secret = self.start()
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT,
                        Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b", "a"])
        self.check_revealed(secret)

    def test_at_400_percent_the_toast_leaves_the_focused_control_in_sight(self):
        """A low-vision review at 400 % typed "retro" with the focus on Today's code: the toast lay over the focused
        button for its whole time (WCAG 2.4.11). (A control held at the window's foot, where the toast comes, stands for
        it: the theme the code switches moves the page's own.)"""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 320, "height": 225, "deviceScaleFactor": 1, "mobile": False})
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
        self.open("/")
        self.driver.execute_script("""const b = document.createElement('button');
            b.textContent = 'Focused'; b.id = 'probe';
            Object.assign(b.style, {position: 'fixed', left: '8px', right: '8px', bottom: '4px', height: '44px'});
            document.body.appendChild(b); b.focus();""")
        ActionChains(self.driver).send_keys("retro").perform()
        toast = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-toast]:not([hidden])"))
        self.driver.set_script_timeout(20)
        self.driver.execute_async_script("""const done = arguments[arguments.length - 1];
            Promise.all(document.querySelector('[data-toast]').getAnimations().map(a => a.finished)).then(done);""")
        overlap = self.driver.execute_script("""const a = arguments[0].getBoundingClientRect(),
            f = document.activeElement.getBoundingClientRect();
            return [a.left < f.right && f.left < a.right && a.top < f.bottom && f.top < a.bottom, document.activeElement.id];""",
            toast)
        self.assertEqual(overlap, [False, "probe"])
        self.type_keys(["r", "e", "t", "r", "o"])  # the theme back

    def test_keys_in_a_modal_dialog_are_no_codes(self):
        """A keyboard review read How to play with the arrows and pressed B A: the Konami code revealed a digit behind
        the dialog's backdrop, and the game counted a hint unseen."""
        self.start()
        self.driver.execute_script("""document.querySelector('.mm-menu > summary').click();
            document.querySelector('.mm-menu a[data-help-link]').click();""")
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "dialog[open]"))
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT,
                        Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b", "a"])
        self.assertTrue(self.driver.find_elements("css selector", "dialog[open]"), "still reading")
        self.assertEqual(self.posted(), 0, "no step of a code sent")
        self.assertEqual(self.driver.find_elements("css selector", "[data-revealed]"), [])

    def test_a_code_under_way_does_not_scroll_the_page(self):
        """A keyboard review typed the Konami code with the focus on the page's body: Down Down scrolled the header
        off screen. Once a code is two steps in, its arrows are the code's."""
        self.open("/")
        self.driver.execute_script("window.scrollTo(0, 200)")
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP])
        WebDriverWait(self.driver, 10).until(
            lambda d: d.execute_script("return document.documentElement.getAttribute('data-cheat-progress')") == "2")
        settled = """const done = arguments[0]; let last = -1, same = 0;
            (function frame() { same = scrollY === last ? same + 1 : 0; last = scrollY;
                                same >= 5 ? done(scrollY) : requestAnimationFrame(frame); })();"""
        before = self.driver.execute_async_script(settled)  # the Ups' own smooth scroll, over
        self.type_keys([Keys.ARROW_DOWN, Keys.ARROW_DOWN])
        WebDriverWait(self.driver, 10).until(
            lambda d: d.execute_script("return document.documentElement.getAttribute('data-cheat-progress')") == "4")
        self.assertEqual(self.driver.execute_async_script(settled), before)

    def posted(self):
        """The cheat actions this page sent, as the browser's own record of its requests has them."""
        return self.driver.execute_script(
            "return performance.getEntriesByType('resource').filter(e => /\\/cheats\\/actions$/.test(e.name)).length")

    def test_ordinary_typing_never_leaves_the_browser(self):
        """A review saw every digit of a guess posted to /cheats/actions ("no trackers", says the footer). Only an
        action that can start a code, or follows a step of one, is sent; the code still works whole."""
        self.start()
        self.type_keys(["1", "2", "5", "6", Keys.ENTER])
        self.wait_rows(1)
        self.type_keys(["x", "7", Keys.BACKSPACE, "q"])
        self.assertEqual(self.posted(), 0, "a guess and stray keys: nothing sent")
        self.type_keys([Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT,
                        Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT, "b", "a"])
        WebDriverWait(self.driver, 30).until(lambda d: d.find_elements("css selector", "[data-revealed]"))
        self.assertEqual(self.posted(), 10, "each step of the Konami code, once")

    def test_swipes_on_a_modal_dialog_are_no_codes(self):
        """A player's review swiped a code with the credits open over the home page: the retro screen switched behind
        them. A modal dialog's touches are the dialog's, as its keys are."""
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        self.open("/")
        self.type_keys(list("credits"))
        dialog = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "dialog[open]"))
        before = self.posted()
        box = self.driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width];",
                                         dialog)
        x, y = box[0] + box[2] / 2, box[1] + 120
        for dx in (1, -1, 1, -1):
            self.finger([(x - 40 * dx + dx * step, y) for step in (0, 20, 40, 60, 80)])
        self.taps(x, y, 2)
        self.assertTrue(self.driver.find_elements("css selector", "dialog[open]"), "still open")
        self.assertEqual(self.posted(), before, "no step of a code sent")

    def test_konami_by_touch_reveals_a_digit(self):
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        secret = self.start()
        rect = self.driver.execute_script(
            "var r = document.querySelector('#board').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
        x, y = rect[0] + min(rect[2] / 2, 150), rect[1] + 60
        moves = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
        for direction in ["up", "up", "down", "down", "left", "right", "left", "right"]:
            dx, dy = moves[direction]
            self.finger([(x + dx * step, y + 40 + dy * step) for step in (0, 20, 40, 60, 80)])
            time.sleep(0.1)
        # Two quick taps: one burst, tap(2).
        self.taps(x, y, 2)
        self.check_revealed(secret)

    def test_who_is_it_by_touch_never_answers_a_round(self):
        """Issue 41: the gesture began with taps, and the first landed on a face as a wrong answer. It now begins with
        swipes, and the taps that follow count for the code, pressing nothing."""
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        self.meet_people()  # people met: the quiz asks rather than introduces
        self.open("/namegame")
        self.click_and_wait('button[data-play="normal"]')
        rect = self.driver.execute_script(
            "var r = document.querySelector('#namegame [data-cheat-area]').getBoundingClientRect();"
            " return [r.left, r.top, r.width, r.height];")
        x, y = rect[0] + rect[2] / 4, rect[1] + rect[3] / 4
        for dy in (1, -1):
            self.finger([(x, y + 10 + dy * step) for step in (0, 20, 40, 60, 80)])
            time.sleep(0.1)
        # On the question, as the clue says (a tap on a face picks it).
        question = self.driver.execute_script(
            "const r = document.querySelector('.question').getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2];")
        for _ in range(3):
            self.finger([tuple(question)], pause=0)
            time.sleep(0.08)
        WebDriverWait(self.driver, 30).until(lambda d: d.find_elements("css selector", "[data-cheat-help]"))
        self.assertFalse(self.driver.find_elements("css selector", "[data-result=wrong]"), "no face was answered")
        stats = self.driver.find_element("css selector", "[data-session-incorrect]")
        self.assertEqual(stats.get_attribute("data-session-incorrect"), "0")

    def test_off_a_game_page_a_link_tapped_after_scrolling_opens(self):
        """A review: on the Name Game's menu, a scroll down and back up went toward the "who" code; the next taps on a
        link would have been the code's, swallowed. Off a game page a tap on a link is always a press."""
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        self.open("/namegame")
        link = next(a for a in self.driver.find_elements("css selector", "main a[href^='/namegame/']")
                    if a.is_displayed())
        href = link.get_attribute("href")
        x, y = 180, 300
        for dy in (1, -1):
            self.finger([(x, y + 10 + dy * step) for step in (0, 20, 40, 60, 80)])
            time.sleep(0.1)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        box = self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", link)
        self.finger([(box[0], box[1])], pause=0)
        WebDriverWait(self.driver, 10).until(lambda d: d.current_url == href, f"the link opened: {href}")

    def test_off_a_game_page_a_long_codes_taps_are_the_codes(self):
        """A review swiped the Konami code's eight arrows on the home page and tapped twice, as its clue says: the taps
        opened the daily under them. Two quick taps after a code's steps are the code's, and press nothing."""
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        self.open("/")
        start = self.driver.current_url
        x, y = 180, 400
        moves = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
        for way in ("up", "up", "down", "down", "left", "right", "left", "right"):
            dx, dy = moves[way]
            self.finger([(x + dx * step, y + dy * step) for step in (0, 20, 40, 60, 80)])
            time.sleep(0.1)
        link = next(a for a in self.driver.find_elements("css selector", "main a[href]") if a.is_displayed())
        box = self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", link)
        # Two real touches: the browser's synthesized double tap makes no clicks, so it could not show none was made.
        for _ in range(2):
            self.finger([(box[0], box[1])], pause=0)
            time.sleep(0.05)
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "html").get_attribute("data-cheats-found") == "1"
            or "Cheat unlocked" in d.find_element("css selector", "body").text, "the code unlocked")
        self.assertEqual(self.driver.current_url, start, "the taps opened nothing")

    def test_retro_theme_toggles_and_the_found_page_counts(self):
        self.open("/cheats")
        self.assertEqual(self.driver.find_element("css selector", "[data-found]").get_attribute("data-found"), "0")
        self.open("/")
        root = self.driver.find_element("css selector", "html")
        self.assertNotIn("theme-crt", root.get_attribute("class") or "")
        self.type_keys(list("retro"))
        WebDriverWait(self.driver, 10).until(
            lambda d: "theme-crt" in (d.find_element("css selector", "html").get_attribute("class") or ""))
        # The server remembers: every page has it now.
        self.open("/mastermind")
        self.assertIn("theme-crt", self.driver.find_element("css selector", "html").get_attribute("class") or "")
        # Its scanlines cut through every glyph: a player who asks for more contrast gets the screen without them (a
        # low-vision review).
        lines = "return getComputedStyle(document.body, '::after').display"
        self.assertNotEqual(self.driver.execute_script(lines), "none")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-contrast",
                                                                              "value": "more"}]})
        try:
            self.assertEqual(self.driver.execute_script(lines), "none")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.type_keys(list("retro"))
        WebDriverWait(self.driver, 10).until(
            lambda d: "theme-crt" not in (d.find_element("css selector", "html").get_attribute("class") or ""))
        self.open("/cheats")
        found = self.driver.find_element("css selector", "[data-found]")
        self.assertEqual(found.get_attribute("data-found"), "1")
        self.assertEqual(len(self.driver.find_elements("css selector", "[data-cheat]")), 1)
        self.assertIn("1", found.text)

    def test_with_large_text_an_unlock_toast_stays_twice_as_long(self):
        """A low-vision review at 200 % and 400 % lost the unlock's two lines in 3 s, a later one in 1.7 s at 200 %.
        The page's own timer is read (the test waits for no clock): 12 s with text at 200 %, and in a window zoomed to
        200 % (640×450)."""
        self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.timers = []; const later = window.setTimeout;
            window.setTimeout = (f, ms, ...rest) => { window.timers.push(ms); return later(f, ms, ...rest); };"""})
        try:
            self.open("/")
            self.type_keys(list("retro"))
            WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-toast]:not([hidden])"))
            self.assertIn(12000, self.driver.execute_script("return window.timers"))
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 640, "height": 450, "deviceScaleFactor": 1, "mobile": False})
            self.open("/")
            self.type_keys(list("retro"))
            WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-toast]:not([hidden])"))
            self.assertTrue({8000, 12000} & set(self.driver.execute_script("return window.timers")), "twice as long")
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})

    def test_two_shakes_open_the_credits(self):
        self.open("/credits")
        self.assertEqual(self.driver.find_elements("css selector", "[data-credits]"), [], "hidden until found")
        self.open("/")
        shake = """
            var samples = arguments[0];
            samples.forEach(function (a) {
              window.dispatchEvent(new DeviceMotionEvent("devicemotion", {accelerationIncludingGravity: {x: a[0], y: a[1], z: a[2]}}));
            });"""
        self.driver.execute_script(shake, [[0, 0, 9.8], [20, 18, 9.8]])
        time.sleep(1.1)  # at most one shake a second
        self.driver.execute_script(shake, [[0, 0, 9.8]])
        # They roll over the page, which stays (a review typed "credits" in a game and was taken out of it).
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "dialog[open].credits-dialog [data-credits]"))
        self.assertFalse(self.driver.current_url.endswith("/credits"))
        self.open("/credits")
        self.driver.find_element("css selector", "main [data-credits]")

    def test_credits_typed_in_a_game_roll_over_it_and_give_it_back(self):
        self.open("/mastermind")
        self.driver.execute_script("document.querySelectorAll('dialog[open]').forEach(x => x.close())")
        self.type_keys(list("12"))
        self.type_keys(list("credits"))
        dialog = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "dialog[open].credits-dialog"))
        self.assertTrue(self.driver.current_url.endswith("/mastermind"))
        # They roll, from below the card's foot up to their place (a review: rising a little, they read as a plain
        # dialog), and once in place the card scrolls as usual.
        top = "return arguments[0].querySelector('.credits-roll').getBoundingClientRect().top"
        first = self.driver.execute_script(top, dialog)
        WebDriverWait(self.driver, 10).until(lambda d: "is-rolled" in dialog.get_attribute("class"), "the roll ends")
        self.assertGreater(first - self.driver.execute_script(top, dialog), 100, "the credits rolled up")
        dialog.find_element("css selector", "form[method=dialog] button").click()
        WebDriverWait(self.driver, 10).until(lambda d: not d.find_elements("css selector", "dialog[open]"))
        cells = [c.text for c in self.driver.find_elements("css selector", "[data-current-row] .cell")]
        self.assertEqual(cells[:2], ["1", "2"], "the row typed before is still there")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "board")


if __name__ == "__main__":
    unittest.main()


class RetroTheme(BrowserTest):
    """The retro theme is readable whatever the system's setting."""

    def test_retro_is_readable_in_light_and_dark(self):
        self.open("/")
        for scheme in ("light", "dark"):  # the default theme, as a baseline
            self.emulate_scheme(scheme)
            for path in ("/", "/mastermind", "/namegame", "/cheats"):
                self.open(path)
                self.assertEqual(self.low_contrast(), [], f"{path} in {scheme}, default theme")
        self.driver.add_cookie({"name": "arcade_theme", "value": "crt", "path": "/", "httpOnly": True})
        for scheme in ("light", "dark"):
            self.emulate_scheme(scheme)
            for path in ("/", "/mastermind", "/namegame", "/cheats"):
                self.open(path)
                self.assertIn("theme-crt", self.driver.find_element("tag name", "html").get_attribute("class"))
                self.assertEqual(self.low_contrast(), [], f"{path} in {scheme}")
        self.assertEqual(len(self.screenshots("retro-mastermind", "/mastermind")), self.shots)
