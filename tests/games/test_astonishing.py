"""Astonishing! end to end: the spec against the rulebook, the printed PDF, the verifier.

Expected numbers are read from the rulebook (../shared/seeds/001_c3b1afca06815d06.txt),
not computed from the YAML.
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

GAME = ROOT / "components" / "astonishing"
SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
INVENTORS = {
    "Clubs": "Lady Calibrette Merchant",
    "Diamonds": "Abimbola Kayin",
    "Hearts": "Marisol Chang",
    "Spades": "Albert “Albie” Smithering",
}
# "Card Abilities by Suit": the named Queen and King abilities of every Inventor.
QUEEN_INVENTION = {"Clubs": "Capture Resources", "Diamonds": "Buy Resources", "Hearts": "Finagle Resources", "Spades": "Beg, Borrow, and Steal"}
QUEEN_EXHIBITION = {"Clubs": "Intimidate", "Diamonds": "Replacement Part", "Hearts": "Sway the Crowd", "Spades": "Saboteur’s Gambit"}
KING_EXHIBITION = {"Clubs": "Impress", "Diamonds": "Showman", "Hearts": "Charm", "Spades": "Exploit"}


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


# ---------------------------------------------------------------- spec


def test_check_passes():
    result = run_cli("check", "astonishing")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("astonishing: ok")


def test_bom_matches_the_rulebook_contents_list():
    """'A deck of regular playing cards (including Jokers)', 'Three regular, six-sided
    dice', 'A different Inventor sheet for each player' (four Inventors)."""
    result = run_cli("bom", "astonishing", "--json")
    assert result.returncode == 0, result.stderr
    bom = json.loads(result.stdout)
    assert bom["players"] == {"min": 2, "max": 4}
    components = {c["id"]: c for c in bom["components"]}
    assert {cid: c["count"] for cid, c in components.items()} == {"deck": 54, "inventor_sheets": 4}
    deck = components["deck"]
    assert deck["two_sided"] is True
    assert {b["label"]: b["count"] for b in deck["breakdown"]} == {"resource": 40, "face": 12, "joker": 2}
    sheets = components["inventor_sheets"]
    assert {b["label"]: b["count"] for b in sheets["breakdown"]} == dict.fromkeys(SUITS, 1)
    assert [(s["name"], s["count"]) for s in bom["supplies"]] == [("six-sided die", 3)]


def test_each_suit_is_ace_to_ten_plus_jack_queen_king(game):
    deck = game.component("deck")
    for suit in SUITS:
        cards = [p for p in deck.pieces if p.get("suit") == suit]
        values = sorted(p.get("value") for p in cards if p.get("kind") == "resource")
        assert values == list(range(1, 11)), suit
        assert sorted(p.get("rank") for p in cards if p.get("kind") == "face") == ["J", "K", "Q"], suit
        assert {p.get("inventor") for p in cards} == {INVENTORS[suit]}
    jokers = [p for p in deck.pieces if p.get("kind") == "joker"]
    assert len(jokers) == 2 and all(p.get("suit") is None for p in jokers)


def test_face_cards_carry_each_inventors_abilities(game):
    faces = {(p.get("rank"), p.get("suit")): p for p in game.component("deck").pieces if p.get("kind") == "face"}
    for suit in SUITS:
        jack, queen, king = faces[("J", suit)], faces[("Q", suit)], faces[("K", suit)]
        assert (jack.get("action"), queen.get("action"), king.get("action")) == (
            "Trade Cards",
            "Special Effects",
            "Build Your Contraption",
        )
        assert QUEEN_INVENTION[suit] in queen.get("invention")
        assert QUEEN_EXHIBITION[suit] in queen.get("exhibition")
        assert KING_EXHIBITION[suit] in king.get("exhibition")
        assert f"each {suit[:-1]} card" in king.get("exhibition")


def test_aces_say_they_are_worth_eleven_to_their_own_inventor(game):
    aces = [p for p in game.component("deck").pieces if p.get("rank") == "A"]
    assert sorted(p.get("suit") for p in aces) == sorted(SUITS)
    for ace in aces:
        assert ace.get("value") == 1 and "**11**" in ace.get("text")


