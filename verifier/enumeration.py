"""Exact verdicts by enumerating every outcome of the random steps a verdict depends on.

A cell whose verdict depends on the deal (:mod:`.verdicts`) usually depends on few random choices: which
team or suit each player is given (a ``give`` with ``same:``), a shuffle of a handful of pieces. The setup is
run once for every outcome of those choices, each outcome weighted by its probability; every other random
step (the big deck shuffle no check reads) is drawn from one fixed stream, which is sound because every
run confirms that no check read what those steps arranged. Pieces that no condition can tell apart (same
component and fields) are one *kind*: a shuffle is enumerated as the sequence of kinds it lays out, each
weighted by how many pieces of that kind were left, so ten identical Coppers are one outcome, not 10!.

When the outcomes number more than :data:`BUDGET`, or a run shows that a check read a step that was not
enumerated and enumerating it too would pass the budget, the enumeration gives up and the verdict comes
from the Monte Carlo re-runs instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, cast

from punchboard.spec.model import Game
from punchboard.spec.setup_model import Variant

from .findings import Chance, Finding
from .inventory import Instance
from .setup.simulate import simulate
from .setup.words import describe_step
from .setup.zones import Run
from .supply.bounds import check_supply

BUDGET = 4096  # most outcomes (whole setup runs) one cell's enumeration may take
if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


class TooMany(Exception):
    """More outcomes than the budget allows."""


class _Unseen(Exception):
    """A check read what a step that was not enumerated arranged."""

    def __init__(self, steps: set[str]):
        self.steps = steps


def _kind_key(uses_copy: bool) -> Callable[[Instance], tuple[Any, ...]]:
    def key(instance: Instance) -> tuple[Any, ...]:
        items = sorted((k, repr(v)) for k, v in instance.env.items() if uses_copy or k != "copy")
        return instance.component, tuple(items)
    return key


class ScriptedRandom(random.Random):
    """A random stream that makes the enumerated draws as a script says and records the choices it met.

    ``choice`` is always enumerated (a ``give`` choosing a value); ``shuffle`` and ``sample`` are
    enumerated in the steps named by ``steps`` and drawn from the fixed stream elsewhere."""

    def __init__(self, script: list[int], steps: set[str], kinds: dict[int, tuple[Any, ...]], budget: int):
        super().__init__("enumeration")
        self.script, self.steps, self.kinds, self.budget = script, steps, kinds, budget
        self.at = 0
        self.points: list[int] = []  # options at each enumerated draw, in order
        self.weight = Fraction(1)
        self.run: Run | None = None

    def _pick(self, options: int) -> int:
        chosen = self.script[self.at] if self.at < len(self.script) else 0
        self.at += 1
        self.points.append(options)
        return chosen

    def watch(self, run: Run) -> None:
        """Called by :func:`~.setup.simulate.simulate` with the run it draws for."""
        self.run = run

    def _enumerated(self) -> bool:
        if self.run is None or self.run.current is None:
            return False
        step, scope = self.run.current
        return describe_step(step, scope) in self.steps

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        index = self._pick(len(seq))
        self.weight /= len(seq)
        return seq[index]

    def _draw_kinds(self, pool: list[int], k: int) -> list[int]:
        by_kind: dict[tuple[Any, ...], list[int]] = {}
        for i in pool:
            by_kind.setdefault(self.kinds[i], []).append(i)
        if k == len(pool):  # how many kind sequences there are (a multinomial), or a bound on it
            outcomes = math.factorial(k)
            for members in by_kind.values():
                outcomes //= math.factorial(len(members))
        else:
            outcomes = min(len(by_kind) ** k, math.perm(len(pool), k))
        if outcomes > self.budget:
            raise TooMany
        order = sorted(by_kind)
        out: list[int] = []
        left = len(pool)
        for _ in range(k):
            live = [kind for kind in order if by_kind[kind]]
            kind = live[self._pick(len(live))]
            self.weight *= Fraction(len(by_kind[kind]), left)
            out.append(by_kind[kind].pop(0))
            left -= 1
        return out

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if not self._enumerated():
            super().shuffle(x)
            return
        x[:] = self._draw_kinds(list(x), len(x))

    def sample(self, population: Sequence[T], k: int, *, counts: Iterable[int] | None = None) -> list[T]:
        if not self._enumerated():
            return super().sample(population, k)
        ids = cast(list[int], list(population))  # the setup simulation samples instance ids alone
        return cast(list[T], self._draw_kinds(ids, k))


def _uses_copy(variant: Variant) -> bool:
    texts = [s.where for s in variant.steps] + [s.when for s in variant.steps]
    texts += [s.where for t in variant.tables for s in t.steps] + [e.has for e in variant.expect]
    texts += [e.has for t in variant.tables for e in t.expect] + [c.where for c in variant.supply]
    return any(t is not None and "copy" in t for t in texts)


@dataclass
class Exact:
    findings: list[Finding]
    fails_on: Chance
    outcomes: int


def enumerate_verdict(game: Game, variant: Variant, players: int, run: Run, first: list[Finding],
                      inventory: tuple[Instance, ...], budget: int = BUDGET) -> Exact | None:
    """Every outcome of the random steps the first ``run``'s checks read, or None when they are too many.
    ``first`` is that run's findings (its supply bounds included)."""
    key = _kind_key(_uses_copy(variant))
    kinds = {i.id: key(i) for i in inventory}
    steps = {run.origins.origins[o].made_by for o in run.origins.varied if not run.origins.origins[o].by_content}
    for _ in range(4):  # a run may show a read of a step the first run did not read: enumerate it too
        try:
            return _walk(game, variant, players, run, first, inventory, kinds, steps, budget)
        except TooMany:
            return None
        except _Unseen as unseen:
            steps |= unseen.steps
    return None


