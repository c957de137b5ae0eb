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
