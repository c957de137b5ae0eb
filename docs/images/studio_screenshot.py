"""Retake docs/images/studio.png: serve a bundled game, photograph the page in headless Chromium.

    .venv/bin/python docs/images/studio_screenshot.py [GAME]
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

HERE = Path(__file__).resolve().parent


def main(game: str = "steam_court") -> None:
    with tempfile.TemporaryDirectory() as out:
        server = subprocess.Popen([sys.executable, "-m", "punchboard", "serve", game, "--out", out, "--port", "0"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            url = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline()).group(0)  # type: ignore[union-attr]
            while True:
                state = json.loads(urllib.request.urlopen(url + "state.json").read())
                if state["status"] == "ok" and state["verify"] and not state["verify"].get("running"):
                    break
                time.sleep(0.5)
            options = Options()
            options.binary_location = shutil.which("chromium") or "chromium"
            for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars"):
                options.add_argument(argument)
            browser = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
            try:
                browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                        {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
                browser.get(url)
                browser.execute_script("document.body.style.zoom = '0.8';")
                time.sleep(3)
                shot = Path(out) / "shot.png"
                browser.save_screenshot(str(shot))
            finally:
                browser.quit()
            Image.open(shot).convert("RGB").resize((1120, 800), Image.Resampling.LANCZOS).save(
                HERE / "studio.png", optimize=True)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=20)


if __name__ == "__main__":
    main(*sys.argv[1:])