def _walk(game: Game, variant: Variant, players: int, first_run: Run, first: list[Finding],
          inventory: tuple[Instance, ...], kinds: dict[int, tuple[Any, ...]], steps: set[str], budget: int) -> Exact:
    script: list[int] = []
    outcomes = 0
    fails = Fraction(0)
    share: dict[tuple[str, str], Fraction] = {}
    example: dict[tuple[str, str], Finding] = {}
    while True:
        outcomes += 1
        if outcomes > budget:
            raise TooMany
        rng = ScriptedRandom(script, steps, kinds, budget)
        replay = simulate(game, variant, players, rng, inventory, cache=first_run.cache)
        findings = replay.findings + check_supply(replay)
        unseen = {replay.origins.origins[o].made_by for o in replay.origins.varied
                  if not replay.origins.origins[o].by_content} - steps
        if unseen:
            raise _Unseen(unseen)
        if any(f.severity == "fail" for f in findings):
            fails += rng.weight
        for k in {(f.step, f.severity) for f in findings}:
            share[k] = share.get(k, Fraction(0)) + rng.weight
        for f in findings:
            example.setdefault((f.step, f.severity), f)
        # the next script: the last draw with an option left moves on to it, every later draw starts over
        taken = script + [0] * (len(rng.points) - len(script))
        n = len(rng.points) - 1
        while n >= 0 and taken[n] + 1 >= rng.points[n]:
            n -= 1
        if n < 0:
            break
        script = taken[:n] + [taken[n] + 1]
    out: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for f in [*first, *example.values()]:
        k = (f.step, f.severity)
        if k in seen or k not in share:
            continue
        seen.add(k)
        p = float(share[k])
        message = f"for example {f.message}" if f.message and share[k] < 1 else f.message
        out.append(replace(f, message=message, chance=None if share[k] == 1 else Chance(p, "exact", p, p, outcomes)))
    p = float(fails)
    return Exact(out, Chance(p, "exact", p, p, outcomes), outcomes)
