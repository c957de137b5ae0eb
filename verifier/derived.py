"""Derived numbers: what every zone holds after setup, and sums of a field over a zone or the box.

Sizes come from the setup run the verdict is read from, plus a few seeded re-runs of the whole
setup: a zone whose size differs between them is shown as a range (``15–16``), never as one number
that only one shuffle gave. Sums are exact: they add up the pieces' own field values.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from punchboard.spec import expressions
from punchboard.spec.setup_model import BOX, REMOVED, Total

from .inventory import Instance

SIZE_RUNS = 4  # seeded re-runs of the setup besides the one the verdict reads, to see sizes that vary


@dataclass(frozen=True)
class ZoneSize:
    """One zone after setup; ``low``/``high`` per player for a zone each player has (one entry otherwise)."""

    zone: str  # 'hand', 'royal.deck'
    low: tuple[int, ...]
    high: tuple[int, ...]
    per_player: bool = False
    open: str = ""  # why the rulebook leaves it open ('' when it is not)

    def text(self) -> str:
        if self.open:
            return "open"
        cells = [str(a) if a == b else f"{a}–{b}" for a, b in zip(self.low, self.high, strict=True)]
        if not self.per_player:
            return cells[0] if cells else "0"
        if len(set(cells)) == 1:
            return f"{cells[0]} each"
        return "/".join(cells)

    def as_json(self) -> dict[str, Any]:
        varies = self.low != self.high
        return {"zone": self.zone, "per_player": self.per_player, "sizes": list(self.low),
                "max_sizes": list(self.high) if varies else None, "open": self.open, "text": self.text()}


@dataclass(frozen=True)
class FieldSum:
    """The sum of ``field`` over some pieces; ``stated`` is a number setup.yaml states for it (``numbers: sum:``)."""

    name: str  # 'banknotes.denomination' or the stated number's name
    field: str
    over: str  # words: 'banknotes in the box', 'bank after setup'
    value: int | float
    pieces: int
    stated: int | None = None
    source: str = ""  # where the stated number is (file:line:col)

    @property
    def agrees(self) -> bool:
        return self.stated is None or self.stated == self.value

    def text(self) -> str:
        said = ""
        if self.stated is not None:
            said = " (as stated)" if self.agrees else f" — setup.yaml states {self.stated} ({self.source})"
        return f"{self.name} = {_number(self.value)}: {self.field} over {self.over}, {self.pieces} pieces{said}"

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "field": self.field, "over": self.over, "value": self.value, "pieces": self.pieces,
                "stated": self.stated, "source": self.source, "agrees": self.agrees}


@dataclass(frozen=True)
class Derived:
    sizes: tuple[ZoneSize, ...] = ()
    sums: tuple[FieldSum, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"sizes": [s.as_json() for s in self.sizes], "sums": [s.as_json() for s in self.sums]}


def _number(value: int | float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _zone_keys(zones: Mapping[str, list[int]], per_player: Mapping[str, int],
               open_zones: Mapping[str, str]) -> list[tuple[str, list[str], bool]]:
    """(shown name, zone keys, per player) in the order setup first filled them (zones left open by the
    rulebook after them); the box last."""
    out: list[tuple[str, list[str], bool]] = []
    seen: set[str] = set()
    for key in [*zones, *(k for k in open_zones if k not in zones)]:
        base = key.split("#", 1)[0]
        if base in seen or base == BOX:
            continue
        seen.add(base)
        if base in per_player:
            out.append((base, [f"{base}#{p}" for p in range(1, per_player[base] + 1)], True))
        else:
            out.append((base, [base], False))
    return out + [(BOX, [BOX], False)]


def zone_sizes(runs: Sequence[Any]) -> tuple[ZoneSize, ...]:
    """Sizes after setup over ``runs`` (the verdict's run first; each has zones, per_player, open_zones)."""
    first = runs[0]
    sizes: list[ZoneSize] = []
    for name, keys, per_player in _zone_keys(first.zones, first.per_player, first.open_zones):
        if name == REMOVED and not any(r.zones.get(REMOVED) for r in runs):
            continue
        seen = [[len(r.zones.get(k, [])) for k in keys] for r in runs]
        low = tuple(min(column) for column in zip(*seen, strict=True))
        high = tuple(max(column) for column in zip(*seen, strict=True))
        reason = next((first.open_zones[k] for k in [name, *keys] if k in first.open_zones), "")
        sizes.append(ZoneSize(name, low, high, per_player, reason))
    return tuple(sizes)


def size_seeds(variant: str, players: int) -> list[random.Random]:
    """The extra setups whose sizes are compared: seeded from the cell alone, never from ``--seed``, so the
    printed sizes cannot change with it."""
    return [random.Random(f"sizes:{variant}:{players}:{n}") for n in range(SIZE_RUNS)]


def box_sums(inventory: Sequence[Instance]) -> tuple[FieldSum, ...]:
    """Every numeric field of every component, added up over its pieces in the box."""
    totals: dict[tuple[str, str], list[float]] = {}
    for instance in inventory:
        for name, value in instance.env.items():
            if name != "copy" and _numeric(value):
                entry = totals.setdefault((instance.component, name), [0, 0])
                entry[0] += value
                entry[1] += 1
    return tuple(FieldSum(f"{component}.{name}", name, f"{component} in the box", value, int(pieces))
                 for (component, name), (value, pieces) in totals.items())


def _matches(instance: Instance, where: str | None, env: Mapping[str, Any]) -> bool:
    if where is None:
        return True
    return bool(expressions.evaluate(where, {**env, **instance.env}, lenient=True))


def stated_box_sum(inventory: Sequence[Instance], name: str, stated: int, total: Total, source: str,
                   env: Mapping[str, Any]) -> FieldSum:
    pieces = [i for i in inventory if i.component in total.components and _matches(i, total.where, env)]
    value = sum(i.env[total.field] for i in pieces if _numeric(i.env.get(total.field)))
    over = ", ".join(total.components) + (f" where {total.where}" if total.where else "") + " in the box"
    return FieldSum(name, total.field, over, value, len(pieces), stated, source)


def stated_zone_sum(run: Any, name: str, stated: int, total: Total, source: str) -> FieldSum | None:
    """The sum over what ``total.zone`` holds after this setup (None when the setup does not fill it)."""
    base = total.zone
    keys = [f"{base}#{p}" for p in range(1, run.per_player[base] + 1)] if base in run.per_player else [base]
    if not any(k in run.zones for k in keys):
        return None
    pieces = [run.inventory[i] for k in keys for i in run.zones.get(k, [])]
    pieces = [i for i in pieces if _matches(i, total.where, run.env)]
    value = sum(i.env[total.field] for i in pieces if _numeric(i.env.get(total.field)))
    over = f"{base}{' (every player)' if base in run.per_player else ''} after setup"
    return FieldSum(name, total.field, over, value, len(pieces), stated, source)
