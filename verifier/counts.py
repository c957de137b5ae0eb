"""Evaluating counts and `let:` values for one player count, keeping track of what the rules leave open."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from punchboard.spec import expressions
from punchboard.spec.setup_model import Count


@lru_cache(maxsize=4096)
def names(text: str) -> frozenset[str]:
    """The names an expression reads (cached: a Monte Carlo replay asks for the same texts every trial)."""
    return frozenset(expressions.names(text))


class Open(Exception):
    """A value the rulebook leaves open at this player count; steps that need it are skipped."""


class OpenValue:
    def __init__(self, reason: str):
        self.reason = reason


def evaluate_count(count: Count, env: Mapping[str, Any]) -> Any:
    players: Any = env.get("players")  # the player count (an int), or None outside a run
    choice = count.choices.get(players)
    if choice is not None:  # the verifier runs every value (verifier.choices); one alone is no answer
        values = ", ".join(str(v) for v in choice.values)
        raise Open(f"{count.label or 'a count'} is one of {values}, chosen per run" + (f" ({choice.why})" if choice.why else ""))
    if count.by_players is not None:
        if players not in count.by_players:
            known = ", ".join(str(k) for k in sorted(count.by_players))
            raise Open(count.open.get(players) or f"no value for {players} players (the table covers {known})")
        value = count.by_players[players]
    else:
        value = count.value
    if isinstance(value, str):
        blocked = [env[n] for n in names(value) if isinstance(env.get(n), OpenValue)]
        if blocked:
            raise Open(blocked[0].reason)
        return expressions.evaluate(value, env)
    return value


def whole(count: Count | None, env: Mapping[str, Any], default: int = 0) -> int:
    if count is None:
        return default
    value = evaluate_count(count, env)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise expressions.ExpressionError(f"count {count.describe()} is {value!r}, not a whole number ({count.source})")
    return value


def let_values(let: Mapping[str, Count], env: dict[str, Any]) -> dict[str, Any]:
    """Resolve `let:` in order; open values become OpenValue markers."""
    for name, count in let.items():
        try:
            env[name] = evaluate_count(count, env)
        except Open as gap:
            env[name] = OpenValue(str(gap))
    return env


def blocked_by(texts: list[str | None], env: Mapping[str, Any]) -> str | None:
    """The reason a text depends on an open value, if any."""
    for text in texts:
        if text is None:
            continue
        for name in sorted(names(text)):
            value = env.get(name)
            if isinstance(value, OpenValue):
                return value.reason
    return None
