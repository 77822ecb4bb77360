"""The admin console in a browser: hotfixes seen by a player, every page clean at both sizes, maintenance pushed
live to an open page, the people editor."""
import os
import re
import unittest

from arcade_browser import WebDriverWait

from arcade_browser import ARTIFACTS, BrowserTest, chromium, BASE_URL


def admin_password():
    """The first-start admin password, in the file the server's log names (never in the log itself)."""
    with open(os.environ["ARCADE_LOG"]) as log:
        match = re.search(r"its password is in (\S+)", log.read())
    with open(match.group(1)) as secret:
        return secret.read().strip()


class AdminBrowserTest(BrowserTest):
    def sign_in(self):
        self.open("/admin/login")
        self.driver.find_element("id", "admin-name").send_keys("admin")
        self.driver.find_element("id", "admin-password").send_keys(admin_password())
        self.click_and_wait("form.admin-login button[type=submit]")

    def axe_everywhere(self, path):
        """axe at both sizes in both schemes, and no sideways scroll; returns what it found."""
        found = []
        for width in self.sizes():
            self.open(path)
            for scheme in self.schemes():
                found += [f"{path} {width}px {scheme}: {v}" for v in self.axe_violations()]
            self.assertEqual(self.sticking_out(), [], f"{path} at {width}px scrolls sideways")
        return found

    def sticking_out(self):
        """The elements wider than the page, which would make it scroll sideways."""
        return self.driver.execute_script(
            "const w = document.documentElement.clientWidth;"
            # Inside a box that scrolls sideways itself (a wide table's region), an element does not move the page.
            "const clipped = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {"
            "  const x = getComputedStyle(a).overflowX;"
            "  if ((x === 'auto' || x === 'scroll' || x === 'hidden') && a.getBoundingClientRect().right <= w + 1)"
            "    return true; } return false; };"
            "return Array.from(document.querySelectorAll('body *'))"
            ".filter(e => e.getBoundingClientRect().right > w + 1 && !clipped(e))"
            ".map(e => e.tagName + '.' + e.className + '#' + e.id)")


class HotfixJourney(AdminBrowserTest):
    def test_hotfix_seen_by_a_player_then_reverted(self):
        self.sign_in()
        self.assertIn("/admin", self.driver.current_url)
        self.open("/admin/hotfixes?q=home.heading")
        row = 'section[data-key="home.heading"] form[data-language="fr"]'
        field = self.driver.find_element("css selector", row + ' input[name="value"]')
        self.assertEqual(field.get_attribute("value"), "Choisissez un jeu", "the row starts from the French text")
        field.clear()
        field.send_keys("Choisissez vite un jeu")
        self.click_and_wait(row + " button[data-set]")
        self.assertIn("Saved home.heading for fr.", self.text("[data-flash]"))
        # The other languages' rows are untouched, each with its own text.
        self.assertEqual(self.driver.find_element("css selector", 'form[data-language="de"] input[name="value"]')
                         .get_attribute("value"), "Wähle ein Spiel")

        player = chromium("fr-FR,fr")
        self.addCleanup(player.quit)
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Choisissez vite un jeu")

        self.open("/admin/hotfixes?q=home.heading")
        self.click_and_wait("button[data-revert]")
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Choisissez un jeu")


