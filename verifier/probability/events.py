"""Deal events over the whole random setup: an exact figure where the combinatorics allow, and a Monte Carlo
check that re-runs the whole setup from scratch in every trial.

The exact figure comes from where randomness entered (see :mod:`.origins`): when every piece in the hands an
event reads was arranged by one random step and nothing since looked at what those pieces are, each hand is a
uniformly random subset of that step's pieces, and the probability is hypergeometric over them, whatever
removals, burns and deals came between. Otherwise the figure is an estimate and says why.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from punchboard.spec.model import Game
from punchboard.spec.setup_model import Event, Variant

from ..counts import blocked_by
from ..findings import EventStat, Finding
from ..inventory import Instance
from ..setup.simulate import simulate, table_env
from ..setup.zones import Run, Scope
from . import compound
from .stacked import stacked_probability
from .stats import Z_999, all_hold, exact_probability, wilson

BLOCK = 500
COMPOUND_BUDGET = 2_000_000  # most hand fillings a union or of-a-kind figure may count; beyond it, an estimate
"""Monte Carlo trials per block. Block ``b`` of a variant × player count draws from its own stream, seeded
with ``{seed}:{variant}:{players}:events:{b}``, so the counts do not depend on how blocks are shared out
over processes (``verify --jobs``). The blocks are fixed by the trial count alone."""


@dataclass(frozen=True)
class _Target:
    event: Event
    index: int
    scope: Scope
    env: Mapping[str, Any]
    read: compound.Reading  # what it reads of a hand (the pieces its conditions select: the same in every replay)

    @property
    def marked(self) -> frozenset[int]:
        return self.read.terms[0]

    @property
    def plain(self) -> bool:
        return not self.event.any_of and self.event.of_a_kind is None


@dataclass
class Study:
    """One variant × player count's deal events: what the setup run found, and the Monte Carlo to do."""

    game: Game
    variant: Variant
    players: int
    run: Run
    inventory: tuple[Instance, ...]
    targets: list[_Target]
    exact: list[tuple[float | None, str]]
    findings: list[Finding]
    trials: int
    seed_text: str
    cross_check: bool = False  # Monte Carlo for events with an exact figure too (verify --cross-check)

    def sampled(self) -> list[int]:
        """The events the Monte Carlo estimates: those without an exact figure, or every one to cross-check."""
        return [n for n, (value, _) in enumerate(self.exact) if value is None or self.cross_check]

    def blocks(self) -> list[tuple[int, int]]:
        """(block number, trials in it) for every block of the Monte Carlo."""
        if not self.sampled():
            return []
        return [(b, min(BLOCK, self.trials - b * BLOCK)) for b in range((self.trials + BLOCK - 1) // BLOCK)]

    def count(self, block: int, size: int) -> list[int]:
        """How many of ``size`` whole-setup replays of ``block`` meet each event."""
        rng = random.Random(f"{self.seed_text}:{block}")
        sampled = self.sampled()
        reads = frozenset(self.targets[n].event.zone for n in sampled)
        hits = [0] * len(self.targets)
        for _ in range(size):
            replay = simulate(self.game, self.variant, self.players, rng, self.inventory, quiet=True,
                              cache=self.run.cache, reads=reads)
            for n in sampled:
                hits[n] += _outcome(replay, self.targets[n])
        return hits


def _scopes(run: Run) -> list[tuple[Scope, Mapping[str, Any]]]:
    scopes: list[tuple[Scope, Mapping[str, Any]]] = [(Scope("", run.players, run.variant.zones), run.env)]
    for index, table in enumerate(run.variant.tables):
        if table.name in run.table_sizes:
            size = run.table_sizes[table.name]
            scopes.append((Scope(table.name, size, table.zones), table_env(run.env, table, index, size)))
    return scopes


def _hands(run: Run, target: _Target) -> list[list[int]]:
    """The zones the event reads: every player's, player 1's (``first``), one named player's, or one shared zone."""
    keys = run.keys(target.scope, target.event.zone)
    who = target.event.who
    if who == "first":
        keys = keys[:1]
    elif isinstance(who, int):
        keys = keys[who - 1:who]
    return [run.zones.get(k, []) for k in keys]


def _inside(k: int, event: Event) -> bool:
    return k >= event.low and (event.high is None or k <= event.high)


def _env_value(run: Run, name: str, instance_id: int) -> Any:
    """The value ``name`` has in the piece ``instance_id``'s fields (None when it has none)."""
    return run.inventory[instance_id].env.get(name)


def _outcome(run: Run, target: _Target) -> bool:
    if target.plain:
        counts = [len(target.marked.intersection(hand)) for hand in _hands(run, target)]  # a hand holds a piece once
        inside = [_inside(c, target.event) for c in counts]
    else:
        inside = [target.read.hit(hand) for hand in _hands(run, target)]
    return any(inside) if target.event.who == "any" else all(inside)


def _exact(run: Run, target: _Target) -> tuple[float | None, str]:
    """The exact probability over the whole setup, or None and why it is only estimated.

    Each hand is its fixed pieces plus pieces of at most one random origin; hands of one origin are counted
    jointly (hypergeometric over its pieces, or over a mixture's law of how many it marks), hands of
    independent origins multiply.
    """
    decided = run.read_zones.get(run.key(target.scope, target.event.zone))
    if decided is not None:
        return None, (f"estimate: {decided} chose pieces by what they are, so how many of each random step's "
                      "pieces these hands hold differs from deal to deal")
    if not target.plain:
        return _exact_compound(run, target)
    event, origins = target.event, run.origins
    hands = _hands(run, target)
    if len(hands) == 1 and len(origins.tagged_in(hands[0])) > 1:
        return _exact_stacked(run, target, hands[0])
    fixed: list[int] = []
    groups: dict[int, list[int]] = {}
    for n, hand in enumerate(hands):
        tags = origins.tagged_in(hand)
        if len(tags) > 1:
            return None, "estimate: the hands hold pieces from more than one random step"
        fixed.append(sum(1 for i in hand if origins.tag.get(i) is None and i in target.marked))
        if tags:
            groups.setdefault(tags.pop(), []).append(n)
    if not groups:
        inside = [_inside(c, event) for c in fixed]
        hit = all(inside) if event.who != "any" else any(inside)
        return (1.0 if hit else 0.0), "no random step reaches these hands: the outcome is fixed"
    ancestry = [origins.origins[o].ancestors for o in groups]
    if any(a & b for n, a in enumerate(ancestry) for b in ancestry[n + 1:]):
        return None, "estimate: the hands hold pieces of random steps that depend on each other"
    want = "any" if event.who == "any" else "every"
    miss = Fraction(1)  # P(no hand meets it) for any; P(every hand meets it) for every and first
    for o, members in groups.items():
        origin = origins.origins[o]
        law = origins.marked_law(o, target.marked.__contains__)
        if law is None:
            return None, f"estimate: {origin.tainted}"
        sizes = [sum(1 for i in hands[n] if origins.tag.get(i) == o) for n in members]
        bounds = [(event.low - fixed[n], None if event.high is None else event.high - fixed[n]) for n in members]
        value = sum((p * exact_probability(sizes, len(origin.pool), m, 0, None, want, bounds) for m, p in law.items()),
                    Fraction(0))
        miss *= (1 - value) if want == "any" else value
    grouped = {n for members in groups.values() for n in members}
    for n, count in enumerate(fixed):
        if n not in grouped:
            held = _inside(count, event)
            miss *= (0 if held else 1) if want == "any" else (1 if held else 0)
    value = 1 - miss if want == "any" else miss
    steps = " and ".join(origins.origins[o].made_by for o in groups)
    return float(value), f"exact over every arrangement of {steps}"


def _exact_stacked(run: Run, target: _Target, hand: list[int]) -> tuple[float | None, str]:
    """One hand holding pieces of several random steps: exact when they are independently shuffled piles cut
    from one arrangement (:mod:`.stacked`), else an estimate."""
    origins, event = run.origins, target.event
    tags = origins.tagged_in(hand)
    fixed = sum(1 for i in hand if origins.tag.get(i) is None and i in target.marked)
    found = stacked_probability(origins, hand, tags, target.marked.__contains__, fixed, event.low, event.high)
    if isinstance(found, str):
        return None, found
    steps = " and ".join(dict.fromkeys(origins.origins[o].made_by for o in sorted(tags)))
    return float(found), f"exact over every arrangement of {steps}, pile by pile"


def _exact_compound(run: Run, target: _Target) -> tuple[float | None, str]:
    """A union or k-of-a-kind event: multivariate hypergeometric over the classes its terms make
    (:mod:`.compound`), hand by hand, for each random step the hands' pieces come from."""
    event, origins, read = target.event, run.origins, target.read
    hands = _hands(run, target)
    fixed: list[dict[Any, int]] = []
    groups: dict[int, list[int]] = {}
    for n, hand in enumerate(hands):
        tags = origins.tagged_in(hand)
        if len(tags) > 1:
            return None, "estimate: the hands hold pieces from more than one random step"
        counts: dict[Any, int] = {}
        for i in hand:
            if origins.tag.get(i) is None:
                cls = read.classify(i)
                counts[cls] = counts.get(cls, 0) + 1
        fixed.append(counts)
        if tags:
            groups.setdefault(tags.pop(), []).append(n)
    want_hit = event.who != "any"  # any: P(every hand misses it); every, first, a named player: P(every hand meets it)
    if not groups:
        inside = [read.hit_counts(c) for c in fixed]
        hit = any(inside) if event.who == "any" else all(inside)
        return (1.0 if hit else 0.0), "no random step reaches these hands: the outcome is fixed"
    ancestry = [origins.origins[o].ancestors for o in groups]
    if any(a & b for n, a in enumerate(ancestry) for b in ancestry[n + 1:]):
        return None, "estimate: the hands hold pieces of random steps that depend on each other"
    value = Fraction(1)
    for o, members in groups.items():
        origin = origins.origins[o]
        if origin.tainted:
            return None, f"estimate: {origin.tainted}"
        if origin.mixture:
            return None, ("estimate: a union or of-a-kind event over a shuffle of pieces from several random steps "
                          "has no exact figure yet")
        sizes = [sum(1 for i in hands[n] if origins.tag.get(i) == o) for n in members]
        _, class_sizes, holds = compound.group_holds(read, origin.pool, [fixed[n] for n in members], want_hit)
        try:
            value *= all_hold(sizes, class_sizes, holds, budget=COMPOUND_BUDGET)
        except OverflowError:
            return None, "estimate: too many ways to fill these hands to count them all"
    grouped = {n for members in groups.values() for n in members}
    for n, counts in enumerate(fixed):
        if n not in grouped and read.hit_counts(counts) != want_hit:
            value = Fraction(0)
    value = value if want_hit else 1 - value
    steps = " and ".join(origins.origins[o].made_by for o in groups)
    return float(value), f"exact over every arrangement of {steps}"


def event_stats(game: Game, variant: Variant, players: int, run: Run, trials: int, seed: int,
                inventory: tuple[Instance, ...], cross_check: bool = False) -> tuple[list[EventStat], list[Finding]]:
    """Every event of one variant × player count, its Monte Carlo run here, block after block."""
    study = prepare(game, variant, players, run, trials, seed, inventory, cross_check)
    return finish(study, [study.count(block, size) for block, size in study.blocks()])


def prepare(game: Game, variant: Variant, players: int, run: Run, trials: int, seed: int,
            inventory: tuple[Instance, ...], cross_check: bool = False) -> Study:
    """The events that can be computed, their exact figures, and the findings about the rest."""
    findings: list[Finding] = []
    targets: list[_Target] = []
    for index, event in enumerate(variant.events):
        label = f'event "{event.name}"'
        reason = blocked_by(list(event.conditions), run.env)
        if reason is not None:
            findings.append(Finding(label, f"not computed: left open by the rulebook: {reason}", "warn"))
            continue
        for condition in event.conditions:
            if not any(run.matches(i.id, condition, (), run.env) for i in inventory):
                findings.append(Finding(label, f"'{condition}' matches no piece in the box: every hand counts 0 "
                                               "(a misspelt name or value?)", "warn"))
        found = False
        shared_seen: set[str] = set()
        for scope, env in _scopes(run):
            base = run.key(scope, event.zone)
            if base not in run.per_player:
                if base in shared_seen or (base not in run.zones and base not in run.open_zones):
                    continue  # a shared zone (a market row, the nobles on the table) is read once
                shared_seen.add(base)
            elif isinstance(event.who, int) and event.who > len(run.keys(scope, event.zone)):
                findings.append(Finding(label, f"not computed: there is no player {event.who} at "
                                               f"{run.players} players", "warn"))
                found = True
                continue
            found = True
            where = f" at the {scope.table} table" if scope.table else ""
            keys = run.keys(scope, event.zone)
            if any(k in run.open_zones for k in keys):
                findings.append(Finding(label, f"not computed{where}: '{event.zone}' depends on a step the rulebook "
                                               "leaves open", "warn"))
                continue
            read = compound.reading(event, partial(run.matching, components=(), env=env),
                                    partial(_env_value, run, event.of_a_kind or ""))
            target = _Target(event, index, scope, env, read)
            if not any(_hands(run, target)):
                whose = ("player 1's" if event.who == "first" else f"player {event.who}'s" if isinstance(event.who, int)
                         else "every player's" if base in run.per_player else "the zone")
                findings.append(Finding(label, f"not computed{where}: {whose} '{event.zone}' is empty — the deal "
                                               "into it dealt nothing (see the step above)", "warn"))
                continue
            targets.append(target)
        if not found:
            findings.append(Finding(label, f"not computed: no step filled '{event.zone}'", "warn"))
    exact = [_exact(run, t) for t in targets]
    return Study(game, variant, players, run, inventory, targets, exact, findings, trials,
                 f"{seed}:{variant.id}:{players}:events", cross_check)


def comparisons(study: Study) -> int:
    """How many of the study's events have an exact figure for the Monte Carlo estimate to agree with."""
    return sum(1 for n in study.sampled() if study.exact[n][0] is not None) if study.trials else 0


def finish(study: Study, block_hits: list[list[int]], z: float = Z_999) -> tuple[list[EventStat], list[Finding]]:
    """The statistics from every block's counts (in block order), and the findings; ``z`` sets the
    intervals (:func:`~.stats.joint_z` over the whole run)."""
    findings, trials, seed_text = study.findings, study.trials, study.seed_text
    if not study.targets:
        return [], findings
    hits = [sum(column) for column in zip(*block_hits, strict=True)] if block_hits else [0] * len(study.targets)
    stats = []
    sampled = set(study.sampled())
    for n, (target, (value, why), hit) in enumerate(zip(study.targets, study.exact, hits, strict=True)):
        runs = trials if n in sampled else 0  # an exact figure needs no estimate unless --cross-check asks
        low, high = wilson(hit, runs, z) if runs else ((value, value) if value is not None else (0.0, 1.0))
        stats.append(EventStat(target.event.name, target.scope.table, value, hit / runs if runs else (value or 0.0), low,
                               high, runs, hit, seed_text, "exact" if value is not None else "estimate", why))
    for stat in stats:
        if not stat.agrees:
            findings.append(Finding(f'event "{stat.name}"', f"Monte Carlo {stat.estimate:.5f} [{stat.low:.5f}, "
                                    f"{stat.high:.5f}] disagrees with the exact {stat.exact:.5f} (seed {stat.seed})", "warn"))
    return stats, findings
