"""The playouts held to an oracle: small generated round models, their exact answers by brute force.

Each example is a game with one pile of tokens and a round model of gains, refills, returns and spends
(amounts fixed, ``between`` or a die), shared or one per player in seat or random turn order, with an
optional ``round > 1`` or ``place == 1`` condition and an optional end when the pile is empty. The oracle walks every
outcome of every amount and every turn order, with exact fractions, and gives the probability that the
pile runs out, the distribution of the round it first runs out and of the game length. ``punchboard
verify --playouts K --json`` must agree with each within 4.5 standard errors (and exactly where the
answer is 0 or 1). Hypothesis is derandomized and the playouts seeded, so the suite is the same every run.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from punchboard.cli import main
from tests.verifier.test_playout import _cell, _game

GAMES = 2000
Z = 4.5


@dataclass(frozen=True)
class Act:
    kind: str  # gain, refill, return, spend
    amount: tuple[str, int, int]  # ('fixed', n, n), ('between', a, b), ('die', sides, 0); refill: ('fixed', up_to, …)
    when: str | None  # None, "round > 1" or "place == 1" (the first in turn order; never true for a shared action)

    def happens(self, rnd: int, place: int) -> bool:
        return self.when is None or (rnd > 1 if self.when == "round > 1" else place == 1)

    def values(self) -> list[tuple[int, Fraction]]:
        form, a, b = self.amount
        if form == "fixed":
            return [(a, Fraction(1))]
        if form == "between":
            return [(v, Fraction(1, b - a + 1)) for v in range(a, b + 1)]
        return [(v, Fraction(1, a)) for v in range(1, a + 1)]

    def yaml(self, each: bool) -> str:
        form, a, b = self.amount
        count = {"fixed": f"{a}", "between": f"{{between: [{a}, {b}]}}", "die": f"{{roll: \"d{a}\"}}"}[form]
        body = {
            "gain": f"gain: {{from: pile, to: hand, count: {count}",
            "refill": f"refill: {{from: pile, to: hand, up_to: {a}",
            "return": f"return: {{from: hand, to: pile, count: {count}",
            "spend": f"spend: {{from: hand, to: spent, count: {count}",
        }[self.kind]
        body += ", each_player: true}" if each else "}"
        when = f'          when: "{self.when}"\n' if self.when else ""
        return f"        - say: {self.kind}\n{when}          {body}\n"


@dataclass(frozen=True)
class Model:
    tokens: int
    players: int
    rounds: int
    each: bool  # every action once per player, on the player's own hand (else one shared hand)
    random_order: bool
    end_when_empty: bool
    acts: tuple[Act, ...]

    def yaml(self) -> str:
        text = f"      rounds: {self.rounds}\n"
        if self.random_order:
            text += "      turn_order: random\n"
        if self.end_when_empty:
            text += "      end: [{empty: pile}]\n"
        return text + "      each_round:\n" + "".join(a.yaml(self.each) for a in self.acts)


def _apply(act: Act, amount: int, pile: int, hand: int) -> tuple[int, int, bool]:
    """(pile, hand, ran out) after one action by one actor."""
    if act.kind in ("gain", "refill"):
        need = amount if act.kind == "gain" else max(0, act.amount[1] - hand)
        moved = min(need, pile)
        return pile - moved, hand + moved, need > pile
    moved = min(amount, hand)
    return (pile + moved if act.kind == "return" else pile), hand - moved, False


def exact(model: Model) -> dict[tuple[int, int], Fraction]:
    """P(first round the pile ran out (0: never), rounds played), over every amount and every turn order."""
    hands = model.players if model.each else 1
    states: dict[tuple[int, tuple[int, ...], int], Fraction] = {(model.tokens, (0,) * hands, 0): Fraction(1)}
    done: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    seats = list(range(model.players))
    orders = list(itertools.permutations(seats)) if model.random_order and model.each else [tuple(seats)]
    for rnd in range(1, model.rounds + 1):
        start: dict[tuple[int, tuple[int, ...], int, tuple[int, ...]], Fraction] = defaultdict(Fraction)
        for (pile, held, first), p in states.items():
            for order in orders:
                start[(pile, held, first, order)] += p / len(orders)
        current = start
        for act in model.acts:
            for actor in (range(model.players) if model.each else range(1)):
                after: dict[tuple[int, tuple[int, ...], int, tuple[int, ...]], Fraction] = defaultdict(Fraction)
                for (pile, held, first, order), p in current.items():
                    who = order[actor] if model.each else 0
                    if not act.happens(rnd, actor + 1 if model.each else 0):
                        after[(pile, held, first, order)] += p
                        continue
                    for amount, q in act.values():
                        new_pile, hand, short = _apply(act, amount, pile, held[who])
                        new_held = held[:who] + (hand,) + held[who + 1:]
                        after[(new_pile, new_held, first or (rnd if short else 0), order)] += p * q
                current = after
        states = defaultdict(Fraction)
        for (pile, held, first, _order), p in current.items():
            if model.end_when_empty and pile == 0:
                done[(first, rnd)] += p
            elif rnd == model.rounds:
                done[(first, rnd)] += p
            else:
                states[(pile, held, first)] += p
    assert sum(done.values()) == 1
    return dict(done)


def _nearest_rank_median_is_clear(cdf: list[tuple[int, Fraction]], n: int) -> int | None:
    """The round the sample median must be, when no step of the CDF lies within Z standard errors of 1/2."""
    margin = Z * math.sqrt(0.25 / n)
    if any(abs(float(f) - 0.5) <= margin for _, f in cdf):
        return None
    return next(r for r, f in cdf if f > 0.5)


amounts = st.one_of(
    st.tuples(st.just("fixed"), st.integers(0, 3), st.just(0)).map(lambda t: (t[0], t[1], t[1])),
    st.tuples(st.just("between"), st.integers(0, 2), st.integers(0, 2)).map(lambda t: ("between", min(t[1:]), max(t[1:]))),
    st.tuples(st.just("die"), st.integers(2, 4), st.just(0)),
)
acts = st.builds(Act, st.sampled_from(["gain", "gain", "refill", "return", "spend"]), amounts,
                 st.sampled_from([None, "round > 1", "place == 1"]))
models = st.builds(Model, st.integers(1, 9), st.integers(1, 3), st.integers(1, 4), st.booleans(), st.booleans(),
                   st.booleans(), st.lists(acts, min_size=1, max_size=3).map(tuple)).filter(
    lambda m: any(a.kind in ("gain", "refill") for a in m.acts))


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(model=models)
# turn order matters: whoever is first returns up to 2, and in random order that is often a fuller hand
@example(model=Model(4, 2, 4, True, True, False, (Act("gain", ("fixed", 1, 1), None),
                                                  Act("return", ("fixed", 2, 2), "place == 1"))))
def test_playouts_agree_with_every_outcome_enumerated(tmp_path_factory, capsys, model: Model) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("model")
    game = _game(Path(folder) / "g", model.yaml(), tokens=model.tokens, players=f"[{model.players}]")
    code = main(["verify", str(game), "--trials", "0", "--json", "--out", str(Path(folder) / "out"),
                 "--playouts", str(GAMES)])
    cell = _cell(json.loads(capsys.readouterr().out), players=model.players)
    assert code == 0 and cell["note"] == "" and cell["games"] == GAMES, cell
    (pile,) = cell["piles"]
    truth = exact(model)

    runs_out = sum(p for (first, _), p in truth.items() if first)
    if runs_out in (0, 1):
        assert pile["runs_out"] == GAMES * runs_out, (model, truth)
    else:
        se = math.sqrt(float(runs_out * (1 - runs_out)) / GAMES)
        assert abs(pile["probability"] - float(runs_out)) <= Z * se + 1 / GAMES, (model, float(runs_out), pile)

    mean = sum(p * length for (_, length), p in truth.items())
    var = sum(p * (length - mean) ** 2 for (_, length), p in truth.items())
    assert abs(cell["game_length"]["mean"] - float(mean)) <= Z * math.sqrt(float(var) / GAMES) + 0.0005, (model, cell)
    if var == 0:
        assert cell["game_length"]["median"] == cell["game_length"]["p90"] == mean

    if runs_out and pile["runs_out"]:
        firsts: dict[int, Fraction] = defaultdict(Fraction)
        for (first, _), p in truth.items():
            if first:
                firsts[first] += p / runs_out
        cdf = list(itertools.accumulate(sorted(firsts.items()), lambda a, b: (b[0], a[1] + b[1])))
        median = _nearest_rank_median_is_clear(cdf, pile["runs_out"])
        if median is not None:
            assert pile["first_round_median"] == median, (model, cdf, pile)


def test_the_oracle_itself_on_a_hand_worked_model() -> None:
    # 2 players, seat order, each gains 1..2 (between) from 3 tokens, 2 rounds:
    # round 1 asks 2-4 of 3 → short in round 1 only when both draw 2 (1/4); round 2 always asks more than is left
    model = Model(3, 2, 2, True, False, False, (Act("gain", ("between", 1, 2), None),))
    truth = exact(model)
    assert truth == {(1, 2): Fraction(1, 4), (2, 2): Fraction(3, 4)}
    # ending when the pile is empty: round 1 empties it unless both draw 1 (then 1 token is left for round 2)
    model = Model(3, 2, 2, True, False, True, (Act("gain", ("between", 1, 2), None),))
    assert exact(model) == {(1, 1): Fraction(1, 4), (0, 1): Fraction(2, 4), (2, 2): Fraction(1, 4)}
