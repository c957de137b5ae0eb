"""K playouts per variant × player count, in fixed seeded blocks so that ``--jobs`` never changes a figure.

Every game starts from a **fresh setup** (the variant's steps re-run from the box, as a Monte Carlo deal
replay does), then plays the round model with the same random stream. Games run in blocks of
:data:`BLOCK`; block *b* of a cell draws from its own stream seeded with
``{seed}:playout:{variant}:{players}:{b}``, so the blocks can be played in any process, in any order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from punchboard.spec.expressions import ExpressionError
from punchboard.spec.model import Game
from punchboard.spec.setup_model import Playout, Variant

from ..counts import Open, whole
from ..inventory import Instance
from ..setup.simulate import simulate
from .play import PlayoutError, Table, piles, play
from .stats import PlayoutCell, round_model, summarise

BLOCK = 250

Played = list[tuple[int, tuple[int, ...], int]] | str  # a block's games, or why it could not play them


@dataclass
class Study:
    game: Game
    variant: Variant
    players: int
    inventory: tuple[Instance, ...]
    games: int
    seed: int
    env: dict[str, Any]
    cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # the games' expression values (play.Table.value)
    note: str = ""
    limit: int | None = None

    @property
    def model(self) -> Playout:
        assert self.variant.playout is not None
        return self.variant.playout

    @property
    def label(self) -> str:
        return f"{self.seed}:playout:{self.variant.id}:{self.players}"

    def blocks(self) -> list[tuple[int, int]]:
        if self.note:
            return []
        return [(b, min(BLOCK, self.games - b * BLOCK)) for b in range((self.games + BLOCK - 1) // BLOCK)]

    def play_block(self, block: int, size: int) -> Played:
        rng = random.Random(f"{self.label}:{block}")
        model, names = self.model, piles(self.model)
        out: list[tuple[int, tuple[int, ...], int]] = []
        try:
            for _ in range(size):
                run = simulate(self.game, self.variant, self.players, rng, self.inventory, quiet=True, cache=self.cache)
                per_player = {**run.per_player, **{z: self.players for z in model.player_zones}}
                table = Table(run.zones, per_player, self.players, dict(run.env), rng, self.inventory, memo=self.memo)
                length, ended = play(model, table)
                out.append((length, tuple(table.short.get(n, 0) for n in names), -1 if ended is None else ended))
        except (PlayoutError, ExpressionError, Open) as exc:
            return f"not played: {exc}"
        return out


def prepare(game: Game, variant: Variant, players: int, env: dict[str, Any], games: int, seed: int,
            inventory: tuple[Instance, ...]) -> Study:
    """``env``: the setup run's env for this player count (its let values and rulebook numbers)."""
    study = Study(game, variant, players, inventory, games, seed, dict(env))
    try:
        study.limit = whole(study.model.rounds, {**env, "round": 0, "player": 0, "place": 0, "score": 0})
    except Open as gap:
        study.note = f"not played: the round limit is left open by the rulebook: {gap}"
    except ExpressionError as exc:
        study.note = f"not played: {exc}"
    return study


def finish(study: Study, blocks: list[Played]) -> PlayoutCell:
    model = round_model(study.model)
    if study.note:
        return PlayoutCell(0, study.label, study.limit, note=study.note, model=model)
    for played in blocks:
        if isinstance(played, str):
            return PlayoutCell(0, study.label, study.limit, note=played, model=model)
    games = [g for played in blocks if not isinstance(played, str) for g in played]
    return summarise(games, piles(study.model), study.label, study.limit or 0, model)
