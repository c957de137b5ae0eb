"""A process that loads and builds again and again (``watch``, ``serve``) holds one model at a
time: the memos keyed by model objects (punchboard/incremental/identity.py) let the last model go when a new one is loaded."""

from __future__ import annotations

import gc
from pathlib import Path

from punchboard.cli import main
from punchboard.incremental.identity import ByIdentity, forget_all
from punchboard.spec.model import Game, Piece
from tests.cli.minigame import write_game


def _alive(kind: type) -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is kind)


def test_builds_one_after_another_keep_one_model_alive(tmp_path: Path):
    game = write_game(tmp_path / "game", extra_decks=2)
    for n in range(5):
        assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--force", "--jobs", "1"]) == 0
        if n == 0:
            games, pieces = _alive(Game), _alive(Piece)
    assert _alive(Game) == games and _alive(Piece) == pieces  # not five models' worth


def test_forget_all_clears_every_memo():
    memos = [ByIdentity(), ByIdentity(limit=None)]
    held = [object(), object()]
    for memo, obj in zip(memos, held, strict=True):
        memo.get(obj, lambda _: 1)
    forget_all()
    calls = []
    for memo, obj in zip(memos, held, strict=True):
        memo.get(obj, lambda _: calls.append(1))
    assert len(calls) == 2
