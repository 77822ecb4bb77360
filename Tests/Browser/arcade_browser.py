"""Shared set-up for Arcade's browser tests: a headless Chromium driven by
Debian's chromedriver, pointed at the server scripts/test started."""
import atexit
import base64
import importlib.util
import os
import sqlite3
import unittest

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support import ui

BASE_URL = os.environ.get("ARCADE_URL", "http://127.0.0.1:8080")
ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "..", ".artifacts", "screenshots")


class WebDriverWait(ui.WebDriverWait):
    """Selenium's wait, looking again after 20 ms, then less and less often, up to every 250 ms. Selenium looks every
    500 ms: most conditions here hold within milliseconds (a page loaded, a row drawn), and those half-seconds were
    most of a run's time; looking every 50 ms throughout cost as much again in CPU (each look is a round trip through
    chromedriver and the page), and the browser tests are CPU-bound on a 2-core machine. An element replaced while a
    condition looks at it is looked up again, not an error."""

    def __init__(self, driver, timeout, poll_frequency=0.02, ignored_exceptions=None):
        super().__init__(driver, timeout, poll_frequency,
                         ignored_exceptions or [NoSuchElementException, StaleElementReferenceException])
        self._first = poll_frequency

    @property
    def _poll(self):  # selenium's `until` sleeps this long between looks
        pause, self._next = self._next, min(self._next * 1.5, 0.25)
        return pause

    @_poll.setter
    def _poll(self, value):
        self._next = value

    def until(self, method, message=""):
        self._next = self._first
        return super().until(_while_replaced(method, False), message)

    def until_not(self, method, message=""):
        self._next = self._first
        return super().until_not(_while_replaced(method, True), message)


def _while_replaced(method, pending):
    """Chromedriver says "does not belong to the document" (a plain WebDriverException) when the page is replaced
    while a condition reads an element of it: a navigation in flight, so the wait goes on."""
    def look(driver):
        try:
            return method(driver)
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return pending
            raise
    return look


# Debian's Chromium headless shell (chromium-headless-shell, the same Blink and V8 as `chromium`, without the
# desktop browser around them): a page load costs it 0.06 CPU-seconds against full Chromium's 0.13, and the browser
# tests are CPU-bound (618 CPU-s against 894 for all of them). CHROMIUM=/usr/bin/chromium runs them in the full one.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM = os.environ.get("CHROMIUM") or (HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium")
SHELL = os.path.basename(CHROMIUM) == "chromium-headless-shell"


def chromium(languages="en-US,en", width=1280, height=900, extra=()):
    options = webdriver.ChromeOptions()
    # Without the back-forward cache, a navigation stays in its page's process instead of starting another (a fifth
    # of each click that loads a page, in CPU); no test goes back. The shell has no preferences: --accept-lang
    # is its Accept-Language and navigator.languages.
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--disable-features=BackForwardCache,ProactivelySwapBrowsingInstance,RenderDocument",
                 f"--window-size={width},{height}", f"--lang={languages.split(',')[0]}", f"--accept-lang={languages}",
                 *extra):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": languages})
    options.binary_location = CHROMIUM
    driver_path = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    return webdriver.Chrome(service=Service(driver_path), options=options)


# One browser a test runner, kept from one test to the next of the same shape (languages, window): starting Chromium
# costs about 1.2 CPU-seconds, and the browser tests are CPU-bound on a 2-core machine. What a test leaves behind is
# dropped first: its tabs (their emulation, injected scripts and session storage go with them), cookies, storage and
# cache. Any trouble doing so, and the browser is closed instead.
_kept = {}
atexit.register(lambda: [driver.quit() for driver in _kept.values()])


def kept_chromium(languages, width, height):
    driver = _kept.pop((languages, width, height), None)
    for other in _kept.values():
        other.quit()
    _kept.clear()
    return driver or chromium(languages, width, height)


def keep(driver, languages, width, height):
    try:
        tabs = driver.window_handles
        driver.switch_to.new_window("tab")
        fresh = driver.current_window_handle
        for tab in tabs:
            driver.switch_to.window(tab)
            driver.close()
        driver.switch_to.window(fresh)
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        origin = "/".join(BASE_URL.split("/")[:3])
        driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    except WebDriverException:
        driver.quit()
        return
    _kept[(languages, width, height)] = driver


# Every animation ended, as a player sees the page once it settles (an endless one, a timer's pulse, cannot be ended).
# How the focused element (arguments[0]) shows its focus: its outline's style, or "bar" for a heading focused by script
# and marked by a bar at its start rather than ringed (a player review read a ring round "Brilliant!" as a text field).
FOCUS_MARK_JS = """const e = arguments[0], s = getComputedStyle(e);
    return s.outlineStyle !== "none" ? s.outlineStyle : e.matches("h1, h2") && s.boxShadow !== "none" ? "bar" : "none";"""
