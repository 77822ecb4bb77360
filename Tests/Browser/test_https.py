"""One journey over HTTPS: its own arcade with a certificate made here (openssl req -x509), which Chromium trusts
by its key (--ignore-certificate-errors-spki-list trusts exactly that key, nothing else); a Mastermind game won,
then an admin sign-in. Every cookie is Secure without --secure-cookies, and the page is a secure context."""
import base64
import hashlib
import os
import re
import sqlite3
import subprocess
import tempfile
import time
import unittest

from arcade_browser import WebDriverWait

from arcade_browser import ARTIFACTS, SHELL, chromium, gone

BINARY = os.environ.get("ARCADE_BINARY", ".build/debug/arcade")


class HTTPSJourney(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="arcade-https.")
        cert, key = os.path.join(self.work, "cert.pem"), os.path.join(self.work, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
        der = subprocess.run(f"openssl x509 -pubkey -noout -in {cert} | openssl pkey -pubin -outform der",
                             shell=True, check=True, capture_output=True).stdout
        spki = base64.b64encode(hashlib.sha256(der).digest()).decode()
        self.db = os.path.join(self.work, "https.sqlite")
        self.log = os.path.join(self.work, "arcade.log")
        with open(self.log, "w") as log:
            self.server = subprocess.Popen([BINARY, "--port", "0", "--db", self.db, "--access-log", "off",
                                            "--tls-cert", cert, "--tls-key", key], stdout=log, stderr=subprocess.STDOUT)
        self.addCleanup(self.stop)
        for _ in range(400):
            with open(self.log) as log:
                text = log.read()
            port = re.search(r"https://127\.0\.0\.1:(\d+)", text)
            password = re.search(r"its password is in (\S+)", text)
            if port and password:
                break
            self.assertIsNone(self.server.poll(), text)
            time.sleep(0.05)
        self.base = "https://localhost:%s" % port.group(1)
        with open(password.group(1)) as secret:
            self.password = secret.read().strip()
        # Full Chromium honours the key list only with a profile of its own; the headless shell refuses one.
        profile = () if SHELL else ("--user-data-dir=" + os.path.join(self.work, "profile"),)
        self.driver = chromium(extra=("--ignore-certificate-errors-spki-list=" + spki, *profile))
        self.driver.set_page_load_timeout(20)
        self.addCleanup(self.driver.quit)

    def stop(self):
        self.server.terminate()
        self.server.wait(10)
        subprocess.run(["rm", "-rf", self.work])

    def load(self, path):
        self.driver.get(self.base + path)
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def click_and_wait(self, selector):
        page = self.driver.find_element("css selector", "html")
        self.driver.find_element("css selector", selector).click()
        WebDriverWait(self.driver, 10).until(gone(page))
        WebDriverWait(self.driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def test_a_game_and_an_admin_sign_in_over_https(self):
        self.load("/mastermind")
        self.assertTrue(self.driver.execute_script("return window.isSecureContext && location.protocol === 'https:'"))
        for button in self.driver.find_elements("css selector", "dialog[open] form[method=dialog] button"):
            button.click()  # the first visit's How to play
        board = lambda: self.driver.find_element("css selector", "#board")
        if board().get_attribute("data-game") == "0":
            status = self.driver.execute_script(
                "const token = document.querySelector('meta[name=csrf-token]').content;"
                "return fetch('/mastermind/new', {method: 'POST', headers: {'Content-Type':"
                " 'application/x-www-form-urlencoded'}, body: 'csrf=' + encodeURIComponent(token)}).then(r => r.status)")
            self.assertEqual(status, 200)
            self.load("/mastermind")
        WebDriverWait(self.driver, 10).until(
            lambda d: not d.find_element("css selector", "[data-keypad]").get_attribute("hidden"))
        with sqlite3.connect(self.db) as db:
            secret = db.execute("SELECT secret FROM mastermind_games WHERE id = ?",
                                (int(board().get_attribute("data-game")),)).fetchone()[0]
        for digit in secret:
            self.driver.find_element("css selector", f"[data-keypad] button[data-key='{digit}']").click()
        self.driver.find_element("css selector", "[data-keypad] button[data-key='Enter']").click()
        WebDriverWait(self.driver, 10).until(lambda d: board().get_attribute("data-outcome") == "won")
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.assertTrue(self.driver.save_screenshot(os.path.join(ARTIFACTS, "https-mastermind-won-1280.png")))

        self.load("/admin/login")
        self.driver.find_element("id", "admin-name").send_keys("admin")
        self.driver.find_element("id", "admin-password").send_keys(self.password)
        self.click_and_wait("form.admin-login button[type=submit]")
        self.assertTrue(self.driver.current_url.startswith(self.base + "/admin"), self.driver.current_url)
        self.assertFalse(self.driver.find_elements("id", "admin-password"), "still on the sign-in form")

        cookies = self.driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
        self.assertGreaterEqual(len(cookies), 2)
        self.assertEqual([c["name"] for c in cookies if not c["secure"]], [])


if __name__ == "__main__":
    unittest.main()
