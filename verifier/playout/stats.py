"""What K playouts of one variant × player count say: per pile, how often it runs out and when; game length.

Quantiles are nearest-rank over whole rounds (the median of 1, 2, 3, 4 is 2), so they are rounds a game
really had. The interval is Wilson's at 99.9 %, as for deal events.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..probability.stats import Z_999, wilson


def quantile(values: Sequence[int], q: float) -> int | None:
    """Nearest-rank quantile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass(frozen=True)
class PileStat:
    pile: str
    games: int
    runs_out: int  # games in which it ran out
    low: float
    high: float
    first_median: int | None  # the round it first ran out, over the games where it did
    first_p90: int | None

    @property
    def probability(self) -> float:
        return self.runs_out / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "games": self.games, "runs_out": self.runs_out, "probability": self.probability,
                "interval": [self.low, self.high], "first_round_median": self.first_median,
                "first_round_p90": self.first_p90}


@dataclass(frozen=True)
class PlayoutCell:
    """K games of one variant × player count (or why none was played)."""

    games: int
    seed: str
    round_limit: int | None
    piles: tuple[PileStat, ...] = ()
    length_median: int | None = None
    length_p90: int | None = None
    length_mean: float | None = None
    note: str = ""  # why the games were not played ('' when they were)

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "seed": self.seed, "round_limit": self.round_limit,
                "piles": [p.as_json() for p in self.piles],
                "game_length": {"median": self.length_median, "p90": self.length_p90, "mean": self.length_mean},
                "note": self.note}


def summarise(games: Sequence[tuple[int, tuple[int, ...]]], piles: Sequence[str], seed: str,
              round_limit: int) -> PlayoutCell:
    """``games``: (rounds played, the round each pile first ran out, 0 if never) per game."""
    stats = []
    for n, pile in enumerate(piles):
        firsts = [shorts[n] for _, shorts in games if shorts[n]]
        low, high = wilson(len(firsts), len(games), Z_999)
        stats.append(PileStat(pile, len(games), len(firsts), low, high, quantile(firsts, 0.5), quantile(firsts, 0.9)))
    lengths = [length for length, _ in games]
    mean = round(sum(lengths) / len(lengths), 3) if lengths else None
    return PlayoutCell(len(games), seed, round_limit, tuple(stats), quantile(lengths, 0.5), quantile(lengths, 0.9), mean)
