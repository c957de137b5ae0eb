"""``punchboard serve`` started as a user starts it: a subprocess on a free port, stopped with Ctrl-C."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

from tests.conftest import ROOT

from .tiny_game import write_game, write_layered_game

START_TIMEOUT = 30.0


@dataclass
class Served:
    """A running ``punchboard serve``: its URL, its game folder and output folder, and what it printed."""

    process: subprocess.Popen[str]
    url: str
    game: Path
    out: Path
    lines: list[str] = field(default_factory=list)
    token: str = ""  # the session token the printed address carries (writes need it)

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "state.json", timeout=10) as response:
            return json.loads(response.read())

    def wait_for(self, check: Callable[[dict[str, Any]], bool], timeout: float = 60.0) -> dict[str, Any]:
        """Poll /state.json until ``check(state)`` holds (and no rebuild is running)."""
        deadline = time.monotonic() + timeout
        state: dict[str, Any] = {}
        while time.monotonic() < deadline:
            state = self.state()
            if not state["building"] and check(state):
                return state
            time.sleep(0.2)
        raise AssertionError(f"timed out; last state: {json.dumps(state)[:2000]}\noutput:\n" + "\n".join(self.lines))

    def stop(self) -> int:
        """Ctrl-C, as a user stops it; the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def _reader(stream: Any, lines: list[str], first: queue.Queue[str]) -> None:
    for line in stream:
        lines.append(line.rstrip("\n"))
        first.put(line)


def start_serve(game: Path, out: Path, *extra: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> Served:
    """``punchboard serve GAME --out OUT`` started in ``cwd`` (paths on the page are shown relative to it)."""
    env = dict(os.environ, PYTHONHASHSEED="0", **(env or {}))
    process = subprocess.Popen(
        [sys.executable, "-m", "punchboard", "serve", str(game), "--out", str(out), "--port", "0",
         "--interval", "0.2", "--trials", "200", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd, env=env,
    )
    lines: list[str] = []
    printed: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_reader, args=(process.stdout, lines, printed), daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            line = printed.get(timeout=0.5)
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        found = re.search(r"(http://127\.0\.0\.1:\d+/)(?:\?token=([\w-]+))?", line)
        if found:
            return Served(process, found.group(1), game, out, lines, found.group(2) or "")
    process.kill()
    raise AssertionError("punchboard serve printed no URL:\n" + "\n".join(lines))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = start_serve(write_game(tmp_path / "tiny"), tmp_path / "out")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "chromium and chromium-driver are missing: run `make install` (it installs them with apt-get)"
    options = Options()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(argument)
    session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        yield session
    finally:
        session.quit()


@pytest.fixture
def layered(tmp_path: Path) -> Iterator[Served]:
    """A serve of the layered game (tiny_game.write_layered_game), started in tmp_path: files are named tiny/…"""
    server = start_serve(write_layered_game(tmp_path / "tiny"), tmp_path / "out", cwd=tmp_path)
    try:
        yield server
    finally:
        server.stop()
