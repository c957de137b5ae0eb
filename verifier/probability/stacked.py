"""Exact figures for one hand that holds pieces of several independently shuffled piles (a ``split`` with
pieces shuffled into each pile, stacked; a draw from the top reaches into the second pile).

Each pile is an origin of its own (:mod:`.origins`): its fixed pieces (the ones shuffled in) and a block of
pieces of an earlier random arrangement (the deck the piles were cut from), shuffled together. The blocks of
one earlier arrangement are disjoint, so how many marked pieces each block holds follows one multivariate
hypergeometric law over that arrangement's pieces; given those counts, each pile is shuffled on its own, and the
pieces the hand took from its top are a uniformly random subset of the pile: hypergeometric again. The figure
sums over both, exactly, with :class:`fractions.Fraction`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .origins import Origins

BUDGET = 2_000_000  # most (state, count) pairs the sum may visit; beyond it, an estimate


@dataclass(frozen=True)
class _Pile:
    size: int  # the pile's pieces
    taken: int  # how many of them the hand holds
    fixed_marked: int  # marked pieces among its own (untagged, or of an origin with one known law) pieces
    blocks: tuple[tuple[int, int], ...]  # (position of the earlier arrangement in `parents`, pieces of it)


def _hypergeometric(size: int, marked: int, taken: int) -> dict[int, Fraction]:
    """How many marked pieces ``taken`` of ``size`` hold when ``marked`` are marked: {count: probability}."""
    whole = math.comb(size, taken)
    return {k: Fraction(math.comb(marked, k) * math.comb(size - marked, taken - k), whole)
            for k in range(max(0, taken - (size - marked)), min(taken, marked) + 1)}


def _piles(origins: Origins, hand: Sequence[int], tags: set[int], marked: Callable[[int], bool]
           ) -> tuple[list[_Pile], list[int]] | str:
    """The hand's piles and the earlier arrangements they were cut from, or why the figure is an estimate."""
    parents: list[int] = []
    piles: list[_Pile] = []
    for o in sorted(tags):
        origin = origins.origins[o]
        if origin.tainted:
            return f"estimate: {origin.tainted}"
        taken = sum(1 for i in hand if origins.tag.get(i) == o)
        if not origin.mixture:
            piles.append(_Pile(len(origin.pool), taken, sum(1 for i in origin.pool if marked(i)), ()))
            continue
        blocks = []
        for part, size in origin.parts:
            parent = origins.origins[part]
            if parent.tainted or parent.mixture:
                return "estimate: the piles were cut from a deck that was itself a mix of random steps"
            if part not in parents:
                parents.append(part)
            blocks.append((parents.index(part), size))
        piles.append(_Pile(len(origin.pool), taken, sum(1 for i in origin.fixed if marked(i)), tuple(blocks)))
    if not _independent(origins, sorted(tags), parents):
        return "estimate: the hands hold pieces of random steps that depend on each other"
    return piles, parents


def _independent(origins: Origins, tags: list[int], parents: list[int]) -> bool:
    """Whether the piles depend on each other only through the arrangements they were cut from, and those
    arrangements on nothing they share."""
    shared = [origins.origins[p].ancestors for p in parents]
    if any(a & b for n, a in enumerate(shared) for b in shared[n + 1:]):
        return False
    own = []
    for o in tags:
        origin = origins.origins[o]
        inherited = frozenset().union(*(origins.origins[part].ancestors for part, _ in origin.parts))
        own.append(origin.ancestors - inherited)
    lineage = frozenset().union(*shared)
    return all(not (a & b) for n, a in enumerate(own) for b in own[n + 1:]) and not any(a & lineage for a in own)


def stacked_probability(origins: Origins, hand: Sequence[int], tags: set[int], marked: Callable[[int], bool],
                        fixed: int, low: int, high: int | None) -> Fraction | str:
    """P(low ≤ marked pieces in ``hand`` ≤ high) when ``hand`` holds ``fixed`` marked pieces no random step
    arranged and pieces of the piles ``tags``; or why it is only estimated."""
    found = _piles(origins, hand, tags, marked)
    if isinstance(found, str):
        return found
    piles, parents = found
    pools = [len(origins.origins[p].pool) for p in parents]
    in_pool = [sum(1 for i in origins.origins[p].pool if marked(i)) for p in parents]
    cut = [sum(size for pile in piles for at, size in pile.blocks if at == n) for n in range(len(parents))]
    # states: (marked pieces of each parent placed in the piles so far, marked pieces the hand holds) → weight
    states: dict[tuple[tuple[int, ...], int], Fraction] = {(tuple(0 for _ in parents), 0): Fraction(1)}
    visited = 0
    for pile in piles:
        following: dict[tuple[tuple[int, ...], int], Fraction] = {}
        for (used, held), weight in states.items():
            for placed, ways in _block_fillings(pile.blocks, used, in_pool):
                visited += 1
                if visited > BUDGET:
                    return "estimate: too many ways to fill these piles to count them all"
                now = tuple(u + p for u, p in zip(used, placed, strict=True))
                for k, p in _hypergeometric(pile.size, pile.fixed_marked + sum(placed), pile.taken).items():
                    key = (now, held + k)
                    following[key] = following.get(key, Fraction(0)) + weight * ways * p
        states = following
    total = Fraction(0)
    for (used, held), weight in states.items():
        if not (fixed + held >= low and (high is None or fixed + held <= high)):
            continue
        rest = Fraction(1)
        for n, u in enumerate(used):  # the parent's other marked pieces lie outside the piles
            outside = pools[n] - cut[n]
            rest *= Fraction(math.comb(outside, in_pool[n] - u), math.comb(pools[n], in_pool[n]))
        total += weight * rest
    return total


def _block_fillings(blocks: tuple[tuple[int, int], ...], used: tuple[int, ...], in_pool: list[int]
                    ) -> list[tuple[tuple[int, ...], int]]:
    """Each way a pile's blocks can hold marked pieces of their parents: (marked per parent, ways to choose)."""
    fillings: list[tuple[tuple[int, ...], int]] = [(tuple(0 for _ in used), 1)]
    for at, size in blocks:
        grown = []
        for placed, ways in fillings:
            left = in_pool[at] - used[at] - placed[at]
            for m in range(0, min(size, left) + 1):
                more = list(placed)
                more[at] += m
                grown.append((tuple(more), ways * math.comb(size, m)))
        fillings = grown
    return fillings
