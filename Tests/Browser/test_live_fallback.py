"""An office behind one address: its own arcade with room for one live-update stream per address, that stream held
by a raw socket here, then a page in Chromium from the same address. The page's stream is refused (503), so its
script falls back to polling the interceptions document's ETag; the page itself loads and works."""
import os
import re
import socket
import subprocess
import tempfile
import time
import unittest

from arcade_browser import WebDriverWait

from arcade_browser import ARTIFACTS, chromium

BINARY = os.environ.get("ARCADE_BINARY", ".build/debug/arcade")


class LiveFallback(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="arcade-live.")
        self.log = os.path.join(self.work, "arcade.log")
        with open(self.log, "w") as log:
            self.server = subprocess.Popen([BINARY, "--port", "0", "--db", os.path.join(self.work, "a.sqlite"),
                                            "--access-log", "on", "--max-streams-per-address", "1"],
                                           stdout=log, stderr=subprocess.STDOUT)
        self.addCleanup(self.stop)
        port = None
        for _ in range(600):
            with open(self.log) as log:
                found = re.search(r"http://127\.0\.0\.1:(\d+) ", log.read())
            if found:
                port = int(found.group(1))
                break
            self.assertIsNone(self.server.poll())
            time.sleep(0.05)
        self.assertIsNotNone(port, "arcade did not start")
        self.port = port
        self.driver = chromium()
        self.driver.set_page_load_timeout(30)
        self.addCleanup(self.driver.quit)

    def stop(self):
        self.server.terminate()
        self.server.wait(10)
        subprocess.run(["rm", "-rf", self.work])

    def test_a_refused_stream_falls_back_to_polling_and_the_page_works(self):
        held = socket.create_connection(("127.0.0.1", self.port))
        self.addCleanup(held.close)
        held.sendall(b"GET /api/interceptions/events HTTP/1.1\r\nHost: t\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            head += held.recv(4096)
        self.assertIn(b" 200 ", head.split(b"\r\n")[0])
        self.driver.get("http://127.0.0.1:%d/mastermind" % self.port)
        WebDriverWait(self.driver, 20).until(
            lambda d: d.execute_script("return document.documentElement.getAttribute('data-live')") == "polling")
        self.assertTrue(self.driver.find_elements("css selector", "main"), "the page is there")
        with open(self.log) as log:
            self.assertRegex(log.read(), r"GET /api/interceptions/events\?lang 503")
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "live-fallback-polling.png"))


if __name__ == "__main__":
    unittest.main()
