"""Supply across the game: bound what the rounds consume against what setup left in play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from punchboard.spec.setup_model import Consumption

from ..counts import Open, blocked_by, whole
from ..findings import Finding
from ..setup.shortfalls import root_of
from ..setup.simulate import table_env
from ..setup.zones import Run, Scope


def _one(run: Run, item: Consumption, scope: Scope, env: Mapping[str, Any]) -> Finding | None:
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
    pool = [i for z in item.zones for i in run.pieces(scope, z) if run.matches(i, item.where, (), env)]
    components = ", ".join(sorted({run.inventory[i].component for i in pool}))
    factor = 1 if item.returned else rounds
    need = per_round * factor
    under = root_of(run, scope, list(item.zones))
    if need > len(pool):
        return Finding(label, f"fails: {per_round} a round × {factor}", "fail", components, need, len(pool), under)
    if worst is not None and worst * factor > len(pool):
        return Finding(label, f"fails only in the worst case: {worst} a round × {factor}; typical need {need}",
                       "warn", components, worst * factor, len(pool), under)
    return None


def check_supply(run: Run) -> list[Finding]:
    findings: list[Finding] = []
    variant = run.variant
    scopes: list[tuple[Scope, Mapping[str, Any]]] = []
    if variant.tables:
        for index, table in enumerate(variant.tables):
            if table.name in run.table_sizes:
                size = run.table_sizes[table.name]
                scopes.append((Scope(table.name, size, table.zones), table_env(run.env, table, index, size)))
    else:
        scopes.append((Scope("", run.players, variant.zones), run.env))
    for item in variant.supply:
        for scope, env in scopes:
            finding = _one(run, item, scope, env)
            if finding is not None:
                findings.append(finding)
    return findings
