"""Deal statistics: exact probabilities (multivariate hypergeometric) and the Wilson interval of a Monte Carlo check.

An event asks whether the number of marked pieces in players' hands lies in
[low, high] for any / every / the first player. Exact values come from counting
with whole numbers: the K marked pieces are a uniform K-subset of the D positions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from statistics import NormalDist

Z_999 = 3.2905  # two-sided 99.9 % normal quantile
FALSE_ALARM = 0.001  # chance that a whole verify run wrongly says "disagrees" somewhere


def joint_z(comparisons: int, false_alarm: float = FALSE_ALARM) -> float:
    """The z of intervals that hold all at once with probability 1 − ``false_alarm`` (Bonferroni).

    One verify run compares dozens of events with their exact figures; at 99.9 % each, a
    game with 36 of them would cry wolf in one run out of thirty. Widening every interval
    to the ``false_alarm / comparisons`` level keeps the run's chance of a false alarm at
    ``false_alarm``, whatever the number of events.
    """
    return NormalDist().inv_cdf(1 - false_alarm / (2 * max(1, comparisons)))


def _inside(k: int, low: int, high: int | None) -> bool:
    return k >= low and (high is None or k <= high)


def exact_probability(hand_sizes: Sequence[int], pool: int, marked: int, low: int, high: int | None, who: str,
                      bounds: Sequence[tuple[int, int | None]] | None = None) -> Fraction:
    """P(event) when ``marked`` of ``pool`` pieces are marked and players get hands of ``hand_sizes``.

    ``bounds`` gives each hand its own [low, high] (a hand that also holds fixed pieces needs fewer random
    ones); without it every hand has [``low``, ``high``].
    """
    limits = list(bounds) if bounds is not None else [(low, high)] * len(hand_sizes)
    if who == "first":
        hand_sizes, limits = list(hand_sizes[:1]), limits[:1]
    others = pool - sum(hand_sizes)
    # ways[s]: weighted ways the hands so far hold s marked pieces, each hand meeting the filter
    want_inside = who in ("every", "first")
    ways = {0: 1}
    for size, (lo, hi) in zip(hand_sizes, limits, strict=True):
        nxt: dict[int, int] = {}
        for used, w in ways.items():
            for k in range(0, min(size, marked - used) + 1):
                if _inside(k, lo, hi) != want_inside:
                    continue
                nxt[used + k] = nxt.get(used + k, 0) + w * math.comb(size, k)
        ways = nxt
    favourable = sum(w * math.comb(others, marked - used) for used, w in ways.items() if 0 <= marked - used <= others)
    fraction = Fraction(favourable, math.comb(pool, marked))
    return fraction if want_inside else 1 - fraction


def _vectors(size: int, limits: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to hold ``size`` pieces over classes with at most ``limits[c]`` of class ``c``."""
    if not limits:
        if size == 0:
            yield ()
        return
    rest = sum(limits[1:])
    for k in range(max(0, size - rest), min(size, limits[0]) + 1):
        for tail in _vectors(size - k, limits[1:]):
            yield (k, *tail)


def all_hold(hand_sizes: Sequence[int], class_sizes: Sequence[int],
             holds: Callable[[int, tuple[int, ...]], bool], budget: int | None = None) -> Fraction:
    """P(every hand ``h`` holds a vector ``v`` of class counts with ``holds(h, v)``), when the hands are
    disjoint uniformly random subsets of a pool with ``class_sizes`` pieces of each class (multivariate
    hypergeometric, counted with whole numbers hand after hand). More than ``budget`` hand fillings to
    look at raises OverflowError."""
    looked = 0
    states = {tuple(class_sizes): 1}
    total, remaining = 1, sum(class_sizes)
    for h, size in enumerate(hand_sizes):
        total *= math.comb(remaining, size)
        remaining -= size
        following: dict[tuple[int, ...], int] = {}
        for left, ways in states.items():
            for vector in _vectors(size, left):
                looked += 1
                if budget is not None and looked > budget:
                    raise OverflowError("too many hand fillings")
                if not holds(h, vector):
                    continue
                w = ways
                for a, b in zip(left, vector, strict=True):
                    w *= math.comb(a, b)
                key = tuple(a - b for a, b in zip(left, vector, strict=True))
                following[key] = following.get(key, 0) + w
        states = following
    return Fraction(sum(states.values()), total)


def wilson(hits: int, trials: int, z: float = Z_999) -> tuple[float, float]:
    if trials == 0:
        return 0.0, 1.0
    p = hits / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == trials else min(1.0, centre + half)
    return low, high
