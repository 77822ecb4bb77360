"""An admin's passkey, through Chromium's virtual authenticator: added on the second-factor page, then signing in
alone from the sign-in page; a tampered answer refused. At http://localhost:PORT, the relying party without
--public-host."""
import sqlite3

from arcade_browser import BASE_URL, WebDriverWait
from mastermind_browser import DATABASE
from test_admin import AdminBrowserTest, admin_password
import test_passkeys

LOCAL = BASE_URL.replace("127.0.0.1", "localhost")


class AdminPasskeyTests(AdminBrowserTest):
    def open(self, path):
        self.driver.get(LOCAL + path)

    def test_an_admin_signs_in_with_a_passkey_alone_or_as_the_second_step(self):
        self.sign_in()
        test_passkeys.PasskeyTests.authenticator(self)
        self.open("/admin/totp")
        for _ in self.schemes():
            self.assertEqual(self.axe_violations(), [])
        self.driver.find_element("css selector", "[data-passkey-create]").click()
        said = WebDriverWait(self.driver, 20).until(lambda d: d.find_element("css selector", "[data-passkey-said]"))
        self.assertIn("sign in with it", said.text)
        self.assertEqual(len(self.driver.find_elements("css selector", "[data-passkey-list] li")), 1)
        self.screenshots("admin-passkeys", "/admin/totp", prepare=lambda: self.driver.execute_script(
            "document.getElementById('passkeys').scrollIntoView()"))
        with sqlite3.connect(DATABASE) as db:
            self.assertEqual(db.execute("SELECT COUNT(*) FROM audit WHERE action = 'passkey.add'").fetchone()[0], 1)

        # Signed out, a tampered answer is refused, then the passkey alone signs in.
        self.open("/admin")
        self.click_and_wait('form[action="/admin/logout"] button')
        self.open("/admin/login")
        self.driver.execute_script(test_passkeys.PasskeyTests.TAMPER_JS, "signature")
        self.driver.find_element("css selector", "[data-passkey-signin]").click()
        message = WebDriverWait(self.driver, 20).until(
            lambda d: d.find_element("css selector", "[data-passkey-message]:not([hidden])"))
        self.assertIn("couldn’t be verified", message.text)
        self.assertIsNone(self.driver.get_cookie("arcade_admin"))
        self.open("/admin/login")
        self.driver.find_element("css selector", "[data-passkey-signin]").click()
        WebDriverWait(self.driver, 20).until(lambda d: d.current_url.rstrip("/").endswith("/admin"))
        self.assertTrue(self.driver.find_elements("css selector", 'form[action="/admin/logout"]'))
        with sqlite3.connect(DATABASE) as db:
            self.assertIsNotNone(db.execute("SELECT last_used FROM admin_passkeys").fetchone()[0])

        # As the second step: with a second factor on (set in the database for this test, put back after), the
        # password leads to the code page, where the passkey stands in for the code.
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE admins SET totp_secret = x'00' WHERE name = 'admin'")
        self.addCleanup(lambda: sqlite3.connect(DATABASE).execute(
            "UPDATE admins SET totp_secret = NULL WHERE name = 'admin'").connection.commit())
        self.open("/admin")
        self.click_and_wait('form[action="/admin/logout"] button')
        self.open("/admin/login")
        self.driver.find_element("id", "admin-name").send_keys("admin")
        self.driver.find_element("id", "admin-password").send_keys(admin_password())
        self.click_and_wait("form.admin-login button[type=submit]")
        self.assertTrue(self.driver.current_url.endswith("/admin/login/code"))
        self.assertEqual(self.axe_violations(), [])
        self.driver.find_element("css selector", "[data-passkey-signin]").click()
        WebDriverWait(self.driver, 20).until(lambda d: d.current_url.rstrip("/").endswith("/admin"))
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE admins SET totp_secret = NULL WHERE name = 'admin'")
