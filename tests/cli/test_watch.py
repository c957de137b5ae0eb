"""``punchboard watch TARGET`` exactly as the README shows it: no other flag, edited while it runs, stopped by a signal."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.cli.minigame import write_game
from tests.conftest import ROOT


class Watcher:
    """A ``punchboard watch`` process whose output is read line by line as it comes."""

    def __init__(self, *args: str, cwd: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "punchboard", "watch", *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, fragment: str, timeout: float = 120) -> list[str]:
        """Lines up to and including the first one containing ``fragment``."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=0.5)
            except queue.Empty:
                continue
            if line is None:
                break
            self.lines.append(line)
            seen.append(line)
            if fragment in line:
                return seen
        raise AssertionError(f"{fragment!r} not seen in:\n{''.join(self.lines)}")

    def output(self) -> str:
        while (line := self._queue.get(timeout=30)) is not None:
            self.lines.append(line)
        return "".join(self.lines)


def _save(path: Path, text: str) -> None:
    """Save as an editor does; the size changes too, so even a coarse mtime sees it."""
    time.sleep(0.05)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_watch_rebuilds_reports_a_bad_save_recovers_and_stops_cleanly(tmp_path: Path, stop: signal.Signals):
    game = write_game(tmp_path / "game")
    watcher = Watcher(str(game), cwd=tmp_path)  # writes into output/, as the README says
    try:
        first = watcher.wait_for("watching")
        assert any("mini: rendered cards, chits" in line for line in first), "".join(first)
        assert (tmp_path / "output" / "mini" / "mini-print-and-play.pdf").is_file()

        cards = game / "cards.yaml"
        good = cards.read_text(encoding="utf-8")
        _save(cards, good.replace("The first card", "The very first card"))
        seen = watcher.wait_for("mini: rendered")
        assert seen[0] == "changed: cards.yaml\n" and "rendered cards; reused 1 unchanged" in seen[-1], "".join(seen)

        _save(cards, good.replace("count: 2,", "count: 2.5,"))
        seen = watcher.wait_for("still watching")
        assert "game/cards.yaml:7:34: count must be a whole number, got 2.5\n" in seen, "".join(seen)

        _save(cards, good.replace("The second card", "The second card, fixed"))
        seen = watcher.wait_for("mini: rendered")
        assert "rendered cards" in seen[-1]

        watcher.proc.send_signal(stop)
        assert watcher.proc.wait(timeout=60) == 0
    finally:
        watcher.proc.kill()
    output = watcher.output()
    assert output.endswith("stopped watching\n"), output
    assert "Traceback" not in output and "Error" not in output


def test_watch_of_a_missing_game_is_a_clean_error(tmp_path: Path):
    watcher = Watcher(str(tmp_path / "nothing_here"), cwd=tmp_path)
    assert watcher.proc.wait(timeout=60) == 2
    assert watcher.output().startswith("punchboard watch: TARGET: no game")


def test_watch_of_a_real_game_survives_a_broken_component_and_redraws_only_what_changed(tmp_path: Path):
    game = tmp_path / "belpunk"
    shutil.copytree(ROOT / "components" / "belpunk", game)
    watcher = Watcher(str(game), "--out", str(tmp_path / "out"), "--interval", "0.1", cwd=tmp_path)
    try:
        first = watcher.wait_for("watching")
        assert any("belpunk: rendered deck, foreman, machine" in line for line in first), "".join(first)
        foreman = game / "foreman.yaml"
        good = foreman.read_text(encoding="utf-8")
        assert "kind: deck" in good and "Foreman" in good
        _save(foreman, good.replace("kind: deck", "kind: dekc", 1))
        seen = watcher.wait_for("still watching")
        assert any("foreman.yaml:" in line and "did you mean 'deck'" in line for line in seen), "".join(seen)
        _save(foreman, good.replace("Foreman", "Forewoman", 1))
        seen = watcher.wait_for("belpunk: rendered")
        assert "rendered foreman; reused 2 unchanged" in seen[-1], "".join(seen)
        watcher.proc.send_signal(signal.SIGINT)
        assert watcher.proc.wait(timeout=60) == 0
    finally:
        watcher.proc.kill()
    assert "Traceback" not in watcher.output()


def test_watch_with_poll_checks_every_interval_and_rebuilds(tmp_path: Path):
    game = write_game(tmp_path / "game")
    watcher = Watcher(str(game), "--poll", "--interval", "0.1", "--out", str(tmp_path / "out"), cwd=tmp_path)
    try:
        watcher.wait_for("watching")
        cards = game / "cards.yaml"
        _save(cards, cards.read_text(encoding="utf-8").replace("The first card", "The polled first card"))
        seen = watcher.wait_for("mini: rendered")
        assert seen[0] == "changed: cards.yaml\n" and "rendered cards; reused 1 unchanged" in seen[-1], "".join(seen)
        watcher.proc.send_signal(signal.SIGTERM)
        assert watcher.proc.wait(timeout=60) == 0
    finally:
        watcher.proc.kill()
    assert watcher.output().endswith("stopped watching\n")


