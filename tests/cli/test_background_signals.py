"""SIGINT stops ``watch`` and ``serve`` even when they were started as a background job (``nohup … &``), which
inherits SIGINT ignored; Ctrl-C while the command starts is ``interrupted``, exit 130, no traceback; a browser
that goes away mid-answer is no traceback in ``serve``'s terminal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from punchboard.studio.server import StudioServer
from tests.cli.minigame import write_game
from tests.cli.test_watch import Watcher
from tests.conftest import ROOT
from tests.studio.conftest import start_serve


def _ignoring_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a shell without job control starts a background job


class BackgroundWatcher(Watcher):
    """``punchboard watch`` started as ``nohup punchboard watch … &`` is: SIGINT ignored from the start."""

    def __init__(self, *args: str, cwd: Path):
        real = subprocess.Popen

        def popen(*a: object, **k: object) -> subprocess.Popen[str]:
            return real(*a, preexec_fn=_ignoring_sigint, **k)  # type: ignore[call-overload, no-any-return]

        subprocess.Popen = popen  # type: ignore[assignment, misc]
        try:
            super().__init__(*args, cwd=cwd)
        finally:
            subprocess.Popen = real  # type: ignore[misc]


def test_watch_started_in_the_background_stops_on_sigint(tmp_path: Path):
    game = write_game(tmp_path / "game")
    watcher = BackgroundWatcher(str(game), cwd=tmp_path)
    try:
        watcher.wait_for("watching")
        watcher.proc.send_signal(signal.SIGINT)
        assert watcher.proc.wait(timeout=60) == 0
    finally:
        watcher.proc.kill()
    output = watcher.output()
    assert output.endswith("stopped watching\n"), output
    assert "Traceback" not in output


def test_serve_started_in_the_background_stops_on_sigint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    real = subprocess.Popen
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: real(*a, preexec_fn=_ignoring_sigint, **k))
    served = start_serve(write_game(tmp_path / "tiny"), tmp_path / "out")
    monkeypatch.setattr(subprocess, "Popen", real)
    try:
        served.process.send_signal(signal.SIGINT)
        served.process.wait(timeout=30)
    finally:
        served.process.kill()
    assert served.process.returncode in (0, 130), "\n".join(served.lines)
    assert not any("Traceback" in line for line in served.lines), "\n".join(served.lines)


def test_ctrl_c_while_the_command_starts_is_interrupted_without_a_traceback(tmp_path: Path):
    """The KeyboardInterrupt comes while the command imports its verbs (punchboard.cli), before any verb runs."""
    script = ("import sys; sys.argv = ['punchboard', 'list']\n"
              "class Interrupting:\n"
              "    def find_spec(self, name, path=None, target=None):\n"
              "        if name == 'punchboard.cli': raise KeyboardInterrupt\n"
              "sys.meta_path.insert(0, Interrupting())\n"
              "from punchboard.command import run; run()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 130, done.stderr
    assert done.stderr == "interrupted\n"


@pytest.mark.parametrize("error", [BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError])
def test_a_browser_gone_mid_answer_is_no_traceback(error: type[Exception], capsys: pytest.CaptureFixture[str]):
    try:
        raise error("the browser went away")
    except error:
        StudioServer.__new__(StudioServer).handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""


def test_any_other_error_in_a_request_is_still_reported(capsys: pytest.CaptureFixture[str]):
    try:
        raise ValueError("a bug")
    except ValueError:
        StudioServer.__new__(StudioServer).handle_error(None, ("127.0.0.1", 1))
    err = capsys.readouterr().err
    assert "Traceback" in err and "ValueError: a bug" in err
