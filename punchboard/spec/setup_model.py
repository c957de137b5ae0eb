"""The validated setup of a game: variants, steps, expectations, supply and deal events.

Loaded from ``setup.yaml`` by :mod:`punchboard.spec.setup_loader`; simulated by the
verifier. Counts stay unevaluated here (:class:`Count`) because they depend on
the player count being checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .model import frozen_map

STEP_KINDS = ("take", "remove", "shuffle", "deal", "give", "place", "draw_keep", "seat")
BOX, REMOVED = "box", "removed"
SHARED_ZONES = (BOX, REMOVED)
COUNT_VARIABLES = ("players", "table_players", "table", "table_index")


@dataclass(frozen=True)
class Count:
    """A whole number, an expression, or a table by player count."""

    value: int | str | tuple[Any, ...] | None = None  # a tuple only for let: lists
    by_players: Mapping[int, Any] | None = None
    open: Mapping[int, str] = field(default_factory=frozen_map)  # player count → why the rulebook leaves it open
    source: str = ""

    def describe(self) -> str:
        if self.by_players is not None:
            return "by player count (" + ", ".join(f"{k}: {v}" for k, v in sorted(self.by_players.items())) + ")"
        return str(self.value)


@dataclass(frozen=True)
class ZoneLimit:
    capacity: Count | None = None
    exactly: Count | None = None
    say: str = ""


@dataclass(frozen=True)
class Step:
    """One setup step; only the options of its ``kind`` are set."""

    kind: str
    number: int  # 1-based position in its list, as reports quote it
    say: str
    source: str  # file:line:col
    when: str | None = None
    from_zone: str = "box"
    to: str = ""
    components: tuple[str, ...] = ()
    where: str | None = None
    count: Count | None = None
    pick: str = "first"
    evenly: bool = False
    extra: tuple[str, ...] = ()
    remainder: str | None = None
    same: str | None = None
    distinct: bool = False
    distinct_field: str | None = None
    match_field: str | None = None
    match_zone: str | None = None
    into: tuple[str, ...] = ()
    each: Count | None = None
    draw: Count | None = None
    keep: Count | None = None
    seats: str = ""
    by: str | None = None
    face: str = ""  # remove: 'up' or 'down' ('' when not said)
    each_player: bool = False  # take/remove: once per player, from that player's own zone

    @property
    def per_player(self) -> bool:
        return self.kind in ("deal", "give", "draw_keep") or (self.kind == "take" and self.each_player)


@dataclass(frozen=True)
class Expectation:
    zone: str
    source: str
    size: Count | None = None
    min: Count | None = None
    max: Count | None = None
    equal: bool = False
    has: str | None = None
    rule: str = ""
    severity: str = "fail"


@dataclass(frozen=True)
class Table:
    name: str
    players: Count
    steps: tuple[Step, ...]
    zones: Mapping[str, ZoneLimit] = field(default_factory=frozen_map)
    expect: tuple[Expectation, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class Consumption:
    """Pieces used up round after round, bounded against what setup left in ``zones``."""

    name: str
    zones: tuple[str, ...]
    per_round: Count
    rounds: Count
    source: str
    where: str | None = None
    worst_case: Count | None = None
    returned: bool = False
    each_player: bool = False  # from a zone each player has: the need is each player's, against their own zone


@dataclass(frozen=True)
class Event:
    """A deal outcome: the count of matching pieces in a player's zone lies in [low, high]."""

    name: str
    zone: str
    where: str
    source: str
    low: int = 1
    high: int | None = None
    who: str = "any"


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    players: tuple[int, ...]
    steps: tuple[Step, ...]
    source: str
    rules: str = ""
    notes: str = ""
    let: Mapping[str, Any] = field(default_factory=frozen_map)  # name → Count | list | int
    zones: Mapping[str, ZoneLimit] = field(default_factory=frozen_map)
    tables: tuple[Table, ...] = ()
    expect: tuple[Expectation, ...] = ()
    supply: tuple[Consumption, ...] = ()
    events: tuple[Event, ...] = ()
    numbers: tuple[RuleNumber, ...] = ()  # the setup file's rulebook numbers (shared by every variant)


@dataclass(frozen=True)
class RuleNumber:
    """A number the rulebook states, with its words: `points_to_win: 35` from "The first player to get 35 points wins"."""

    name: str
    value: int
    quote: str
    source: str  # file:line:col in setup.yaml
    where: str = ""


@dataclass(frozen=True)
class Setup:
    path: Path
    variants: tuple[Variant, ...]
    notes: str = ""
    gaps: tuple[str, ...] = ()  # "file:line:col: message" for count tables that miss covered player counts
    numbers: tuple[RuleNumber, ...] = ()

    def variant(self, variant_id: str) -> Variant:
        for variant in self.variants:
            if variant.id == variant_id:
                return variant
        raise KeyError(variant_id)
