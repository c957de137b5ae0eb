"""Determinism: identical input gives byte-identical outputs, whatever the process, the game's or output's folder, or the cwd."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.build_helpers import build, make_game, outputs


def test_outputs_are_byte_identical_across_builds_folders_and_working_directories(tmp_path: Path):
    game = make_game(tmp_path / "games" / "tiny")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = tmp_path / "moved" / "tiny"
    shutil.copytree(game, moved)

    runs = {
        "absolute paths, repo cwd": build(game, tmp_path / "a", env={"PYTHONHASHSEED": "1"}),
        "relative paths, game's parent as cwd": build("tiny", "../b", cwd=game.parent, env={"PYTHONHASHSEED": "2"}),
        "absolute paths, another cwd": build(game, "c", cwd=elsewhere),
        "game copied to another folder": build(moved, tmp_path / "d", cwd=elsewhere),
    }
    for label, result in runs.items():
        assert result.returncode == 0, f"{label}: {result.stderr}"

    first = outputs(tmp_path / "a" / "tiny")
    assert {"cards.pdf", "tokens.pdf", "bom.json", "tiny-print-and-play.pdf"} <= set(first)
    assert outputs(tmp_path / "b" / "tiny") == first
    assert outputs(elsewhere / "c" / "tiny") == first
    assert outputs(tmp_path / "d" / "tiny") == first


def test_a_second_forced_build_rewrites_identical_bytes(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    assert build(game, tmp_path / "out").returncode == 0
    before = outputs(tmp_path / "out" / "tiny")
    assert build(game, tmp_path / "out", "--force").returncode == 0
    assert outputs(tmp_path / "out" / "tiny") == before
