from __future__ import annotations

import pytest

from punchboard.spec.expressions import ExpressionError, evaluate, names


@pytest.mark.parametrize(
    ("source", "variables", "expected"),
    [
        ("players * 2 + 1", {"players": 4}, 9),
        ("84 // (players + 1)", {"players": 5}, 14),
        ("84 % (players + 1)", {"players": 5}, 0),
        ("min(players, 4)", {"players": 6}, 4),
        ("ceil(players / 2)", {"players": 5}, 3),
        ("8 if players == 2 else 7 if players == 3 else 6", {"players": 3}, 7),
        ("kind == 'number' and value > 6", {"kind": "number", "value": 7}, True),
        ("value in (1, 2)", {"value": 2}, True),
        ("not text", {"text": ""}, True),
    ],
)
def test_evaluates(source, variables, expected):
    assert evaluate(source, variables) == expected


def test_missing_field_is_unset_in_lenient_conditions():
    assert evaluate("suit == 'Steam'", {}, lenient=True) is False
    assert not evaluate("text", {}, lenient=True)
    assert evaluate("suit != 'Steam'", {}, lenient=True) is True


def test_unknown_name_is_an_error_when_strict():
    with pytest.raises(ExpressionError, match="unknown name 'player'"):
        evaluate("player * 2", {"players": 2})


@pytest.mark.parametrize(
    "source",
    [
        "__import__('os').system('true')",
        "players.__class__",
        "[x for x in range(10)]",
        "lambda: 1",
        "open('x')",
        "2 ** 1000000",
        "1 +",
        "(" * 60 + "1" + " + 1)" * 60,
    ],
)
def test_rejects_unsafe_or_malformed(source):
    with pytest.raises(ExpressionError):
        evaluate(source, {"players": 2})


def test_names_ignores_function_names():
    assert names("min(players, seats) + 1") == {"players", "seats"}


# Remembered results (expressions._RESULTS): a result is reused only for the same values of the same types.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from punchboard.spec import expressions  # noqa: E402

_VALUES = st.one_of(st.integers(-3, 3), st.booleans(), st.floats(-3, 3, allow_nan=False), st.sampled_from(["a", "b", ""]),
                    st.none(), st.just(-0.0), st.just(0.0))
_SOURCES = ["x + 1", "x == 1", "x * 2", "int(x) if x else 0", "x if y else 2", "x < y", "x and y", "not x", "x / 2 if x else 0",
            "max(x, 1)", "abs(x)"]


def _fresh(source: str, env: dict[str, object], lenient: bool) -> object:
    tree = expressions.parse(source)
    try:
        return ("ok", expressions._eval(tree, env, source, lenient))
    except Exception as exc:  # noqa: BLE001 - compared by kind
        return ("error", type(exc).__name__)


def _remembered(source: str, env: dict[str, object], lenient: bool) -> object:
    try:
        return ("ok", expressions.evaluate(source, env, lenient=lenient))
    except Exception as exc:  # noqa: BLE001
        return ("error", type(exc).__name__ if not isinstance(exc, expressions.ExpressionError) else "error")


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and repr(a) == repr(b)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SOURCES), _VALUES, _VALUES, st.booleans(), st.booleans()), min_size=1, max_size=30))
def test_remembered_results_equal_a_fresh_evaluation(calls: list[tuple[str, object, object, bool, bool]]):
    for source, x, y, with_y, lenient in calls:
        env = {"x": x, **({"y": y} if with_y else {})}
        first = _remembered(source, env, lenient)
        second = _remembered(source, env, lenient)  # now from memory, when it was remembered
        fresh = _fresh(source, env, lenient)
        assert first[0] == second[0] == ("ok" if fresh[0] == "ok" else "error")
        if fresh[0] == "ok":
            assert _same(first[1], fresh[1]) and _same(second[1], fresh[1]), (source, env, first, second, fresh)


def test_equal_values_of_other_types_are_not_one_entry():
    assert expressions.evaluate("x * 2", {"x": 1}) == 2
    assert expressions.evaluate("x * 2", {"x": True}) == 2 and type(expressions.evaluate("x * 2", {"x": 1.0})) is float
    assert repr(expressions.evaluate("x * 1", {"x": 0.0})) == "0.0"
    assert repr(expressions.evaluate("x * 1", {"x": -0.0})) == "-0.0"