class AdminConsole(AdminBrowserTest):
    def test_every_admin_page_is_clean_at_both_sizes(self):
        self.sign_in()
        # Something in each list, so the pages are seen with content.
        self.assertEqual(self.post("/admin/rules", "platform=web&active=on&restriction=0&app_version=0.1"), 200)
        self.open("/admin")
        self.assertEqual(self.driver.find_element("css selector", "[data-dashboard]").get_attribute("data-maintenance-web"),
                         "off")
        pages = ["/admin", "/admin/hotfixes", "/admin/hotfixes?q=home.heading", "/admin/maintenance",
                 "/admin/rules?preview=1&platform=web&app=0.0.1&os=", "/admin/schedule", "/admin/audit", "/admin/strings",
                 "/admin/password"]
        found = []
        for path in pages:
            found += self.axe_everywhere(path)
        self.assertEqual(found, [])
        # "Update required" (a high rule this browser breaks), seen and then removed so later tests play normally.
        self.assertEqual(self.post("/admin/rules", "platform=web&active=on&restriction=2&app_version=99"), 200)
        self.open("/admin/rules")
        rule = self.driver.find_elements("css selector", 'section[data-restriction="high"]')[-1].get_attribute("data-rule")
        try:
            self.open("/mastermind")
            self.assertTrue(self.driver.find_elements("css selector", "a[data-reload]"))
            self.assertEqual(self.axe_violations(), [])
            self.screenshots("update-required", "/mastermind")
        finally:
            self.open("/admin/rules")
            self.assertEqual(self.post("/admin/rules", f"id={rule}&delete=1"), 200)
        for name, path in (("admin-dashboard", "/admin"), ("admin-hotfixes", "/admin/hotfixes?q=home.heading"),
                           ("admin-maintenance", "/admin/maintenance"), ("admin-schedule", "/admin/schedule"),
                           ("admin-password", "/admin/password"),
                           ("admin-rules", "/admin/rules?preview=1&platform=web&app=0.0.1&os=")):
            self.screenshots(name, path)

    def test_maintenance_switched_on_reaches_an_open_page_without_a_click(self):
        self.sign_in()
        player = chromium()
        self.addCleanup(player.quit)
        player.get(BASE_URL + "/progress")
        self.assertFalse(player.find_elements("css selector", '[data-status="503"]'))
        self.open("/admin/maintenance")
        self.driver.find_element("id", "m-web-en").send_keys("Polishing the pixels")
        self.click_and_wait('#maintenance-web button[name="switch"][value="on"]')
        # Asked once more, with what it does.
        self.assertIn("503", self.text("[data-confirm]"))
        self.assertEqual(self.axe_violations(), [])
        self.assertTrue(self.driver.save_screenshot(os.path.join(ARTIFACTS, "admin-maintenance-confirm.png")))
        self.click_and_wait("button[data-confirm-yes]")
        self.assertIn("Maintenance is on for web", self.text("[data-flash]"))
        self.assertEqual(self.driver.find_element("id", "maintenance-web").get_attribute("data-state"), "on")
        # The open page learns it by the live stream and shows the closed page, within 2 s (and a margin).
        WebDriverWait(player, 4).until(lambda d: d.find_elements("css selector", '[data-status="503"]'))
        self.assertIn("Polishing the pixels", player.find_element("css selector", "main").text)
        self.assertTrue(player.find_elements("css selector", "a[data-retry]"))
        self.assertFalse(player.find_elements("css selector", 'a[href="/mastermind"]'), "no link to a closed page")
        # What a player sees meanwhile, at both sizes, both schemes, with and without scripts.
        self.screenshots("maintenance-503", "/progress")
        self.assertEqual(self.axe_violations(), [])
        # Switched off: the closed page opens again by itself.
        self.open("/admin/maintenance")
        self.click_and_wait('#maintenance-web button[name="switch"][value="off"]')
        self.click_and_wait("button[data-confirm-yes]")
        WebDriverWait(player, 4).until(lambda d: not d.find_elements("css selector", '[data-status="503"]'))
        self.assertIn("/progress", player.current_url)


