"""STEAMARK: the bundled game against its rulebook (seeds/004_e81a28d628efaaa0.txt).

Expected numbers are read from the rulebook by hand, never computed from the YAML:
"2. Components" lists 18 Rides (6 Big, 6 Medium, 6 Small; 3 per color), 42 Visitors
(7 per color; 6 colors), 34 Bonus Cards, 20 Additional Ground Tiles, 20 Stands (4 each
of 5 types), 4 Turn Order Tokens, 1 Turn Counter, 1 Turn Track, 4 Reference Cards,
4 Pig Boards, 1 Cotton Bag, 24 Dice, 84 Banknotes (30 × 1, 20 × 5, 30 × 10, 4 × 50
Danari), 48 Dirt Tokens and 4 Starting Ground Tiles. Setup step 7 also places a Final
Dirt Track, which the list leaves out.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from punchboard.spec.loader import load_game
from tests.conftest import ROOT, run_cli

GAME = ROOT / "components" / "steamark"
COLOURS = ["Red", "Orange", "Yellow", "Green", "Blue", "Purple"]  # placeholder names: the rulebook names none
STAND_TYPES = ["Security", "Info Point", "Casino", "Toilet", "Promotion"]

PRINTED = {
    "rides": 18,
    "visitors": 42,
    "bonus_cards": 34,
    "ground_tiles": 20,
    "stands": 20,
    "turn_order_tokens": 4,
    "turn_counter": 1,
    "turn_track": 1,
    "reference_cards": 4,
    "pig_boards": 4,
    "banknotes": 84,
    "dirt_tokens": 48,
    "starting_ground": 4,
    "final_dirt_track": 1,  # setup step 7; missing from the Components list
}


def test_check_passes():
    result = run_cli("check", "steamark")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("steamark: ok")


def test_bom_matches_the_rulebook_contents():
    result = run_cli("bom", "steamark", "--json")
    assert result.returncode == 0, result.stderr
    bom = json.loads(result.stdout)
    assert bom["players"] == {"min": 2, "max": 4}
    assert {c["id"]: c["count"] for c in bom["components"]} == PRINTED
    by_id = {c["id"]: c for c in bom["components"]}

    def breakdown(component_id: str) -> dict[str, int]:
        return {b["label"]: b["count"] for b in by_id[component_id]["breakdown"]}

    assert by_id["rides"]["by"] == "colour"
    assert breakdown("rides") == {colour: 3 for colour in COLOURS}
    assert by_id["visitors"]["by"] == "colour"
    assert breakdown("visitors") == {colour: 7 for colour in COLOURS}
    assert by_id["stands"]["by"] == "type"
    assert breakdown("stands") == {stand: 4 for stand in STAND_TYPES}
    assert by_id["banknotes"]["by"] == "denomination"
    assert breakdown("banknotes") == {"1": 30, "5": 20, "10": 30, "50": 4}
    supplies = sorted((s["count"], s["name"].split()[0].lower()) for s in bom["supplies"])
    assert supplies == [(1, "opaque"), (24, "six-sided")]
    assert any("bag" in s["name"] for s in bom["supplies"])
    # the Additional Ground Tiles are placed face-down, so they have a back
    assert by_id["ground_tiles"]["two_sided"] is True


def test_rides_are_polyominoes_of_one_two_and_three_squares():
    """"Rides occupy 1 (Small), 2 (Medium), or 3 (Big) grid squares"; 6 of each size, one per colour."""
    rides = load_game(GAME).component("rides")
    squares = {"Small": 1, "Medium": 2, "Big": 3}
    assert Counter(piece.get("ride_size") for piece in rides.pieces) == {"Small": 6, "Medium": 6, "Big": 6}
    for piece in rides.pieces:
        assert len(piece.cells) == squares[piece.get("ride_size")], piece.fields
        assert piece.get("spaces") == len(piece.cells)
    assert {(p.get("colour"), p.get("ride_size")) for p in rides.pieces} == {
        (colour, size) for colour in COLOURS for size in squares
    }


def test_turn_order_tokens_carry_the_rulebook_effects():
    tokens = load_game(GAME).component("turn_order_tokens")
    effects = {piece.get("order"): piece.get("effect") for piece in tokens.pieces}
    assert effects == {1: "Discard 4 Dirt", 2: "Discard 2 Dirt", 3: "No effect", 4: "Gain 2 Dirt"}


def test_stands_carry_their_abilities():
    stands = load_game(GAME).component("stands")
    ability = {piece.get("type"): piece.get("ability") for piece in stands.pieces}
    assert "draw again" in ability["Security"]
    assert "any Ride" in ability["Info Point"]
    assert "any value" in ability["Casino"]
    assert ability["Toilet"] == ability["Promotion"] == "Count 1 result as 2."


def test_box_lines_are_the_rulebook_contents_list():
    game = load_game(GAME)
    assert [(line.text, line.count) for line in game.box] == [
        ("18 Rides (6 Big, 6 Medium, 6 Small; 3 per color)", 18),
        ("42 Visitors (7 per color; 6 colors)", 42),
        ("34 Bonus Cards", 34),
        ("20 Additional Ground Tiles", 20),
        ("20 Stands (4 each of 5 types: Security, Info Point, Casino, Toilet, Promotion)", 20),
        ("4 Turn Order Tokens", 4),
        ("1 Turn Counter", 1),
        ("1 Turn Track", 1),
        ("4 Reference Cards", 4),
        ("4 Pig Boards (player dashboards)", 4),
        ("1 Cotton Bag", 1),
        ("24 Dice (6 per player; 4 players)", 24),
        ("84 Banknotes:", 84),
        ("30 × 1 Danari", 30),
        ("20 × 5 Danari", 20),
        ("30 × 10 Danari", 30),
        ("4 × 50 Danari", 4),
        ("48 Dirt Tokens", 48),
        ("4 Starting Ground Tiles", 4),
    ]
    # the Final Dirt Track is printed (setup step 7) but no line of the list names it
    named = {component for line in game.box for component in line.components}
    assert "final_dirt_track" not in named
    assert {c.id for c in game.components} - named == {"final_dirt_track"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("steamark_build")
    result = run_cli("build", "steamark", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    return out / "steamark"


def test_build_prints_every_component_into_the_combined_pdf(built: Path):
    combined = built / "steamark-print-and-play.pdf"
    assert combined.is_file()
    pages = [page.extract_text() or "" for page in PdfReader(combined).pages]
    footers = Counter(
        match.group(1) for text in pages for match in re.finditer(r"STEAMARK · (.+?) · page \d+/\d+", text)
    )
    printed = {
        "Visitors", "Bonus cards", "Additional Ground Tiles",
        "Turn Track", "Final Dirt Track", "Reference cards", "Pig Boards", "Danari banknotes",
        "Tokens (print group)",  # the dirt tokens, the turn counter and the turn-order tokens share one sheet
        "Shared tiles (print group)",  # the one-sided rides, stands and starting ground: 3 sheets, not 4
    }
    assert printed <= set(footers), printed - set(footers)
    assert footers["Tokens (print group)"] == 1
    assert footers["Shared tiles (print group)"] == 3
    assert len(PdfReader(built / "rides.pdf").pages) == 1  # all 18 rides on one sheet (27 mm squares), no page for a single ride
    assert not {"Turn Order Tokens", "Turn Counter", "Dirt tokens", "Rides", "Stands", "Starting Ground Tiles"} & set(footers)
    # the rules text is real, searchable text in the PDF (words are placed one by one)
    text = " ".join(" ".join(pages).split())
    for words in (
        "BANK OF ROBOBURG", "Discard 4 Dirt", "Gain 2 Dirt", "Count 1 result as 2.", "LOCK YOUR DICE HERE",
        "30+", "Lose all your money and lose the game", "Return up to 1 drawn Visitor to the Bag and draw again.",
    ):
        assert words in text, words


def _verify(out: Path) -> tuple[int, dict[tuple[str, int | None], dict]]:
    result = run_cli("verify", "steamark", "--json", "--out", str(out))
    assert result.returncode in (0, 1), result.stderr
    data = json.loads(result.stdout)
    rows = data["results"] if isinstance(data, dict) else data
    return result.returncode, {(r["variant"], r["players"]): r for r in rows if r["game"] == "steamark"}


def _messages(row: dict, severity: str) -> str:
    return "\n".join(f["message"] for f in row["findings"] if f["severity"] == severity)


def test_verify_covers_every_variant_and_player_count(tmp_path: Path):
    code, rows = _verify(tmp_path)
    assert code == 0, "no variant may fail: every gap the rulebook leaves is a warning"
    setups = {key for key in rows if key[1] is not None}
    assert setups == {("standard", 2), ("standard", 3), ("standard", 4), ("two_player", 2)}
    # the stated bank total (numbers: bank_total, 630 Danari) agrees with the banknotes
    assert rows[("rulebook numbers", None)]["status"] == "pass"
    box = [row for key, row in rows.items() if key[0] == "box"]
    assert [row["status"] for row in box] == ["pass"]
    for key in setups:
        row = rows[key]
        assert not _messages(row, "fail"), (key, row["findings"])
        warnings = _messages(row, "warn")
        # six turns can take more than the box holds, only in the worst case:
        # every player at the 30-Dirt band (48 tokens), two expansions each per turn
        # (20 tiles), a whole hand of Bonus Cards refilled each turn (34 − 3/player)
        assert "Dirt over six turns" in warnings, key
        assert "Additional Ground Tiles" in warnings, key
        assert "Bonus Card refills" in warnings, key
        # all 36 Ride seats can be filled from the pool while the bag keeps 6
        assert "Visitors to fill every Ride seat" not in warnings, key
    # fewer than four players leave Turn Order Tokens unused, and the rulebook does not say which
    for key in (("standard", 2), ("standard", 3), ("two_player", 2)):
        assert "Turn Order Tokens" in _messages(rows[key], "warn"), key
    assert "Turn Order Tokens" not in _messages(rows[("standard", 4)], "warn")
