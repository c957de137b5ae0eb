"""Exact deal probabilities against closed forms; seeded Monte Carlo inside its stated interval."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest
from punchboard.verifier.stats import exact_probability, monte_carlo, wilson


def _round_robin(pool: int, hands: int, players: int, each: int) -> list[int]:
    owner = [-1] * pool
    for position in range(each * hands):
        if position % hands < players:
            owner[position] = position % hands
    return owner


@pytest.mark.parametrize("players", range(2, 7))
def test_coup_matches_the_closed_form(players: int) -> None:
    hand = 84 // (players + 1)
    one_player = Fraction(comb(84 - 3, hand - 3), comb(84, hand))
    # only one hand can hold all three Masterstrokes, so the events are disjoint
    assert exact_probability([hand] * players, 84, 3, 3, None, "any") == players * one_player


def test_first_player_is_plain_hypergeometric() -> None:
    d, k, h = 84, 6, 16
    closed = sum(Fraction(comb(k, x) * comb(d - k, h - x), comb(d, h)) for x in range(0, 2))
    assert exact_probability([h, h, h], d, k, 0, 1, "first") == closed


def test_every_hand_is_inclusion_exclusion_for_two_players() -> None:
    # two hands of 2 from 4 cards, 2 marked: each hand gets exactly one marked with probability 4/6
    assert exact_probability([2, 2], 4, 2, 1, 1, "every") == Fraction(2, 3)
    # any hand with both marked: 2/6
    assert exact_probability([2, 2], 4, 2, 2, None, "any") == Fraction(1, 3)


@pytest.mark.parametrize(
    ("players", "marked", "low", "high", "who"),
    [(4, 3, 3, None, "any"), (3, 6, 0, 1, "first"), (5, 8, 1, None, "every"), (2, 72, 0, 25, "any")],
)
def test_monte_carlo_agrees_within_its_interval(players: int, marked: int, low: int, high: int | None, who: str) -> None:
    hands = players + 1
    each = 84 // hands
    owner = _round_robin(84, hands, players, each)
    flags = [True] * marked + [False] * (84 - marked)
    exact = float(exact_probability([each] * players, 84, marked, low, high, who))
    trials = 4000
    hits = monte_carlo(owner, players, flags, low, high, who, trials, random.Random(f"test:{players}:{marked}"))
    lo, hi = wilson(hits, trials)
    assert lo <= exact <= hi


def test_monte_carlo_is_reproducible_from_its_seed() -> None:
    owner = _round_robin(84, 5, 4, 16)
    flags = [True] * 3 + [False] * 81
    runs = [monte_carlo(owner, 4, flags, 3, None, "any", 3000, random.Random("1:standard:4::0")) for _ in range(2)]
    assert runs[0] == runs[1]


def test_wilson_interval_brackets_the_estimate() -> None:
    lo, hi = wilson(50, 1000)
    assert lo < 0.05 < hi
    assert wilson(0, 100)[0] == 0.0 and wilson(100, 100)[1] == 1.0
