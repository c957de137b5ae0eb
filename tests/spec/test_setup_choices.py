"""Choices in the setup language (``choose:``, ``open: {N: {choices, why}}``): what ``check`` refuses, each
at its ``file:LINE:COL`` with what was expected, and what it accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.cli import main

GAME = "id: tiny\ntitle: Tiny\nplayers: {min: 2, max: 4}\nsetup: setup.yaml\ncomponents: [deck.yaml]\n"
DECK = "id: deck\nkind: deck\nsize: poker\nlayout: base/card\nfields: [value]\ncards:\n  - {name: Card, value: 1, count: 12}\n"
SETUP = """\
variants:
  - id: standard
    players: {min: 2, max: 4}
    let:
      LET
    steps:
      - take: {component: deck, to: deck}
      - STEP
"""


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], let: str, step: str) -> tuple[int, str]:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    (folder / "setup.yaml").write_text(SETUP.replace("LET", let).replace("STEP", step), encoding="utf-8")
    code = main(["check", str(folder)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("let", "step", "wanted"), [
    ("k: 1", "remove: {from: deck, count: {choose: []}}",
     "setup.yaml:8:46: choose: lists no value; list every value the players may choose, e.g. choose: [3, 4, 5]"),
    ("k: 1", "remove: {from: deck, count: {choose: [1, -1]}}",
     "setup.yaml:8:50: choose: value -1 is below 0: a count must be 0 or more"),
    ("k: 1", "remove: {from: deck, count: {choose: [1, 2.5]}}",
     "setup.yaml:8:50: choose: value 2.5 is not a whole number: a count must be a whole number"),
    ("k: 1", "remove: {from: deck, count: {choose: [2.0]}}",
     "setup.yaml:8:47: choose: value 2.0 is written as a decimal; write 2"),
    ("k: 1", "remove: {from: deck, count: {choose: [two]}}",
     "setup.yaml:8:47: choose: value 'two' is text, but a count's values are whole numbers"),
    ("k: 1", "remove: {from: deck, count: {choose: [1, 2, 1]}}",
     "setup.yaml:8:53: choose: lists 1 twice; list each value once"),
    ("k: 1", "remove: {from: deck, count: {choose: 3}}", "setup.yaml:8:46: choose must be a list, got 3"),
    ("k: 1", "remove: {from: deck, count: {by_players: {2: 1, 3: 1}, open: {4: {choices: [1]}}}}",
     "missing required key 'why'"),
    ("k: 1", "remove: {from: deck, count: {by_players: {2: 1, 3: 1}, open: {4: {choices: [], why: x}}}}",
     "setup.yaml:8:84: choices: lists no value; list every value the rulebook allows"),
    ("k: 1", "remove: {from: deck, count: {by_players: {2: 1, 3: 1}, open: {4: {choices: [1, -2], why: x}}}}",
     "setup.yaml:8:88: choices: value -2 is below 0"),
    ("k: 1", "remove: {from: deck, count: {by_players: {2: 1, 3: {choose: [0.5]}, 4: 1}}}",
     "setup.yaml:8:70: choose: value 0.5 is not a whole number"),
    ("k: 1", "remove: {from: deck, count: {by_players: {2: 1, 3: {choose: [1]}, 4: 1}, open: {3: {choices: [2], why: x}}}}",
     "open names 3 players, but the table gives a value for 3"),
    # a let: value may be any number or text; every count that uses it is checked with every value
    ("k: {choose: [1, 5]}", 'remove: {from: deck, count: "3 - k"}',
     "setup.yaml:8:37: count 3 - k is -2 at 2 players, k = 5: a count must be 0 or more"),
    ("k: {choose: [1, 2]}", 'remove: {from: deck, count: "k / 2"}',
     "setup.yaml:8:37: count k / 2 is 0.5 at 2 players, k = 1: a count must be a whole number; write k // 2"),
    ("k: {choose: [[1], 2]}", "remove: {from: deck, count: k}", "setup.yaml:5:20: choose: value [1] is not a number or text"),
    ("k: {choose: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}",
     "remove: {from: deck, count: {choose: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}}",
     "setup.yaml:5:10: at 2 players the choices make 289 combinations (17 (k) × 17 (step 2 count)); the verifier "
     "runs the setup once for each, at most 256"),
])
def test_bad_choices_are_located_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], let: str, step: str,
                                        wanted: str) -> None:
    code, err = _check(tmp_path, capsys, let, step)
    assert code == 2 and "Traceback" not in err
    assert wanted in err, err
    assert all("setup.yaml:" in line for line in err.strip().splitlines())


def test_choices_check_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    let = 'gone: {choose: [Card, Other], why: "the players set one aside"}\n      k: {choose: [1, 2]}'
    step = ('remove: {from: deck, where: "name == gone", count: {by_players: {2: 1, 3: {choose: [0, 1]}}, '
            'open: {4: {choices: [1, 2], why: "the rulebook stops at 3"}}}}')
    code, err = _check(tmp_path, capsys, let, step)
    assert code == 0, err
    assert "warning" not in err  # a count with choices at 4 players is not a gap in its table
