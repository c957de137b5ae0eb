"""What one setup run holds: its zones and scopes, and the conditions that select pieces from them.

Zones are ordered lists of instance ids. A per-player zone ``hand`` is stored as
``hand#1`` … ``hand#N``; a table's own zones as ``royal.deck``.
"""

from __future__ import annotations

import random
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from punchboard.spec import expressions
from punchboard.spec.model import Game
from punchboard.spec.setup_model import BOX, REMOVED, Step, Variant, ZoneLimit

from ..findings import Finding
from ..inventory import Instance
from ..probability.origins import Origins

ANY_PIECE = -1  # in Run.open_box: what the box holds is unknown altogether


@dataclass
class Scope:
    table: str  # '' for the variant's own steps
    players: int
    limits: Mapping[str, ZoneLimit]


@dataclass(frozen=True)
class Pile:
    """One pile a ``split`` step stacked into a zone (``steps._split``), recorded for exact figures over stacked,
    separately shuffled piles. ``base``: its pieces from the split zone (a run of that zone's order, so as random
    as the zone was); ``added``: the pieces shuffled in with them (Pandemic: one Epidemic); ``ids``: the pile as
    stacked, top first, ``added`` shuffled among ``base`` when ``shuffled``. Piles stack top first, the larger
    ones (by ``base``, which differ by at most one) on top."""

    ids: tuple[int, ...]
    base: tuple[int, ...]
    added: tuple[int, ...]
    shuffled: bool


@dataclass
class Run:
    game: Game
    variant: Variant
    players: int
    rng: random.Random
    inventory: tuple[Instance, ...]
    zones: dict[str, list[int]] = field(default_factory=dict)
    shared: set[str] = field(default_factory=lambda: {BOX, REMOVED})
    per_player: dict[str, int] = field(default_factory=dict)  # zone key base → players
    open_zones: dict[str, str] = field(default_factory=dict)  # zone key → why it is left open
    # the pieces a step skipped as left open might have taken from the box (ANY_PIECE: any): why
    open_box: dict[int, str] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    env: dict[str, Any] = field(default_factory=dict)
    table_sizes: dict[str, int] = field(default_factory=dict)
    origins: Origins = field(default_factory=Origins)
    short: dict[str, str] = field(default_factory=dict)  # zone key → the root finding that left it short
    # zone key → the piles a split stacked there, top first, as the split left them: a later step that moved
    # pieces of the zone leaves it other than the concatenated ids (check before using the record)
    piles: dict[str, tuple[Pile, ...]] = field(default_factory=dict)
    quiet: bool = False  # a Monte Carlo replay: no conservation, capacity or expectation checks
    cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # condition results, shared by replays
    current: tuple[Step, Scope] | None = None  # the step being run (an enumeration asks whose draw it is)
    # zones whose contents a step that chose pieces by what they are (a random read) decided, and every zone
    # filled from one afterwards: how many pieces of each random step they hold can differ from deal to deal
    read_zones: dict[str, str] = field(default_factory=dict)  # zone key base → the step that decided it

    # ------------------------------------------------------------ zones

    def key(self, scope: Scope, name: str) -> str:
        if not scope.table or name in self.shared:
            return name
        return f"{scope.table}.{name}"

    def keys(self, scope: Scope, name: str) -> list[str]:
        """The zone keys a name means: one zone, or every player's zone."""
        base = self.key(scope, name)
        if base in self.per_player:
            return [f"{base}#{p}" for p in range(1, self.per_player[base] + 1)]
        return [base]

    def pieces(self, scope: Scope, name: str) -> list[int]:
        return [i for k in self.keys(scope, name) for i in self.zones.get(k, [])]

    def take_out(self, scope: Scope, name: str, ids: list[int]) -> None:
        chosen = set(ids)
        for k in self.keys(scope, name):
            if k in self.zones:
                self.zones[k] = [i for i in self.zones[k] if i not in chosen]

    def put(self, key: str, ids: list[int]) -> None:
        self.zones.setdefault(key, []).extend(ids)

    # ------------------------------------------------------------ conditions

    def matches(self, instance_id: int, where: str | None, components: tuple[str, ...], env: Mapping[str, Any]) -> bool:
        instance = self.inventory[instance_id]
        if components and instance.component not in components:
            return False
        if where is None:
            return True
        key = (where, instance_id, env.get("table", ""))
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = bool(expressions.evaluate(where, ChainMap(dict(instance.env), dict(env)), lenient=True))
        return hit

    def matching(self, where: str | None, components: tuple[str, ...], env: Mapping[str, Any]) -> frozenset[int]:
        """Every instance a condition selects (cached per table: the env is the same in every replay)."""
        key = ("set", where, components, env.get("table", ""))
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = frozenset(i.id for i in self.inventory if self.matches(i.id, where, components, env))
        return found

    def component_label(self, ids: list[int], step: Step) -> str:
        if step.components:
            return ", ".join(step.components)
        names = sorted({self.inventory[i].component for i in ids})
        return ", ".join(names)
