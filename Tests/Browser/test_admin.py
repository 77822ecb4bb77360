"""An admin hotfixes the French home heading; a player sees it; the admin reverts it."""
import os
import re
import unittest

from arcade_browser import ARTIFACTS, BrowserTest, chromium, BASE_URL


def admin_password():
    """The first-start admin password, printed once to the server's log."""
    with open(os.environ["ARCADE_LOG"]) as log:
        match = re.search(r"'admin' with the password (\S+)", log.read())
    return match.group(1)


class HotfixJourney(BrowserTest):
    def test_hotfix_seen_by_a_player_then_reverted(self):
        self.open("/admin/login")
        self.driver.find_element("id", "admin-name").send_keys("admin")
        self.driver.find_element("id", "admin-password").send_keys(admin_password())
        self.click_and_wait("form.admin-login button[type=submit]")
        self.assertIn("/admin", self.driver.current_url)
        self.open("/admin/hotfixes?q=home.heading")
        card = self.driver.find_element("css selector", 'section[data-key="home.heading"]')
        card.find_element("css selector", 'select[name="language"] option[value="fr"]').click()
        field = card.find_element("css selector", 'input[name="value"]')
        field.clear()
        field.send_keys("Choisissez vite un jeu")
        self.click_and_wait('section[data-key="home.heading"] button[data-set]')

        player = chromium("fr-FR,fr")
        self.addCleanup(player.quit)
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Choisissez vite un jeu")

        self.open("/admin/hotfixes?q=home.heading")
        self.click_and_wait("button[data-revert]")
        player.get(BASE_URL + "/")
        self.assertEqual(player.find_element("css selector", "h1").text, "Choisissez un jeu")


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


class PeopleEditor(BrowserTest):
    def sign_in(self):
        self.open("/admin/login")
        self.driver.find_element("id", "admin-name").send_keys("admin")
        self.driver.find_element("id", "admin-password").send_keys(admin_password())
        self.click_and_wait("form.admin-login button[type=submit]")

    def axe_everywhere(self, path):
        found = []
        for width, scheme in self.sizes_and_schemes():
            self.open(path)
            found += [f"{path} {width}px {scheme}: {v}" for v in self.axe_violations()]
            wide = self.driver.execute_script(
                "const w = document.documentElement.clientWidth;"
                "return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > w + 1)"
                ".map(e => e.tagName + '.' + e.className + '#' + e.id)")
            self.assertEqual(wide, [], f"{path} at {width}px scrolls sideways")
        return found

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
