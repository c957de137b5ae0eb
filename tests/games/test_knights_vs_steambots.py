"""Knights vs STEAMBOTs: the bundled game against its rulebook (seeds/003_2677266875f834a7.txt).

Expected numbers are read from the rulebook's "Game components" list by hand,
never computed from the YAML: 9 Territory cards (6 type), 10 Knights, 10 Rock,
10 Scissors, 10 Paper, 7 Ordinary / 4 Lance / 2 Armored SteamBots, 3 Trap
Cages, the Magician, Dragon, Greed, Market and Thief, 4 two-sided Knight-Ghost
cards and the red, blue, yellow and green player tokens.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from punchboard.spec.loader import load_game
from tests.conftest import ROOT, run_cli

GAME_ID = "knights_vs_steambots"
GAME = ROOT / "components" / GAME_ID
COLOURS = ["red", "blue", "yellow", "green"]

# "Game components", line by line.
RULEBOOK_COUNTS = {
    "territory": 9,
    "knights": 10,
    "trophies": 30,
    "steambots": 13,
    "traps": 3,
    "specials": 5,
    "knight_ghost": 4,
    "player_tokens": 4,
}


def test_check_passes():
    result = run_cli("check", GAME_ID)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"{GAME_ID}: ok (8 components, 78 pieces)")


def test_bom_matches_the_rulebook_contents():
    result = run_cli("bom", GAME_ID, "--json")
    assert result.returncode == 0, result.stderr
    bom = json.loads(result.stdout)
    assert bom["players"] == {"min": 1, "max": 4}
    assert {c["id"]: c["count"] for c in bom["components"]} == RULEBOOK_COUNTS
    breakdowns = {c["id"]: {b["label"]: b["count"] for b in c["breakdown"]} for c in bom["components"]}
    assert breakdowns["trophies"] == {"Rock": 10, "Scissors": 10, "Paper": 10}
    assert breakdowns["steambots"] == {"Ordinary": 7, "Lance": 4, "Armored": 2}
    assert breakdowns["specials"] == {"Magician": 1, "Dragon": 1, "Greed": 1, "Market": 1, "Thief": 1}
    assert breakdowns["knight_ghost"] == {colour: 1 for colour in COLOURS}
    assert breakdowns["player_tokens"] == {colour: 1 for colour in COLOURS}
    assert len(breakdowns["territory"]) == 6, "9 Territory cards (6 type)"
    assert all(c["two_sided"] for c in bom["components"])
    assert bom["supplies"] == []


def test_box_lines_quote_the_contents_list_with_its_counts():
    game = load_game(GAME)
    counts = {line.text: line.count for line in game.box}
    assert counts == {
        "9 Territory cards (6 type)": 9,
        "10 Knights cards.": 10,
        "10 Rock cards": 10,
        "10 Scissors cards.": 10,
        "10 Paper cards.": 10,
        "7 Ordinary SteamBot cards.": 7,
        "4 Lance SteamBot cards.": 4,
        "3 Trap Cage cards.": 3,
        "1 special card «Magician»": 1,
        "4 Knight-Ghost double-sided cards.": 4,
        "2 Armored SteamBot cards.": 2,
        '1 special card "Dragon"': 1,
        '1 special card "Greed."': 1,
        '1 special card "Market"': 1,
        '1 special card "Thief"': 1,
        "Player’s tokens (red, blue, yellow and green).": 4,
    }


def test_territory_has_one_central_card_and_one_chest():
    """Setup needs one Central card with 4 exits; solo: "all (8 card) Territory Cards without Chest"."""
    cards = load_game(GAME).component("territory").pieces
    central = [c for c in cards if c.get("start")]
    assert len(central) == 1
    assert all(central[0].get(f"exit_{side}") for side in "nesw")
    assert sum(1 for c in cards if c.get("chest")) == 1
    assert sum(1 for c in cards if not c.get("chest")) == 8
    for card in cards:
        exits = sum(1 for side in "nesw" if card.get(f"exit_{side}"))
        assert exits == card.get("exits") >= 1, card.name


def test_knights_are_four_teams_of_two_plus_two_cook_knights():
    knights = load_game(GAME).component("knights").pieces
    teams = Counter(k.get("team") for k in knights if not k.get("cook"))
    assert sorted(teams.values()) == [2, 2, 2, 2]
    assert sum(1 for k in knights if k.get("cook")) == 2
    assert all(k.get("gold") == "1" for k in knights), "every living Knight scores 1 gold"


def test_each_team_has_a_starting_scissors_with_its_weapon():
    game = load_game(GAME)
    team_weapons = {k.get("weapon") for k in game.component("knights").pieces if not k.get("cook")}
    scissors = [t for t in game.component("trophies").pieces if t.get("kind") == "Scissors"]
    assert Counter(t.get("weapon") for t in scissors if t.get("weapon")) == {w: 1 for w in team_weapons}


def test_gold_values_follow_the_scoring_rules():
    game = load_game(GAME)
    gold = {p.name: p.get("gold") for c in game.components for p in c.pieces if p.get("gold") is not None}
    assert gold["SteamBot"] == "1" and gold["Armored SteamBot"] == "2"
    assert gold["Rock"] == gold["Scissors"] == "2"
    assert gold["Magician"] == "1" and gold["Trap Cage"] == "0"
    paper = next(p for p in game.component("trophies").pieces if p.get("kind") == "Paper")
    assert paper.get("gold") == "2" and "Magician" in paper.get("gold_note")
    for name in ("Dragon", "Greed", "Market", "Thief"):
        assert name not in gold


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kvs_build")
    result = run_cli("build", GAME_ID, "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    return out


def test_build_puts_every_printed_component_in_the_print_and_play_pdf(built: Path):
    pdfs = list(built.rglob(f"{GAME_ID}-print-and-play.pdf"))
    assert len(pdfs) == 1
    pages = [page.extract_text() or "" for page in PdfReader(pdfs[0]).pages]
    game = load_game(GAME)
    deck = {c.id for c in game.printed if c.print_group == "deck"}
    assert deck == {"territory", "knights", "trophies", "steambots", "traps", "specials"}  # one Deck, one back
    for component in game.printed:
        # the Deck's cards print on shared sheets (print group 'deck'), not on sheets of their own
        name = "Deck (print group)" if component.id in deck else component.name
        footer = f"· {name} · page"
        assert any(footer in text for text in pages), f"no page of {name} in the print-and-play PDF"
        if component.id in deck:
            assert not any(f"· {component.name} · page" in text for text in pages), component.name
    # 70 Deck cards at 9 a Letter sheet: 8 sheets, fronts and backs (printed apart they take 10)
    assert sum("· Deck (print group) · page" in text for text in pages) == 16
    # Card faces are there as text too (words may be placed one by one, so compare without spaces).
    squeezed = "".join("".join(text.split()) for text in pages)
    for words in ("Central Hall", "The Chest", "Lance SteamBot", "Trap Cage", "Magician", "GHOST", "SCORING"):
        assert "".join(words.split()) in squeezed, words


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    out = tmp_path_factory.mktemp("kvs_verify")
    result = run_cli("verify", GAME_ID, "--json", "--out", str(out))
    assert result.returncode == 1, "solo must fail: the rulebook's Knight counts do not add up"
    data = json.loads(result.stdout)
    return data["results"] if isinstance(data, dict) else data


def _status(results: list[dict], variant: str, players: int) -> dict:
    matches = [r for r in results if r["variant"] == variant and r["players"] == players]
    assert len(matches) == 1, (variant, players)
    return matches[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_verify_two_to_four_players_pass(verified: list[dict], players: int):
    result = _status(verified, "standard", players)
    assert result["status"] == "pass", result["findings"]


def test_verify_harder_solo_with_six_knights_passes(verified: list[dict]):
    assert _status(verified, "solo_six_knights", 1)["status"] == "pass"


def test_verify_solo_reports_four_knights_left_where_the_rulebook_wants_three(verified: list[dict]):
    """10 Knights − 3 in the Team − 3 removed = 4, yet "the Deck should be only three Knights card"."""
    result = _status(verified, "solo", 1)
    assert result["status"] == "fail"
    failures = [f for f in result["findings"] if f["severity"] == "fail"]
    assert len(failures) == 1, failures
    assert "deck_knights" in failures[0]["step"]
    assert (failures[0]["need"], failures[0]["have"]) == (3, 4)


def test_verify_covers_every_variant_and_player_count_and_the_box(verified: list[dict]):
    covered = {(r["variant"], r["players"]) for r in verified if r["variant"] != "box"}
    assert covered == {("standard", 2), ("standard", 3), ("standard", 4), ("solo", 1), ("solo_six_knights", 1)}
    box = [r for r in verified if r["variant"] == "box"]
    assert box and all(r["status"] == "pass" for r in box)
