"""Deal statistics: exact probabilities (multivariate hypergeometric) and a seeded Monte Carlo check.

A deal sends each position of a shuffled pool to a player or to another pile;
an event asks whether the number of marked pieces in players' hands lies in
[low, high] for any / every / the first player. Exact values come from counting
with whole numbers: the K marked pieces are a uniform K-subset of the D positions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

Z_999 = 3.2905  # two-sided 99.9 % normal quantile


def _inside(k: int, low: int, high: int | None) -> bool:
    return k >= low and (high is None or k <= high)


def exact_probability(hand_sizes: Sequence[int], pool: int, marked: int, low: int, high: int | None, who: str) -> Fraction:
    """P(event) when ``marked`` of ``pool`` pieces are marked and players get hands of ``hand_sizes``."""
    others = pool - sum(hand_sizes)
    if who == "first":
        hand_sizes, others = list(hand_sizes[:1]), pool - hand_sizes[0]
    # ways[s]: weighted ways the hands so far hold s marked pieces, each hand meeting the filter
    want_inside = who in ("every", "first")
    ways = {0: 1}
    for size in hand_sizes:
        nxt: dict[int, int] = {}
        for used, w in ways.items():
            for k in range(0, min(size, marked - used) + 1):
                if _inside(k, low, high) != want_inside:
                    continue
                nxt[used + k] = nxt.get(used + k, 0) + w * math.comb(size, k)
        ways = nxt
    favourable = sum(w * math.comb(others, marked - used) for used, w in ways.items() if 0 <= marked - used <= others)
    fraction = Fraction(favourable, math.comb(pool, marked))
    return fraction if want_inside else 1 - fraction


def monte_carlo(owner: Sequence[int], players: int, marked_flags: Sequence[bool], low: int, high: int | None,
                who: str, trials: int, rng: random.Random) -> int:
    """Hits in ``trials`` shuffled deals; positions are dealt as ``owner`` says (player index or -1)."""
    pool = len(owner)
    marked = sum(marked_flags)
    complement = marked > pool // 2
    sample_size = pool - marked if complement else marked
    hand_sizes = [0] * players
    for o in owner:
        if o >= 0:
            hand_sizes[o] += 1
    positions = range(pool)
    hits = 0
    for _ in range(trials):
        counts = [0] * players
        for p in rng.sample(positions, sample_size):
            o = owner[p]
            if o >= 0:
                counts[o] += 1
        if complement:
            counts = [hand_sizes[i] - counts[i] for i in range(players)]
        if who == "first":
            ok = _inside(counts[0], low, high)
        elif who == "every":
            ok = all(_inside(c, low, high) for c in counts)
        else:
            ok = any(_inside(c, low, high) for c in counts)
        hits += ok
    return hits


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
