"""What K playouts of one variant × player count say: per pile, how often it runs out and when; game length.

Quantiles are nearest-rank over whole rounds (the median of 1, 2, 3, 4 is 2), so they are rounds a game
really had. The interval is Wilson's at 99.9 %, as for deal events.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from punchboard.spec.setup_model import OUTCOMES, ROUND_LIMIT, Playout

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
class ModelLine:
    """One action of a round model as reports quote it: its ``say:`` (or words made from its options), its
    amount, and what in it is a guess (``placeholder:``, '' when nothing is)."""

    number: int
    text: str
    amount: str
    placeholder: str
    source: str

    def as_json(self) -> dict[str, Any]:
        return {"action": self.number, "say": self.text, "amount": self.amount, "placeholder": self.placeholder or None,
                "source": self.source}


@dataclass(frozen=True)
class RoundModel:
    """What a playout played: the model's ``say:``, every action's words and the end conditions' meanings."""

    say: str
    source: str
    actions: tuple[ModelLine, ...]
    ends: tuple[tuple[str, str], ...]  # (the condition in words, what it means: won, lost or ends)

    @property
    def placeholders(self) -> tuple[ModelLine, ...]:
        """The actions whose amounts are guesses, not the rulebook's."""
        return tuple(line for line in self.actions if line.placeholder)

    def as_json(self) -> dict[str, Any]:
        return {"say": self.say, "source": self.source, "actions": [a.as_json() for a in self.actions],
                "placeholders": [a.as_json() for a in self.placeholders],
                "end": [{"condition": text, "means": means} for text, means in self.ends]}


def round_model(model: Playout) -> RoundModel:
    lines = tuple(ModelLine(a.number, a.describe(), a.amount.describe() if a.amount and a.say else "", a.placeholder,
                            a.source) for a in model.actions)  # words made from the options already give the amount
    return RoundModel(model.say, model.source, lines, tuple((end.describe(), end.means) for end in model.end))


def outcome_labels(model: RoundModel) -> list[str]:
    """How games can end, in report order: won, lost, each 'ends' condition by its words, then the round limit."""
    labels = [means for means in OUTCOMES[:2] if any(m == means for _, m in model.ends)]
    labels += [f"ends: {text}" for text, means in model.ends if means == "ends"]
    return labels + [ROUND_LIMIT]


def _outcome_of(model: RoundModel, ended: int) -> str:
    if ended < 0:
        return ROUND_LIMIT
    text, means = model.ends[ended]
    return f"ends: {text}" if means == "ends" else means


@dataclass(frozen=True)
class OutcomeStat:
    """How many of the games ended one way (won, lost, an end condition, the round limit), with Wilson's 99.9 %
    interval of its share."""

    outcome: str
    games: int
    count: int
    low: float
    high: float

    @property
    def share(self) -> float:
        return self.count / self.games if self.games else 0.0

    def text(self) -> str:
        return f"{self.outcome} {self.share:.4f} [{self.low:.4f}, {self.high:.4f}] ({self.count}/{self.games})"

    def as_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "games": self.games, "count": self.count, "share": self.share,
                "interval": [self.low, self.high]}


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
    model: RoundModel | None = None  # what was played: the actions' words, placeholders, end meanings
    outcomes: tuple[OutcomeStat, ...] = ()  # how the games ended (with end conditions: won, lost, …, round limit)

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "seed": self.seed, "round_limit": self.round_limit,
                "piles": [p.as_json() for p in self.piles],
                "game_length": {"median": self.length_median, "p90": self.length_p90, "mean": self.length_mean},
                "outcomes": [o.as_json() for o in self.outcomes],
                "model": self.model.as_json() if self.model is not None else None,
                "note": self.note}


def summarise(games: Sequence[tuple[int, tuple[int, ...], int]], piles: Sequence[str], seed: str,
              round_limit: int, model: RoundModel | None = None) -> PlayoutCell:
    """``games``: (rounds played, the round each pile first ran out, 0 if never, the index of the end
    condition that ended it, -1 at the round limit) per game."""
    stats = []
    for n, pile in enumerate(piles):
        firsts = [shorts[n] for _, shorts, _ in games if shorts[n]]
        low, high = wilson(len(firsts), len(games), Z_999)
        stats.append(PileStat(pile, len(games), len(firsts), low, high, quantile(firsts, 0.5), quantile(firsts, 0.9)))
    lengths = [length for length, _, _ in games]
    mean = round(sum(lengths) / len(lengths), 3) if lengths else None
    outcomes: list[OutcomeStat] = []
    if model is not None and model.ends:
        ended = [_outcome_of(model, index) for _, _, index in games]
        for label in outcome_labels(model):
            count = ended.count(label)
            low, high = wilson(count, len(games), Z_999)
            outcomes.append(OutcomeStat(label, len(games), count, low, high))
    return PlayoutCell(len(games), seed, round_limit, tuple(stats), quantile(lengths, 0.5), quantile(lengths, 0.9), mean,
                       model=model, outcomes=tuple(outcomes))
