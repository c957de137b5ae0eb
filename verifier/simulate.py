"""Run a variant's setup steps on the physical inventory for one player count.

Zones are ordered lists of instance ids. A per-player zone ``hand`` is stored as
``hand#1`` … ``hand#N``; a table's own zones as ``royal.deck``. Every step that
cannot be done becomes a :class:`Finding` with need and have; the simulation then
carries on with what there is, so one run reports every problem.
"""

from __future__ import annotations

import random
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from punchboard.spec import expressions
from punchboard.spec.model import Game
from punchboard.spec.setup_model import BOX, REMOVED, Expectation, Step, Table, Variant, ZoneLimit

from .counts import Open, blocked_by, let_values, whole
from .findings import Finding
from .inventory import Instance, build_inventory
from .numbers import number_values
from .origins import Origins


@dataclass
class Scope:
    table: str  # '' for the variant's own steps
    players: int
    limits: Mapping[str, ZoneLimit]


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
    findings: list[Finding] = field(default_factory=list)
    env: dict[str, Any] = field(default_factory=dict)
    table_sizes: dict[str, int] = field(default_factory=dict)
    origins: Origins = field(default_factory=Origins)
    short: dict[str, str] = field(default_factory=dict)  # zone key → the root finding that left it short
    quiet: bool = False  # a Monte Carlo replay: no conservation, capacity or expectation checks
    cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # condition results, shared by replays

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


def describe_step(step: Step, scope: Scope) -> str:
    words = step.say or _default_words(step)
    where = f"{scope.table} table " if scope.table else ""
    return f'{where}step {step.number} "{words}"'


def _default_words(step: Step) -> str:
    what = ", ".join(step.components) or step.from_zone
    cond = f" where {step.where}" if step.where else ""
    if step.kind == "take":
        amount = f"{step.count.describe()} of " if step.count else ""
        return f"take {amount}{what}{cond} to {step.to}"
    if step.kind == "remove":
        amount = f"the top {step.count.describe()} of " if step.count else ""
        face = f" face {step.face}" if step.face else ""
        return f"remove {amount}{what}{cond}{face}"
    if step.kind == "shuffle":
        return f"shuffle {step.from_zone}"
    if step.kind == "deal":
        if step.evenly:
            return f"deal {step.from_zone} evenly into {step.to} of each player" + (
                f" and {', '.join(step.extra)}" if step.extra else ""
            )
        return f"deal {step.count.describe() if step.count else '?'} from {step.from_zone} to {step.to} of each player"
    if step.kind == "give":
        return f"give each player {step.count.describe() if step.count else '?'} {what}{cond}"
    if step.kind == "place":
        return f"place {step.each.describe() if step.each else '?'} {what}{cond} into each of {', '.join(step.into)}"
    if step.kind == "draw_keep":
        return f"each player draws {step.draw.describe() if step.draw else '?'} from {step.from_zone}, keeps {step.keep.describe() if step.keep else '?'}"
    return f"seat every player at {step.seats}"


# ---------------------------------------------------------------- step kinds


def root_of(run: Run, scope: Scope, zones: list[str]) -> str:
    """The root finding that left one of these zones short, if any."""
    for name in zones:
        for key in [run.key(scope, name), *run.keys(scope, name)]:
            if key in run.short:
                return run.short[key]
    return ""


def _fail(run: Run, step: Step, scope: Scope, message: str, *, need: int | None = None, have: int | None = None,
          component: str = "", severity: str = "fail", unit: str = "") -> None:
    label = describe_step(step, scope)
    under = root_of(run, scope, _reads(step))
    if under == label:
        under = ""
    run.findings.append(Finding(label, message, severity, component, need, have, under, unit))
    if severity == "fail":
        # what the step fills is short, and so is the pile it ran dry on (not the box: other components stay)
        drained = [step.from_zone] if step.kind in ("take", "deal", "draw_keep") and step.from_zone != BOX else []
        for name in _writes(step) + ([REMOVED] if step.kind == "remove" else []) + drained:
            for key in [run.key(scope, name), *run.keys(scope, name)]:
                run.short.setdefault(key, under or label)


