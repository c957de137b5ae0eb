"""Verifier speed: static verification of every bundled game, and Monte Carlo deals per second
against a plain ``random.shuffle`` loop measured in the same run."""

from __future__ import annotations

import random
import time

from punchboard.verifier.engine import verify_game
from punchboard.verifier.stats import monte_carlo

from punchboard.plumbing.paths import bundled_games
from punchboard.spec.loader import load_game

DEALS = 200_000


def _static() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for folder in bundled_games():
        game = load_game(folder)
        start = time.perf_counter()
        results = verify_game(game, trials=0)
        seconds = time.perf_counter() - start
        rows.append({"name": f"verify {game.id} (static, {len(results)} results)", "seconds": round(seconds, 4)})
    return rows


def _deals() -> list[dict[str, object]]:
    players, hands = 4, 5
    each = 84 // hands
    owner = [p % hands if p < each * hands and p % hands < players else -1 for p in range(84)]
    flags = [True] * 3 + [False] * 81
    start = time.perf_counter()
    monte_carlo(owner, players, flags, 3, None, "any", DEALS, random.Random("bench"))
    ours = DEALS / (time.perf_counter() - start)
    deck = list(range(84))
    rng = random.Random("bench")
    start = time.perf_counter()
    for _ in range(DEALS):
        rng.shuffle(deck)
        _ = [deck[i::hands] for i in range(players)]
    plain = DEALS / (time.perf_counter() - start)
    return [
        {"name": "Monte Carlo deals/s (coup event, 4 players)", "per_second": round(ours)},
        {"name": "plain random.shuffle deals/s (same deck)", "per_second": round(plain)},
        {"name": "Monte Carlo speed-up over random.shuffle", "ratio": round(ours / plain, 2)},
    ]


def run() -> list[dict[str, object]]:
    return _static() + _deals()


if __name__ == "__main__":
    for row in run():
        print(row)
