"""The setup language on a small made-up game: every step kind, counts by player count, and loader errors."""

from __future__ import annotations

import json
from pathlib import Path

from punchboard.cli import main

GAME = """\
id: tiny
title: Tiny
players: {min: 1, max: 5}
setup: setup.yaml
components: [deck.yaml, visitors.yaml]
"""

DECK = """\
id: deck
kind: deck
size: poker
layout: base/card
fields: [type, team, value]
cards:
  - {name: Knight, type: knight, team: red, count: 2}
  - {name: Knight, type: knight, team: blue, count: 2}
  - {name: Knight, type: knight, team: green, count: 2}
  - {name: Scissors, type: scissors, team: red}
  - {name: Scissors, type: scissors, team: blue}
  - {name: Scissors, type: scissors, team: green}
  - range: {field: value, from: 1, to: 20}
    type: number
"""

VISITORS = """\
id: visitors
kind: tokens
size: 20mm
layout: base/card
fields: [colour]
tokens:
  - range: {field: colour, from: 1, to: 6}
    count: 2
"""

SETUP = """\
variants:
  - id: standard
    players: {min: 2, max: 4}
    zones:
      bag: {exactly: 6}
      conveyor: {capacity: players}
    steps:
      - say: give each player 2 knights of one team
        give: {component: deck, where: "type == 'knight'", to: team, count: 2, same: team, distinct: true}
      - say: and the scissors of that team
        give: {component: deck, where: "type == 'scissors'", to: reserve, count: 1, match: {field: team, zone: team}}
      - take: {component: deck, where: "type == 'number'", to: numbers}
      - shuffle: {zone: numbers}
      - say: deal by player count
        deal: {from: numbers, to: hand, count: {by_players: {2: 8, 3: 6, 4: 5}}}
      - say: draw 3 keep 1
        draw_keep: {from: numbers, to: bonus, draw: 3, keep: 1}
      - say: one visitor of each colour in the bag
        place: {component: visitors, into: [bag], each: 6, distinct: colour}
      - say: two visitors on the conveyor
        take: {component: visitors, count: 3, to: conveyor}
    expect:
      - {zone: hand, equal: true}
      - {zone: bonus, size: 1}
      - {zone: team, has: "type == 'knight'"}
"""


def _game(tmp_path: Path, setup: str = SETUP) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    for name, text in (("game.yaml", GAME), ("deck.yaml", DECK), ("visitors.yaml", VISITORS), ("setup.yaml", setup)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _results(tmp_path: Path, capsys, folder: Path) -> tuple[int, dict]:  # type: ignore[no-untyped-def]
    code = main(["verify", str(folder), "--json", "--trials", "0", "--out", str(tmp_path / "out")])
    return code, {(r["variant"], r["players"]): r for r in json.loads(capsys.readouterr().out)}


def test_every_step_kind(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, results = _results(tmp_path, capsys, _game(tmp_path))
    # 3 teams: a fourth player cannot get a team of their own; 20 numbers: 4 × 5 + 4 × 3 drawn is too many
    assert {k: r["status"] for k, r in results.items() if k[1]} == {
        ("standard", 2): "fail", ("standard", 3): "fail", ("standard", 4): "fail"}
    def shortfalls(n: int) -> dict[str, list[tuple[int, int]]]:
        out: dict[str, list[tuple[int, int]]] = {}
        for f in results[("standard", n)]["findings"]:
            out.setdefault(f["step"], []).append((f["need"], f["have"]))
        return out

    # conveyor capacity = players: 3 visitors overflow it at 2 players only
    assert shortfalls(2) == {'step 8 "two visitors on the conveyor"': [(3, 2)]}
    # 3 players: 18 of 20 numbers dealt; players draw in turn from what is left (2, then 1, then 0)
    assert shortfalls(3)['step 6 "draw 3 keep 1"'] == [(3, 2), (3, 1), (3, 0)]
    assert 'step 1 "give each player 2 knights of one team"' not in shortfalls(3)
    # 4 players: three teams for four players, said in sets; the missing scissors and the empty team follow from it
    four = shortfalls(4)
    give = 'step 1 "give each player 2 knights of one team"'
    assert four[give] == [(4, 3)]
    assert four['step 2 "and the scissors of that team"'] == [(4, 3)]
    assert four["expect team"] == [(1, 0)]
    by_step = {f["step"]: f for f in results[("standard", 4)]["findings"]}
    assert by_step[give]["message"].startswith(f"{give}: need 4 team sets, have 3 (short by 1)")
    assert by_step[give]["under"] == ""
    assert by_step['step 2 "and the scissors of that team"']["under"] == give
    assert by_step["expect team"]["under"] == give
    assert code == 1


def test_rulebook_gaps_warn_instead_of_guessing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    setup = SETUP.replace("{2: 8, 3: 6, 4: 5}", "{3: 6}").replace("count: 3, to: conveyor", "count: 2, to: conveyor")
    setup = setup.replace("players: {min: 2, max: 4}", "players: [2, 3]")
    code, results = _results(tmp_path, capsys, _game(tmp_path, setup))
    two = results[("standard", 2)]
    assert two["status"] == "warn"
    assert any("left open by the rulebook: no value for 2 players" in f["message"] for f in two["findings"])
    assert results[("standard", 3)]["status"] == "fail"  # draw 3 keep 1 runs dry


def test_bad_setup_is_reported_with_positions(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    setup = SETUP.replace("shuffle: {zone: numbers}", "shufle: {zone: numbers}")
    assert main(["check", str(_game(tmp_path, setup))]) == 2
    err = capsys.readouterr().err
    assert "setup.yaml:13:9: a step needs exactly one kind" in err and "did you mean 'shuffle'" in err


def test_unknown_names_zones_and_components(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    setup = (SETUP.replace("from: numbers, to: hand", "from: numbrs, to: hand")
             .replace("component: visitors, into", "component: visitor, into")
             .replace("count: 2, same: team", "count: players + extra, same: team"))
    assert main(["check", str(_game(tmp_path, setup))]) == 2
    err = capsys.readouterr().err
    assert "zone 'numbrs' is empty here" in err and "did you mean 'numbers'" in err
    assert "unknown component 'visitor' (did you mean 'visitors'?)" in err
    assert "unknown name 'extra'" in err
    assert all(line.startswith(str(tmp_path / "tiny" / "setup.yaml")) or "setup.yaml:" in line for line in err.splitlines())
