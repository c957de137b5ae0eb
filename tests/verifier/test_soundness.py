"""Soundness of the verifier: probabilities over the whole random setup, and no crashes on gaps.

Each game here is a small made-up game written in tmp folders and run through the CLI as a subprocess.
Expected probabilities are computed by hand in the comments, not by the verifier's own code.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from tests.conftest import run_cli

# Love Letter (2019): 21 cards, 6 Guards, 1 Princess.
LETTERS_GAME = """\
id: letters
title: Letters
players: {min: 2, max: 6}
setup: setup.yaml
components: [deck.yaml]
"""

LETTERS_DECK = """\
id: deck
kind: deck
size: poker
layout: base/card
fields: [value]
cards:
  - {name: Spy, value: 0, count: 2}
  - {name: Guard, value: 1, count: 6}
  - {name: Priest, value: 2, count: 2}
  - {name: Baron, value: 3, count: 2}
  - {name: Handmaid, value: 4, count: 2}
  - {name: Prince, value: 5, count: 2}
  - {name: Chancellor, value: 6, count: 2}
  - {name: King, value: 7}
  - {name: Countess, value: 8}
  - {name: Princess, value: 9}
"""

REMOVE_THEN_DEAL = """\
variants:
  - id: standard
    players: {min: 2, max: 6}
    steps:
      - take: {component: deck, to: deck}
      - shuffle: {zone: deck}
      - say: remove the top card face down
        remove: {from: deck, count: 1, face: down}
      - deal: {from: deck, to: hand, count: 1}
    events:
      - {name: player 1 is dealt the Princess, zone: hand, where: "name == 'Princess'", who: first}
      - {name: player 1 is dealt a Guard, zone: hand, where: "name == 'Guard'", who: first}
      - {name: some player is dealt the Princess, zone: hand, where: "name == 'Princess'"}
"""


def write_game(tmp_path: Path, setup: str, *, game: str = LETTERS_GAME, deck: str = LETTERS_DECK) -> Path:
    folder = tmp_path / "letters"
    folder.mkdir(exist_ok=True)
    for name, text in (("game.yaml", game), ("deck.yaml", deck), ("setup.yaml", setup)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def verify_json(tmp_path: Path, folder: Path, *args: str) -> tuple[int, list[dict], str]:
    done = run_cli("verify", str(folder), "--json", "--out", str(tmp_path / "out"), *args)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else [], done.stderr


def events_by_cell(results: list[dict]) -> dict[tuple[int, str], dict]:
    return {(r["players"], e["name"]): e for r in results if r["players"] for e in r["events"]}


@pytest.mark.parametrize("seed", ["1", "7"])
def test_a_random_removal_before_the_deal_is_part_of_the_probability(tmp_path: Path, seed: str) -> None:
    folder = write_game(tmp_path, REMOVE_THEN_DEAL)
    code, results, _ = verify_json(tmp_path, folder, "--seed", seed, "--trials", "3000", "--cross-check")
    events = events_by_cell(results)
    for players in range(2, 7):
        # the removed card is as likely to be the Princess as player 1's card is: 1/21 whatever the count
        assert events[(players, "player 1 is dealt the Princess")]["exact"] == pytest.approx(1 / 21, abs=1e-12)
        assert events[(players, "player 1 is dealt a Guard")]["exact"] == pytest.approx(6 / 21, abs=1e-12)
        # some one of N players holds it: N chances in 21
        assert events[(players, "some player is dealt the Princess")]["exact"] == pytest.approx(players / 21, abs=1e-12)
        for name in ("player 1 is dealt the Princess", "player 1 is dealt a Guard", "some player is dealt the Princess"):
            stat = events[(players, name)]
            assert stat["exact_kind"] == "exact"
            low, high = stat["interval"]
            assert low <= stat["exact"] <= high and stat["agrees"], stat
    assert code == 0


def test_monte_carlo_reruns_the_whole_setup(tmp_path: Path) -> None:
    # Without the removal re-run in each trial, the Guard estimate would sit on the one leftover deck's value
    # (5/20 or 6/20); re-running everything, 8000 trials land near 6/21 = 0.2857 for every seed.
    folder = write_game(tmp_path, REMOVE_THEN_DEAL)
    estimates = []
    for seed in ("1", "7", "11"):
        _, results, _ = verify_json(tmp_path, folder, "--seed", seed, "--trials", "8000", "--players", "2",
                                    "--cross-check")
        stat = events_by_cell(results)[(2, "player 1 is dealt a Guard")]
        estimates.append(stat["estimate"])
        assert abs(stat["estimate"] - 6 / 21) < 0.012
    assert len(set(estimates)) == 3  # three independent runs, not one replayed deck


def test_face_up_burns_and_two_deal_rounds(tmp_path: Path) -> None:
    # 2 players: shuffle 21, burn 1 face down, burn 3 face up, deal 1 each, then deal 1 more each.
    # Player 1 holds 2 of the 21 positions: P(no Guard) = C(15,2)/C(21,2) = 105/210 = 1/2;
    # P(both hands together hold the Princess) = 4/21; P(player 1 holds 2 Guards) = C(6,2)/C(21,2) = 15/210.
    setup = """\
