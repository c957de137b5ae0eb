"""Where the rules are silent: a step skipped because its count is left open at a player count skips every
later step that reads a zone it would have changed, and every event over those zones is "not computed" — in
the terminal, verify.md and --json — never a confident figure; their sizes read "open".

Hanabi (2–5 players; the hand size is stated for 2–5) asked at 6, and Lost Cities (a 2-player game) asked at
3: tests/fixtures/games/hanabi and lost_cities, written from their published rules.
"""

from __future__ import annotations

import json
import shutil
from math import comb
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

FIXTURES = ROOT / "tests" / "fixtures" / "games"
HANABI_EVENTS = ("player 1 holds a 5", "every player holds a 1", "the draw pile holds all five 5s", "the first card drawn is a 5")
LOST_CITIES_EVENTS = ("player 1 holds a wager card", "the first card drawn is a wager card",
                      "every wager card stays in the draw pile")


def _cells(target: Path, out: Path, *args: str) -> dict[int | None, dict]:
    done = run_cli("verify", str(target), "--json", "--trials", "0", "--out", str(out), *args)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return {r["players"]: r for r in json.loads(done.stdout)}


def _not_computed(cell: dict, name: str) -> str:
    """The finding that says the event was not computed (the test fails when there is none)."""
    said = [_said(f) for f in cell["findings"] if f["step"] == f'event "{name}"']
    assert len(said) == 1 and said[0].startswith("not computed"), (name, cell["findings"])
    return said[0]


def _said(finding: dict) -> str:
    """A finding's message without the step it names first."""
    return finding["message"].removeprefix(f'{finding["step"]}: ')


def _sizes(cell: dict) -> dict[str, str]:
    return {z["zone"]: z["text"] for z in cell["derived"]["sizes"]}


def test_hanabi_at_six_players_computes_nothing_that_depends_on_the_open_deal(tmp_path: Path) -> None:
    cells = _cells(FIXTURES / "hanabi", tmp_path)
    six = cells[6]
    assert six["status"] == "warn" and six["events"] == []
    for name in HANABI_EVENTS:
        assert "depends on a step the rulebook leaves open" in _not_computed(six, name)
    skipped = {f["step"]: _said(f) for f in six["findings"] if f["step"].startswith("step ")}
    assert skipped == {
        'step 4 "deal a hand to each player"': "left open by the rulebook: the rules are for 2 to 5 players",
        'step 5 "the rest form the draw pile"': "skipped: it depends on what the rulebook leaves open (above)",
        'step 6 "the first card drawn"': "skipped: it depends on what the rulebook leaves open (above)"}
    sizes = _sizes(six)
    assert {z: sizes[z] for z in ("deck", "hand", "draw_pile", "first_draw")} == dict.fromkeys(
        ("deck", "hand", "draw_pile", "first_draw"), "open")
    assert (sizes["clocks"], sizes["fuses"]) == ("8", "3")  # taken before the deal: known
    # the counts the rules cover keep their exact figures
    for players, hand in ((2, 5), (3, 5), (4, 4), (5, 4)):
        events = {e["name"]: e for e in cells[players]["events"]}
        assert events["player 1 holds a 5"]["exact"] == pytest.approx(1 - comb(45, hand) / comb(50, hand), abs=1e-12)
        assert events["the first card drawn is a 5"]["exact"] == pytest.approx(5 / 50, abs=1e-12)
        dealt = players * hand
        assert events["the draw pile holds all five 5s"]["exact"] == pytest.approx(comb(45, dealt + 1) / comb(50, dealt + 1), abs=1e-12)
        assert _sizes(cells[players])["draw_pile"] == str(50 - dealt - 1)


def test_lost_cities_at_three_players_in_the_terminal_and_verify_md(tmp_path: Path) -> None:
    done = run_cli("verify", str(FIXTURES / "lost_cities"), "--trials", "0", "--verbose", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    for name in LOST_CITIES_EVENTS:
        line = next(x for x in done.stdout.splitlines() if f'3 players, event "{name}"' in x)
        assert "not computed" in line, line
    table = done.stdout.split("deal events")[1].split("sizes after setup")[0]
    assert "standard 2" in table and "standard 3" not in table  # no figure printed for the open cell
    sizes = done.stdout.split("sizes after setup")[1].splitlines()
    assert next(x for x in sizes if x.strip().startswith("first_draw")).split()[1:] == ["1", "open"]
    markdown = (tmp_path / "lost_cities" / "verify.md").read_text()
    for name in LOST_CITIES_EVENTS:
        assert f'event "{name}": not computed' in markdown
    # 2 players: one card of 60, 15 of them wager cards, is the first drawn
    cells = _cells(FIXTURES / "lost_cities", tmp_path / "json")
    events = {e["name"]: e for e in cells[2]["events"]}
    assert events["the first card drawn is a wager card"]["exact"] == pytest.approx(15 / 60, abs=1e-12)
    assert cells[3]["events"] == [] and all(_not_computed(cells[3], n) for n in LOST_CITIES_EVENTS)


def test_a_skipped_take_leaves_open_only_the_pieces_it_might_have_taken(tmp_path: Path) -> None:
    # the clock tokens' count left open at 6: the fuse tokens (same component) and the cards are still known
    folder = tmp_path / "hanabi"
    shutil.copytree(FIXTURES / "hanabi", folder)
    setup = (folder / "setup.yaml").read_text()
    setup = setup.replace("""      - take: {component: tokens, where: "name == 'Clock token'", to: clocks}""",
                          """      - take:
          component: tokens
          where: "name == 'Clock token'"
          to: clocks
          count: {by_players: {2: 8, 3: 8, 4: 8, 5: 8}, open: {6: no clock tokens at 6}}""")
    setup = setup.replace("open: {6: the rules are for 2 to 5 players}", "")
    setup = setup.replace("by_players: {2: 5, 3: 5, 4: 4, 5: 4}", "by_players: {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}")
    (folder / "setup.yaml").write_text(setup)
    six = _cells(folder, tmp_path / "out", "--players", "6")[6]
    sizes = _sizes(six)
    assert (sizes["clocks"], sizes["fuses"], sizes["hand"], sizes["box"]) == ("open", "3", "3 each", "open")
    events = {e["name"]: e for e in six["events"]}
    assert set(events) == set(HANABI_EVENTS)
    assert events["player 1 holds a 5"]["exact"] == pytest.approx(1 - comb(45, 3) / comb(50, 3), abs=1e-12)
    skipped = [f["step"] for f in six["findings"] if f["step"].startswith("step ")]
    assert len(skipped) == 1 and skipped[0].startswith("step 1 "), six["findings"]  # only the clock tokens' take
