"""Admins managed in the console: a new admin by a one-time set-up link, removal, a session revoked, and the second
factor (TOTP) set up and used, each checked in the audit log. The first-start admin keeps its plain password (other
tests sign in with it); every other account here has a name of its own, since tests share a server."""
import base64
import hashlib
import hmac
import struct
import time
import unittest
import uuid

from arcade_browser import BASE_URL, chromium
from test_admin import AdminBrowserTest

PASSWORD = "correct horse battery staple"


def totp(secret, at, digits=6):
    """RFC 6238 with Python's hmac and hashlib: the oracle the server's codes are checked against."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    number = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return str(number % 10 ** digits).zfill(digits)


def read_qr(svg_path, side):
    """The text of the QR code the page draws, read by zbar (pyzbar): the path's runs ("M x y h w v1 h-w z") painted
    onto a white raster, 4 pixels a module."""
    import re
    from pyzbar import pyzbar
    scale = 4
    width = side * scale
    pixels = bytearray(b"\xff" * width * width)
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", svg_path):
        x, y, w = int(x), int(y), int(w)
        for row in range(y * scale, (y + 1) * scale):
            pixels[row * width + x * scale:row * width + (x + w) * scale] = b"\x00" * (w * scale)
    found = pyzbar.decode((bytes(pixels), width, width))
    return found[0].data.decode() if found else None


class AdminsPage(AdminBrowserTest):
    def unique(self, prefix):
        return f"{prefix}-{uuid.uuid4().hex[:6]}"

    def browser(self):
        """A fresh browser (its own cookies), closed after the test."""
        other = chromium()
        self.addCleanup(other.quit)
        return other

    def invite(self, name):
        """As the signed-in admin: a set-up link for `name`, read from the page that shows it once."""
        self.open("/admin/admins")
        self.driver.find_element("id", "invite-name").send_keys(name)
        self.click_and_wait("form[data-invite] button[type=submit]")
        self.assertEqual(self.driver.find_element("css selector", "[data-setup-link]").get_attribute(
            "data-setup-link"), name)
        return self.driver.find_element("css selector", "[data-setup-url]").get_attribute("value")

    def accept(self, driver, link, password=PASSWORD):
        driver.get(link)
        driver.find_element("id", "setup-password").send_keys(password)
        driver.find_element("id", "setup-again").send_keys(password)
        self.submit(driver, "form[data-setup] button[type=submit]")

    def submit(self, driver, selector):
        from arcade_browser import gone
        from arcade_browser import WebDriverWait
        page = driver.find_element("css selector", "html")
        driver.find_element("css selector", selector).click()
        WebDriverWait(driver, 10).until(gone(page))

    def sign_in_as(self, driver, name, password=PASSWORD):
        driver.get(BASE_URL + "/admin/login")
        field = driver.find_element("id", "admin-name")
        field.clear()
        field.send_keys(name)
        driver.find_element("id", "admin-password").send_keys(password)
        self.submit(driver, "form.admin-login button[type=submit]")

    def new_admin(self, prefix):
        """An admin made through a link, signed in in a browser of their own: (name, that browser)."""
        name = self.unique(prefix)
        link = self.invite(name)
        other = self.browser()
        self.accept(other, link)
        self.sign_in_as(other, name)
        self.assertEqual(other.current_url, BASE_URL + "/admin")
        return name, other

    def audit(self):
        """The audit log's rows as (action, who, target, after)."""
        self.open("/admin/audit")
        return [(row.get_attribute("data-action"), *[td.text for td in row.find_elements("css selector", "td")[1:2]],
                 row.find_elements("css selector", "td")[3].text, row.find_elements("css selector", "td")[5].text)
                for row in self.driver.find_elements("css selector", "tr[data-action]")]

    def test_add_an_admin_by_a_one_time_link(self):
        self.sign_in()
        name = self.unique("ada")
        link = self.invite(name)
        self.assertIn("/admin/setup?token=", link)
        self.assertEqual(self.axe_violations(), [], "the page with the link")
        # The link in a browser that has never been here: the name it is for, two password fields.
        other = self.browser()
        other.get(link)
        self.assertEqual(other.find_element("id", "setup-name").get_attribute("value"), name)
        self.driver.get(link)
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("admin-setup", link[len(BASE_URL):])
        # Mismatched passwords: refused, the link still works.
        other.find_element("id", "setup-password").send_keys(PASSWORD)
        other.find_element("id", "setup-again").send_keys(PASSWORD + "!")
        self.submit(other, "form[data-setup] button[type=submit]")
        self.assertTrue(other.find_elements("css selector", "[data-error]"))
        self.accept(other, link)
        self.assertIn("/admin/login?ready=", other.current_url)
        self.assertTrue(other.find_elements("css selector", "[data-ready]"))
        self.sign_in_as(other, name)
        self.assertEqual(other.current_url, BASE_URL + "/admin")
        self.assertIn(name, other.find_element("css selector", "[data-admin]").get_attribute("data-admin"))
        # Used once: the same link no longer works.
        third = self.browser()
        third.get(link)
        self.assertTrue(third.find_elements("css selector", "[data-setup-invalid]"))
        self.assertFalse(third.find_elements("id", "setup-password"))
        # The first admin sees the new account, its sign-in and its session.
        self.open("/admin/admins")
        row = self.driver.find_element("css selector", f'tr[data-admin-row="{name}"]')
        self.assertEqual(row.get_attribute("data-sessions"), "1")
        self.assertNotIn("never", row.text)
        self.assertTrue(self.driver.find_elements("css selector", f'tr[data-session-admin="{name}"]'))
        entries = self.audit()
        self.assertIn(("invite admin", "admin", name), [e[:3] for e in entries])
        self.assertIn(("create admin", name, name), [e[:3] for e in entries])
        self.assertIn(("sign-in", name), [e[:2] for e in entries])
        found = []
        for path in ("/admin/admins", "/admin/totp"):
            found += self.axe_everywhere(path)
        self.assertEqual(found, [])
        self.screenshots("admin-admins", "/admin/admins")

    def test_remove_an_admin_after_a_confirmation(self):
        self.sign_in()
        name, other = self.new_admin("bea")
        self.open("/admin/admins")
        self.click_and_wait(f'button[data-remove="{name}"]')
        self.assertIn(name, self.text("[data-confirm]"))
        self.assertEqual(self.axe_violations(), [])
        self.click_and_wait("button[data-confirm-yes]")
        self.assertIn(name, self.text("[data-flash]"))
        self.assertFalse(self.driver.find_elements("css selector", f'tr[data-admin-row="{name}"]'))
        # Their open browser is signed out, and their password no longer signs in.
        other.get(BASE_URL + "/admin")
        self.assertIn("/admin/login", other.current_url)
        self.sign_in_as(other, name)
        self.assertIn("/admin/login", other.current_url)
        self.assertIn(("remove admin", "admin", name), [e[:3] for e in self.audit()])

    def test_revoke_another_browsers_session(self):
        self.sign_in()
        name, other = self.new_admin("cy")
        other.get(BASE_URL + "/admin/hotfixes")
        self.assertIn("/admin/hotfixes", other.current_url)
        self.open("/admin/admins")
        row = f'tr[data-session-admin="{name}"]'
        self.assertIn("Chrome", self.text(row), "the device, from the User-Agent")
        self.assertIn("127.0.0.1", self.text(row))
        self.click_and_wait(row + " button[data-revoke]")
        self.assertTrue(self.text("[data-flash]"))
        self.assertFalse(self.driver.find_elements("css selector", row))
        # The revoked browser is signed out on its very next request; this one is not.
        other.get(BASE_URL + "/admin/hotfixes")
        self.assertIn("/admin/login", other.current_url)
        self.open("/admin")
        self.assertEqual(self.driver.current_url, BASE_URL + "/admin")
        self.assertIn(("revoke session", "admin", name), [e[:3] for e in self.audit()])

    def test_set_up_a_second_factor_and_sign_in_with_a_code(self):
        self.sign_in()
        name, other = self.new_admin("dee")
        # Seen as `other` (the new admin) from here on: this test's driver is theirs.
        self.driver, other = other, self.driver
        self.open("/admin/totp")
        self.click_and_wait("button[data-totp-start]")
        secret = self.text("[data-totp-secret]").replace(" ", "")
        self.assertEqual(len(secret), 32, "160 random bits")
        svg = self.driver.find_element("css selector", "svg[data-qr]")
        side = int(svg.get_dom_attribute("viewBox").split()[2])
        uri = read_qr(svg.find_element("css selector", "path").get_dom_attribute("d"), side)
        self.assertEqual(uri, f"otpauth://totp/Arcade:{name}?secret={secret}&issuer=Arcade&algorithm=SHA1&digits=6"
                              "&period=30", "the QR code, as a phone's camera would read it")
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("admin-totp-setup", "/admin/totp")
        # A wrong code leaves it off.
        self.driver.find_element("id", "totp-code").send_keys("000000" if totp(secret, time.time()) != "000000"
                                                              else "111111")
        self.click_and_wait("form[data-totp-confirm] button[type=submit]")
        self.assertTrue(self.driver.find_elements("css selector", "[data-error]"))
        now = time.time()
        self.driver.find_element("id", "totp-code").send_keys(totp(secret, now))
        self.click_and_wait("form[data-totp-confirm] button[type=submit]")
        codes = [c.text for c in self.driver.find_elements("css selector", "[data-recovery-code]")]
        self.assertEqual(len(codes), 10)
        self.assertEqual(len(set(codes)), 10)
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("admin-totp-on", "/admin/totp")
        # Signed out, then in again: the password, then the code page.
        self.open("/admin")
        self.click_and_wait('form[action="/admin/logout"] button')
        self.sign_in_as(self.driver, name)
        self.assertEqual(self.driver.current_url, BASE_URL + "/admin/login/code")
        self.assertEqual(self.axe_violations(), [])
        self.screenshots("admin-code", "/admin/login/code")
        # The code just used to turn it on does not work twice; the next step's does (one step either side).
        self.driver.find_element("id", "admin-code").send_keys(totp(secret, now))
        self.click_and_wait("form[data-code-form] button[type=submit]")
        self.assertTrue(self.driver.find_elements("css selector", "[data-error]"))
        self.assertIn("/admin/login/code", self.driver.current_url)
        self.driver.find_element("id", "admin-code").send_keys(totp(secret, now + 30))
        self.click_and_wait("form[data-code-form] button[type=submit]")
        self.assertEqual(self.driver.current_url, BASE_URL + "/admin")
        # A recovery code works once instead.
        self.click_and_wait('form[action="/admin/logout"] button')
        self.sign_in_as(self.driver, name)
        self.driver.find_element("id", "admin-code").send_keys(codes[0].upper())
        self.click_and_wait("form[data-code-form] button[type=submit]")
        self.assertEqual(self.driver.current_url, BASE_URL + "/admin")
        self.click_and_wait('form[action="/admin/logout"] button')
        self.sign_in_as(self.driver, name)
        self.driver.find_element("id", "admin-code").send_keys(codes[0])
        self.click_and_wait("form[data-code-form] button[type=submit]")
        self.assertIn("/admin/login/code", self.driver.current_url)
        self.driver, other = other, self.driver
        self.open("/admin/admins")
        self.assertEqual(self.driver.find_element("css selector", f'tr[data-admin-row="{name}"]').get_attribute(
            "data-two-factor"), "on")
        entries = self.audit()
        self.assertIn(("enable two-factor", name, name), [e[:3] for e in entries])
        ways = [e[3] for e in entries if e[:2] == ("sign-in", name)]
        # In the reader's words (the log keeps "password + code").
        self.assertIn("password + authenticator code", ways)
        self.assertIn("password + recovery code", ways)


if __name__ == "__main__":
    unittest.main()
