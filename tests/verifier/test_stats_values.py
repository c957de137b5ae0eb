"""The verifier's statistics held to values computed another way (issue #38 item 6: the Wilson formula and the
exact figures survived hand-made mutants, the only checks being that an interval brackets its estimate).

- Wilson intervals against the published 95 % values of Newcombe (1998), "Two-sided confidence intervals for
  the single proportion", Statistics in Medicine 17, 857–872, Table I, and against the roots of the score
  test's quadratic solved here;
- exact deal probabilities and multivariate hand fillings against brute-force enumeration of every deal;
- unions and k-of-a-kind readings of a hand (compound.py) against counting the hand's pieces directly.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from statistics import NormalDist

import pytest
from punchboard.verifier.probability import compound
from punchboard.verifier.probability.stats import (
    FALSE_ALARM,
    Z_999,
    _vectors,
    all_hold,
    exact_probability,
    joint_z,
    wilson,
)

from punchboard.spec.setup_model import Event, EventTerm

Z_95 = 1.959964


# --- Wilson -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("hits", "trials", "low", "high"), [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0),
])
def test_wilson_matches_newcombes_published_intervals(hits: int, trials: int, low: float, high: float) -> None:
    got = wilson(hits, trials, Z_95)
    assert got[0] == pytest.approx(low, abs=6e-5) and got[1] == pytest.approx(high, abs=6e-5), got


def _score_roots(hits: int, trials: int, z: float) -> tuple[float, float]:
    """The p where (p̂ − p)² = z² p (1 − p) / n: the roots of (n + z²) p² − (2 n p̂ + z²) p + n p̂² = 0."""
    p = hits / trials
    a, b, c = trials + z * z, -(2 * trials * p + z * z), trials * p * p
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@pytest.mark.parametrize("z", [1.0, Z_95, Z_999, 4.5])
@pytest.mark.parametrize(("hits", "trials"), [(1, 3), (7, 10), (50, 1000), (999, 1000), (2, 2), (0, 5), (123, 4567)])
def test_wilson_is_the_score_tests_quadratic_solved(hits: int, trials: int, z: float) -> None:
    low, high = _score_roots(hits, trials, z)
    got = wilson(hits, trials, z)
    # at 0 hits (or all) the interval's closed end is exactly 0 (or 1); the open end is the quadratic's root
    assert got[0] == (0.0 if hits == 0 else pytest.approx(low, rel=1e-12, abs=1e-15))
    assert got[1] == (1.0 if hits == trials else pytest.approx(high, rel=1e-12))


def test_wilson_at_the_ends_and_without_trials() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 0, 1.0) == (0.0, 1.0)
    n = 40
    assert wilson(0, n, Z_95) == (0.0, pytest.approx(Z_95**2 / (n + Z_95**2), rel=1e-12))
    assert wilson(n, n, Z_95) == (pytest.approx(n / (n + Z_95**2), rel=1e-12), 1.0)


def test_wilson_defaults_to_the_two_sided_999_per_mille_quantile() -> None:
    assert Z_999 == pytest.approx(NormalDist().inv_cdf(1 - 0.001 / 2), abs=1e-4)
    assert wilson(50, 1000) == wilson(50, 1000, Z_999)
    assert wilson(50, 1000) == pytest.approx(_score_roots(50, 1000, Z_999), rel=1e-12)


def test_joint_z_with_no_comparisons_is_one_comparisons() -> None:
    assert FALSE_ALARM == 0.001
    assert joint_z(0) == joint_z(1) == pytest.approx(NormalDist().inv_cdf(1 - FALSE_ALARM / 2), rel=1e-12)
    assert joint_z(10, 0.05) == pytest.approx(NormalDist().inv_cdf(1 - 0.05 / 20), rel=1e-12)


# --- exact figures against enumeration ------------------------------------------------------------------

def _enumerated(hand_sizes: Sequence[int], pool: int, marked: int, who: str,
                limits: Sequence[tuple[int, int | None]]) -> Fraction:
    """P(event) over every placement of the marked pieces among ``pool`` positions (hands first, in order)."""
    hits = total = 0
    for chosen in itertools.combinations(range(pool), marked):
        at = set(chosen)
        start, inside = 0, []
        for size, (lo, hi) in zip(hand_sizes, limits, strict=True):
            k = sum(1 for p in range(start, start + size) if p in at)
            inside.append(k >= lo and (hi is None or k <= hi))
            start += size
        hit = {"any": any(inside), "every": all(inside), "first": inside[0]}[who]
        hits += hit
        total += 1
    return Fraction(hits, total)


CASES = [  # hand sizes, pool, marked, low, high
    ([2, 2], 6, 2, 1, None),
    ([2, 3], 7, 3, 1, 1),
    ([3, 3], 8, 4, 2, None),
    ([1, 2, 2], 7, 3, 0, 0),
    ([2, 2, 2], 6, 3, 1, 2),
    ([3, 1], 5, 2, 2, 2),
    ([2, 2], 4, 4, 2, None),
    ([3, 2], 9, 1, 1, None),
]


@pytest.mark.parametrize("who", ["any", "every", "first"])
@pytest.mark.parametrize(("hands", "pool", "marked", "low", "high"), CASES)
def test_exact_probability_equals_enumeration(hands: list[int], pool: int, marked: int, low: int, high: int | None,
                                              who: str) -> None:
    expected = _enumerated(hands, pool, marked, who, [(low, high)] * len(hands))
    assert exact_probability(hands, pool, marked, low, high, who) == expected


@pytest.mark.parametrize("who", ["any", "every", "first"])
def test_each_hand_its_own_bounds_equals_enumeration(who: str) -> None:
    hands, pool, marked = [2, 3, 2], 9, 4
    bounds = [(1, None), (0, 1), (2, 2)]
    expected = _enumerated(hands, pool, marked, who, bounds)
    assert exact_probability(hands, pool, marked, 99, 0, who, bounds) == expected
    assert 0 < expected < 1


def _deals(hand_sizes: Sequence[int], classes: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Every deal of pieces 0..n-1 (``classes[p]``: piece p's class) into disjoint hands: each hand's class counts."""
    n_classes = max(classes) + 1
    out: list[list[tuple[int, ...]]] = []

    def deal(left: frozenset[int], hands: Sequence[int], so_far: list[tuple[int, ...]]) -> None:
        if not hands:
            out.append(so_far)
            return
        for hand in itertools.combinations(sorted(left), hands[0]):
            counts = Counter(classes[p] for p in hand)
            deal(left - set(hand), hands[1:], [*so_far, tuple(counts[c] for c in range(n_classes))])

    deal(frozenset(range(len(classes))), hand_sizes, [])
    return out


