"""Quantifiers over choices: the values a count may take at one player count, and the setup for each.

A count the players choose (``choose: [3, 4, 5]``) or one the rulebook leaves open among values it allows
(``open: {11: {choices: [3, 4, 5], why: ...}}``) has no one value to simulate. The verifier runs the cell
once for every combination of those values (:func:`combinations`): :func:`resolve` gives a copy of the
variant in which every such count holds one value, so the setup, its verdict over every deal, the supply
bounds and the events run on it unchanged. :mod:`.choice_verdict` puts the outcomes together.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from punchboard.spec.model import frozen_map
from punchboard.spec.setup_model import Count, Variant


@dataclass(frozen=True)
class Point:
    """One count with choices at the player count being checked."""

    label: str  # 'spies', 'step 3 count'
    source: str  # file:line:col of the count
    values: tuple[Any, ...]
    why: str
    open: bool  # left open by the rulebook (True) or the players' choice (False)

    def as_json(self) -> dict[str, Any]:
        return {"label": self.label, "source": self.source, "values": list(self.values), "why": self.why,
                "chosen_by": "rulebook left open" if self.open else "players"}


def _walk(thing: Any, visit: Any) -> Any:
    """``thing`` with every Count in it replaced by ``visit(count)`` (dataclasses, tuples and mappings)."""
    if isinstance(thing, Count):
        return visit(thing)
    if is_dataclass(thing) and not isinstance(thing, type):
        changes = {}
        for f in fields(thing):
            value = getattr(thing, f.name)
            new = _walk(value, visit)
            if new is not value:
                changes[f.name] = new
        return replace(thing, **changes) if changes else thing
    if isinstance(thing, tuple):
        items = tuple(_walk(item, visit) for item in thing)
        return thing if all(a is b for a, b in zip(items, thing, strict=True)) else items
    if isinstance(thing, Mapping):
        mapped = {key: _walk(value, visit) for key, value in thing.items()}
        return thing if all(mapped[k] is thing[k] for k in thing) else frozen_map(mapped)
    return thing


def points(variant: Variant, players: int) -> list[Point]:
    """Every count of the variant with choices at ``players``, in the order the file gives them."""
    found: dict[str, Point] = {}

    def visit(count: Count) -> Count:
        choice = count.choices.get(players)
        if choice is not None and count.source not in found:
            found[count.source] = Point(count.label, count.source, choice.values, choice.why, choice.open)
        return count

    _walk(variant, visit)
    return sorted(found.values(), key=lambda p: _position(p.source))


def _position(source: str) -> tuple[int, int]:
    """(line, column) of 'file:line:col', to list the points in the order the file gives them."""
    parts = source.rsplit(":", 2)
    return (int(parts[1]), int(parts[2])) if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit() else (0, 0)


def combinations(found: list[Point]) -> list[tuple[Any, ...]]:
    """Every combination of values, one per point (the first value of the first point first)."""
    return list(itertools.product(*(p.values for p in found)))


def label(found: list[Point], values: tuple[Any, ...]) -> str:
    """'spies = 3, step 2 count = 1'"""
    return ", ".join(f"{p.label} = {v}" for p, v in zip(found, values, strict=True))


def resolve(variant: Variant, players: int, found: list[Point], values: tuple[Any, ...]) -> Variant:
    """The variant with every count with choices at ``players`` holding its value from ``values``."""
    chosen = {p.source: v for p, v in zip(found, values, strict=True)}

    def visit(count: Count) -> Count:
        if count.source not in chosen or players not in count.choices:
            return count
        value = chosen[count.source]
        # a text value (a let: naming a card) is written as a text literal: a str value is an expression
        return Count(value=repr(value) if isinstance(value, str) else value, source=count.source, label=count.label)

    return _walk(variant, visit)


@dataclass(frozen=True)
class Outcome:
    choice: str  # 'spies = 3'
    values: tuple[Any, ...]
    status: str
    fails_on: dict[str, Any] | None  # the share of deals it falls short on (as --json gives it), None: fixed

    def as_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "values": list(self.values), "status": self.status,
                "fails_on": self.fails_on}


@dataclass(frozen=True)
class ChoiceSummary:
    points: tuple[Point, ...]
    outcomes: tuple[Outcome, ...]
    worst: str  # the worst combination ('' when every one passes)

    @property
    def passing(self) -> int:
        return sum(o.status != "fail" for o in self.outcomes)

    def as_json(self) -> dict[str, Any]:
        return {"points": [p.as_json() for p in self.points], "combinations": len(self.outcomes),
                "passing": self.passing, "failing": [o.choice for o in self.outcomes if o.status == "fail"],
                "worst": self.worst, "outcomes": [o.as_json() for o in self.outcomes]}
