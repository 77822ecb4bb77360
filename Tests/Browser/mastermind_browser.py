"""What the Mastermind and cheat-code browser tests share: the secret read from the server's database as an oracle
would, the game's scoring written again, and how a player drives the board (keys, taps, a finger)."""
import os
import sqlite3
import time

from arcade_browser import BrowserTest
from selenium.webdriver.common.action_chains import ActionChains
from arcade_browser import WebDriverWait

DATABASE = os.environ.get("ARCADE_DB")


def secret_of(game_id):
    """The secret, read from the server's database the way an oracle would."""
    with sqlite3.connect(DATABASE) as db:
        return db.execute("SELECT secret FROM mastermind_games WHERE id = ?", (game_id,)).fetchone()[0]


def score(secret, guess):
    """Reds and blues, as the game scores them (written again here, so the test checks the server)."""
    red = sum(a == b for a, b in zip(secret, guess))
    common = sum(min(secret.count(d), guess.count(d)) for d in set(guess))
    return red, common - red


def wrong_guesses(secret):
    """Ten different guesses, none of them the secret."""
    out, n = [], 1
    while len(out) < 10:
        index = (n * 397 + 11) % 4096
        guess = "".join(str((index >> (3 * (3 - i))) & 7) for i in range(4))
        if guess != secret and guess not in out:
            out.append(guess)
        n += 1
    return out


# Whether the badge an element's ::after draws in its corner (a key's ✎, a covered cell's revealed digit) lies over
# the element's own text: false, or the two boxes. Its argument is the element's selector.
BADGE_OVER_TEXT_JS = """
    const host = document.querySelector(arguments[0]); if (!host) return 'nothing at ' + arguments[0];
    const k = host.getBoundingClientRect(), badge = getComputedStyle(host, '::after'), range = document.createRange();
    range.selectNodeContents(host);
    const text = range.getBoundingClientRect(), px = v => parseFloat(v);
    const b = {right: k.right - px(badge.right), top: k.top + px(badge.top)};
    b.left = b.right - px(badge.width); b.bottom = b.top + px(badge.height);
    return b.left < text.right && b.right > text.left && b.top < text.bottom && b.bottom > text.top
      ? [b, text.toJSON()] : false;"""


BOX_JS = """const r = arguments[0].getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, cx: r.left + r.width / 2,
                    cy: r.top + r.height / 2};"""


class MastermindHelpers(BrowserTest):
    """How a player drives the board; no tests of its own."""

    def box(self, element):
        return self.driver.execute_script(BOX_JS, element)

    def phone(self):
        """A 360x740 phone with a finger."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})

    def board(self):
        return self.driver.find_element("css selector", "#board")

    def open_results(self):
        """A finished game loaded again shows its results in the page (the card opens only as a game ends): opens the
        card as that end does, when the page runs scripts, and waits for it."""
        if self.driver.execute_script("return document.documentElement.classList.contains('js')"):
            self.driver.execute_script("window.ArcadeMastermind.results()")
            return WebDriverWait(self.driver, 10).until(
                lambda d: d.find_element("css selector", "dialog[open][data-results-dialog]"))

    def settled_card(self):
        """The results card once it has risen, the page has scrolled the board above it (a narrow window) and it
        takes taps: a finger's tap lands where it is then."""
        last = []

        def settled(d):
            now = d.execute_script("""const c = document.querySelector('dialog[open][data-results-dialog]');
                return c && !c.getAnimations().length && !c.hasAttribute('data-settling')
                  ? [scrollY, c.getBoundingClientRect().top] : null;""")
            still = now is not None and last == [now]
            last[:] = [now]
            return still and d.find_element("css selector", "dialog[open][data-results-dialog]")
        return WebDriverWait(self.driver, 10, poll_frequency=0.2).until(settled)

    def game(self):
        return self.board().get_attribute("data-game")

    def rows(self):
        return len(self.driver.find_elements("css selector", "#board .row"))

    def wait_rows(self, count):
        WebDriverWait(self.driver, 20).until(lambda d: self.rows() == count)

    def start(self, path="/mastermind"):
        """Opens the board with a game in play (the unstarted board gets one, as "new game" makes it, so its secret
        exists) and returns its secret."""
        self.open(path)
        if self.game() == "0":
            if path == "/mastermind":
                self.assertEqual(self.post("/mastermind/new"), 200)
            self.open(path)
        # (As long as a row may take: a busy machine's first script run on a page took over 10 s once.)
        WebDriverWait(self.driver, 20).until(
            lambda d: not d.find_element("css selector", "[data-keypad]").get_attribute("hidden"))
        game = self.game()
        return secret_of(int(game)) if game != "0" else None

    def keys(self, text):
        chain = ActionChains(self.driver)
        for key in text:
            chain.send_keys(key).pause(0.02)
        chain.perform()

    def hint(self):
        """Presses Hint and, where it asks first (a hint that takes a win out of the chart), says yes; the hint."""
        self.driver.find_element("css selector", "form[action='/mastermind/hint'] button").click()
        WebDriverWait(self.driver, 10).until(
            lambda d: d.find_elements("css selector", "[data-hint-ask], [data-message] [data-hint]"))
        for confirm in self.driver.find_elements("css selector", "[data-hint-confirm]"):
            confirm.click()
        return WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-message] [data-hint]"))

    def tap(self, code):
        for digit in code:
            self.driver.find_element("css selector", f"[data-keypad] button[data-key='{digit}']").click()
        self.driver.find_element("css selector", "[data-keypad] button[data-key='Enter']").click()

    def cells(self):
        return [c.text for c in self.driver.find_elements("css selector", "[data-current-row] [data-cell]")]

    def finger(self, points, pause=0.02, radius=None):
        """One finger through the DevTools protocol: down at the first point, through the others, up at the last (the
        browser makes its own gestures of it: scrolls, clicks, back). With a radius, a fingertip's breadth: the browser
        sends its click to the nearest button it covers."""
        size = {"radiusX": radius, "radiusY": radius} if radius else {}
        send = lambda kind, point: self.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": point[0], "y": point[1], **size}]})
        send("touchStart", points[0])
        for point in points[1:]:
            time.sleep(pause)
            send("touchMove", point)
        send("touchEnd", points[-1])

    def taps(self, x, y, count):
        """A burst of taps made by the browser itself (one DevTools call), so a busy machine's slow calls cannot split
        it the way separate touches sent one by one would."""
        self.driver.execute_cdp_cmd("Input.synthesizeTapGesture", {
            "x": x, "y": y, "duration": 40, "tapCount": count, "gestureSourceType": "touch"})