variants:
  - id: standard
    players: {min: 2, max: 2}
    steps:
      - take: {component: deck, to: deck}
      - shuffle: {zone: deck}
      - remove: {from: deck, count: 1, face: down}
      - say: with 2 players, remove 3 more cards face up
        remove: {from: deck, count: 3, face: up}
      - deal: {from: deck, to: hand, count: 1}
      - deal: {from: deck, to: hand, count: 1}
    events:
      - {name: no Guard for player 1, zone: hand, where: "name == 'Guard'", max: 0, who: first}
      - {name: the Princess is in a hand, zone: hand, where: "name == 'Princess'"}
      - {name: two Guards for player 1, zone: hand, where: "name == 'Guard'", min: 2, who: first}
"""
    folder = write_game(tmp_path, setup)
    code, results, _ = verify_json(tmp_path, folder, "--trials", "4000", "--cross-check")
    events = events_by_cell(results)
    expected = {
        "no Guard for player 1": Fraction(comb(15, 2), comb(21, 2)),
        "the Princess is in a hand": Fraction(4, 21),
        "two Guards for player 1": Fraction(comb(6, 2), comb(21, 2)),
    }
    for name, value in expected.items():
        stat = events[(2, name)]
        assert stat["exact"] == pytest.approx(float(value), abs=1e-12), name
        assert stat["interval"][0] <= stat["exact"] <= stat["interval"][1]
    removed = [f for r in results if r["players"] == 2 for f in r["findings"]]
    assert code == 0 and not [f for f in removed if f["severity"] == "fail"]


def test_a_content_dependent_step_after_the_shuffle_is_an_estimate_not_an_exact_figure(tmp_path: Path) -> None:
    # Removing every Guard left in the deck after player hands are dealt changes nothing, but taking the
    # Guards out of a shuffled deck *before* the deal by looking at it makes what is left depend on the shuffle.
    setup = """\
variants:
  - id: standard
    players: {min: 2, max: 2}
    steps:
      - take: {component: deck, to: deck}
      - shuffle: {zone: deck}
      - take: {from: deck, count: 5, to: offer}
      - remove: {from: offer, where: "name == 'Guard'"}
      - take: {from: offer, to: deck}
      - deal: {from: deck, to: hand, count: 2}
    events:
      - {name: player 1 gets the Princess, zone: hand, where: "name == 'Princess'", who: first}
"""
    folder = write_game(tmp_path, setup)
    code, results, _ = verify_json(tmp_path, folder, "--trials", "500")
    stat = events_by_cell(results)[(2, "player 1 gets the Princess")]
    assert stat["exact"] is None and stat["exact_kind"] == "estimate"
    assert "estimate" in stat["why"]


def test_zone_count_table_missing_a_player_count_warns_instead_of_crashing(tmp_path: Path) -> None:
    setup = """\
variants:
  - id: standard
    players: {min: 2, max: 6}
    zones:
      aside: {exactly: {by_players: {2: 1, 3: 1, 4: 1, 5: 1}}}
      table: {capacity: {by_players: {2: 3, 3: 3, 4: 3, 5: 3}}}
    steps:
      - take: {component: deck, to: deck}
      - shuffle: {zone: deck}
      - take: {from: deck, count: 1, to: aside}
      - take: {from: deck, count: 1, to: table}
