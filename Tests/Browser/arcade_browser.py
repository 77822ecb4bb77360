"""Shared set-up for Arcade's browser tests: a headless Chromium driven by
Debian's chromedriver, pointed at the server scripts/test started."""
import os
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BASE_URL = os.environ.get("ARCADE_URL", "http://127.0.0.1:8080")
ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "..", ".artifacts", "screenshots")


def chromium(languages="en-US,en", width=1280, height=900):
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={width},{height}", f"--lang={languages.split(',')[0]}"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": languages})
    binary = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if os.path.exists(binary):
        options.binary_location = binary
    driver_path = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    return webdriver.Chrome(service=Service(driver_path), options=options)


class BrowserTest(unittest.TestCase):
    languages = "en-US,en"
    width, height = 1280, 900

    def setUp(self):
        self.driver = chromium(self.languages, self.width, self.height)
        self.driver.set_page_load_timeout(20)
        self.addCleanup(self.driver.quit)

    def open(self, path):
        self.driver.get(BASE_URL + path)

    def text(self, selector):
        return self.driver.find_element("css selector", selector).text
