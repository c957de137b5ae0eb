"""Quantifiers over choices (issue #20, item 4): a count the rulebook leaves open among values it allows, or
one the players choose, is verified for every value, through the CLI on small games written here.

The rule: a cell fails when any combination of choices fails; every combination passing passes (a value
the rulebook leaves open stays a warning). The outcome never depends on ``--seed``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.verifier.test_constructions import cell, verify, write_game

ROLES = "cards:\n  - {name: Spy, colour: black, count: 4}\n  - {name: Agent, colour: white, count: RES}\n"

SPIES = """\
variants:
  - id: standard
    players: {min: 9, max: 11}
    let:
      spies:
        by_players: {9: 3, 10: 4}
        open: {11: OPEN}
    steps:
      - say: take the spies
        take: {component: roles, where: "name == 'Spy'", count: spies, to: roles}
      - say: take the resistance
        take: {component: roles, where: "name == 'Agent'", count: "players - spies", to: roles}
      - deal: {from: roles, to: hand, count: 1}
"""
CHOICES = '{choices: [3, 4, 5], why: "the rulebook stops at 10 players"}'


def spies_game(tmp_path: Path, resistance: int, open_value: str = CHOICES) -> Path:
    return write_game(tmp_path, SPIES.replace("OPEN", open_value),
                      {"roles": ROLES.replace("RES", str(resistance))}, (9, 11))


def test_an_open_value_whose_every_choice_fails_is_a_failure(tmp_path: Path) -> None:
    # 4 spies and 6 agents: 11 players need 11 cards, so every split is short (the example)
    folder = spies_game(tmp_path, 6)
    code, results = verify(tmp_path, folder)
    eleven = cell(results, 11)
    assert code == 1 and eleven["status"] == "fail"
    assert (cell(results, 9)["status"], cell(results, 10)["status"]) == ("pass", "pass")
    summary = eleven["findings"][0]
    assert summary["step"] == "for every value the rulebook allows for spies (3, 4, 5)"
    assert "fails for every one of the 3: spies = 3, spies = 4, spies = 5" in summary["message"]
    assert "the rulebook stops at 10 players" in summary["message"]
    choices = eleven["choices"]
    assert choices["combinations"] == 3 and choices["passing"] == 0
    assert choices["failing"] == ["spies = 3", "spies = 4", "spies = 5"]
    assert choices["points"][0]["chosen_by"] == "rulebook left open" and choices["points"][0]["values"] == [3, 4, 5]
    # each split's own shortfall, marked with its split: 3 spies need 8 agents of 6
    steps = {(f["step"], f["need"], f["have"]) for f in eleven["findings"]}
    assert ('step 2 "take the resistance" [spies = 3]', 8, 6) in steps
    assert ('step 1 "take the spies" [spies = 5]', 5, 4) in steps


def test_without_choices_an_open_value_stays_a_warning(tmp_path: Path) -> None:
    folder = spies_game(tmp_path, 6, '"the rulebook stops at 10 players"')
    code, results = verify(tmp_path, folder)
    assert code == 0 and cell(results, 11)["status"] == "warn" and cell(results, 11)["choices"] is None


def test_some_choices_fail_the_cell_names_them_and_counts_the_ones_that_pass(tmp_path: Path) -> None:
    # 4 spies and 7 agents: only the 4/7 split seats 11 players
    folder = spies_game(tmp_path, 7)
    code, results = verify(tmp_path, folder)
    eleven = cell(results, 11)
    assert code == 1 and eleven["status"] == "fail"
    assert eleven["choices"]["passing"] == 1 and eleven["choices"]["failing"] == ["spies = 3", "spies = 5"]
    assert "fails for 2 of 3: spies = 3, spies = 5" in eleven["findings"][0]["message"]
    assert "passes for spies = 4" in eleven["findings"][0]["message"]
    assert [o["status"] for o in eleven["choices"]["outcomes"]] == ["fail", "pass", "fail"]
    assert not any("[spies = 4]" in f["step"] for f in eleven["findings"])  # a passing split adds nothing
    # the terminal report and verify.md say the same
    done = run_cli("verify", str(folder), "--out", str(tmp_path / "out"))
    assert done.returncode == 1
    assert "FAIL standard, 11 players, for every value the rulebook allows for spies (3, 4, 5): fails for 2 of 3" \
        in done.stdout
    md = (tmp_path / "out" / "tiny" / "verify.md").read_text(encoding="utf-8")
    assert "## standard, 11 players: fail" in md and "fails for 2 of 3: spies = 3, spies = 5" in md


def test_every_allowed_value_passing_is_still_a_warning_and_a_players_choice_passes(tmp_path: Path) -> None:
    folder = write_game(tmp_path, SPIES.replace("OPEN", '{choices: [4], why: "not in the rulebook"}')
                        .replace("spies:\n", "spies:\n").replace("max: 11", "max: 11"),
                        {"roles": ROLES.replace("RES", "7")}, (9, 11))
    code, results = verify(tmp_path, folder)
    eleven = cell(results, 11)
    assert code == 0 and eleven["status"] == "warn"
    assert "left open by the rulebook; passes for every one of the 1 (spies = 4)" in eleven["findings"][0]["message"]
    chosen = SPIES.replace("by_players: {9: 3, 10: 4}\n        open: {11: OPEN}", "choose: [3, 4]")
    folder = write_game(tmp_path, chosen.replace("min: 9", "min: 8").replace("max: 11", "max: 8"),
                        {"roles": ROLES.replace("RES", "5")}, (8, 8))
    code, results = verify(tmp_path, folder)
    assert code == 0 and cell(results, 8)["status"] == "pass"
    assert cell(results, 8)["choices"]["passing"] == 2
    assert cell(results, 8)["choices"]["points"][0]["chosen_by"] == "players"


REMOVED = """\
variants:
  - id: standard
    players: [2, 3]
    let:
      gone: {choose: [Guard, Priest, Baron], why: "the players set one card aside"}
    steps:
      - take: {component: deck, to: deck}
      - say: set the chosen card aside
        remove: {from: deck, where: "name == gone", count: 1}
      - deal: {from: deck, to: hand, count: {by_players: {2: 2, 3: {choose: [1, 2]}}}}
    expect:
      - {zone: deck, min: 1}
    events:
      - {name: player 1 gets the Baron, zone: hand, where: "name == 'Baron'", who: first}
