"""Belpunk Haberdasher: the bundled game against its rulebook (seeds/002_ca70296aba6bba05.txt).

Expected numbers are read from the rulebook by hand, never computed from the YAML:
"One deck of 52 cards in 4 suits", "One first player card (the Foreman)",
"One The Machine card", "(a scorekeeping method)"; Setup deals 8/7/6 cards for
2/3/4 players and discards as many cards as players into The Machine.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from punchboard.spec.loader import load_game
from tests.conftest import ROOT, run_cli

GAME = ROOT / "components" / "belpunk"
SUITS = ["Steam", "Gears", "Parts", "Electricity"]  # Machine Order, as the rulebook lists it

# "Card Actions": each action and the two suits aligned with it.
ACTION_SUITS = {
    "Draw a Card from the deck": {"Steam", "Electricity"},
    "Look at any Scrap Pile and draw any card from it": {"Parts", "Electricity"},
    "Take a card from any Scrap Pile": {"Gears", "Parts"},
    "Exchange a card in your hand": {"Gears", "Steam"},
}


def test_check_passes():
    result = run_cli("check", "belpunk")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("belpunk: ok")


def test_bom_matches_the_rulebook_contents():
    result = run_cli("bom", "belpunk", "--json")
    assert result.returncode == 0, result.stderr
    bom = json.loads(result.stdout)
    assert bom["players"] == {"min": 2, "max": 4}
    assert {c["id"]: c["count"] for c in bom["components"]} == {"deck": 52, "foreman": 1, "machine": 1}
    deck = next(c for c in bom["components"] if c["id"] == "deck")
    assert deck["by"] == "suit"
    assert [(b["label"], b["count"]) for b in deck["breakdown"]] == [(suit, 13) for suit in SUITS]
    assert deck["two_sided"] is True
    assert [(s["count"], "scorekeeping" in s["name"].lower()) for s in bom["supplies"]] == [(1, True)]


def test_box_lines_are_the_rulebook_contents_list():
    game = load_game(GAME)
    assert [(line.text, line.count, line.components) for line in game.box] == [
        ("One deck of 52 cards in 4 suits.", 52, ("deck",)),
        ("One first player card (the Foreman)", 1, ("foreman",)),
        ("One The Machine card", 1, ("machine",)),
        ("(a scorekeeping method)", 1, ("scorekeeping",)),
    ]


def test_every_value_comes_once_in_each_suit():
    """Perfect Gears is 4 of a kind, so every value exists in all four suits: 13 values × 4."""
    deck = load_game(GAME).component("deck")
    by_value = Counter(piece.get("value") for piece in deck.pieces)
    assert len(by_value) == 13 and set(by_value.values()) == {4}
    assert len({(piece.get("suit"), piece.get("value")) for piece in deck.pieces}) == 52


def test_each_suit_carries_the_two_actions_the_rulebook_aligns_with_it():
    deck = load_game(GAME).component("deck")
    for suit in SUITS:
        card = next(piece for piece in deck.pieces if piece.get("suit") == suit)
        printed = (card.get("text_1") + " " + card.get("text_2")).lower()
        shown = {action for action in ACTION_SUITS if action.lower() in printed}
        expected = {action for action, suits in ACTION_SUITS.items() if suit in suits}
        assert shown == expected, suit
        assert card.get("order") == SUITS.index(suit) + 1


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("belpunk_build")
    result = run_cli("build", "belpunk", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    return out / "belpunk"


def test_build_prints_every_component_into_the_combined_pdf(built: Path):
    combined = built / "belpunk-print-and-play.pdf"
    assert combined.is_file()
    # words are drawn one by one; join them back into running text
    pages = [" ".join((page.extract_text() or "").split()) for page in PdfReader(combined).pages]
    text = " ".join(pages)
    for name in ("Belpunk deck", "Foreman card", "The Machine card"):
        assert name in text, name
    # 52 poker cards at 9 a Letter page (inside the 4.23 mm unprintable margin): 6 pages of
    # fronts, each followed by its backs
    assert sum("Belpunk deck · page" in page for page in pages) == 12
    assert sum("Foreman card · page" in page for page in pages) == 2
    assert sum("The Machine card · page" in page for page in pages) == 1
    # the card text itself is real text in the PDF, so it is legible and searchable
    assert "?" not in text  # no rule text asks a question: a '?' is a glyph the font could not print
    for words in ("Machine Order", "Exchange", "Look & Draw", "Take & Place", "Scoring", "THE MACHINE"):
        assert words in text, words


def _verify(target: str, out: Path) -> tuple[int, list[dict]]:
    result = run_cli("verify", target, "--json", "--trials", "2000", "--out", str(out))
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)


def test_verify_passes_the_box_and_every_player_count_of_the_standard_setup(tmp_path: Path):
    """The rulebook has one setup for 2–4 players; 52 cards cover 8/7/6-card hands plus the Machine's discards."""
    code, results = _verify("belpunk", tmp_path)
    assert code == 0  # the rulebook states two points-to-win figures (below): a contradiction, not a shortfall
    rows = {(r["variant"], r["players"]): r for r in results if r["game"] == "belpunk"}
    assert sorted(rows, key=str) == sorted(
        [("box", None), ("rulebook numbers", None), ("standard", 2), ("standard", 3), ("standard", 4)], key=str
    )
    for key, row in rows.items():
        if key != ("rulebook numbers", None):
            assert (row["status"], row["findings"]) == ("pass", []), key
    # "The first player to get 35 points wins" vs "... reached 25 or more points, the game ends": one finding
    numbers = rows[("rulebook numbers", None)]
    fails = [f["message"] for f in numbers["findings"] if f["severity"] == "contradiction"]
    assert numbers["status"] == "warn" and len(fails) == 1
    assert "points_to_win: stated with different values: 35" in fails[0] and "and 25" in fails[0]
    # each quote is found in the rulebook text, with its line
    infos = [f["message"] for f in numbers["findings"] if f["severity"] == "info"]
    assert any("line 13" in m and "35" in m for m in infos) and any("line 92" in m for m in infos)
    for players in (2, 3, 4):
        events = rows[("standard", players)]["events"]
        assert len(events) == 2 and all(event["agrees"] for event in events)


def test_verify_catches_a_deck_that_does_not_match_the_rulebook(tmp_path: Path):
    """A 40-card deck (values 1–10) breaks the box count and the 34/28/24-card draw pile."""
    game = tmp_path / "belpunk"
    shutil.copytree(GAME, game)
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text().replace("to: 13}", "to: 10}"))
    code, results = _verify(str(game), tmp_path / "out")
    assert code == 1
    status = {(r["variant"], r["players"]): r["status"] for r in results}
    assert status == {
        ("box", None): "fail",
        ("rulebook numbers", None): "warn",
        ("standard", 2): "fail",
        ("standard", 3): "fail",
        ("standard", 4): "fail",
    }


def test_verify_strict_fails_on_the_rulebook_contradiction(tmp_path: Path):
    """--strict turns every warning into a failure: the 35 vs 25 points to win is then exit 1."""
    result = run_cli("verify", "belpunk", "--strict", "--trials", "0", "--out", str(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    # declared expected in setup.yaml (expected:), which marks it and keeps the exit code: a warning is a warning
    assert "CONTRADICTION (expected) rulebook numbers, rulebook number points_to_win: stated with different values" in result.stdout