def test_a_dropped_early_build_says_nothing_and_the_save_is_announced_once(tmp_path: Path, monkeypatch, capsys):
    """``watch`` builds a save on its first event; when the save goes on, that build's report is dropped
    (plumbing/watch.py) and the finished files are built again. The dropped build must leave no trace in
    the output, not even its "changed:" line: the user reads one announcement per build they are shown."""
    import punchboard.cli.watch as cli_watch
    from punchboard.cli import main

    game = write_game(tmp_path / "game")
    cards = game / "cards.yaml"
    good = cards.read_text(encoding="utf-8")

    def scripted(folders, on_change, *, on_ready, at_once):  # one save, seen half-written, then finished
        assert at_once
        on_ready()
        cards.write_text(good[: len(good) // 3], encoding="utf-8")  # the first event: a half-written file
        dropped = on_change([cards])
        assert dropped is not None  # a broken file: its problems are held…
        print("-- the save went on --")  # …and never said: the save was not finished
        cards.write_text(good.replace("The first card", "The finished first card"), encoding="utf-8")
        assert on_change([cards]) is None  # the finished save builds: said at once
        cards.write_text(good.replace("count: 2,", "count: 2.5,"), encoding="utf-8")
        report = on_change([cards])
        print("-- quiet --")
        assert report is not None
        report()  # a finished bad save: its problems are said, under its own "changed:" line

    monkeypatch.setattr(cli_watch, "follow", scripted)
    assert main(["watch", str(game), "--out", str(tmp_path / "out")]) == 0
    lines = capsys.readouterr().out.splitlines()
    after = lines[lines.index("-- the save went on --") + 1:]
    assert lines[lines.index("-- the save went on --") - 1].startswith("watching"), lines  # the dropped build said nothing
    # under its heading: the build's warnings (those the last build said too only counted), then its summary
    assert after[0] == "changed: cards.yaml" and after[1].startswith(("warning: ", "… and ", "mini: rendered")), after
    assert after[after.index("-- quiet --") - 1].startswith("mini: rendered cards"), after
    bad = after[after.index("-- quiet --") + 1:]
    assert bad[0] == "changed: cards.yaml" and bad[1].endswith("count must be a whole number, got 2.5"), bad
    assert bad[-1] == "fix the problems above; still watching" and after.count("changed: cards.yaml") == 2, after


def test_what_a_running_watch_writes_after_saves_is_a_clean_builds_bytes(tmp_path: Path):
    """watch keeps what loaded and what it compressed from one save to the next (punchboard/incremental/loads.py,
    generator/document/pdf_encoding.keep_encoded): after saves of a card, of a layout of the game's own, of
    its font (broken, then mended), every PDF is byte for byte what ``build --force`` writes in a new process."""
    from tests.conftest import run_cli
    from tests.spec.test_kept_loads import VERA, _game

    game = _game(tmp_path)
    out = tmp_path / "out"
    watcher = Watcher(str(game), "--out", str(out), cwd=tmp_path)
    characters, layout, font = game / "characters.yaml", game / "layouts" / "mine" / "card.yaml", game / "layouts" / "mine" / "fancy.ttf"

    def same_as_clean(step: int) -> None:
        clean = tmp_path / f"clean{step}"
        result = run_cli("build", str(game), "--out", str(clean), "--force", "--quiet")
        assert result.returncode == 0, result.stderr
        made = sorted(p.relative_to(clean) for p in clean.rglob("*.pdf"))
        assert len(made) >= 5
        for name in made:
            assert (out / name).read_bytes() == (clean / name).read_bytes(), f"after save {step}: {name} differs"

    try:
        watcher.wait_for("watching")
        same_as_clean(0)
        _save(characters, characters.read_text(encoding="utf-8").replace("any player.", "any other player ÆØ.", 1))
        watcher.wait_for("rendered characters")
        same_as_clean(1)
        _save(layout, layout.read_text(encoding="utf-8").replace("size: 8pt", "size: 9pt"))
        watcher.wait_for("rendered characters")
        same_as_clean(2)
        time.sleep(0.05)
        font.write_bytes(b"not a font")
        seen = watcher.wait_for("still watching")
        assert any("fancy.ttf' cannot be used" in line for line in seen), "".join(seen)
        time.sleep(0.05)
        shutil.copy(VERA, font)
        watcher.wait_for("rendered")
        same_as_clean(3)
        watcher.proc.send_signal(signal.SIGTERM)
        assert watcher.proc.wait(timeout=60) == 0
    finally:
        watcher.proc.kill()
    assert "Traceback" not in watcher.output()