def _candidates(run: Run, step: Step, scope: Scope, env: Mapping[str, Any], key: str | None = None) -> list[int]:
    """The pieces a step may move: in its ``from`` zone (or one player's ``key`` of it) and matching it."""
    zone = list(run.zones.get(key, [])) if key is not None else run.pieces(scope, step.from_zone)
    if step.where is None and not step.components:
        return zone
    selected = run.matching(step.where, step.components, env)
    if run.origins.enabled:
        run.origins.looked_at(zone, selected.__contains__, describe_step(step, scope))
    return [i for i in zone if i in selected]


def _sources(run: Run, step: Step, scope: Scope) -> list[tuple[str, str | None, str]]:
    """(who, the zone key to take from or None for the whole zone, where the pieces go) for each actor."""
    to = REMOVED if step.kind == "remove" else run.key(scope, step.to)
    if not step.each_player:
        return [("", None, to)]
    base = run.key(scope, step.from_zone)
    players = run.per_player.get(base, scope.players)
    targets = _hands(run, scope, step.to) if step.kind == "take" else [REMOVED] * players
    return [(f"player {p}: ", f"{base}#{p}", targets[p - 1]) for p in range(1, players + 1)]


def _move(run: Run, scope: Scope, step: Step, key: str | None, dest: str, chosen: list[int]) -> None:
    if key is None:
        run.take_out(scope, step.from_zone, chosen)
    else:
        gone = set(chosen)
        run.zones[key] = [i for i in run.zones.get(key, []) if i not in gone]
    run.put(dest, chosen)


