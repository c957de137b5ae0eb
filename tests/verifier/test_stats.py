"""Exact deal probabilities against closed forms, and the Wilson interval. (Monte Carlo over whole setups:
tests/verifier/test_soundness.py.)"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from punchboard.verifier.probability.stats import exact_probability, wilson


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


def test_wilson_interval_brackets_the_estimate() -> None:
    lo, hi = wilson(50, 1000)
    assert lo < 0.05 < hi
    assert wilson(0, 100)[0] == 0.0 and wilson(100, 100)[1] == 1.0


def test_joint_intervals_keep_a_whole_runs_false_alarm_chance_at_one_in_a_thousand():
    from statistics import NormalDist

    from punchboard.verifier.probability.stats import Z_999, joint_z

    assert abs(joint_z(1) - Z_999) < 1e-3  # one event: the plain 99.9 % interval
    widths = [joint_z(m) for m in (1, 2, 12, 36, 500)]
    assert widths == sorted(widths) and widths[-1] > widths[0]
    for m in (2, 36, 500):  # each interval misses with chance 0.001 / m, so all m together with at most 0.001
        miss_each = 2 * (1 - NormalDist().cdf(joint_z(m)))
        assert abs(miss_each * m - 0.001) < 1e-9
