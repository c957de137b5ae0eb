"""Fuzzing the command line's own entry point: any game, CSV, layout or setup ends in exit 0 or 2, never a crash.

Each example writes a small game into a fresh folder, breaks one of its files (YAML structure,
a CSV's cells, a layout's elements, a setup's steps) and runs ``punchboard check`` through
``punchboard.cli.main`` — the function the console script calls — so an exception anywhere
would show as exit 3 with a saved traceback. Exit 2 must come with located problems only.
Games that pass ``check`` are then built: ``check`` rejects everything ``build`` would
(paper-dependent problems aside, which ``build`` reports the same located way).
"""

from __future__ import annotations

import io
import re
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from punchboard.cli import main
from tests.yaml_mutation import mutate, paths

LOCATED = re.compile(r"^\S[^:]*:\d+:\d+: \S")
FILES = {
    "game.yaml": "id: mini\ntitle: Mini\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml, chits.yaml]\nsetup: setup.yaml\n",
    "cards.yaml": "id: cards\nkind: deck\nsize: poker\nlayout: mini/card\nback: {layout: base/card}\nfields: [value, text]\ncsv: cards.csv\n",
    "cards.csv": "name,value,count,text\nOne,1,2,The first\nTwo,2,1,The second\n",
    "chits.yaml": "id: chits\nkind: tokens\nsize: {width: 20mm, height: 20mm}\nlayout: base/card\ntokens:\n  - {name: Chit, count: 4}\n",
    "layouts/mini/card.yaml": (
        "extends: base/card\nelements:\n"
        "  - {id: big, type: text, x: 0, y: 40%, width: 100%, height: 20mm, text: '{value}', size: 24pt, align: center}\n"
        "  - {id: dot, type: ellipse, x: 40%, y: 70%, width: 8mm, height: 8mm, fill: '#aa3333', when: 'value > 1'}\n"
    ),
    "setup.yaml": (
        "variants:\n  - id: standard\n    players: {min: 2, max: 4}\n    steps:\n"
        "      - take: {component: cards, to: deck}\n      - deal: {from: deck, to: hand, count: 1}\n"
    ),
}
YAML_TARGETS = ["game.yaml", "cards.yaml", "chits.yaml", "layouts/mini/card.yaml", "setup.yaml"]
KEYS = ["id", "kind", "size", "layout", "back", "fields", "count", "range", "copies", "csv", "elements", "type",
        "text", "src", "font", "when", "x", "y", "width", "height", "fill", "extends", "players", "variants",
        "steps", "deal", "take", "from", "to", "where", "min", "max", "<<", "size", "leading", "points"]
TRICKY = ["poker", "20mm", "-1mm", "0mm", "0pt", "50%", "nan%", "{value}", "{nope}", "base/card", "../x",
          "/etc/passwd", "value > 3", "value is 1", "value ==", "#fff", "#12345", "1e999", "players * 2",
          "x" * 300, "none", ".inf", "9" * 120, "art.png", "fancy.ttf", "a.svg"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.sampled_from([10**40, -(10**30), 2**63]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8), st.sampled_from(TRICKY),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
CSV_CELLS = st.one_of(
    st.sampled_from(["", "1", "0", "-3", "2.5", "nan", "inf", "1e999", "true", "9" * 200, '"', '""', "a,b", "\x00",
                     "{value}", "é", " 4 ", "\r"]),
    st.text(max_size=6),
)
FUZZ = settings(max_examples=12, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _write(folder: Path, changes: dict[str, str | bytes]) -> None:
    for rel, text in {**FILES, **changes}.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


def _check_then_build(changes: dict[str, str | bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "game"
        _write(folder, changes)
        code, err = _run(["check", str(folder)])
        assert code in (0, 2), err
        lines = err.splitlines()
        if code == 2:
            assert lines and all(LOCATED.match(line) for line in lines), err
            return
        assert all(line.startswith("warning: ") for line in lines), err  # a valid game may still have preflight findings
        code, err = _run(["build", str(folder), "--out", str(Path(tmp) / "out"), "--quiet"])
        assert code == 0 or (code == 2 and all(LOCATED.match(line) for line in err.splitlines())), err
        warnings_only = all(line.startswith("warning: ") for line in err.splitlines())
        assert code == 2 or warnings_only, err


def _dump(data: Any) -> str:
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, ValueError, OverflowError):  # hypothesis made something YAML cannot write
        return "{}\n"


@FUZZ
@given(target=st.sampled_from(YAML_TARGETS), where=st.integers(min_value=0), op=st.sampled_from(["replace", "delete", "add"]),
       value=values, key=st.sampled_from(KEYS))
def test_yaml_structure_fuzz_exits_0_or_2(target: str, where: int, op: str, value: Any, key: str) -> None:
    data = yaml.safe_load(FILES[target])
    places = paths(data)
    _check_then_build({target: _dump(mutate(data, places[where % len(places)], op, value, key))})


@FUZZ
@given(rows=st.lists(st.lists(CSV_CELLS, min_size=0, max_size=5), min_size=0, max_size=4),
       header=st.sampled_from(["name,value,count,text", "name,value,count", "count,count", "name,,text", "", "value"]),
       separator=st.sampled_from([",", ";", "\t"]))
def test_csv_fuzz_exits_0_or_2(rows: list[list[str]], header: str, separator: str) -> None:
    text = header + "\n" + "\n".join(separator.join(row) for row in rows) + "\n"
    _check_then_build({"cards.csv": text})


ELEMENT_KEYS = ["id", "type", "x", "y", "width", "height", "text", "size", "min_size", "leading", "font", "when",
                "fill", "stroke", "stroke_width", "radius", "opacity", "points", "src", "align", "box", "remove", "cap"]
element_values = st.one_of(scalars, st.lists(st.lists(scalars, max_size=2), max_size=3))


@FUZZ
@given(elements=st.lists(st.dictionaries(st.sampled_from(ELEMENT_KEYS), element_values, max_size=5), max_size=3),
       element_type=st.sampled_from(["rect", "ellipse", "line", "polygon", "text", "image", "icon", "nope"]))
def test_layout_fuzz_exits_0_or_2(elements: list[dict[str, Any]], element_type: str) -> None:
    for element in elements:
        element.setdefault("type", element_type)
    _check_then_build({"layouts/mini/card.yaml": _dump({"extends": "base/card", "elements": elements})})


STEP_KINDS = ["take", "remove", "shuffle", "deal", "give", "place", "draw_keep", "seat", "expect", "nope"]
STEP_KEYS = ["component", "from", "to", "count", "where", "zone", "each", "into", "evenly", "extra", "remainder",
             "same", "distinct", "by_players", "when", "say"]


@FUZZ
@given(steps=st.lists(st.dictionaries(st.sampled_from(STEP_KINDS), st.dictionaries(st.sampled_from(STEP_KEYS), values, max_size=4), min_size=1, max_size=2), max_size=3),
       players=st.one_of(st.fixed_dictionaries({"min": scalars, "max": scalars}), st.lists(scalars, max_size=3), scalars))
def test_setup_fuzz_exits_0_or_2(steps: list[dict[str, Any]], players: Any) -> None:
    setup = {"variants": [{"id": "standard", "players": players, "steps": steps}]}
    _check_then_build({"setup.yaml": _dump(setup)})
