"""A ``--players`` or ``--variant`` no variant covers is exit 2 naming the range, before anything is written; a count
game.yaml promises that no variant covers is a ``check`` finding at game.yaml's players key (issue 40 item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.minigame import write_game
from tests.conftest import run_cli

SETUP = """\
variants:
  - id: standard
    players: {min: 2, max: 4}
    steps:
      - take: {component: chits, to: pool}
      - deal: {from: pool, to: hand, count: 2}
  - id: solo
    players: [1]
    steps:
      - take: {component: chits, to: pool}
      - deal: {from: pool, to: hand, count: 5}
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """Mini for 1–6 players, with variants for 1 and for 2–4: 5 and 6 players are promised but not covered."""
    folder = write_game(tmp_path / "game")
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("players: {min: 2, max: 4}", "players: {min: 1, max: 6}")
    (folder / "game.yaml").write_text(text + "setup: setup.yaml\n", encoding="utf-8")
    (folder / "setup.yaml").write_text(SETUP, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("flags", "said"), [
    (["--players", "99"], "--players 99: mini is for 1–6 players; expected a count from 1 to 6"),
    (["--players", "5"], "--players 5: no variant of mini covers 5 players (standard: 2–4; solo: 1); expected a count from 1 to 4"),
    (["--players", "3", "--variant", "solo"], "--players 3: mini's variant 'solo' is for 1 player; expected exactly 1"),
    (["--variant", "duo"], "--variant: mini has no variant 'duo'; expected one of standard, solo"),
    (["--players", "99", "--variant", "solo"], "--players 99: mini is for 1–6 players; expected a count from 1 to 6"),
], ids=["outside-game", "no-variant", "outside-variant", "unknown-variant", "outside-game-with-variant"])
def test_verify_refuses_a_selection_no_variant_covers(game: Path, flags: list[str], said: str):
    result = run_cli("verify", str(game), *flags, "--out", "out", cwd=game.parent)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr == f"punchboard verify: {said}\n"
    assert result.stdout == "" and not (game.parent / "out" / "mini").exists()  # no empty matrix, no verify.md


def test_verify_of_a_covered_count_runs_that_cell(game: Path):
    result = run_cli("verify", str(game), "--players", "3", "--out", "out", cwd=game.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    report = (game.parent / "out" / "mini" / "verify.md").read_text(encoding="utf-8")
    assert "| variant | 3 |\n|---|---|\n| standard | pass |\n" in report, report
    assert "## standard, 3 players: pass" in report and "solo" not in report, report


def test_check_finds_the_counts_no_variant_covers_at_game_yaml_players(game: Path):
    result = run_cli("check", str(game), "--preflight", "off", cwd=game.parent)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "warning: game/game.yaml:3:1: players: mini is for 1–6 players, but no variant in setup.yaml covers 5–6 players "
        "(variants cover 1–4); expected a variant for every count in this range, or a narrower range\n"
    )


def test_check_of_a_game_whose_variants_cover_its_range_finds_nothing(game: Path):
    text = (game / "game.yaml").read_text(encoding="utf-8").replace("max: 6", "max: 4")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    result = run_cli("check", str(game), "--preflight", "off", cwd=game.parent)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr


def test_of_several_games_those_without_the_count_are_left_out_in_one_line_each(tmp_path: Path):
    result = run_cli("verify", "--players", "1", "--trials", "0", "--out", "out", cwd=tmp_path)  # the bundled games
    assert result.returncode == 1, result.stderr  # knights' solo fails, as printed
    assert [line for line in result.stderr.splitlines() if not line.startswith("[")] == [  # besides progress
        "punchboard verify: left out: --players 1: astonishing is for 2–4 players; expected a count from 2 to 4",
        "punchboard verify: left out: --players 1: belpunk is for 2–4 players; expected a count from 2 to 4",
        "punchboard verify: left out: --players 1: showcase is for 2–4 players; expected a count from 2 to 4",
        "punchboard verify: left out: --players 1: steamark is for 2–4 players; expected a count from 2 to 4",
    ]
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir()) == ["knights_vs_steambots", "steam_court"]
    none = run_cli("verify", "astonishing", "belpunk", "--players", "1", "--out", "out2", cwd=tmp_path)
    assert none.returncode == 2 and none.stderr.startswith("punchboard verify: --players 1: astonishing is for 2–4"), none.stderr
    assert not (tmp_path / "out2").exists() or not any(p.is_dir() for p in (tmp_path / "out2").iterdir())