def test_inventor_sheets_hold_biography_lists_and_abilities(game):
    sheets = {p.get("suit"): p for p in game.component("inventor_sheets").pieces}
    assert game.component("inventor_sheets").fold == "half-horizontal"
    assert sheets["Clubs"].get("biography").startswith("Born to a family of weapon-smiths")
    assert sheets["Hearts"].get("biography").endswith("“and thus the old forms flow into the new.”")
    for suit, sheet in sheets.items():
        assert sheet.get("inventor") == INVENTORS[suit]
        descriptors = [sheet.get(f"d{n}_{i}") for n in (1, 2, 3) for i in range(1, 11)]
        assert all(isinstance(d, str) and d for d in descriptors), suit  # three lists of ten
        assert len(set(descriptors)) == 30, suit
        assert QUEEN_INVENTION[suit] in sheet.get("queen_invention")
        assert QUEEN_EXHIBITION[suit] in sheet.get("queen_exhibition")
        assert KING_EXHIBITION[suit] in sheet.get("king_exhibition")
        assert "Placeholder" in sheet.get("placeholder_note")


# ---------------------------------------------------------------- build


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("astonishing_build")
    result = run_cli("build", "astonishing", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    return out / "astonishing"


def _footer_pages(pdf: Path) -> Counter[str]:
    """Pages per component name, read from the footers ('… page n/N')."""
    pages: Counter[str] = Counter()
    for page in PdfReader(pdf).pages:
        text = page.extract_text() or ""
        for name in ("Astonishing! deck", "Inventor sheets"):
            if re.search(re.escape(name) + r".*\d+\s*/\s*\d+", text):
                pages[name] += 1
    return pages


def test_build_prints_every_component_in_the_combined_pdf(built: Path):
    combined = built / "astonishing-print-and-play.pdf"
    assert combined.is_file()
    pages = _footer_pages(combined)
    # 54 poker cards at 3 × 3 a Letter sheet (three rows leave 2.1 mm above and below for
    # bleed and crop marks inside the 4.23 mm unprintable margin): 6 sheets of fronts, each with its backs page.
    assert pages["Astonishing! deck"] == 12
    # four Inventor sheets, one page each, printed on one side
    assert pages["Inventor sheets"] == 4
    # card text is set word by word; join the words back into one line
    text = " ".join(" ".join(page.extract_text() or "" for page in PdfReader(combined).pages).split())
    for suit in SUITS:
        assert INVENTORS[suit] in text
        assert QUEEN_INVENTION[suit] in text and KING_EXHIBITION[suit] in text


def test_build_writes_one_pdf_per_component(built: Path):
    names = {p.name for p in built.glob("*.pdf")}
    assert "astonishing-print-and-play.pdf" in names
    assert any("deck" in n for n in names - {"astonishing-print-and-play.pdf"})
    assert any("inventor_sheets" in n for n in names)


# ---------------------------------------------------------------- verify


@pytest.fixture(scope="module")
def verified(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("astonishing_verify")
    result = run_cli("verify", "astonishing", "--json", "--trials", "2000", "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    return data if isinstance(data, list) else data["results"]


def _standard(verified: list[dict]) -> dict[int, dict]:
    return {r["players"]: r for r in verified if r["game"] == "astonishing" and r["variant"] == "standard"}


def test_verify_has_a_verdict_for_every_player_count(verified: list[dict]):
    standard = _standard(verified)
    assert sorted(standard) == [2, 3, 4]  # "for 2–4 players"; the rulebook has no other variant
    # 4 players: every Inventor is played, every face card is in a roster.
    assert standard[4]["status"] == "pass", standard[4]["findings"]
    assert standard[4]["findings"] == []
    # 2 and 3 players: the face cards of unplayed Inventors are left over and
    # the rulebook never says what becomes of them — a warning, not a failure.
    for players in (2, 3):
        result = standard[players]
        assert result["status"] == "warn", result["findings"]
        assert [(f["severity"], f["have"]) for f in result["findings"]] == [("warn", 3 * (4 - players))]
        assert "face cards" in result["findings"][0]["step"]


def test_verify_joker_odds_match_the_closed_form(verified: list[dict]):
    """42 cards (40 resources + 2 Jokers), 4 dealt to each player: the chance that
    some starting hand holds a Joker is 1 - C(42 - 4n, 2) / C(42, 2)."""
    for players, result in _standard(verified).items():
        event = next(e for e in result["events"] if e["name"] == "a player is dealt a Joker in the starting hand")
        rest = 42 - 4 * players
        expected = 1 - (rest * (rest - 1)) / (42 * 41)
        assert event["exact"] == pytest.approx(expected, abs=1e-12)
        assert event["agrees"] is True


def test_verify_box_contents_match(verified: list[dict]):
    box = [r for r in verified if r["game"] == "astonishing" and r["variant"] == "box"]
    assert box and all(r["status"] == "pass" for r in box), box