HOLDS: list[tuple[str, Callable[[int, tuple[int, ...]], bool]]] = [
    ("each hand a class-0 piece", lambda h, v: v[0] >= 1),
    ("hand 0 two of class 1, hand 1 none", lambda h, v: v[1] == (2 if h == 0 else 0)),
    ("no hand more of class 2 than of class 0", lambda h, v: v[2] <= v[0]),
    ("always", lambda h, v: True),
]


@pytest.mark.parametrize(("name", "holds"), HOLDS, ids=[n for n, _ in HOLDS])
@pytest.mark.parametrize(("hands", "sizes"), [([2, 2], [2, 3, 2]), ([3, 1], [3, 1, 2]), ([2, 2, 1], [1, 3, 2])])
def test_all_hold_equals_enumeration(name: str, holds: Callable[[int, tuple[int, ...]], bool], hands: list[int],
                                     sizes: list[int]) -> None:
    classes = [c for c, size in enumerate(sizes) for _ in range(size)]
    deals = _deals(hands, classes)
    expected = Fraction(sum(all(holds(h, v) for h, v in enumerate(d)) for d in deals), len(deals))
    assert all_hold(hands, sizes, holds) == expected


def test_all_hold_stops_past_its_budget_of_hand_fillings() -> None:
    # first hand of 2 from classes (2, 1): (2, 0) or (1, 1); the second hand of 1 then has one way each: 4
    assert all_hold([2, 1], [2, 1], lambda h, v: True, budget=4) == 1
    with pytest.raises(OverflowError):
        all_hold([2, 1], [2, 1], lambda h, v: True, budget=3)


@pytest.mark.parametrize(("size", "limits"), [(0, []), (1, []), (0, [2, 1]), (2, [2, 1]), (3, [2, 1]), (4, [2, 1]),
                                              (3, [1, 3, 2]), (5, [0, 3, 2])])
def test_vectors_are_every_way_to_fill_a_hand(size: int, limits: list[int]) -> None:
    expected = [v for v in itertools.product(*(range(m + 1) for m in limits)) if sum(v) == size]
    assert list(_vectors(size, limits)) == expected


# --- unions and k of a kind -----------------------------------------------------------------------------