class TranslatorsRoundTrip(AdminBrowserTest):
    FILE = ('/* From a translator: one change, one as shipped, one key we do not have, one placeholder lost. */\n'
            '"home.heading" = "Wähle schnell ein Spiel";\n"nav.home" = "Start";\n"no.such.key" = "Nichts";\n'
            '"language.current" = "aktuell";\n')

    def upload(self):
        path = os.path.realpath(os.path.join(ARTIFACTS, "de-import.strings"))
        with open(path, "w") as f:
            f.write(self.FILE)
        # Set as the picker would: a click on a phone-sized page opens the system's picker over it.
        self.driver.execute_script("document.getElementById('import-language').value = 'de'")
        self.driver.find_element("id", "import-file").send_keys(path)
        self.click_and_wait("form[data-strings-import] button[type=submit]")

    def test_import_preview_apply_and_revert(self):
        self.sign_in()
        self.open("/admin/strings")
        self.upload()
        summary = self.driver.find_element("css selector", "[data-import-summary]")
        self.assertEqual([summary.get_attribute(f"data-{s}") for s in ("new", "changed", "unchanged", "refused")],
                         ["0", "1", "1", "2"])
        statuses = {row.get_attribute("data-entry"): row.get_attribute("data-status")
                    for row in self.driver.find_elements("css selector", "tr[data-entry]")}
        self.assertEqual(statuses, {"home.heading": "changed", "no.such.key": "refused", "language.current": "refused"})
        self.assertIn("%1$@", self.text('tr[data-entry="language.current"] [data-reason]'))
        found = []
        for width in self.sizes():
            self.open("/admin/strings")
            self.upload()
            for scheme in self.schemes():
                found += [f"preview {width}px {scheme}: {v}" for v in self.axe_violations()]
            self.assertEqual(self.sticking_out(), [], f"the preview at {width}px scrolls sideways")
        self.assertEqual(found, [])
        self.screenshots("admin-strings-import", "/admin/strings", prepare=self.upload)
        self.click_and_wait("button[data-apply-import]")
        self.assertIn("1", self.text("[data-flash]"))
        player = chromium("de-DE,de")
        self.addCleanup(player.quit)
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Wähle schnell ein Spiel")
        self.screenshots("admin-strings", "/admin/strings")
        # Further down: the pseudo-locale card and the import just applied, with its revert button.
        self.screenshots("admin-strings-imports", "/admin/strings", prepare=lambda: self.driver.execute_script(
            "document.getElementById('strings-pseudo').scrollIntoView({block: 'start'})"))
        self.click_and_wait("button[data-revert-import]")
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Wähle ein Spiel")
        self.assertTrue(self.driver.find_elements("css selector", "tr[data-reverted]"))

    def test_the_pseudo_locale_shows_an_admin_what_is_not_localized(self):
        self.sign_in()
        try:
            self.open("/admin/strings")
            self.click_and_wait("a[data-pseudo-locale]")
            self.assertEqual(self.driver.find_element("css selector", "html").get_attribute("lang"), "en-XA")
            heading = self.text("h1")
            self.assertTrue(heading.startswith("[") and heading.endswith("]"), heading)
            self.assertEqual(self.axe_violations(), [])
            self.screenshots("pseudo-locale-home", "/")
            self.screenshots("pseudo-locale-mastermind", "/mastermind")
        finally:
            self.open("/?lang=en")


if __name__ == "__main__":
    unittest.main()


def png(width, height, color):
    """A real PNG of one color, made without an imaging library."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(color) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class PeopleEditor(AdminBrowserTest):
    def test_add_a_person_with_a_photo_then_edit_and_import(self):
        self.sign_in()
        self.open("/admin/people")
        folder = os.path.join(os.environ.get("TMPDIR", "/tmp"), "arcade-people-upload")
        os.makedirs(folder, exist_ok=True)
        photo = os.path.join(folder, "grace.png")
        with open(photo, "wb") as f:
            f.write(png(200, 200, (46, 125, 170)))
        self.driver.find_element("id", "add-first").send_keys("Grace")
        self.driver.find_element("id", "add-last").send_keys("Hopper")
        self.driver.find_element("id", "add-title").send_keys("Rear Admiral")
        self.driver.find_element("id", "add-photo").send_keys(photo)
        self.click_and_wait("form[data-add-person] button[type=submit]")
        self.assertTrue(self.driver.find_element("css selector", "[data-notice]").text)
        self.open("/admin/people?q=grace")
        row = self.driver.find_element("css selector", "[data-person]")
        self.assertIn("Grace Hopper", row.text)
        image = row.find_element("css selector", "img")
        self.assertTrue(self.driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth === 200", image))
        editor = row.find_element("css selector", "a").get_attribute("href")
        path = editor[len(BASE_URL):]
        self.assertEqual(self.axe_everywhere("/admin/people") + self.axe_everywhere(path), [])
        self.screenshots("admin-people", "/admin/people")
        self.screenshots("admin-person", path)
        # A CSV import, previewed (nothing changes yet), then cancelled.
        csv = os.path.join(folder, "people.csv")
        with open(csv, "w") as f:
            f.write("first,last,title,photo_file\nAlan,Turing,Mathematician,alan.png\nNo,Photo,,missing.png\n")
        alan = os.path.join(folder, "alan.png")
        with open(alan, "wb") as f:
            f.write(png(120, 120, (170, 90, 46)))
        self.open("/admin/people")
        self.driver.find_element("id", "import-file").send_keys(csv)
        self.driver.find_element("id", "import-photos").send_keys(alan)
        self.click_and_wait("form[data-import] button[type=submit]")
        self.assertIn("1 to add, 0 to change, 1 left out", self.text("[data-import-summary]"))
        self.assertIn("missing.png", self.text("[data-import-skipped]"))
        self.assertEqual(self.axe_violations(), [])
        self.assertTrue(self.driver.save_screenshot(os.path.join(ARTIFACTS, "admin-people-import.png")))
        self.click_and_wait("button[data-cancel-import]")
        self.open("/admin/people?q=turing")
        self.assertTrue(self.driver.find_elements("css selector", "[data-empty=people]"))
