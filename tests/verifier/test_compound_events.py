"""Events over unions ("0 or 3 red": any_of) and k of one kind ("2 of one colour": of_a_kind), on any, every,
the first or a named player: exact figures worked out by hand here, through the CLI (issue #20, item 5).
The brute-force oracle (tests/verifier/test_oracle.py) holds them to enumeration over generated games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.verifier.test_constructions import check_error, event, verify, write_game

COLOURS = ("cards:\n  - {name: Red, colour: red, count: 3}\n  - {name: Blue, colour: blue, count: 2}\n"
           "  - {name: Green, colour: green}\n")
SETUP = """\
variants:
  - id: standard
    players: [2]
    steps:
      - take: {component: cards, to: deck}
      - shuffle: {zone: deck}
      - deal: {from: deck, to: hand, count: 3}
    events:
      - name: player 1 holds no red or all red
        zone: hand
        who: first
        any_of:
          - {where: "colour == 'red'", max: 0}
          - {where: "colour == 'red'", min: 3}
      - {name: player 1 holds 2 of one colour, zone: hand, of_a_kind: colour, min: 2, who: first}
      - {name: player 2 holds 2 of one colour, zone: hand, of_a_kind: colour, min: 2, who: 2}
      - {name: a player holds 3 of one colour, zone: hand, of_a_kind: colour, min: 3}
      - {name: every player holds 2 or more of one colour, zone: hand, of_a_kind: colour, min: 2, who: every}
      - {name: player 1 holds a pair besides red, zone: hand, of_a_kind: colour, where: "colour != 'red'", min: 2, who: first}
"""


@pytest.mark.parametrize("seed", ["1", "5"])
def test_unions_and_k_of_one_kind_are_exact(tmp_path: Path, seed: str) -> None:
    folder = write_game(tmp_path, SETUP, {"cards": COLOURS}, (2, 2))
    code, results = verify(tmp_path, folder, "--seed", seed, "--trials", "4000", "--cross-check")
    # 3 of 6 cards (3 red, 2 blue, 1 green): C(6,3) = 20 hands
    truth = {
        "player 1 holds no red or all red": 2 / 20,  # 1 hand with no red + 1 all red
        "player 1 holds 2 of one colour": 14 / 20,  # all different: 3·2·1 = 6 hands
        "player 2 holds 2 of one colour": 14 / 20,
        "a player holds 3 of one colour": 2 / 20,  # all red, for player 1 or player 2 (not both)
        # player 1 needs a pair (14 hands), but red, red, blue (6 of them) leaves player 2 all different
        "every player holds 2 or more of one colour": 8 / 20,
        # among blue and green only: a blue pair (C(2,2)·C(4,1) = 4 hands)
        "player 1 holds a pair besides red": 4 / 20,
    }
    for name, value in truth.items():
        stat = event(results, 2, name)
        assert stat["exact_kind"] == "exact" and stat["exact"] == pytest.approx(value, abs=1e-12), (name, stat)
        assert stat["agrees"], stat
    assert code == 0


def test_every_player_pair_by_enumeration() -> None:
    # the figure above for "every player", counted by listing the 20 ways to deal player 1 (player 2 gets the rest)
    from itertools import combinations
    cards = ["r", "r", "r", "b", "b", "g"]
    good = 0
    for hand in combinations(range(6), 3):
        mine = [cards[i] for i in hand]
        theirs = [cards[i] for i in range(6) if i not in hand]
        good += max(mine.count(c) for c in mine) >= 2 and max(theirs.count(c) for c in theirs) >= 2
    assert good == 8


@pytest.mark.parametrize(("event_text", "words"), [
    ('{name: e, zone: hand, where: "colour == \'red\'", any_of: [{where: "colour == \'blue\'"}]}',
     ["setup.yaml:9:", "where: beside any_of:", "move it into the terms"]),
    ('{name: e, zone: hand, min: 2, any_of: [{where: "colour == \'blue\'"}]}', ["min: beside any_of:"]),
    ('{name: e, zone: hand, of_a_kind: color, min: 2}', ["unknown field 'color' (did you mean 'colour'?)"]),
    ("{name: e, zone: hand, min: 2}", ["an event needs where:", "any_of:", "of_a_kind: FIELD"]),
    ('{name: e, zone: hand, any_of: [{where: "colour == \'blue\'", min: 3, max: 1}]}',
     ["any_of term min 3 is more than max 1"]),
    ("{name: e, zone: hand, any_of: []}", ["any_of must have at least 1 entries"]),
])
def test_bad_compound_events_are_located_errors(tmp_path: Path, event_text: str, words: list[str]) -> None:
    setup = SETUP.split("    events:\n")[0] + "    events:\n      - " + event_text + "\n"
    folder = write_game(tmp_path, setup, {"cards": COLOURS}, (2, 2))
    stderr = check_error(folder)
    for word in words:
        assert word in stderr, (word, stderr)
