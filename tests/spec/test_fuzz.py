"""Fuzzing: mutated Steam Court specs and generated expressions never crash.

Every input ends in a loaded game or a clean ``SpecError`` whose problems are
``file:LINE:COL: message``; every expression in a result or an ``ExpressionError``.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from punchboard.plumbing.errors import SpecError
from punchboard.plumbing.paths import COMPONENTS, LAYOUTS
from punchboard.spec import expressions
from punchboard.spec.loader import load_game
from punchboard.spec.model import Game
from punchboard.spec.yamlsource import parse_yaml
from tests.yaml_mutation import mutate, paths

GAME = COMPONENTS / "steam_court"
# Files a mutation may touch: the game, a component, the setup, and a layout copied into the game folder.
TARGETS = ("game.yaml", "gear_tokens.yaml", "setup.yaml", "layouts/steam_court/gear_token.yaml")
KEYS = ["id", "kind", "size", "layout", "back", "fields", "count", "range", "copies", "csv", "elements",
        "type", "text", "src", "font", "when", "x", "width", "fill", "extends", "players", "components",
        "variants", "steps", "deal", "give", "zones", "where", "box", "palette", "min", "max"]
TRICKY = ["poker", "20mm", "-1mm", "0mm", "50%", "{value}", "{nope}", "base/card", "../x", "/etc/passwd",
          "value > 3", "value ==", "#fff", "#12345", "1e999", "steam_court/gear_back", "art.png", "players * 2",
          "x" * 600, "none", "1000000000"]
PROBLEM = re.compile(r"^\S.*:\d+:\d+: \S")

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**12), 10**12), st.floats(allow_nan=True),
    st.text(max_size=12), st.sampled_from(TRICKY),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


def load_document(folder: Path) -> Game | SpecError:
    try:
        return load_game(folder)
    except SpecError as err:
        assert err.problems
        for problem in err.problems:
            assert PROBLEM.match(str(problem)), str(problem)
            assert problem.line >= 1 and problem.col >= 1
        return err


def _game_copy(tmp: Path) -> Path:
    folder = tmp / "steam_court"
    shutil.copytree(GAME, folder)
    (folder / "layouts" / "steam_court").mkdir(parents=True)
    shutil.copy(LAYOUTS / "steam_court" / "gear_token.yaml", folder / "layouts" / "steam_court")
    return folder


@FUZZ
@given(
    target=st.sampled_from(TARGETS),
    where=st.integers(min_value=0),
    op=st.sampled_from(["replace", "delete", "add"]),
    value=values,
    key=st.sampled_from(KEYS) | st.text(max_size=6),
)
def test_mutated_specs_load_or_fail_cleanly(target: str, where: int, op: str, value: Any, key: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _game_copy(Path(tmp))
        file = folder / target
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        places = paths(data)
        data = mutate(data, places[where % len(places)], op, value, key)
        file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        load_document(folder)


@FUZZ
@given(
    target=st.sampled_from(TARGETS),
    cut=st.integers(min_value=0),
    length=st.integers(min_value=0, max_value=20),
    insert=st.text(alphabet=st.sampled_from(list(":-[]{}&*!|>'\"#%@`\t\n ,?") + ["a", "1", "\x00", "é"]), max_size=8),
)
def test_corrupted_yaml_text_loads_or_fails_cleanly(target: str, cut: int, length: int, insert: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _game_copy(Path(tmp))
        file = folder / target
        text = file.read_text(encoding="utf-8")
        at = cut % (len(text) + 1)
        file.write_text(text[:at] + insert + text[at + length :], encoding="utf-8")
        load_document(folder)


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(max_size=200))
def test_any_text_parses_as_yaml_or_fails_cleanly(text: str) -> None:
    try:
        parse_yaml(text, Path("fuzz.yaml"))
    except SpecError as err:
        assert all(PROBLEM.match(str(p)) for p in err.problems)


NAMES = ["value", "kind", "players", "x", "unset_field", "__class__", "true"]
atoms = st.one_of(
    st.integers(-(10**6), 10**6).map(str), st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(NAMES), st.text(alphabet="abc'\"\\", max_size=4).map(repr), st.sampled_from(["9" * 40, "1e308", "[]", "()"]),
)


def _combine(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "==", "<", "in", "and", "or", "if 1 else", "@", "<<"]), inner)
    call = st.tuples(st.sampled_from(["min", "max", "abs", "ceil", "floor", "int", "len", "eval", "open"]), st.lists(inner, max_size=3))
    return st.one_of(
        binary.map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda s: f"not {s}"), inner.map(lambda s: f"-{s}"),
        call.map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        inner.map(lambda s: f"{s}.real"), inner.map(lambda s: f"{s}[0]"), inner.map(lambda s: f"lambda: {s}"),
        st.lists(inner, max_size=3).map(lambda items: f"({', '.join(items)},)"),
    )


expression_sources = st.recursive(atoms, _combine, max_leaves=12) | st.text(max_size=60)
variables = st.fixed_dictionaries({}, optional={
    "value": st.integers(-5, 5) | st.text(max_size=3), "kind": st.sampled_from(["number", "special"]),
    "players": st.integers(1, 12), "x": st.floats(allow_nan=False) | st.none(),
})


@settings(max_examples=400, deadline=None, database=None)
@given(source=expression_sources, env=variables, lenient=st.booleans())
def test_expressions_give_a_result_or_an_expression_error(source: str, env: dict[str, Any], lenient: bool) -> None:
    try:
        expressions.evaluate(source, env, lenient=lenient)
    except expressions.ExpressionError as exc:
        assert str(exc)


def test_runaway_expressions_are_refused_quickly() -> None:
    for source in ["'x' * 10**9", "(1,) * 10**8", "((2**64)**64)**64", "9**9**9", "2**10000", "-" * 300 + "1"]:
        try:
            expressions.evaluate(source, {})
        except expressions.ExpressionError:
            continue
        raise AssertionError(f"{source[:40]!r} was evaluated")