"""
    folder = write_game(tmp_path, setup)
    code, results, stderr = verify_json(tmp_path, folder, "--trials", "0")
    six = next(r for r in results if r["players"] == 6)
    assert six["status"] == "warn", six
    assert sum("left open by the rulebook" in f["message"] for f in six["findings"]) == 2
    assert all(r["status"] == "pass" for r in results if r["players"] and r["players"] < 6)
    assert code == 0
    check = run_cli("check", str(folder))
    assert check.returncode == 0 and "Traceback" not in check.stderr
    text = check.stdout + check.stderr
    assert "setup.yaml:5:" in text and "6 players" in text and "no entry" in text


@pytest.mark.parametrize("set_aside", ["take: {from: deck, count: 1, to: aside}", "remove: {from: deck, count: 1}"])
def test_first_player_event_on_a_deal_that_dealt_nothing_is_a_warning(tmp_path: Path, set_aside: str) -> None:
    deck = LETTERS_DECK.split("cards:")[0] + "cards:\n  - {name: Guard, value: 1, count: 1}\n"
    setup = f"""\
variants:
  - id: standard
    players: {{min: 2, max: 3}}
    steps:
      - take: {{component: deck, to: deck}}
      - {set_aside}
      - deal: {{from: deck, to: hand, count: 1}}
    events:
      - {{name: player 1 holds a Guard, zone: hand, where: "name == 'Guard'", who: first}}
"""
    folder = write_game(tmp_path, setup, deck=deck)
    code, results, _ = verify_json(tmp_path, folder, "--trials", "100")
    assert {r["players"] for r in results if r["players"]} == {2, 3}
    for result in (r for r in results if r["players"]):
        messages = [f["message"] for f in result["findings"]]
        assert any("player 1 holds a Guard" in m and "empty" in m for m in messages), messages
        assert result["status"] == "fail"  # the deal is short: need 2 (3), have 0
    assert code == 1
    assert (tmp_path / "out" / "letters" / "verify.md").is_file()


def test_an_event_that_matches_no_card_warns_of_a_likely_typo(tmp_path: Path) -> None:
    setup = REMOVE_THEN_DEAL.replace("name == 'Princess'\", who: first", "name == 'Princes'\", who: first")
    folder = write_game(tmp_path, setup)
    code, results, _ = verify_json(tmp_path, folder, "--trials", "100", "--players", "2")
    messages = [f["message"] for r in results for f in r["findings"]]
    assert any("player 1 is dealt the Princess" in m and "matches no piece" in m for m in messages), messages
    assert code == 0


def test_open_explains_only_the_counts_it_names(tmp_path: Path) -> None:
    # raising the maximum from 4 to 5: the reason given for 2 players must not be quoted for 5
    setup = """\
variants:
  - id: standard
    players: {min: 2, max: 5}
    steps:
      - take: {component: deck, to: deck}
      - deal: {from: deck, to: hand, count: {by_players: {3: 2, 4: 2}, open: {2: "the 2-player rules are in an expansion"}}}
"""
    folder = write_game(tmp_path, setup)
    code, results, _ = verify_json(tmp_path, folder, "--trials", "0")
    by_count = {r["players"]: " ".join(f["message"] for f in r["findings"]) for r in results if r["players"]}
    assert "left open by the rulebook: the 2-player rules are in an expansion" in by_count[2]
    assert "no value for 5 players (the table covers 3, 4)" in by_count[5]
    assert "expansion" not in by_count[5]
    assert by_count[3] == "" and code == 0
    check = run_cli("check", str(folder))
    assert check.returncode == 0
    assert "warning" not in check.stdout
    warnings = [line for line in check.stderr.splitlines() if line.startswith("warning:")]
    about_the_table = [w for w in warnings if "no entry for 5 players" in w]
    assert len(about_the_table) == 1 and "setup.yaml:6:" in about_the_table[0]
    # and, separately, game.yaml's 6 players that no variant covers
    assert len(warnings) == 2 and any("variants cover 2–5" in w for w in warnings), warnings


@pytest.mark.parametrize(("open_text", "message"), [
    ('"no number for 2 players"', 'write open: {2: "no number for 2 players"}'),
    ('{3: "why"}', "open names 3 players, but the table gives a value for 3"),
])
def test_open_must_name_missing_counts(tmp_path: Path, open_text: str, message: str) -> None:
    setup = f"""\
variants:
  - id: standard
    players: {{min: 2, max: 3}}
    steps:
      - take: {{component: deck, to: deck}}
      - deal: {{from: deck, to: hand, count: {{by_players: {{3: 2}}, open: {open_text}}}}}
"""
    check = run_cli("check", str(write_game(tmp_path, setup)))
    assert check.returncode == 2 and "Traceback" not in check.stderr
    assert "setup.yaml:6:" in check.stderr and message in check.stderr
