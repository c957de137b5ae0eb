"""The oracle for stacked piles: small games whose deck is shuffled, dealt from, split into piles with a piece
shuffled into each, stacked, and drawn from the top, so the draw reaches into a second or third pile. The brute
force runs every ordering of the deck and of every pile, literally (``itertools.permutations``), and every
figure the verifier calls exact must equal it; the draws that reach past the first pile must be exact."""

from __future__ import annotations

import itertools
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from punchboard.verifier.engine import verify_game

from punchboard.spec.loader import load_game


@dataclass(frozen=True)
class Game:
    deck: tuple[str, ...]  # kinds of the deck's cards: x or y
    bombs: tuple[str, ...]  # kinds of the pieces shuffled in, one per pile, in box order: b or c
    players: int
    dealt: int  # cards dealt to each player before the split
    drawn: int  # cards taken from the top of the stack
    events: tuple[tuple[str, int, int | None], ...]  # (kind, min, max) over the drawn cards


@st.composite
def games(draw: st.DrawFn) -> Game:
    players = draw(st.integers(1, 2))
    dealt = draw(st.integers(0, 1))
    deck = tuple(draw(st.lists(st.sampled_from("xy"), min_size=players * dealt + 2, max_size=players * dealt + 5)))
    piles = draw(st.integers(2, 3))
    rest = len(deck) - players * dealt
    if rest < piles:
        piles = rest
    bombs = tuple(draw(st.lists(st.sampled_from("bc"), min_size=piles, max_size=piles)))
    drawn = draw(st.integers(1, rest + piles))
    events = tuple(draw(st.lists(st.tuples(st.sampled_from("xybc"), st.integers(0, 3), st.sampled_from([None, 1, 2])),
                                 min_size=1, max_size=3)))
    return Game(deck, bombs, players, dealt, drawn, tuple((k, lo, hi if hi is None or hi >= lo else lo) for k, lo, hi in events))


def _cards(kinds: tuple[str, ...]) -> str:
    return "".join(f"  - {{name: {kind.upper()}{n}, kind: {kind}}}\n" for n, kind in enumerate(kinds))


def write(folder: Path, game: Game) -> None:
    (folder / "game.yaml").write_text(f"id: piles\ntitle: Piles\nplayers: {{min: {game.players}, max: {game.players}}}\n"
                                      "setup: setup.yaml\ncomponents: [deck.yaml, bombs.yaml]\n", encoding="utf-8")
    for name, kinds in (("deck", game.deck), ("bombs", game.bombs)):
        (folder / f"{name}.yaml").write_text(f"id: {name}\nkind: deck\nsize: poker\nlayout: base/card\nfields: [kind]\n"
                                             f"cards:\n{_cards(kinds)}", encoding="utf-8")
    deal = f"      - deal: {{from: pile, to: hand, count: {game.dealt}}}\n" if game.dealt else ""
    events = "".join(f"      - {{name: e{n}, zone: top, where: \"kind == '{kind}'\", min: {lo}"
                     f"{'' if hi is None else f', max: {hi}'}}}\n" for n, (kind, lo, hi) in enumerate(game.events))
    (folder / "setup.yaml").write_text(
        f"variants:\n  - id: standard\n    players: {{min: {game.players}, max: {game.players}}}\n    steps:\n"
        "      - take: {component: deck, to: pile}\n      - shuffle: {zone: pile}\n" + deal +
        f"      - split: {{from: pile, piles: {len(game.bombs)}, to: stack, shuffle_in: {{component: bombs, each: 1}}}}\n"
        f"      - take: {{from: stack, count: {game.drawn}, to: top}}\n    events:\n{events}", encoding="utf-8")


def _orderings(cards: tuple[str, ...]) -> Counter[tuple[str, ...]]:
    return Counter(itertools.permutations(cards))


def brute_force(game: Game) -> dict[tuple[str, ...], Fraction]:
    """The drawn cards' kinds, in order, over every ordering of the deck and of every pile: {drawn: probability}."""
    worlds: Counter[tuple[str, ...]] = Counter()
    deck_orders = _orderings(game.deck)
    deck_total = sum(deck_orders.values())
    outcomes: dict[tuple[str, ...], Fraction] = {}
    for order, ways in deck_orders.items():
        rest = order[game.players * game.dealt:]
        count = len(game.bombs)
        size, larger = divmod(len(rest), count)
        piles, start = [], 0
        for n in range(count):
            chunk = rest[start:start + size + (1 if n < larger else 0)]
            start += len(chunk)
            piles.append(chunk + (game.bombs[n],))
        per_pile = [_orderings(p) for p in piles]
        totals = [sum(o.values()) for o in per_pile]
        worlds.clear()
        for combo in itertools.product(*(o.items() for o in per_pile)):
            stack = tuple(card for arranged, _ in combo for card in arranged)
            weight = 1
            for _, w in combo:
                weight *= w
            worlds[stack[:game.drawn]] += weight
        whole = 1
        for t in totals:
            whole *= t
        for drawn, w in worlds.items():
            outcomes[drawn] = outcomes.get(drawn, Fraction(0)) + Fraction(ways, deck_total) * Fraction(w, whole)
    return outcomes


def truth(outcomes: dict[tuple[str, ...], Fraction], kind: str, low: int, high: int | None) -> Fraction:
    return sum((p for drawn, p in outcomes.items()
                if drawn.count(kind) >= low and (high is None or drawn.count(kind) <= high)), Fraction(0))


EXAMPLES = int(os.environ.get("PUNCHBOARD_ORACLE_EXAMPLES", "60"))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(games())
def test_draws_over_stacked_piles_are_exact_and_the_brute_force_probability(game: Game) -> None:
    outcomes = brute_force(game)
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp), game)
        (result,) = [r for r in verify_game(load_game(Path(tmp)), trials=0, seed=1) if r.players]
    stats = {e.name: e for e in result.events}
    for n, (kind, low, high) in enumerate(game.events):
        stat = stats[f"e{n}"]
        assert stat.exact is not None, (game, stat)
        assert stat.exact == pytest.approx(float(truth(outcomes, kind, low, high)), abs=1e-12), (game, n, stat)


def test_the_brute_force_itself_on_a_game_worked_by_hand() -> None:
    """x y x y shuffled, cut into two piles of 2 with a bomb shuffled into each (3 cards a pile), the first 4 drawn:
    pile 1 whole and the top card of pile 2. The x's drawn are pile 1's x's, and one more when pile 2's top card is
    an x (pile 2 holds the other x's among its 3 cards)."""
    game = Game(("x", "y", "x", "y"), ("b", "c"), 1, 0, 4, (("x", 2, None),))
    outcomes = brute_force(game)
    # x's in pile 1: 2 w.p. 1/6, 1 w.p. 4/6, 0 w.p. 1/6; pile 2's top is x w.p. (2 - that)/3
    by_hand = Fraction(1, 6) * 1 + Fraction(4, 6) * Fraction(1, 3) + Fraction(1, 6) * 0
    assert truth(outcomes, "x", 2, None) == by_hand
    assert truth(outcomes, "b", 1, None) == 1  # pile 1 is drawn whole
    assert truth(outcomes, "c", 1, None) == Fraction(1, 3)
