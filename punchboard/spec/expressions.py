"""A small, safe expression language for conditions and counts.

Used by layouts (``when: "suit == 'Steam'"``) and by setup steps
(``count: "players * 2 + 1"``). Expressions are parsed with :mod:`ast` and
interpreted over a whitelist of node types; nothing is ever passed to
``eval``. Names resolve from the supplied variables; unknown names are
errors, except in conditions where a missing card field is simply unset.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

MAX_LENGTH = 500
MAX_DEPTH = 32
MAX_POWER = 64
MAX_INT_BITS = 1024  # integers beyond ~10**308 are refused: no chain of ** or * can run away
MAX_SEQUENCE = 10_000  # longest text or tuple that * may build

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "ceil": math.ceil,
    "floor": math.floor,
    "int": int,
    "len": len,
}

# The one table of operators: the checker (``parse``) admits exactly these and the evaluator runs them,
# so an expression that passes ``check`` never meets an unknown operator at build time.
_BINARY: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.FloorDiv: ("//", operator.floordiv),
    ast.Mod: ("%", operator.mod),
    ast.Pow: ("**", operator.pow),  # bounded in _eval before it runs
}
_UNARY: dict[type, tuple[str, Callable[[Any], Any]]] = {
    ast.Not: ("not", operator.not_),
    ast.USub: ("-", operator.neg),
    ast.UAdd: ("+", operator.pos),
}
_COMPARE: dict[type, tuple[str, Callable[[Any, Any], bool]]] = {
    ast.Eq: ("==", operator.eq),
    ast.NotEq: ("!=", operator.ne),
    ast.Lt: ("<", operator.lt),
    ast.LtE: ("<=", operator.le),
    ast.Gt: (">", operator.gt),
    ast.GtE: (">=", operator.ge),
    ast.In: ("in", lambda a, b: a in b),
    ast.NotIn: ("not in", lambda a, b: a not in b),
}
_BOOLEAN: dict[type, str] = {ast.And: "and", ast.Or: "or"}
_REFUSED_WORDS = {ast.Is: "is", ast.IsNot: "is not", ast.Invert: "~", ast.MatMult: "@", ast.LShift: "<<",
                  ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
OPERATORS: tuple[str, ...] = tuple(
    dict.fromkeys(word for table in (_BINARY, _UNARY, _COMPARE) for word, _ in table.values())
) + tuple(_BOOLEAN.values())


class ExpressionError(ValueError):
    pass


class _Missing:
    """Stands for a field a card does not have: falsy, equal to nothing."""

    def __bool__(self) -> bool:
        return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Missing)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "unset"


MISSING = _Missing()


@lru_cache(maxsize=4096)
def parse(source: str) -> ast.expr:
    """Parse and check an expression; raises ExpressionError with a readable reason."""
    if not isinstance(source, str):
        raise ExpressionError(f"expected an expression as text, got {source!r}")
    if len(source) > MAX_LENGTH:
        raise ExpressionError(f"expression is longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"malformed expression '{source}': {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # null bytes, absurd nesting
        raise ExpressionError(f"malformed expression {source!r}: {exc}") from None
    _check(tree.body, source, 0)
    return tree.body


def _check(node: ast.AST, source: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ExpressionError(f"expression '{source}' is nested too deeply")
    allowed = (
        ast.Constant,
        ast.Name,
        ast.BinOp,
        ast.UnaryOp,
        ast.BoolOp,
        ast.Compare,
        ast.IfExp,
        ast.Call,
        ast.Tuple,
        ast.List,
        ast.Load,
        ast.operator,
        ast.unaryop,
        ast.boolop,
        ast.cmpop,
    )
    if not isinstance(node, allowed):
        raise ExpressionError(
            f"'{type(node).__name__}' is not allowed in expression '{source}'; "
            "use numbers, text, names, arithmetic, comparisons, and/or/not, "
            + ", ".join(sorted(FUNCTIONS))
        )
    for op in _operators(node):
        if not any(type(op) in table for table in (_BINARY, _UNARY, _COMPARE, _BOOLEAN)):
            word = _REFUSED_WORDS.get(type(op), type(op).__name__)
            hint = "; use == or != to compare" if isinstance(op, (ast.Is, ast.IsNot)) else ""
            raise ExpressionError(
                f"operator '{word}' is not allowed in expression '{source}'{hint}; expected one of {', '.join(OPERATORS)}"
            )
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
            raise ExpressionError(
                f"unknown function in expression '{source}'; expected one of "
                + ", ".join(sorted(FUNCTIONS))
            )
        for arg in node.args:
            _check(arg, source, depth + 1)
        return
    if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str, bool, type(None))):
        raise ExpressionError(f"unsupported constant in expression '{source}'")
    for child in ast.iter_child_nodes(node):
        _check(child, source, depth + 1)


def _operators(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp)):
        return [node.op]
    if isinstance(node, ast.Compare):
        return list(node.ops)
    return []


def names(source: str) -> set[str]:
    """Variable names an expression refers to (excluding functions)."""
    return set(_names_read(source))


_SCALARS = (str, int, float, bool, type(None), _Missing)
_RESULTS: dict[tuple[Any, ...], Any] = {}  # (source, lenient, (type, value) of each name it reads) → result
_RESULTS_MAX = 8192


@lru_cache(maxsize=4096)
def _names_read(source: str) -> tuple[str, ...]:
    tree = parse(source)
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return tuple(sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in calls}))


def shows(condition: object, fields: Mapping[str, Any], *, if_broken: bool) -> bool:
    """Whether an element's ``when:`` ``condition`` holds for a piece's ``fields`` (no condition: it does); a
    condition that cannot be evaluated gives ``if_broken`` (the drawing warns about it where it is drawn)."""
    if not condition:
        return True
    try:
        return bool(evaluate(str(condition), fields, lenient=True))
    except (ExpressionError, TypeError, ValueError):
        return if_broken


def evaluate(source: str, variables: Mapping[str, Any], *, lenient: bool = False) -> Any:
    """Evaluate ``source``; with ``lenient`` unknown names are unset instead of errors.

    An expression's value depends only on the values of the names it reads; when those are plain
    scalars the result is remembered under them (a 2,000-card deck asks ``kind == 'number'`` of
    every card, with three distinct kinds)."""
    tree = parse(source)
    key: tuple[Any, ...] | None = (source, lenient)
    for name in _names_read(source):
        value = variables[name] if name in variables else MISSING
        if not isinstance(value, _SCALARS):
            key = None
            break
        key += ((name, type(value), repr(value) if isinstance(value, float) else value),)  # type: ignore[operator]
    if key is not None:
        found = _RESULTS.get(key, _RESULTS)
        if found is not _RESULTS:
            return found
    try:
        result = _eval(tree, variables, source, lenient)
        if key is not None:
            if len(_RESULTS) >= _RESULTS_MAX:
                _RESULTS.clear()
            _RESULTS[key] = result
        return result
    except ExpressionError:
        raise
    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
        raise ExpressionError(f"cannot evaluate '{source}': {exc}") from None


def _check_repeat(left: Any, right: Any, source: str) -> None:
    """Refuse ``'x' * 10**9`` before it allocates."""
    for seq, times in ((left, right), (right, left)):
        if isinstance(seq, (str, tuple, list)) and isinstance(times, int) and len(seq) * times > MAX_SEQUENCE:
            raise ExpressionError(f"result longer than {MAX_SEQUENCE} in '{source}'")


def _bounded(value: Any, source: str) -> Any:
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise ExpressionError(f"number too large in '{source}'")
    return value


def _eval(node: ast.AST, env: Mapping[str, Any], source: str, lenient: bool) -> Any:
    ev = lambda n: _eval(n, env, source, lenient)  # noqa: E731
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ("true", "false", "none"):
            return {"true": True, "false": False, "none": None}[node.id]
        if lenient:
            return MISSING
        raise ExpressionError(
            f"unknown name '{node.id}' in '{source}'; known: " + ", ".join(sorted(env))
        )
    if isinstance(node, ast.BinOp):
        left, right = ev(node.left), ev(node.right)
        if isinstance(node.op, ast.Pow):
            if not isinstance(right, int) or abs(right) > MAX_POWER:
                raise ExpressionError(f"exponent too large in '{source}'")
            if isinstance(left, int) and left.bit_length() * abs(right) > MAX_INT_BITS:
                raise ExpressionError(f"number too large in '{source}'")
            return left**right
        if isinstance(left, _Missing) or isinstance(right, _Missing):
            return MISSING
        if isinstance(node.op, ast.Mult):
            _check_repeat(left, right, source)
        return _bounded(_BINARY[type(node.op)][1](left, right), source)
    if isinstance(node, ast.UnaryOp):
        value = ev(node.operand)
        if isinstance(value, _Missing) and not isinstance(node.op, ast.Not):
            return MISSING
        return _UNARY[type(node.op)][1](value)
    if isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.And):
            result: Any = True
            for value in node.values:
                result = ev(value)
                if not result:
                    return result
            return result
        result = False
        for value in node.values:
            result = ev(value)
            if result:
                return result
        return result
    if isinstance(node, ast.Compare):
        left = ev(node.left)
        for op, comparator in zip(node.ops, node.comparators, strict=False):
            right = ev(comparator)
            if isinstance(left, _Missing) or isinstance(right, _Missing):
                if type(op) not in (ast.Eq, ast.NotEq):
                    return False
            if not _COMPARE[type(op)][1](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return ev(node.body) if ev(node.test) else ev(node.orelse)
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return FUNCTIONS[node.func.id](*[ev(a) for a in node.args])
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(ev(e) for e in node.elts)
    raise ExpressionError(f"unsupported expression '{source}'")
