"""Defaults a build-tool user expects (issue 40, item 6 and the CLI part of item 5): no target inside a game folder
means that game."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from punchboard.cli.common import target_folders
from punchboard.plumbing.paths import bundled_games
from tests.cli.minigame import write_game
from tests.cli.test_watch import Watcher
from tests.conftest import run_cli

LONG = " ".join(["word"] * 400)  # far more than a poker card's text box holds: a "does not fit" warning


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return write_game(tmp_path / "my_game")


def test_build_with_no_target_in_a_game_folder_builds_that_game_only(game: Path):
    result = run_cli("build", cwd=game)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("mini: rendered cards, chits → output/mini"), result.stdout
    assert [p.name for p in (game / "output").iterdir() if p.is_dir()] == ["mini"]  # no bundled game built
    assert (game / "output" / "mini" / "mini-print-and-play.pdf").is_file()


def test_check_and_verify_with_no_target_in_a_game_folder_act_on_that_game(game: Path):
    check = run_cli("check", cwd=game)
    assert (check.returncode, check.stdout) == (0, "mini: ok (2 components, 17 pieces)\n"), check.stderr
    verify = run_cli("verify", cwd=game)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert [p.name for p in (game / "output").iterdir() if p.is_dir()] == ["mini"]
    assert (game / "output" / "mini" / "verify.md").read_text(encoding="utf-8").startswith("# ")
    assert "steam_court" not in verify.stdout


def test_outside_a_game_folder_no_target_still_means_every_bundled_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    assert target_folders([]) == bundled_games()
    monkeypatch.chdir(write_game(tmp_path / "g"))
    assert target_folders([]) == [tmp_path / "g"]


@pytest.mark.parametrize("verb", ["watch", "serve"])
def test_watch_and_serve_with_no_target_outside_a_game_folder_say_what_they_need(tmp_path: Path, verb: str):
    result = run_cli(verb, "--out", "out", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith(f"punchboard {verb}: TARGET: none given and no game.yaml in "), result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_watch_with_no_target_in_a_game_folder_watches_that_game(game: Path):
    watcher = Watcher("--out", "out", cwd=game)
    try:
        first = watcher.wait_for("watching")
        assert any(line.startswith("mini: rendered cards, chits") for line in first), "".join(first)
        assert first[-1].startswith(f"watching {game} and "), "".join(first)
        watcher.proc.send_signal(signal.SIGINT)
        assert watcher.proc.wait(timeout=60) == 0
    finally:
        watcher.proc.kill()
    assert [p.name for p in (game / "out").iterdir() if p.is_dir()] == ["mini"]


def test_serve_with_no_target_in_a_game_folder_serves_that_game(game: Path, monkeypatch: pytest.MonkeyPatch):
    import punchboard.studio.server as studio_server
    from punchboard.cli import main

    served: list[studio_server.StudioServer] = []

    def instead(server: studio_server.StudioServer, *_: object) -> int:  # the server is made; do not run it
        served.append(server)
        server.server_close()
        return 0

    monkeypatch.setattr(studio_server, "serve", instead)
    monkeypatch.chdir(game)
    assert main(["serve", "--out", str(game.parent / "out")]) == 0
    assert [s.studio.folder for s in served] == [game]
