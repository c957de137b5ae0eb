"""``place`` that would mix values (issue #20, item 1): refused at ``check`` (and ``verify``) at its
``file:LINE:COL`` with the rewrite; the determined forms are accepted and placed as said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from punchboard.cli import main

GAME = "id: tiny\ntitle: Tiny\nplayers: {min: 2, max: 4}\nsetup: setup.yaml\ncomponents: [visitors.yaml, gears.yaml]\n"
VISITORS = ("id: visitors\nkind: tokens\nsize: 20mm\nlayout: base/card\nfields: [colour]\ntokens:\n"
            "  - {colour: red, count: 3}\n  - {colour: blue, count: 3}\n  - {colour: green, count: 3}\n"
            "  - {colour: white, count: 3}\n")
GEARS = ("id: gears\nkind: tokens\nsize: 20mm\nlayout: base/card\nfields: [value]\ntokens:\n"
         "  - range: {field: value, from: 1, to: 4}\n    count: 4\n")


def _game(tmp_path: Path, steps: str) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "visitors.yaml").write_text(VISITORS, encoding="utf-8")
    (folder / "gears.yaml").write_text(GEARS, encoding="utf-8")
    setup = "variants:\n  - id: standard\n    players: {min: 2, max: 4}\n    steps:\n" + steps
    (folder / "setup.yaml").write_text(setup, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("step", "wanted"), [
    # which 3 of the 4 colours go into the bag is not said
    ("      - place: {component: visitors, into: [bag], each: 3, distinct: colour}\n",
     ["setup.yaml:5:16: place would mix values: distinct: colour puts 3 different colour values into bag",
      "have 4 (blue, green, red, white) at 2 players", "where: \"colour in [...]\"", "each: 4"]),
    # tokens 1..N over four Quarters without distinct: which token goes to which Quarter is the box's order
    ('      - place: {component: gears, where: "value <= players", into: [q1, q2, q3, q4], each: players}\n',
     ["setup.yaml:5:16: place would mix values: the 8 pieces it chooses from differ in value (1, 2) at 2 players",
      "into [q1, q2, q3, q4] is not said", "distinct: value", "shuffle them into a zone first"]),
    # 4 of 12 mixed visitors into one bag
    ("      - place: {component: visitors, into: [bag], each: 4}\n",
     ["setup.yaml:5:16: place would mix values: the 12 pieces it chooses from differ in colour"]),
    # only at 4 players does the where: let a fifth value in
    ('      - place: {component: gears, where: "value <= 3 or players == 4", into: [q1], each: 3, distinct: value}\n',
     ["setup.yaml:5:16:", "have 4 (1, 2, 3, 4) at 4 players"]),
])
def test_a_place_that_would_mix_values_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          step: str, wanted: list[str]) -> None:
    folder = _game(tmp_path, step)
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    for words in wanted:
        assert words in err, (words, err)
    assert main(["verify", str(folder), "--out", str(tmp_path / "out")]) == 2  # verify refuses it the same way


def test_determined_places_are_accepted_and_placed_as_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    steps = ('      - place: {component: gears, where: "value <= players", into: [q1, q2, q3, q4], each: players, '
             'distinct: value}\n'
             "      - place: {component: visitors, where: \"colour != 'red'\", into: [bag], each: 3, distinct: colour}\n"
             "      - take: {component: visitors, where: \"colour == 'white'\", to: pool}\n"
             "      - place: {from: pool, into: [side], each: 2}\n"  # from a zone: not judged here
             "      - place: {component: visitors, where: \"colour == 'red'\", into: [top], each: 3}\n")  # alike
    steps += "    expect:\n      - {zone: q1, has: \"value == players\"}\n      - {zone: bag, size: 3}\n"
    folder = _game(tmp_path, steps)
    assert main(["check", str(folder)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["verify", str(folder), "--json", "--out", str(tmp_path / "out")]) == 0
    results = json.loads(capsys.readouterr().out)
    assert {r["status"] for r in results if r["players"]} == {"pass"}
