"""Passkeys on "your progress", through Chromium's virtual authenticator (CTAP2, internal, resident keys, user
verification): register on one browser profile, sign in on another, merge two histories, and tampered answers
refused without a change. The site runs without --public-host, so its relying party is localhost: the pages are
opened at http://localhost:PORT (an IP address can hold no passkey)."""
import base64
import os
import sqlite3

from arcade_browser import ARTIFACTS, BASE_URL, WebDriverWait, chromium
from mastermind_browser import DATABASE, MastermindHelpers
from selenium.webdriver.common.virtual_authenticator import (Credential, Protocol, Transport,
                                                             VirtualAuthenticatorOptions)

LOCAL = BASE_URL.replace("127.0.0.1", "localhost")


def rows(sql, *args):
    with sqlite3.connect(DATABASE) as db:
        return db.execute(sql, args).fetchall()


class PasskeyTests(MastermindHelpers):
    def open(self, path):
        self.driver.get(LOCAL + path)
        self.close_tutorial()

    def authenticator(self):
        options = VirtualAuthenticatorOptions()
        options.protocol = Protocol.CTAP2
        options.transport = Transport.INTERNAL
        options.has_resident_key = True
        options.has_user_verification = True
        options.is_user_verified = True
        options.is_user_consenting = True
        self.driver.add_virtual_authenticator(options)

    def player(self):
        """This profile's player id, from its signed cookie (base64url of `ID.FIRSTSEEN`, then its signature)."""
        value = self.driver.get_cookie("arcade_player")["value"].split(".")[0]
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode().split(".")[0]

    def win(self):
        """Wins a Mastermind game (a new one if a finished one is on the board)."""
        self.open("/mastermind")
        if self.game() != "0" and self.board().get_attribute("data-outcome"):
            self.assertEqual(self.post("/mastermind/new"), 200)
        self.tap(self.start())
        WebDriverWait(self.driver, 10).until(lambda d: self.board().get_attribute("data-outcome") == "won")

    def find_cheat(self, keys):
        """Types a cheat on the home page and waits until the server has counted it found."""
        player = self.player()
        found = len(rows("SELECT task FROM once_marks WHERE player = ? AND task LIKE 'cheat.%'", player))
        self.open("/")
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        self.keys(keys)
        WebDriverWait(self.driver, 10).until(lambda d: len(rows(
            "SELECT task FROM once_marks WHERE player = ? AND task LIKE 'cheat.%'", player)) > found)

    def press(self, button):
        """Presses a passkey button on /progress and waits for the page it leads to, or for the refusal it says."""
        self.open("/progress")
        self.driver.find_element("css selector", f"[data-passkey-{button}]").click()
        WebDriverWait(self.driver, 20).until(
            lambda d: d.find_elements("css selector", "[data-passkey-said]")
            or d.find_element("css selector", "[data-passkey-message]").is_displayed())
        message = self.driver.find_elements("css selector", "[data-passkey-message]:not([hidden])")
        return message[0].text if message else None

    def said(self):
        return self.driver.find_element("css selector", "[data-passkey-said]").text

    def stats(self):
        self.open("/mastermind/stats")
        figures = self.driver.find_element("css selector", "dl.stats")
        return int(figures.get_attribute("data-played")), int(figures.get_attribute("data-wins"))

    def cheats_found(self):
        self.open("/cheats")
        return int(self.driver.find_element("css selector", "[data-found]").get_attribute("data-found"))

    def register(self):
        """This profile's player keeps a passkey; returns it as another device of theirs would have it."""
        self.authenticator()
        self.assertIsNone(self.press("create"))
        self.assertIn("keeps your progress", self.said())
        listed = self.driver.find_elements("css selector", "[data-passkey-list] li")
        self.assertEqual(len(listed), 1)
        # Told apart by what it was added from (a review could not tell "Passkey 1" from "Passkey 2").
        self.assertIn("Linux", listed[0].find_element("css selector", "[data-passkey-device]").text)
        credentials = self.driver.get_credentials()
        self.assertEqual(len(credentials), 1)
        self.assertEqual(rows("SELECT COUNT(*) FROM passkeys WHERE player = ?", self.player()), [(1,)])
        return credentials[0]

    def second_profile(self, credential):
        """Another browser (cookies of its own), whose authenticator holds the same passkey, as a synced one would."""
        first = self.second_profile_without_passkey()
        self.authenticator()
        # Selenium hands a credential's parts out as base64url text and takes them back as bytes.
        def raw(text):
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        self.driver.add_credential(Credential.create_resident_credential(
            raw(credential.id), "localhost", raw(credential.user_handle), raw(credential.private_key),
            credential.sign_count))
        return first

    def test_a_passkey_carries_progress_to_another_profile(self):
        self.win()
        self.find_cheat("retro")
        self.assertEqual(self.stats(), (1, 1))
        owner = self.player()
        credential = self.register()
        self.second_profile(credential)
        self.open("/progress")
        stranger = self.player()
        self.assertNotEqual(stranger, owner)
        self.assertIsNone(self.press("signin"))
        self.assertIn("Welcome back", self.said())
        self.assertEqual(self.player(), owner)
        self.assertEqual(self.stats(), (1, 1))
        self.assertEqual(self.cheats_found(), 1)
        # The stranger had played nothing: no row was made for them, nothing merged.
        self.assertEqual(rows("SELECT COUNT(*) FROM players WHERE id = ?", stranger), [(0,)])
        self.assertEqual(rows("SELECT COUNT(*) FROM player_merges WHERE player = ?", owner), [(0,)])

    def test_signing_out_on_a_device_leaves_the_progress_with_the_passkey(self):
        self.win()
        owner = self.player()
        self.register()
        # "Sign out on this device": a fresh start here, the progress kept by the passkey (a review had only Forget
        # me, which wipes every device).
        self.open("/progress")
        self.driver.find_element("css selector", "[data-passkey-leave]").click()
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-passkey-said]"))
        self.assertIn("Signed out", self.said())
        self.assertNotEqual(self.player(), owner)
        self.assertEqual(self.stats(), (0, 0))
        self.assertEqual(rows("SELECT played, wins FROM mastermind_totals WHERE player = ?", owner), [(1, 1)])
        self.assertEqual(self.driver.find_elements("css selector", "[data-passkey-leave]"), [])
        self.assertIsNone(self.press("signin"))
        self.assertEqual(self.player(), owner)
        self.assertEqual(self.stats(), (1, 1))
        # Without a passkey there is no way back: the same form changes nothing.
        self.second_profile_without_passkey()
        self.win()
        alone = self.player()
        self.assertEqual(self.post("/progress/passkeys/leave"), 200)
        self.assertEqual(self.player(), alone)
        self.assertEqual(self.stats(), (1, 1))

    def test_signing_in_where_you_played_merges_both_histories(self):
        self.win()
        self.win()
        self.find_cheat("retro")
        owner = self.player()
        credential = self.register()
        self.second_profile(credential)
        self.win()
        self.find_cheat("credits")
        device = self.player()
        before = {player: rows("SELECT played, wins FROM mastermind_totals WHERE player = ?", player)[0]
                  for player in (owner, device)}
        games = rows("SELECT COUNT(*) FROM mastermind_games WHERE player IN (?, ?) AND status != 'playing'",
                     owner, device)[0][0]
        self.assertIsNone(self.press("signin"))
        self.assertIn("was added to it", self.said())
        self.assertEqual(self.player(), owner)
        played = before[owner][0] + before[device][0]
        wins = before[owner][1] + before[device][1]
        self.assertEqual((played, wins), (3, 3))
        self.assertEqual(self.stats(), (played, wins))
        self.assertEqual(rows("SELECT COUNT(*) FROM mastermind_games WHERE player = ? AND status != 'playing'",
                              owner), [(games,)])
        self.assertEqual(self.cheats_found(), 2)
        self.assertEqual(rows("SELECT COUNT(*) FROM players WHERE id = ?", device), [(0,)])
        self.assertEqual(rows("SELECT merged_from FROM player_merges WHERE player = ?", owner), [(device,)])

    TAMPER_JS = """
        const change = arguments[0];
        const get = navigator.credentials.get.bind(navigator.credentials);
        navigator.credentials.get = async options => {
            const c = await get(options);
            const r = c.response;
            let clientData = r.clientDataJSON, signature = new Uint8Array(r.signature.slice(0));
            if (change === 'signature') signature[8] ^= 1;
            if (change === 'origin') {
                const data = JSON.parse(new TextDecoder().decode(clientData));
                data.origin = 'https://evil.example';
                clientData = new TextEncoder().encode(JSON.stringify(data)).buffer;
            }
            return {rawId: c.rawId, response: {clientDataJSON: clientData, authenticatorData: r.authenticatorData,
                signature: signature.buffer, userHandle: r.userHandle}};
        };
    """

    def test_tampered_answers_are_refused_and_change_nothing(self):
        self.win()
        owner = self.player()
        credential = self.register()
        self.second_profile(credential)
        self.win()
        device = self.player()

        def state():
            return (rows("SELECT sign_count, last_used_ms FROM passkeys WHERE player = ?", owner),
                    rows("SELECT id FROM players WHERE id IN (?, ?) ORDER BY id", owner, device),
                    rows("SELECT COUNT(*) FROM player_merges WHERE player = ?", owner), self.player())

        before = state()
        for change, words in (("signature", "couldn’t be verified"), ("origin", "another site")):
            self.open("/progress")
            self.driver.execute_script(self.TAMPER_JS, change)
            self.driver.find_element("css selector", "[data-passkey-signin]").click()
            message = WebDriverWait(self.driver, 20).until(
                lambda d: d.find_element("css selector", "[data-passkey-message]:not([hidden])"))
            self.assertIn(words, message.text, change)
            self.assertEqual(state(), before, change)

        # A counter gone backwards: the server has seen a higher count than the authenticator now gives.
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE passkeys SET sign_count = 1000000 WHERE player = ?", (owner,))
        self.assertIn("older count", self.press("signin") or "")
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE passkeys SET sign_count = ? WHERE player = ?", (before[0][0][0], owner))
        self.assertEqual(state(), before)

        # A replayed answer: the page's own sign-in works once; the same fields posted again are refused.
        self.open("/progress")
        self.driver.execute_script("""
            const post = Arcade.post;
            Arcade.post = (url, body) => { sessionStorage.setItem('replay', body); return post(url, body); };
        """)
        self.driver.find_element("css selector", "[data-passkey-signin]").click()
        WebDriverWait(self.driver, 20).until(lambda d: d.find_elements("css selector", "[data-passkey-said]"))
        self.assertEqual(self.player(), owner)
        after = state()
        replay = """
            const done = arguments[arguments.length - 1];
            Arcade.post('/progress/passkeys/signin', sessionStorage.getItem('replay'))
                .then(r => r.json().then(body => done([r.status, body.error || ''])));
        """
        # Replayed as it was, its counter is one the server has seen.
        status, words = self.driver.execute_async_script(replay)
        self.assertEqual(status, 400)
        self.assertIn("older count", words)
        self.assertEqual(state(), after)
        # With the server's counter put back, the challenge alone refuses it: it was used.
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE passkeys SET sign_count = ? WHERE player = ?", (before[0][0][0], owner))
        status, words = self.driver.execute_async_script(replay)
        self.assertEqual(status, 400)
        self.assertIn("used already", words)
        self.assertEqual(rows("SELECT merged_from FROM player_merges WHERE player = ?", owner), [(device,)])
        self.assertEqual(self.player(), owner)

    def test_the_section_in_both_schemes_without_script_and_removal_works(self):
        self.win()
        self.register()
        self.screenshots("progress-passkeys", "/progress", prepare=lambda: self.driver.execute_script(
            "document.getElementById('passkeys').scrollIntoView()"))
        self.open("/progress")
        for _ in self.schemes():
            self.assertEqual(self.axe_violations(), [])
        # The only passkey: asked first, with what it means.
        self.driver.find_element("css selector", "[data-passkey-list] button").click()
        yes = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-passkey-remove-yes]"))
        self.assertEqual(self.axe_violations(), [])
        yes.click()
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-passkey-said]"))
        self.assertIn("removed", self.said())
        self.assertEqual(rows("SELECT COUNT(*) FROM passkeys WHERE player = ?", self.player()), [(0,)])
        self.assertFalse(self.driver.find_elements("css selector", "[data-passkey-list]"))

    def scripts(self, on):
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": not on})

    def test_a_code_moves_progress_to_a_browser_without_script(self):
        self.win()
        owner = self.player()
        self.scripts(False)
        self.open("/progress")
        self.driver.find_element("css selector", "[data-transfer-make]").click()
        shown = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-transfer-code] [data-code]")).get_attribute("data-code")
        self.assertEqual(len(shown), 9)
        os.makedirs(ARTIFACTS, exist_ok=True)
        for width in self.sizes():
            for scheme in self.schemes():
                self.driver.save_screenshot(f"{ARTIFACTS}/transfer-code-{width}-{scheme}-nojs.png")
        self.scripts(True)  # axe runs as a script; the page itself was made without one
        for _ in self.schemes():
            self.assertEqual(self.axe_violations(), [])
        self.scripts(False)

        first = self.second_profile_without_passkey()
        self.scripts(False)
        self.open("/progress")
        # Without a script the passkey buttons, which need one, are not shown; the line saying so leads here.
        self.assertFalse(self.driver.find_element("css selector", "[data-passkey-actions]").is_displayed())
        self.assertTrue(self.driver.find_element("css selector", "[data-passkey-nojs] a[href='#transfer']")
                        .is_displayed())
        field = self.driver.find_element("css selector", "[data-transfer-typed]")
        field.send_keys(shown.lower().replace("-", " "))
        self.driver.find_element("css selector", "[data-transfer-use]").click()
        WebDriverWait(self.driver, 10).until(lambda d: d.find_elements("css selector", "[data-passkey-said]"))
        self.assertIn("Welcome back", self.said())
        self.assertEqual(self.player(), owner)
        self.assertEqual(self.stats(), (1, 1))

        # Used: the same code typed again is refused, in words, beside the field.
        self.open("/progress")
        self.driver.find_element("css selector", "[data-transfer-typed]").send_keys(shown)
        self.driver.find_element("css selector", "[data-transfer-use]").click()
        error = WebDriverWait(self.driver, 10).until(lambda d: d.find_element("css selector", "[data-transfer-error]"))
        self.assertIn("didn’t work", error.text)
        self.assertEqual(self.driver.find_element("css selector", "[data-transfer-typed]").get_attribute(
            "aria-describedby"), "transfer-error")
        self.scripts(True)

        # The QR code's link fills the field on a browser with scripts (the code after `#` reaches no server).
        self.driver = first
        self.scripts(True)
        self.open("/progress")
        self.driver.find_element("css selector", "[data-transfer-make]").click()
        fresh = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-code]")).get_attribute("data-code")
        self.open("/progress#transfer=" + fresh.replace("-", ""))
        typed = WebDriverWait(self.driver, 10).until(
            lambda d: d.find_element("css selector", "[data-transfer-typed]").get_attribute("value"))
        self.assertEqual(typed, fresh)

    def second_profile_without_passkey(self):
        first = self.driver
        second = chromium()
        self.addCleanup(second.quit)
        self.driver = second
        self.addCleanup(setattr, self, "driver", first)
        return first
