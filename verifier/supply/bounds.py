"""Supply across the game: bound what the rounds consume against what setup left in play.

Every supply line becomes one *demand* per table (with tables) or one for the variant, and one per player
for a line with ``each_player: true`` (against that player's own zone). A demand is checked alone, and
demands that draw on the same pile are checked together: however the lines share the pieces, every group
of lines needs at most as many pieces as the piles they draw on hold between them (Hall's condition, over
every group of lines that share a pile). Two tables drawing on one shared bank are two demands on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from punchboard.spec.setup_model import Consumption

from ..counts import Open, blocked_by, whole
from ..findings import Finding
from ..setup.shortfalls import root_of
from ..setup.simulate import table_env
from ..setup.zones import Run, Scope

MOST_LINES_TOGETHER = 12  # the lines of one pile checked in every combination (2^12 groups at most)


@dataclass(frozen=True)
class Demand:
    label: str
    item: Consumption
    keys: tuple[str, ...]  # the zone keys it draws on
    pool: frozenset[int]  # the pieces it may use
    need: int
    worst: int | None
    per_round: int
    worst_per_round: int | None
    factor: int
    under: str


def _scopes(run: Run) -> list[tuple[Scope, Mapping[str, Any]]]:
    variant = run.variant
    if not variant.tables:
        return [(Scope("", run.players, variant.zones), run.env)]
    scopes: list[tuple[Scope, Mapping[str, Any]]] = []
    for index, table in enumerate(variant.tables):
        if table.name in run.table_sizes:
            size = run.table_sizes[table.name]
            scopes.append((Scope(table.name, size, table.zones), table_env(run.env, table, index, size)))
    return scopes


def _demands(run: Run, item: Consumption, scope: Scope, env: Mapping[str, Any]) -> list[Demand] | Finding:
    label = f"supply \"{item.name}\"" + (f" at the {scope.table} table" if scope.table else "")
    reason = blocked_by([item.where], env)
    if reason is None and any(k in run.open_zones for z in item.zones for k in run.keys(scope, z)):
        reason = "its pieces depend on a step left open"
    try:
        per_round, rounds = whole(item.per_round, env), whole(item.rounds, env)
        worst = whole(item.worst_case, env) if item.worst_case is not None else None
    except Open as gap:
        reason = str(gap)
    if reason is not None:
        return Finding(label, f"not checked: {reason}", "warn")
    factor = 1 if item.returned else rounds
    under = root_of(run, scope, list(item.zones))
    if item.each_player:
        players = max((run.per_player.get(run.key(scope, z), 0) for z in item.zones), default=0)
        owners = [(f"{label}, player {p}", [f"{run.key(scope, z)}#{p}" for z in item.zones]) for p in range(1, players + 1)]
    else:
        owners = [(label, [k for z in item.zones for k in run.keys(scope, z)])]
    out = []
    for who, keys in owners:
        everything = [i for k in keys for i in run.zones.get(k, [])]
        if item.where is not None:
            run.origins.read(everything, lambda i: run.matches(i, item.where, (), env), label)
        pool = frozenset(i for i in everything if item.where is None or run.matches(i, item.where, (), env))
        out.append(Demand(who, item, tuple(keys), pool, per_round * factor,
                          worst * factor if worst is not None else None, per_round, worst, factor, under))
    return out


def _components(run: Run, pool: frozenset[int]) -> str:
    return ", ".join(sorted({run.inventory[i].component for i in pool}))


def _alone(run: Run, demand: Demand) -> Finding | None:
    have = len(demand.pool)
    if demand.need > have:
        return Finding(demand.label, f"fails: {demand.per_round} a round × {demand.factor}", "fail",
                       _components(run, demand.pool), demand.need, have, demand.under)
    if demand.worst is not None and demand.worst > have:
        return Finding(demand.label, f"fails only in the worst case: {demand.worst_per_round} a round × "
                       f"{demand.factor}; typical need {demand.need}", "warn", _components(run, demand.pool),
                       demand.worst, have, demand.under)
    return None


def _together(run: Run, demands: list[Demand]) -> list[Finding]:
    """Lines that share a pile, checked together: the smallest group that needs more than its piles hold."""
    groups: list[list[Demand]] = []
    for demand in demands:
        joined = [g for g in groups if any(set(d.keys) & set(demand.keys) for d in g)]
        merged = [demand] + [d for g in joined for d in g]
        groups = [g for g in groups if g not in joined] + [merged]
    findings = []
    for group in groups:
        if len(group) < 2:
            continue
        group = sorted(group, key=lambda d: d.label)
        for worst in (False, True):
            found = _smallest_overdrawn(group, worst)
            if found is None:
                continue
            need = sum((d.worst if worst and d.worst is not None else d.need) for d in found)
            pool = frozenset().union(*(d.pool for d in found))
            piles = sorted({k.split("#")[0] for d in found for k in d.keys})
            names = " and ".join(d.label.removeprefix("supply ") for d in found)
            what = "in the worst case " if worst else ""
            findings.append(Finding(f"supply {names}", f"{what}they draw on the same pile ({', '.join(piles)}): "
                                    f"{' + '.join(str(d.worst if worst and d.worst is not None else d.need) for d in found)}"
                                    f" from {len(pool)}", "warn" if worst else "fail", _components(run, pool), need,
                                    len(pool), found[0].under))
            break
    return findings


def _smallest_overdrawn(group: list[Demand], worst: bool) -> list[Demand] | None:
    lines = group[:MOST_LINES_TOGETHER]
    for size in range(2, len(lines) + 1):
        for chosen in combinations(lines, size):
            need = sum((d.worst if worst and d.worst is not None else d.need) for d in chosen)
            if need > len(frozenset().union(*(d.pool for d in chosen))):
                # a group whose own lines already fail alone says nothing new
                if not any(len(d.pool) < (d.worst if worst and d.worst is not None else d.need) for d in chosen):
                    return list(chosen)
    return None


def check_supply(run: Run) -> list[Finding]:
    findings: list[Finding] = []
    demands: list[Demand] = []
    for item in run.variant.supply:
        for scope, env in _scopes(run):
            made = _demands(run, item, scope, env)
            if isinstance(made, Finding):
                findings.append(made)
                continue
            for demand in made:
                finding = _alone(run, demand)
                if finding is not None:
                    findings.append(finding)
            demands.extend(made)
    findings.extend(_together(run, demands))
    return findings
