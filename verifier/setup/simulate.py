"""Run a variant's setup steps on the physical inventory for one player count.

Every step that cannot be done becomes a :class:`~punchboard.verifier.findings.Finding` with need and have;
the simulation then carries on with what there is, so one run reports every problem.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from punchboard.spec import expressions
from punchboard.spec.model import Game
from punchboard.spec.setup_model import BOX, REMOVED, Step, Table, Variant

from ..counts import Open, blocked_by, let_values, whole
from ..findings import Finding
from ..inventory import Instance, build_inventory
from ..numbers import number_values
from ..probability.origins import Origins
from .checks import check_capacity, check_conservation, check_exactly, check_expectations
from .effects import step_texts, zones_changed, zones_read, zones_written
from .replay import Plan, fixed_prefix, replay_plan
from .shortfalls import fail
from .steps import KINDS
from .words import describe_step
from .zones import ANY_PIECE, Run, Scope


def _open_reason(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> str | None:
    """Why the step cannot be done at this player count: a text of it reads a value the rulebook leaves open,
    or it reads a zone that a step skipped for that reason would have changed (so its contents are unknown)."""
    cached = ("blocked", id(step), env.get("table", ""))
    if cached in run.cache:  # what the texts leave open depends on the env alone, the same in every replay
        reason = run.cache[cached]
    else:
        reason = run.cache[cached] = blocked_by(step_texts(step), env)
    if reason:
        return reason
    for name in zones_read(step):
        if run.key(scope, name) == BOX:
            reason = _box_open(run, step, env)
            if reason is not None:
                return reason
            continue
        for key in run.keys(scope, name):
            if key in run.open_zones:
                return run.open_zones[key]
        if run.key(scope, name) in run.open_zones:
            return run.open_zones[run.key(scope, name)]
    return None


def _box_pieces(run: Run, step: Step, env: Mapping[str, Any]) -> frozenset[int]:
    """The pieces a step may take from the box: what its components and condition select (every piece of
    its components when the condition itself reads a value left open)."""
    if step.where is not None and blocked_by([step.where], env) is not None:
        return run.matching(None, step.components, env)
    return run.matching(step.where, step.components, env)


def _box_open(run: Run, step: Step, env: Mapping[str, Any]) -> str | None:
    """Why what the step may take from the box is unknown: a skipped step might have taken those pieces."""
    if not run.open_box:
        return None
    if ANY_PIECE in run.open_box:
        return run.open_box[ANY_PIECE]
    wanted = _box_pieces(run, step, env)
    return next((run.open_box[i] for i in wanted if i in run.open_box), None)


def _leave_open(run: Run, step: Step, scope: Scope, env: Mapping[str, Any], reason: str) -> None:
    """A step skipped because the rulebook leaves it open: it is reported, and every zone it would have
    changed (what it fills, the zone it takes from or shuffles, the removed pile) is open from here on, so
    every later step that reads one is skipped too and no event or size over them is taken as known."""
    said = any(reason in f.message for f in run.findings)
    fail(run, step, scope, "skipped: it depends on what the rulebook leaves open (above)" if said
          else f"left open by the rulebook: {reason}", severity="warn")
    for name in zones_changed(step):
        base = run.key(scope, name)
        if base == BOX:  # by piece: what a skipped step would have taken of some says nothing of the others
            if name == step.from_zone:
                box = set(run.zones.get(BOX, []))
                run.open_box.update((i, reason) for i in _box_pieces(run, step, env) if i in box)
            else:  # it would have put pieces back in the box
                run.open_box[ANY_PIECE] = reason
        run.open_zones[base] = reason
        if step.per_player and name == step.to:
            run.per_player[base] = scope.players
        for key in run.keys(scope, name):
            run.open_zones[key] = reason


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
            run.current = (step, scope)
            reads_before = run.origins.read_count
            try:
                KINDS[step.kind](run, step, scope, env)
            except Open as gap:
                reason = str(gap)
            _follow_read_zones(run, step, scope, reads_before)
        if reason is not None:
            _leave_open(run, step, scope, env, reason)
            continue
        if not scope.table:
            run.shared.update(zones_written(step))
            if step.kind == "remove":
                run.shared.add(REMOVED)
        if not run.quiet:
            check_conservation(run, step, scope)
            check_capacity(run, step, scope, env)


def _follow_read_zones(run: Run, step: Step, scope: Scope, reads_before: int) -> None:
    """Mark the zones a random read decided (what the step read and wrote), and every zone a later step fills
    from a marked one, so that no event over them is called exact (probability/events.py)."""
    if run.origins.read_count > reads_before:
        cause = describe_step(step, scope)
        for key in (*_read_keys(run, step, scope, marking=True), *(run.key(scope, n) for n in zones_written(step))):
            run.read_zones.setdefault(key, cause)
        return
    causes = [run.read_zones[k] for k in _read_keys(run, step, scope) if k in run.read_zones]
    if causes:
        for name in zones_written(step):
            run.read_zones.setdefault(run.key(scope, name), causes[0])


def _read_keys(run: Run, step: Step, scope: Scope, *, marking: bool = False) -> list[str]:
    """The zones a step reads, the box by component: what a choice left of one component in the box says
    nothing about what a later step takes of another (the trains given by colour, then the train cards).
    ``marking``: the keys a choice marks (its components' part of the box, or the whole box); else the keys
    whose marks reach this step (its components' parts and the whole box, or every part)."""
    keys = []
    for name in zones_read(step):
        key = run.key(scope, name)
        if key != BOX:
            keys.append(key)
        elif step.components:
            keys += [f"{BOX}:{c}" for c in step.components] + ([] if marking else [BOX])
        else:
            keys += [BOX] + ([] if marking else [k for k in run.read_zones if k.startswith(f"{BOX}:")])
    return keys


def table_env(env: dict[str, Any], table: Table, index: int, players: int) -> dict[str, Any]:
    return {**env, "table": table.name, "table_index": index, "table_players": players}


def _table_scope(run: Run, index: int) -> tuple[Scope, dict[str, Any]]:
    """A table's scope and env (raises Open when the rulebook leaves its player count open)."""
    table = run.variant.tables[index]
    size = whole(table.players, run.env)
    return Scope(table.name, size, table.zones), table_env(run.env, table, index, size)


def simulate(game: Game, variant: Variant, players: int, seed: str | random.Random,
             inventory: tuple[Instance, ...] | None = None, *, quiet: bool = False,
             cache: dict[tuple[Any, ...], Any] | None = None, reads: frozenset[str] | None = None,
             track: bool | None = None) -> Run:
    """One setup. ``seed`` may be a Random to continue (Monte Carlo replays share one stream).

    A ``quiet`` replay checks nothing; given ``reads`` (the zone names it will look at) it also leaves out
    the steps that cannot change them (:func:`replay_plan`). ``track`` (default: not ``quiet``) records where
    randomness entered (:mod:`~punchboard.verifier.probability.origins`); a verdict re-run checks everything
    and needs no such record.
    """
    inventory = inventory if inventory is not None else build_inventory(game)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    run = Run(game, variant, players, rng, inventory, quiet=quiet, cache=cache if cache is not None else {},
              origins=Origins(enabled=not quiet if track is None else track))
    watch = getattr(rng, "watch", None)
    if watch is not None:  # an enumeration's stream asks which step each draw is for
        watch(run)
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
        start = fixed_prefix(steps, plan)
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
                table_start = fixed_prefix(variant.tables[0].steps, plan, variant.tables[0].name)
                run_steps(run, variant.tables[0].steps, *first, stop=table_start, plan=plan)
            saved = run.cache[key] = ({k: list(v) for k, v in run.zones.items()}, dict(run.per_player),
                                      set(run.shared), dict(run.open_zones), dict(run.open_box), table_start)
        zones, per_player, shared, open_zones, open_box, table_start = saved
        run.zones = {k: list(v) for k, v in zones.items()}
        run.per_player, run.shared, run.open_zones = dict(per_player), set(shared), dict(open_zones)
        run.open_box = dict(open_box)
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
            check_exactly(run, scope, t_env)
    if variant.tables and len(run.table_sizes) == len(variant.tables) and seated != players:
        run.findings.append(Finding("tables", f"the tables seat {seated} players, not {players}", need=players, have=seated))
    if not quiet:
        check_expectations(run, variant.expect, top, env)
        check_exactly(run, top, env)
    return run