"""
LOVE = "cards:\n  - {name: Guard, colour: a, count: 3}\n  - {name: Priest, colour: b, count: 2}\n" \
       "  - {name: Baron, colour: c, count: 1}\n"


@pytest.mark.parametrize("seed", ["1", "7"])
def test_every_removed_card_and_every_hand_size_the_players_may_choose(tmp_path: Path, seed: str) -> None:
    folder = write_game(tmp_path, REMOVED, {"deck": LOVE}, (2, 3))
    code, results = verify(tmp_path, folder, "--seed", seed)
    two, three = cell(results, 2), cell(results, 3)
    assert two["status"] == "pass" and two["choices"]["combinations"] == 3
    # 3 players dealt 2 each from the 5 left: one short, whichever card was set aside
    assert code == 1 and three["status"] == "fail" and three["choices"]["combinations"] == 6
    assert three["choices"]["failing"] == ["gone = Guard, step 3 count = 2", "gone = Priest, step 3 count = 2",
                                           "gone = Baron, step 3 count = 2"]
    assert three["findings"][0]["step"] == ("for every combination of gone (Guard, Priest, Baron); "
                                            "step 3 count (1, 2)")
    # one event figure per choice: 2 of the 5 cards left; none when the Baron was set aside
    events = {e["name"]: e["exact"] for e in two["events"]}
    assert events["player 1 gets the Baron [gone = Guard]"] == pytest.approx(2 / 5, abs=1e-12)
    assert events["player 1 gets the Baron [gone = Priest]"] == pytest.approx(2 / 5, abs=1e-12)
    assert events["player 1 gets the Baron [gone = Baron]"] == 0


def test_the_outcome_over_choices_does_not_depend_on_the_seed(tmp_path: Path) -> None:
    folder = spies_game(tmp_path, 7)
    seen = []
    for seed in ("1", "2", "99"):
        done = run_cli("verify", str(folder), "--json", "--seed", seed, "--out", str(tmp_path / "out"))
        data = json.loads(done.stdout)
        seen.append((done.returncode, [(r["players"], r["status"], r["choices"]) for r in data]))
    assert seen[0] == seen[1] == seen[2]
