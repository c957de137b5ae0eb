"""How playouts ended (won / lost / ends / round limit, each with its interval) and the round model's words and
``placeholder:`` amounts, in every report: terminal, verify.md, --json and the studio's view."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from punchboard.verifier.engine import verify_game
from punchboard.verifier.probability.stats import Z_999, wilson

from punchboard.spec.loader import load_game
from punchboard.studio.state import _verify_view
from tests.conftest import ROOT, run_cli
from tests.verifier.test_playout import _game

# one token leaves the pile of 2 each round (empty after round 2); a fair coin scores 1 each round
COIN = ("      rounds: 5\n      end:\n{ends}      each_round:\n"
        "        - say: take a token\n          gain: {{from: pile, to: used, count: 1}}\n"
        "        - say: flip the coin\n          placeholder: a fair coin stands for the players' skill\n"
        "          score: {{add: {{roll: {{dice: 1, faces: [0, 1]}}}}}}\n")
WON_FIRST = "        - {score: 1, means: won}\n        - {empty: pile, means: lost, say: the pile is gone}\n"
LOST_FIRST = "        - {empty: pile, means: lost, say: the pile is gone}\n        - {score: 1, means: won}\n"
GAMES = 2000


def _outcomes(tmp_path: Path, name: str, model: str) -> tuple[dict, dict[str, dict]]:
    folder = _game(tmp_path / name, model, tokens=2)
    done = run_cli("verify", str(folder), "--trials", "0", "--json", "--playouts", str(GAMES), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    cell = next(r for r in json.loads(done.stdout) if r["players"] == 1)["playout"]
    return cell, {o["outcome"]: o for o in cell["outcomes"]}


def _agrees(outcome: dict, exact: Fraction) -> None:
    low, high = wilson(outcome["count"], outcome["games"], Z_999)
    assert outcome["interval"] == [low, high] and outcome["share"] == outcome["count"] / GAMES
    assert low <= exact <= high, (outcome, float(exact))


def test_each_outcome_has_its_share_and_the_first_listed_condition_decides(tmp_path: Path) -> None:
    # won first: won in round 1 (1/2) or in round 2 (1/4, the pile empties too but won is listed first)
    _, first = _outcomes(tmp_path, "won_first", COIN.format(ends=WON_FIRST))
    assert list(first) == ["won", "lost", "round limit"]
    _agrees(first["won"], Fraction(3, 4))
    _agrees(first["lost"], Fraction(1, 4))
    assert first["round limit"]["count"] == 0 and first["won"]["count"] + first["lost"]["count"] == GAMES
    # lost first: round 2 always ends lost, so only round 1's coin wins
    _, second = _outcomes(tmp_path, "lost_first", COIN.format(ends=LOST_FIRST))
    _agrees(second["won"], Fraction(1, 2))
    _agrees(second["lost"], Fraction(1, 2))


def test_the_round_limit_and_plain_ends(tmp_path: Path) -> None:
    model = COIN.format(ends="        - {score: 3}\n").replace("rounds: 5", "rounds: 2")
    cell, outcomes = _outcomes(tmp_path, "limit", model)
    # a score of 3 in 2 rounds never comes: every game reaches the round limit
    assert list(outcomes) == ["ends: a score reaches 3", "round limit"]
    assert outcomes["round limit"]["count"] == GAMES and outcomes["round limit"]["share"] == 1.0
    assert cell["model"]["end"] == [{"condition": "a score reaches 3", "means": "ends"}]


def test_placeholders_and_says_in_the_terminal_the_markdown_and_json(tmp_path: Path) -> None:
    folder = _game(tmp_path / "g", COIN.format(ends=WON_FIRST), tokens=2)
    done = run_cli("verify", str(folder), "--trials", "0", "--playouts", "100", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "round model of main — 1 amount marked PLACEHOLDER (guesses, not the rulebook's)" in done.stdout
    assert "2. flip the coin [1 dice with faces [0, 1]] — PLACEHOLDER: a fair coin stands for the players' skill" in done.stdout
    assert "1. take a token [1]" in done.stdout
    assert "main 1: won " in done.stdout and "; lost " in done.stdout and "; round limit " in done.stdout
    assert "end: the pile is gone → lost" in done.stdout
    md = (tmp_path / "out" / "drain" / "verify.md").read_text(encoding="utf-8")
    assert "**1 amount marked PLACEHOLDER**" in md
    assert "2. flip the coin [1 dice with faces [0, 1]] — **PLACEHOLDER:** a fair coin stands for the players' skill" in md
    assert "| main | 1 | won |" in md and "| main | 1 | round limit |" in md
    cell, _ = _outcomes(tmp_path, "j", COIN.format(ends=WON_FIRST))
    assert [a["placeholder"] for a in cell["model"]["actions"]] == [None, "a fair coin stands for the players' skill"]
    assert [a["say"] for a in cell["model"]["placeholders"]] == ["flip the coin"]


def test_a_cell_not_played_still_shows_its_placeholders(tmp_path: Path) -> None:
    model = COIN.format(ends=WON_FIRST).replace("rounds: 5", "rounds: {by_players: {2: 5}, open: {1: \"not said\"}}")
    done = run_cli("verify", str(_game(tmp_path / "g", model, tokens=2)), "--trials", "0", "--playouts", "10",
                   "--out", str(tmp_path / "out"))
    assert "not played" in done.stdout
    assert "PLACEHOLDER: a fair coin stands for the players' skill" in done.stdout


def test_the_studio_shows_round_models_with_placeholders(tmp_path: Path) -> None:
    game = load_game(_game(tmp_path / "g", COIN.format(ends=WON_FIRST), tokens=2))
    results = verify_game(game, trials=0, seed=1, playouts=50)
    view = _verify_view(results, 0, 1, game)["playouts"]
    assert [p["variant"] for p in view] == ["main"]
    assert view[0]["lines"][1] == "flip the coin [1 dice with faces [0, 1]] — PLACEHOLDER: a fair coin stands for the players' skill"
    assert [a["say"] for a in view[0]["model"]["placeholders"]] == ["flip the coin"]
    assert view[0]["played"][0]["outcomes"][0].startswith("won ")
    # without playouts (as the studio verifies), the round model and its placeholders still show
    bare = _verify_view(verify_game(game, trials=0, seed=1), 0, 1, game)["playouts"]
    assert bare[0]["model"]["placeholders"] and bare[0]["played"] == []
    assert "playoutSection(verify.playouts)" in (ROOT / "punchboard" / "studio" / "static" / "studio.js").read_text()


def test_steam_court_solo_reports_won_lost_and_round_limit(tmp_path: Path) -> None:
    done = run_cli("verify", "steam_court", "--variant", "solo", "--trials", "0", "--json", "--playouts", "250",
                   "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    cell = next(r for r in json.loads(done.stdout) if r["players"] == 1)["playout"]
    outcomes = {o["outcome"]: o for o in cell["outcomes"]}
    assert list(outcomes) == ["won", "lost", "round limit"]
    assert sum(o["count"] for o in outcomes.values()) == 250
    assert 0 < outcomes["won"]["count"] < 250 and 0 < outcomes["lost"]["count"] < 250
    assert len(cell["model"]["placeholders"]) == 3


def test_steamark_marks_its_placeholders(tmp_path: Path) -> None:
    done = run_cli("verify", "steamark", "--variant", "standard", "--players", "3", "--trials", "0", "--json",
                   "--playouts", "10", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    cell = next(r for r in json.loads(done.stdout) if r["players"] == 3)["playout"]
    assert [a["action"] for a in cell["model"]["placeholders"]] == [1, 2, 6, 7]
    assert all("PLACEHOLDER" not in a["say"] for a in cell["model"]["actions"])  # the marker, not words in say:
