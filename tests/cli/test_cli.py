"""The CLI verbs as a user runs them, end to end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli


def test_list_shows_steam_court_with_player_range():
    result = run_cli("list")
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("steam_court"))
    assert "Steam Court" in line and "1–12 players" in line


@pytest.mark.parametrize("verb", ["list", "check", "build", "verify", "bom", "serve"])
def test_every_verb_has_help(verb):
    result = run_cli(verb, "--help")
    assert result.returncode == 0
    assert "usage: punchboard " + verb in result.stdout


def test_check_bundled_steam_court_by_id_and_by_path():
    assert run_cli("check", "steam_court").returncode == 0
    result = run_cli("check", "components/steam_court")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("steam_court: ok")


def test_check_game_kept_outside_the_repository(tmp_path: Path):
    game = tmp_path / "my_copy"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_unknown_target_is_a_clean_input_error():
    result = run_cli("check", "no_such_game")
    assert result.returncode == 2
    assert "no game 'no_such_game'" in result.stderr
    assert "Traceback" not in result.stderr


def test_bom_steam_court_agrees_with_the_rulebook_contents():
    """Rulebook p.2: 12 characters, 2 decks of 84, 2 playmats, 24 gear tokens (1–6), 12 starting tokens."""
    result = run_cli("bom", "steam_court", "--json")
    assert result.returncode == 0, result.stderr
    bom = json.loads(result.stdout)
    counts = {c["id"]: c["count"] for c in bom["components"]}
    assert counts == {
        "gear_deck": 168,
        "characters": 12,
        "playmats": 2,
        "gear_tokens": 24,
        "starting_tokens": 12,
    }
    deck = next(c for c in bom["components"] if c["id"] == "gear_deck")
    assert deck["copies"] == 2 and deck["per_copy"] == 84
    tokens = next(c for c in bom["components"] if c["id"] == "gear_tokens")
    assert {b["label"]: b["count"] for b in tokens["breakdown"]} == {str(v): 4 for v in range(1, 7)}
    assert bom["supplies"] == []


def test_bom_text_lists_every_component():
    result = run_cli("bom", "steam_court")
    assert result.returncode == 0
    for text in ("168  Gear deck", "12  Character cards", "2  Playmat", "24  Gear tokens", "12  Starting tokens"):
        assert text in result.stdout
