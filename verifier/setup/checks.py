"""What is checked after the steps: conservation of pieces, zone capacities and exact sizes, expectations."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from punchboard.spec.setup_model import Expectation, Step

from ..counts import Open, blocked_by, whole
from ..findings import Finding
from .shortfalls import fail, root_of
from .zones import Run, Scope


def check_conservation(run: Run, step: Step, scope: Scope) -> None:
    seen: list[int] = [i for ids in run.zones.values() for i in ids]
    if len(seen) != len(run.inventory) or len(set(seen)) != len(run.inventory):
        fail(run, step, scope, f"conservation broken: {len(seen)} placements of {len(run.inventory)} pieces "
              f"({len(seen) - len(set(seen))} in two zones, {len(run.inventory) - len(set(seen))} nowhere)")


def _limit_open(run: Run, scope: Scope, name: str, what: str, gap: Open) -> None:
    label = f"zone {run.key(scope, name)}"
    message = f"{what}: left open by the rulebook: {gap}"
    if not any(f.step == label and f.message == message for f in run.findings):
        run.findings.append(Finding(label, message, "warn"))


def check_capacity(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    for name, limit in scope.limits.items():
        if limit.capacity is None:
            continue
        try:
            capacity = whole(limit.capacity, env)
        except Open as gap:
            _limit_open(run, scope, name, f"capacity of {limit.say or name}", gap)
            continue
        for key in run.keys(scope, name):
            size = len(run.zones.get(key, []))
            if size > capacity and key not in run.open_zones:  # an open zone's size is not known
                what = limit.say or name
                fail(run, step, scope, f"{what} holds {size}, capacity {capacity}", need=size, have=capacity)


# ---------------------------------------------------------------- expectations


def check_expectations(run: Run, expectations: tuple[Expectation, ...], scope: Scope, env: Mapping[str, Any]) -> None:
    where = f"{scope.table} table " if scope.table else ""
    for expect in expectations:
        keys = run.keys(scope, expect.zone)
        if any(k in run.open_zones for k in keys):
            continue
        label = f"{where}expect {expect.zone}" + (f" ({expect.rule})" if expect.rule else "")
        under = root_of(run, scope, [expect.zone])
        reason = blocked_by([expect.has], env)
        if reason is not None:
            run.findings.append(Finding(label, f"left open by the rulebook: {reason}", "warn"))
            continue
        sizes = [len(run.zones.get(k, [])) for k in keys]
        per_player = len(keys) > 1 or run.key(scope, expect.zone) in run.per_player
        names = [f"player {n + 1}'s {expect.zone}" if per_player else expect.zone for n in range(len(keys))]
        try:
            if expect.equal and len(set(sizes)) > 1:
                run.findings.append(Finding(label, f"sizes differ: {', '.join(map(str, sizes))}", expect.severity,
                                            under=under))
            for bound, test, word in ((expect.size, lambda s, b: s == b, "exactly"),
                                      (expect.min, lambda s, b: s >= b, "at least"),
                                      (expect.max, lambda s, b: s <= b, "at most")):
                if bound is None:
                    continue
                value = whole(bound, env)
                for n, size in enumerate(sizes):
                    if not test(size, value):
                        run.findings.append(Finding(label, f"{names[n]} holds {size}, expected {word} {value}",
                                                    expect.severity, need=value, have=size, under=under))
            if expect.has is not None:
                ids = [i for key in keys for i in run.zones.get(key, [])]
                has = expect.has
                run.origins.read(ids, partial(run.matches, where=has, components=(), env=env), label)
                for n, key in enumerate(keys):
                    if not any(run.matches(i, expect.has, (), env) for i in run.zones.get(key, [])):
                        run.findings.append(Finding(label, f"no piece in {names[n]} matches {expect.has}",
                                                    expect.severity, need=1, have=0, under=under))
        except Open as gap:
            run.findings.append(Finding(label, f"left open by the rulebook: {gap}", "warn"))


def check_exactly(run: Run, scope: Scope, env: Mapping[str, Any]) -> None:
    for name, limit in scope.limits.items():
        if limit.exactly is None:
            continue
        try:
            value = whole(limit.exactly, env)
        except Open as gap:
            _limit_open(run, scope, name, f"what {limit.say or name} must hold", gap)
            continue
        for key in run.keys(scope, name):
            size = len(run.zones.get(key, []))
            if size != value and key not in run.open_zones:
                run.findings.append(Finding(f"zone {key}", f"{limit.say or name} must hold exactly {value}, holds {size}",
                                            need=value, have=size, under=root_of(run, scope, [name])))