COLOUR = {0: "red", 1: "red", 2: "red", 3: "blue", 4: "blue", 5: "green", 6: "grey"}
MATCH = {"red": frozenset({0, 1, 2}), "blue": frozenset({3, 4}), "coloured": frozenset({0, 1, 2, 3, 4, 5}), None: frozenset(COLOUR)}


def _reading(event: Event) -> compound.Reading:
    return compound.reading(event, lambda where: MATCH[where], lambda p: COLOUR[p])


def _by_hand(event: Event, hand: Sequence[int]) -> bool:
    """The event read off the hand directly."""
    def inside(k: int, lo: int, hi: int | None) -> bool:
        return lo <= k and (hi is None or k <= hi)

    if event.of_a_kind is not None:
        kinds = Counter(COLOUR[p] for p in hand if p in MATCH[event.where])
        return inside(max(kinds.values(), default=0), event.low, event.high)
    if event.any_of:
        return any(inside(sum(p in MATCH[t.where] for p in hand), t.low, t.high) for t in event.any_of)
    return inside(sum(p in MATCH[event.where] for p in hand), event.low, event.high)


EVENTS = [
    Event("no red or all three", "hand", None, "t", any_of=(EventTerm("red", 0, 0), EventTerm("red", 3, None))),
    Event("a blue or two red", "hand", None, "t", any_of=(EventTerm("blue", 1, None), EventTerm("red", 2, 2))),
    Event("two of a colour", "hand", None, "t", low=2, of_a_kind="colour"),
    Event("no two coloured pieces alike", "hand", "coloured", "t", low=0, high=1, of_a_kind="colour"),
    Event("no coloured piece at all", "hand", "coloured", "t", low=0, high=0, of_a_kind="colour"),
    Event("exactly one red", "hand", "red", "t", low=1, high=1),
    Event("two or more blue", "hand", "blue", "t", low=2),
]


@pytest.mark.parametrize("event", EVENTS, ids=[e.name for e in EVENTS])
def test_a_reading_of_every_hand_equals_counting_it(event: Event) -> None:
    read = _reading(event)
    for size in range(0, 5):
        for hand in itertools.combinations(COLOUR, size):
            assert read.hit(hand) == _by_hand(event, hand), hand


@pytest.mark.parametrize("want_hit", [True, False])
@pytest.mark.parametrize("event", EVENTS, ids=[e.name for e in EVENTS])
def test_grouped_classes_give_the_enumerated_figure(event: Event, want_hit: bool) -> None:
    read = _reading(event)
    pool = [0, 1, 2, 3, 4, 5, 6]
    fixed = [Counter({read.classify(6): 1}), Counter()]  # hand 1 also holds the grey piece, dealt beforehand
    classes, sizes, holds = compound.group_holds(read, pool[:6], fixed, want_hit)
    assert sorted(classes, key=repr) == classes and sum(sizes) == 6
    expected = hits = 0
    for first in itertools.combinations(pool[:6], 2):
        for second in itertools.combinations([p for p in pool[:6] if p not in first], 2):
            hits += (_by_hand(event, (*first, 6)) == want_hit) and (_by_hand(event, second) == want_hit)
            expected += 1
    assert all_hold([2, 2], sizes, holds) == Fraction(hits, expected)


def test_an_unmarked_piece_is_its_own_class() -> None:
    read = _reading(EVENTS[3])  # coloured pieces only: grey is unmarked
    assert read.classify(6) == compound.UNMARKED and read.classify(0) == "red"
    assert read.hit_counts({compound.UNMARKED: 5, "red": 1}) is True
    assert read.hit_counts({compound.UNMARKED: 5}) is True  # no coloured piece: 0 of a kind, within [0, 1]
    union = _reading(EVENTS[1])
    assert union.classify(3) == (True, False) and union.classify(0) == (False, True) and union.classify(6) == (False, False)


def test_a_hand_with_no_marked_piece_holds_none_of_a_kind() -> None:
    none_at_all = _reading(EVENTS[4])
    assert none_at_all.hit_counts({compound.UNMARKED: 3}) is True
    assert none_at_all.hit_counts({}) is True
    assert none_at_all.hit_counts({compound.UNMARKED: 3, "blue": 1}) is False


def test_a_reading_is_a_value() -> None:
    read = _reading(EVENTS[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.terms = ()  # type: ignore[misc]


def test_bounds_for_each_hand_must_match_the_hands() -> None:
    with pytest.raises(ValueError):
        exact_probability([2, 2], 6, 2, 1, None, "any", [(1, None)])