def _take(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    for who, key, dest in _sources(run, step, scope):
        found = _candidates(run, step, scope, env, key)
        if step.count is None:
            if not found:
                _fail(run, step, scope, f"{who}nothing matches", need=1, have=0, component=run.component_label(found, step))
            chosen = found
        else:
            need = whole(step.count, env)
            if len(found) < need:
                _fail(run, step, scope, who.rstrip(": "), need=need, have=len(found), component=run.component_label(found, step))
            if step.pick == "random":
                if run.origins.enabled:
                    run.origins.picked(found, describe_step(step, scope))
                chosen = run.rng.sample(found, min(need, len(found)))
            else:
                chosen = found[:need]
        _move(run, scope, step, key, dest, chosen)


def _remove(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    for who, key, dest in _sources(run, step, scope):
        found = _candidates(run, step, scope, env, key)
        if step.count is not None:
            need = whole(step.count, env)
            if len(found) < need:
                _fail(run, step, scope, who.rstrip(": "), need=need, have=len(found), component=run.component_label(found, step))
            found = found[:need]
        elif not found:
            _fail(run, step, scope, f"{who}nothing matches, nothing removed", severity="warn", component=run.component_label(found, step))
        _move(run, scope, step, key, dest, found)


def _hands(run: Run, scope: Scope, base_name: str) -> list[str]:
    base = run.key(scope, base_name)
    run.per_player[base] = scope.players
    return [f"{base}#{p}" for p in range(1, scope.players + 1)]


def _deal(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    source_key = run.key(scope, step.from_zone)
    pool = list(run.zones.get(source_key, []))
    run.rng.shuffle(pool)  # a deal is a shuffle and a deal
    if run.origins.enabled:
        run.origins.shuffled(pool, describe_step(step, scope))
    hands = _hands(run, scope, step.to) + [run.key(scope, z) for z in step.extra]
    if step.evenly:
        each = len(pool) // len(hands)
        if each == 0:
            _fail(run, step, scope, f"{len(pool)} pieces cannot be dealt into {len(hands)} hands",
                  need=len(hands), have=len(pool), component=run.component_label(pool, step))
        dealt = each * len(hands)
    else:
        each = whole(step.count, env)
        need = each * len(hands)
        if len(pool) < need:
            _fail(run, step, scope, "", need=need, have=len(pool), component=run.component_label(pool, step))
        dealt = min(need, len(pool))
    for hand, key in enumerate(hands):
        run.put(key, pool[hand:dealt:len(hands)])
    rest = pool[dealt:]
    run.zones[source_key] = rest
    if step.evenly and step.remainder:
        run.zones[source_key] = []
        run.put(run.key(scope, step.remainder), rest)
    for hand in hands:
        run.zones.setdefault(hand, [])


def _give(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    found = _candidates(run, step, scope, env)
    each = whole(step.count, env)
    hands = _hands(run, scope, step.to)
    given_total = 0
    used_values: set[Any] = set()
    available = list(found)
    made_by = describe_step(step, scope)
    sets_reported = False
    if step.same and step.distinct:
        sizes: dict[Any, int] = {}
        for i in found:
            value = run.inventory[i].env.get(step.same)
            if value is not None:
                sizes[value] = sizes.get(value, 0) + 1
        sets = sum(1 for size in sizes.values() if size >= each)
        if sets < len(hands):
            # the designer's terms: colour sets, not pieces; the players left without one follow from it
            _fail(run, step, scope, f"one {step.same} for each player, {each} pieces of it; the box has {sets} "
                  f"{step.same}{'s' if sets != 1 else ''} with {each} or more", need=len(hands), have=sets,
                  component=run.component_label(found, step), unit=f"{step.same} sets")
            sets_reported = True
    if step.same:
        run.origins.chose_at_random_by_content(found, made_by)
    if step.match_field and step.match_zone:
        matched = run.pieces(scope, step.match_zone)
        if any(run.origins.tag.get(i) is not None for i in matched):
            run.origins.chose_at_random_by_content(found, made_by)
        else:
            run.origins.looked_at(found, lambda i: run.inventory[i].env.get(step.match_field), made_by)
    for player, hand in enumerate(hands, start=1):
        pool = available
        if step.match_field and step.match_zone:
            own = run.zones.get(f"{run.key(scope, step.match_zone)}#{player}", [])
            wanted = {run.inventory[i].env.get(step.match_field) for i in own}
            pool = [i for i in pool if run.inventory[i].env.get(step.match_field) in wanted]
        if step.same:
            groups: dict[Any, list[int]] = {}
            for i in pool:
                value = run.inventory[i].env.get(step.same)
                if value is not None and not (step.distinct and value in used_values):
                    groups.setdefault(value, []).append(i)
            fitting = sorted((v for v, members in groups.items() if len(members) >= each), key=str)
            if fitting:
                value = run.rng.choice(fitting)
                used_values.add(value)
                chosen = groups[value][:each]
            elif sets_reported:
                chosen = []
            else:
                biggest = max((len(m) for m in groups.values()), default=0)
                _fail(run, step, scope, f"player {player}: no {step.same} left with {each} pieces"
                      + (" that no other player has" if step.distinct else ""), need=each, have=biggest, component=run.component_label(found, step))
                chosen = []
        else:
            chosen = pool[:each]
        available = [i for i in available if i not in set(chosen)]
        given_total += len(chosen)
        run.take_out(scope, step.from_zone, chosen)
        run.put(hand, chosen)
    need = each * len(hands)
    if given_total < need and not any(f.step == describe_step(step, scope) for f in run.findings):
        _fail(run, step, scope, "", need=need, have=given_total, component=run.component_label(found, step))


def _place(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    found = _candidates(run, step, scope, env)
    each = whole(step.each, env)
    placed = 0
    remaining = list(found)
    if step.distinct_field:
        run.origins.looked_at(found, lambda i: run.inventory[i].env.get(step.distinct_field), describe_step(step, scope))
    for zone in step.into:
        if step.distinct_field:
            by_value: dict[Any, list[int]] = {}
            for i in remaining:
                by_value.setdefault(run.inventory[i].env.get(step.distinct_field), []).append(i)
            values = sorted(by_value, key=lambda v: (-len(by_value[v]), str(v)))[:each]
            chosen = [by_value[v][0] for v in sorted(values, key=str)]
        else:
            chosen = remaining[:each]
        remaining = [i for i in remaining if i not in set(chosen)]
        placed += len(chosen)
        run.take_out(scope, step.from_zone, chosen)
        run.put(run.key(scope, zone), chosen)
    need = each * len(step.into)
    if placed < need:
        values = len({run.inventory[i].env.get(step.distinct_field) for i in found}) if step.distinct_field else None
        note = f"no two with the same {step.distinct_field} in a zone; only {values} different" if step.distinct_field else ""
        _fail(run, step, scope, note, need=need, have=placed if step.distinct_field else len(found), component=run.component_label(found, step))


def _draw_keep(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    source_key = run.key(scope, step.from_zone)
    draw, keep = whole(step.draw, env), whole(step.keep, env)
    for hand in _hands(run, scope, step.to):
        pile = run.zones.get(source_key, [])
        if len(pile) < draw:
            _fail(run, step, scope, f"{hand.split('#')[0]} of player {hand.split('#')[1]}", need=draw, have=len(pile), component=run.component_label(pile, step))
        drawn, pile = pile[:draw], pile[draw:]
        if run.origins.enabled:
            run.origins.picked(drawn, describe_step(step, scope))
        kept = run.rng.sample(drawn, min(keep, len(drawn)))
        back = [i for i in drawn if i not in set(kept)]
        pile = pile + back
        run.rng.shuffle(pile)
        if run.origins.enabled:
            run.origins.shuffled(pile, describe_step(step, scope))
        run.zones[source_key] = pile
        run.put(hand, kept)


def _seat(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    seats = run.pieces(scope, step.seats)
    if len(seats) < scope.players:
        _fail(run, step, scope, f"{scope.players} players, {len(seats)} seats", need=scope.players, have=len(seats), component=run.component_label(seats, step))
    elif len(seats) > scope.players:
        _fail(run, step, scope, f"{len(seats) - scope.players} seats left empty", severity="warn",
              need=scope.players, have=len(seats), component=run.component_label(seats, step))


def _shuffle(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    key = run.key(scope, step.from_zone)
    run.rng.shuffle(run.zones.setdefault(key, []))
    if run.origins.enabled:
        run.origins.shuffled(run.zones[key], describe_step(step, scope))


KINDS = {
    "take": _take,
    "remove": _remove,
    "shuffle": _shuffle,
    "deal": _deal,
    "give": _give,
    "place": _place,
    "draw_keep": _draw_keep,
    "seat": _seat,
}


def _reads(step: Step) -> list[str]:
    reads = [step.from_zone]
    if step.match_zone:
        reads.append(step.match_zone)
    return reads


def _writes(step: Step) -> list[str]:
    writes = [step.to] if step.to else []
    writes += list(step.into) + list(step.extra)
    if step.remainder:
        writes.append(step.remainder)
    return writes


def _step_texts(step: Step) -> list[str | None]:
    texts: list[str | None] = [step.where, step.when]
    for count in (step.count, step.each, step.draw, step.keep):
        if count is not None and isinstance(count.value, str):
            texts.append(count.value)
    return texts


def _open_reason(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> str | None:
    key = ("blocked", id(step), env.get("table", ""))
    if key in run.cache:  # what the texts leave open depends on the env alone, the same in every replay
        reason = run.cache[key]
    else:
        reason = run.cache[key] = blocked_by(_step_texts(step), env)
    if reason:
        return reason
    for name in _reads(step):
        for key in run.keys(scope, name):
            if key in run.open_zones:
                return run.open_zones[key]
        if run.key(scope, name) in run.open_zones:
            return run.open_zones[run.key(scope, name)]
    return None


def _check_conservation(run: Run, step: Step, scope: Scope) -> None:
    seen: list[int] = [i for ids in run.zones.values() for i in ids]
    if len(seen) != len(run.inventory) or len(set(seen)) != len(run.inventory):
        _fail(run, step, scope, f"conservation broken: {len(seen)} placements of {len(run.inventory)} pieces "
              f"({len(seen) - len(set(seen))} in two zones, {len(run.inventory) - len(set(seen))} nowhere)")


def _limit_open(run: Run, scope: Scope, name: str, what: str, gap: Open) -> None:
    label = f"zone {run.key(scope, name)}"
    message = f"{what}: left open by the rulebook: {gap}"
    if not any(f.step == label and f.message == message for f in run.findings):
        run.findings.append(Finding(label, message, "warn"))


def _check_capacity(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
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
            if size > capacity:
                what = limit.say or name
                _fail(run, step, scope, f"{what} holds {size}, capacity {capacity}", need=size, have=capacity)


def run_steps(run: Run, steps: tuple[Step, ...], scope: Scope, env: dict[str, Any], *, start: int = 0,
              stop: int | None = None, plan: Plan | None = None) -> None:
    """Run ``steps[start:stop]``; a replay's ``plan`` leaves out the steps that cannot change what it reads."""
    for index in range(start, len(steps) if stop is None else stop):
        step = steps[index]
        if plan is not None and (scope.table, index) in plan.skip:
            continue
        if plan is not None and (scope.table, index) in plan.before_deal:
            deal = steps[plan.before_deal[(scope.table, index)]]
            if _open_reason(run, deal, scope, env) is None:
                continue  # the deal right after shuffles this zone itself: one shuffle is as random as two
        reason = _open_reason(run, step, scope, env)
        if reason is None and step.when is not None:
            if not expressions.evaluate(step.when, env, lenient=True):
                continue
        if reason is None:
            try:
                KINDS[step.kind](run, step, scope, env)
            except Open as gap:
                reason = str(gap)
        if reason is not None:
            said = any(reason in f.message for f in run.findings)
            _fail(run, step, scope, "skipped: it depends on what the rulebook leaves open (above)" if said
                  else f"left open by the rulebook: {reason}", severity="warn")
            for name in _writes(step):
                run.open_zones[run.key(scope, name)] = reason
                if step.per_player and name == step.to:
                    run.per_player[run.key(scope, name)] = scope.players
                    for key in run.keys(scope, name):
                        run.open_zones[key] = reason
            continue
        if not scope.table:
            run.shared.update(_writes(step))
            if step.kind == "remove":
                run.shared.add(REMOVED)
        if not run.quiet:
            _check_conservation(run, step, scope)
            _check_capacity(run, step, scope, env)


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
                for n, key in enumerate(keys):
                    if not any(run.matches(i, expect.has, (), env) for i in run.zones.get(key, [])):
                        run.findings.append(Finding(label, f"no piece in {names[n]} matches {expect.has}",
                                                    expect.severity, need=1, have=0, under=under))
        except Open as gap:
            run.findings.append(Finding(label, f"left open by the rulebook: {gap}", "warn"))


def _check_exactly(run: Run, scope: Scope, env: Mapping[str, Any]) -> None:
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


# ---------------------------------------------------------------- what a replay needs


@dataclass(frozen=True)
class Plan:
    """Which steps a Monte Carlo replay may leave out, by (table, step index), '' for the variant's own steps.

    A replay only reads some zones (the hands its events count). A step is left out when nothing it changes
    is read later by the zones' own chain of steps: every arrangement of the read zones is then exactly as
    likely as in the whole setup. A shuffle right before a deal from the same zone is left out too, since
    the deal shuffles again. Randomness drawn differs from the whole setup's, the distribution does not.
    """

    skip: frozenset[tuple[str, int]]
    before_deal: Mapping[tuple[str, int], int]  # a shuffle → the deal right after it that shuffles again


def _changes(step: Step) -> set[str]:
    if step.kind == "seat":
        return set()
    changed = {*_writes(step), step.from_zone}
    if step.kind == "remove":
        changed.add(REMOVED)
    return changed


def replay_plan(variant: Variant, zones: frozenset[str]) -> Plan:
    """The steps a replay that reads only ``zones`` (names in any scope) must run."""
    order = [("", i, s) for i, s in enumerate(variant.steps)]
    order += [(t.name, i, s) for t in variant.tables for i, s in enumerate(t.steps)]
    in_tables = {name for t in variant.tables for s in t.steps for name in (*_reads(s), *_changes(s), s.seats)}
    needed = set(zones)
    skip: set[tuple[str, int]] = set()
    for table, index, step in reversed(order):
        changed = _changes(step)
        if changed & needed or (not table and set(_writes(step)) & in_tables):
            # what it adds to keeps what was there, so a step that changes a needed zone needs all it touches
            needed |= changed | set(_reads(step))
        else:
            skip.add((table, index))
    before_deal: dict[tuple[str, int], int] = {}
    for table, steps in [("", variant.steps), *((t.name, t.steps) for t in variant.tables)]:
        kept = [i for i in range(len(steps)) if (table, i) not in skip]
        for here, after in zip(kept, kept[1:], strict=False):
            shuffle, deal = steps[here], steps[after]
            if (shuffle.kind == "shuffle" and deal.kind == "deal" and deal.when is None
                    and deal.from_zone == shuffle.from_zone):
                before_deal[(table, here)] = after
    return Plan(frozenset(skip), before_deal)


# ---------------------------------------------------------------- a whole variant


def table_env(env: dict[str, Any], table: Table, index: int, players: int) -> dict[str, Any]:
    return {**env, "table": table.name, "table_index": index, "table_players": players}


def _fixed_prefix(steps: tuple[Step, ...], plan: Plan | None, table: str = "") -> int:
    """How many leading steps use no randomness (no shuffle, deal, draw, random pick or random give) or are
    left out by the plan."""
    for index, step in enumerate(steps):
        if plan is not None and (table, index) in plan.skip:
            continue
        if step.kind in ("shuffle", "deal", "draw_keep") or step.pick == "random" or (step.kind == "give" and step.same):
            return index
    return len(steps)


def _table_scope(run: Run, index: int) -> tuple[Scope, dict[str, Any]]:
    """A table's scope and env (raises Open when the rulebook leaves its player count open)."""
    table = run.variant.tables[index]
    size = whole(table.players, run.env)
    return Scope(table.name, size, table.zones), table_env(run.env, table, index, size)


def simulate(game: Game, variant: Variant, players: int, seed: str | random.Random,
             inventory: tuple[Instance, ...] | None = None, *, quiet: bool = False,
             cache: dict[tuple[Any, ...], Any] | None = None, reads: frozenset[str] | None = None) -> Run:
    """One setup. ``seed`` may be a Random to continue (Monte Carlo replays share one stream).

    A ``quiet`` replay checks nothing; given ``reads`` (the zone names it will look at) it also leaves out
    the steps that cannot change them (:func:`replay_plan`).
    """
    inventory = inventory if inventory is not None else build_inventory(game)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    run = Run(game, variant, players, rng, inventory, quiet=quiet, cache=cache if cache is not None else {},
              origins=Origins(enabled=not quiet))
    env_key = ("env", variant.id, players)
    env = run.cache.get(env_key) if quiet else None
    if env is None:
        env = {"players": players, "table_players": players, "table": "", "table_index": 0}
        env.update(number_values(variant.numbers))
        let_values(dict(variant.let), env)
        if quiet:  # the same in every replay, and no step changes it
            run.cache[env_key] = env
    run.env = env
    top = Scope("", players, variant.zones)
    steps = variant.steps
    start, table_start, plan = 0, 0, None
    if quiet:
        if reads is not None:
            plan_key = ("plan", variant.id, reads)
            plan = run.cache.get(plan_key)
            if plan is None:
                plan = run.cache[plan_key] = replay_plan(variant, reads)
        # A Monte Carlo replay: the steps before the first random one (into the first table's steps when the
        # variant's own have none) come out the same every time and draw nothing from the random stream, so
        # they are run once and their result reused.
        start = _fixed_prefix(steps, plan)
        key = ("prefix", variant.id, players, reads)
        saved = run.cache.get(key)
        if saved is None:
            run.zones[BOX] = [i.id for i in inventory]
            run_steps(run, steps, top, env, stop=start, plan=plan)
            try:
                first = _table_scope(run, 0) if start == len(steps) and variant.tables else None
            except Open:
                first = None
            if first is not None:
                table_start = _fixed_prefix(variant.tables[0].steps, plan, variant.tables[0].name)
                run_steps(run, variant.tables[0].steps, *first, stop=table_start, plan=plan)
            saved = run.cache[key] = ({k: list(v) for k, v in run.zones.items()}, dict(run.per_player),
                                      set(run.shared), dict(run.open_zones), table_start)
        zones, per_player, shared, open_zones, table_start = saved
        run.zones = {k: list(v) for k, v in zones.items()}
        run.per_player, run.shared, run.open_zones = dict(per_player), set(shared), dict(open_zones)
    else:
        run.zones[BOX] = [i.id for i in inventory]
    run_steps(run, steps, top, env, start=start, plan=plan)
    seated = 0
    for index, table in enumerate(variant.tables):
        try:
            scope, t_env = _table_scope(run, index)
        except Open as gap:
            run.findings.append(Finding(f"{table.name} table", f"left open by the rulebook: {gap}", "warn"))
            continue
        seated += scope.players
        run.table_sizes[table.name] = scope.players
        run_steps(run, table.steps, scope, t_env, start=table_start if index == 0 else 0, plan=plan)
        if not quiet:
            check_expectations(run, table.expect, scope, t_env)
            _check_exactly(run, scope, t_env)
    if variant.tables and len(run.table_sizes) == len(variant.tables) and seated != players:
        run.findings.append(Finding("tables", f"the tables seat {seated} players, not {players}", need=players, have=seated))
    if not quiet:
        check_expectations(run, variant.expect, top, env)
        _check_exactly(run, top, env)
    return run