SETTLE_JS = "document.getAnimations().forEach(a => isFinite(a.effect.getComputedTiming().endTime) && a.finish());"


def gone(element):
    """A wait condition: true once the element's page has been replaced.
    Chromium reports a detached node either as stale or as "does not belong
    to the document"; both mean the browser has moved on."""
    def check(_):
        try:
            element.tag_name  # a third of is_enabled's CPU (no script sent into the page), looked at on every click
            return False
        except (StaleElementReferenceException, WebDriverException):
            return True
    return check


class BrowserTest(unittest.TestCase):
    languages = "en-US,en"
    width, height = 1280, 900

    def setUp(self):
        self.driver = kept_chromium(self.languages, self.width, self.height)
        self.driver.set_page_load_timeout(20)
        self.addCleanup(keep, self.driver, self.languages, self.width, self.height)

    def open(self, path):
        self.driver.get(BASE_URL + path)
        self.close_tutorial()

    def meet_people(self, count=8, stability=10):
        """Test set-up through the database: this browser's player has met `count` people (in review, due now), none
        of them asked about in an open round, so the quizzes ask about people met rather than introduce someone new,
        and a timed minute starts (it waits for eight met). Learn types the names of memories of 5 days and more:
        `stability` below that, it asks them picked."""
        self.open("/namegame")
        value = self.driver.get_cookie("arcade_player")["value"].split(".")[0]
        player, seen = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode().split(".")[:2]
        with sqlite3.connect(os.environ["ARCADE_DB"]) as db:
            db.execute("INSERT OR IGNORE INTO players (id, first_seen) VALUES (?, ?)", (player, int(seen)))
            db.execute("INSERT OR IGNORE INTO namegame_cards (player, person, state, step, stability, difficulty,"
                       " due_ms, last_ms, reviews, lapses, met_ms, introduced) SELECT ?, id, 'review', NULL, ?, 5, 0,"
                       " 0, 1, 0, 0, 1 FROM people WHERE retired = 0 AND id NOT IN (SELECT f.person FROM"
                       " namegame_round_faces f JOIN namegame_rounds r ON f.round = r.id AND f.position = r.answer"
                       " WHERE r.player = ?"
                       " AND r.status = 'open') ORDER BY id LIMIT ?", (player, stability, player, count))

    def reveal_mode(self, mode):
        """The Name Game menu shows three modes after Learn; the others open under "Other ways to play", as a player
        opens them (with or without scripts)."""
        button = self.driver.find_element("css selector", f'button[data-play="{mode}"]')
        if not button.is_displayed():
            self.driver.find_element("css selector", "[data-more-modes] > summary").click()
        return button

    def close_tutorial(self):
        """A game's first visit opens How to play as a dialog (with scripts on): close it, as a player would, and
        wait until that dismissal is stored, so the next page does not open it again."""
        try:
            buttons = self.driver.find_elements("css selector", "dialog[open] form[method=dialog] button")
        except WebDriverException:
            return  # scripts off: no dialog
        if buttons:
            buttons[0].click()
            WebDriverWait(self.driver, 10).until(
                lambda d: d.find_element("css selector", "html").get_attribute("data-tutorial-dismissed"))

    def choice_count(self):
        """The Name Game round's faces or names on the page (Learn shows three until four people are met)."""
        return len(self.driver.find_elements("css selector", "button[data-choice]"))

    def text(self, selector):
        return self.driver.find_element("css selector", selector).text

    def click_and_wait(self, selector):
        """Clicks something that loads a new page, and waits for it."""
        page = self.driver.find_element("css selector", "html")
        self.driver.find_element("css selector", selector).click()
        WebDriverWait(self.driver, 10).until(gone(page))
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def post(self, path, fields=""):
        """Posts a form the way the page would (with its CSRF token), from inside the page; returns the status."""
        return self.driver.execute_script(
            "const token = document.querySelector('meta[name=csrf-token]').content;"
            "return fetch(arguments[0], {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},"
            " body: 'csrf=' + encodeURIComponent(token) + (arguments[1] ? '&' + arguments[1] : '')}).then(r => r.status)",
            path, fields)

    shots = 2 if os.environ.get("ARCADE_SCREENSHOTS") == "some" else 8  # how many `screenshots` saves

    def screenshots(self, name, path, prepare=None):
        """Saves `path` at 360x740 and 1280x900, light and dark, with JavaScript on and off, as
        .artifacts/screenshots/NAME-WIDTH-THEME-js|nojs.png; `prepare` runs after each load. With
        ARCADE_SCREENSHOTS=some (scripts/test sets it under CI, where nobody opens them) only two of the eight: a
        phone, light, with scripts, and a desktop, dark, without, so each load still meets every size, scheme and
        script setting once (eight page loads a call were a sixth of the browser tests' CPU)."""
        os.makedirs(ARTIFACTS, exist_ok=True)
        some = self.shots == 2
        saved = []
        try:
            for width, height in ((360, 740), (1280, 900)):
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
                for theme in ("light", "dark"):
                    self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                        "features": [{"name": "prefers-color-scheme", "value": theme}]})
                    for js in (True, False):
                        if some and (width, theme, js) not in ((360, "light", True), (1280, "dark", False)):
                            continue
                        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not js})
                        self.open(path)
                        if prepare:
                            prepare()
                        # As a player sees the page once it settles, not a frame of an entrance animation.
                        self.driver.execute_script(SETTLE_JS)
                        file = os.path.join(ARTIFACTS, f"{name}-{width}-{theme}-{'js' if js else 'nojs'}.png")
                        self.assertTrue(self.driver.save_screenshot(file))
                        saved.append(file)
        finally:
            self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        return saved

    COLOR_JS = """
        function rgb(text) { const m = text.match(/[\\d.]+/g).map(Number); return m.length > 3 ? m : m.concat([1]); }
        function luminance(c) {
            const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        }
        function background(node) {
            for (; node && node.nodeType === 1; node = node.parentElement) {
                const c = rgb(getComputedStyle(node).backgroundColor);
                if (c[3] > 0.5) return c;
            }
            return [255, 255, 255, 1];
        }
    """
    LOW_CONTRAST_JS = COLOR_JS + """
        const bad = [];
        for (const el of document.querySelectorAll('body *')) {
            const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
            const box = el.getBoundingClientRect();
            if (!own || box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
            if (el.closest('.visually-hidden')) continue;
            const style = getComputedStyle(el);
            const l1 = luminance(rgb(style.color)), l2 = luminance(background(el));
            const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
            const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && style.fontWeight >= 700);
            if (ratio < (arguments[0] ? 7 : (large ? 3 : 4.5))) bad.push(el.tagName.toLowerCase() + ' "' + el.textContent.trim().slice(0, 30) + '" ' + ratio.toFixed(2));
        }
        return bad;
    """

    CONTRAST_OF_JS = COLOR_JS + """
        const a = luminance(rgb(getComputedStyle(arguments[0]).color)), b = luminance(background(arguments[0]));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    """

    EDGE_CONTRAST_OF_JS = COLOR_JS + """
        const a = luminance(rgb(getComputedStyle(arguments[0]).borderTopColor)), b = luminance(background(arguments[0]));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    """

    def edge_contrast_of(self, element):
        """The contrast ratio of an element's border on the background behind it (WCAG 1.4.11 asks 3:1)."""
        return self.driver.execute_script(self.EDGE_CONTRAST_OF_JS, element)

    def contrast_of(self, element):
        """The contrast ratio of an element's text on the background behind it."""
        return self.driver.execute_script(self.CONTRAST_OF_JS, element)

    def low_contrast(self, aaa=False):
        """Text on the page under WCAG AA contrast (4.5:1, 3:1 for large text), or AAA's 7:1 for all text,
        as 'tag "text" ratio'."""
        return self.driver.execute_script(self.LOW_CONTRAST_JS, aaa)

    def emulate_scheme(self, scheme):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def sizes(self):
        """Yields 1280 and 360, the window emulated as 1280x900 and as a 360x740 phone; cleared afterwards."""
        try:
            for width, height in ((1280, 900), (360, 740)):
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
                yield width
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def schemes(self):
        """Yields "light" and "dark", the page as it is turned to each: no reload, as a player's system setting changes
        it (the stylesheet follows at once and no script reads it; axe settles the transitions). Half the page loads
        of reloading for each."""
        for scheme in ("light", "dark"):
            self.emulate_scheme(scheme)
            yield scheme

    # On the page settled: a title fading in is not yet its colour.
    AXE_RUN_JS = """
        const done = arguments[arguments.length - 1];
        """ + SETTLE_JS + """
        axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.impact + ' ' + v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))));
    """

    def axe_violations(self):
        """axe-core's serious and critical violations on the current page, as 'impact rule: nodes'. axe.min.js comes
        from PyPI's axe-playwright-python (installed without its dependencies; no Playwright is used)."""
        # Sent to the browser once a test: every later page gets it as it loads (half a megabyte a call otherwise).
        if not getattr(self, "axe_on_new_pages", False):
            spec = importlib.util.find_spec("axe_playwright_python")
            with open(os.path.join(spec.submodule_search_locations[0], "axe.min.js"), encoding="utf-8") as file:
                self.axe_source = file.read()
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": self.axe_source})
            self.axe_on_new_pages = True
        if not self.driver.execute_script("return typeof axe !== 'undefined'"):
            self.driver.execute_script(self.axe_source)
        self.driver.set_script_timeout(30)
        return self.driver.execute_async_script(self.AXE_RUN_JS)
