"""The setup step kinds, one function each (``KINDS``). Every step that cannot be done becomes a finding
with need and have; the step then does what it can, so one run reports every problem."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from punchboard.spec.setup_model import REMOVED, Step

from ..counts import whole
from .shortfalls import fail
from .words import describe_step
from .zones import Pile, Run, Scope


def _candidates(run: Run, step: Step, scope: Scope, env: Mapping[str, Any], key: str | None = None) -> list[int]:
    """The pieces a step may move: in its ``from`` zone (or one player's ``key`` of it) and matching it."""
    zone = list(run.zones.get(key, [])) if key is not None else run.pieces(scope, step.from_zone)
    if step.where is not None or step.components:
        selected = run.matching(step.where, step.components, env)
        if run.origins.enabled:
            run.origins.looked_at(zone, selected.__contains__, describe_step(step, scope))
        zone = [i for i in zone if i in selected]
    if step.kind in ("take", "remove") and step.match_zone and step.match_field:
        zone = _matched(run, step, scope, zone)
    return zone


def _matched(run: Run, step: Step, scope: Scope, found: list[int]) -> list[int]:
    """``match: {field, zone, zone_field}``: the pieces of ``found`` whose field equals the ``zone_field`` of the
    pieces in the shared match zone (Codenames: the key card says which team starts). When those pieces were
    arranged at random, which pieces this chooses differs from deal to deal: a random read."""
    assert step.match_zone is not None and step.match_field is not None
    field, there = step.match_field, step.match_zone_field or step.match_field
    shown = run.pieces(scope, step.match_zone)
    made_by = describe_step(step, scope)
    if any(run.origins.tag.get(i) is not None for i in shown):
        run.origins.read(shown, lambda i: run.inventory[i].env.get(there), made_by)
        run.origins.chose_at_random_by_content(found, made_by)
    else:
        run.origins.looked_at(found, lambda i: run.inventory[i].env.get(field), made_by)
    wanted = {run.inventory[i].env.get(there) for i in shown} - {None}
    return [i for i in found if run.inventory[i].env.get(field) in wanted]


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
                fail(run, step, scope, f"{who}nothing matches", need=1, have=0, component=run.component_label(found, step))
            chosen = found
        else:
            need = whole(step.count, env)
            if len(found) < need:
                fail(run, step, scope, who.rstrip(": "), need=need, have=len(found), component=run.component_label(found, step))
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
                fail(run, step, scope, who.rstrip(": "), need=need, have=len(found), component=run.component_label(found, step))
            found = found[:need]
        elif not found:
            fail(run, step, scope, f"{who}nothing matches, nothing removed", severity="warn", component=run.component_label(found, step))
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
            fail(run, step, scope, f"{len(pool)} pieces cannot be dealt into {len(hands)} hands",
                  need=len(hands), have=len(pool), component=run.component_label(pool, step))
        dealt = each * len(hands)
    else:
        each = whole(step.count, env)
        need = each * len(hands)
        if len(pool) < need:
            fail(run, step, scope, "", need=need, have=len(pool), component=run.component_label(pool, step))
        dealt = min(need, len(pool))
    for hand, key in enumerate(hands):
        run.put(key, pool[hand:dealt:len(hands)])
    rest = pool[dealt:]
    run.zones[source_key] = rest
    if step.evenly and step.remainder:
        run.zones[source_key] = []
        run.put(run.key(scope, step.remainder), rest)
    for key in hands:
        run.zones.setdefault(key, [])


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
            fail(run, step, scope, f"one {step.same} for each player, {each} pieces of it; the box has {sets} "
                  f"{step.same}{'s' if sets != 1 else ''} with {each} or more", need=len(hands), have=sets,
                  component=run.component_label(found, step), unit=f"{step.same} sets")
            sets_reported = True
    if same := step.same:
        # how many players a value can serve is fixed by the pieces alone, unless the pieces are themselves random
        run.origins.read(found, lambda i: run.inventory[i].env.get(same), made_by)
        run.origins.chose_at_random_by_content(found, made_by)
    if (match_field := step.match_field) and step.match_zone:
        matched = run.pieces(scope, step.match_zone)
        if any(run.origins.tag.get(i) is not None for i in matched):
            run.origins.read(matched, lambda i: run.inventory[i].env.get(match_field), made_by)
            run.origins.chose_at_random_by_content(found, made_by)
        else:
            run.origins.looked_at(found, lambda i: run.inventory[i].env.get(match_field), made_by)
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
                fail(run, step, scope, f"player {player}: no {step.same} left with {each} pieces"
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
        fail(run, step, scope, "", need=need, have=given_total, component=run.component_label(found, step))


def _place(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    found = _candidates(run, step, scope, env)
    each = whole(step.each, env)
    placed = 0
    remaining = list(found)
    if distinct_field := step.distinct_field:
        run.origins.looked_at(found, lambda i: run.inventory[i].env.get(distinct_field), describe_step(step, scope))
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
        kinds = len({run.inventory[i].env.get(step.distinct_field) for i in found}) if step.distinct_field else None
        note = f"no two with the same {step.distinct_field} in a zone; only {kinds} different" if step.distinct_field else ""
        fail(run, step, scope, note, need=need, have=placed if step.distinct_field else len(found), component=run.component_label(found, step))


def _draw_keep(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    source_key = run.key(scope, step.from_zone)
    draw, keep = whole(step.draw, env), whole(step.keep, env)
    for hand in _hands(run, scope, step.to):
        pile = run.zones.get(source_key, [])
        if len(pile) < draw:
            fail(run, step, scope, f"{hand.split('#')[0]} of player {hand.split('#')[1]}", need=draw, have=len(pile), component=run.component_label(pile, step))
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
        fail(run, step, scope, f"{scope.players} players, {len(seats)} seats", need=scope.players, have=len(seats), component=run.component_label(seats, step))
    elif len(seats) > scope.players:
        fail(run, step, scope, f"{len(seats) - scope.players} seats left empty", severity="warn",
              need=scope.players, have=len(seats), component=run.component_label(seats, step))


def _shuffle(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    for key in run.keys(scope, step.from_zone):  # a zone each player has: every player shuffles their own
        run.rng.shuffle(run.zones.setdefault(key, []))
        if run.origins.enabled:
            run.origins.shuffled(run.zones[key], describe_step(step, scope))


def _split(run: Run, step: Step, scope: Scope, env: Mapping[str, Any]) -> None:
    """Split ``from`` into ``piles`` near-equal piles (the top pieces make the first pile; sizes differ by at
    most one, the larger first), shuffle ``shuffle_in.each`` pieces into each pile, and stack the piles, the
    first on top, into ``to``. The piles are recorded on ``run.piles[to]`` (:class:`~.zones.Pile`)."""
    source_key, made_by = run.key(scope, step.from_zone), describe_step(step, scope)
    pool = list(run.zones.get(source_key, []))
    assert step.piles is not None
    count = whole(step.piles, env)
    if count == 0:
        fail(run, step, scope, "a split needs 1 or more piles", need=1, have=0, component=run.component_label(pool, step))
        return
    size, larger = divmod(len(pool), count)
    added: list[int] = []
    each = 0
    if step.shuffle_in is not None:
        added, each = _shuffled_in(run, step, scope, env, count)
    piles: list[Pile] = []
    start = 0
    for n in range(count):
        base = pool[start:start + size + (1 if n < larger else 0)]
        start += len(base)
        mine = added[n * each:(n + 1) * each]
        ids = base + mine
        if step.shuffle_in is not None:
            run.rng.shuffle(ids)
            if run.origins.enabled:
                run.origins.shuffled(ids, made_by)
        piles.append(Pile(tuple(ids), tuple(base), tuple(mine), step.shuffle_in is not None))
    run.zones[source_key] = []
    target = run.key(scope, step.to or step.from_zone)
    run.put(target, [i for pile in piles for i in pile.ids])
    run.piles[target] = tuple(piles)


def _shuffled_in(run: Run, step: Step, scope: Scope, env: Mapping[str, Any], count: int) -> tuple[list[int], int]:
    """The pieces a split shuffles into its ``count`` piles (the first ones matching), taken out of their zone;
    fewer than ``each`` × piles is a shortfall, and the last piles get fewer."""
    assert step.shuffle_in is not None
    spec = step.shuffle_in
    zone = run.pieces(scope, spec.from_zone)
    if spec.where is not None or spec.components:
        selected = run.matching(spec.where, spec.components, env)
        if run.origins.enabled:
            run.origins.looked_at(zone, selected.__contains__, describe_step(step, scope))
        zone = [i for i in zone if i in selected]
    each = whole(spec.each, env)
    need = each * count
    if len(zone) < need:
        label = ", ".join(spec.components) or run.component_label(zone, step)
        fail(run, step, scope, f"{each} to shuffle into each of {count} piles", need=need, have=len(zone), component=label)
    chosen = zone[:need]
    run.take_out(scope, spec.from_zone, chosen)
    return chosen, each


KINDS = {
    "take": _take,
    "remove": _remove,
    "shuffle": _shuffle,
    "deal": _deal,
    "give": _give,
    "place": _place,
    "draw_keep": _draw_keep,
    "seat": _seat,
    "split": _split,
}
