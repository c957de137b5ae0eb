"""Monte Carlo replays leave out the steps that cannot change the hands an event reads, and only those.

Made-up games in tmp folders through the CLI; the expected figures are worked out by hand in the comments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

GAME = "id: letters\ntitle: Letters\nplayers: {min: 2, max: 4}\nsetup: setup.yaml\ncomponents: [deck.yaml]\n"
DECK = """\
id: deck
kind: deck
size: poker
layout: base/card
fields: [value]
cards:
  - {name: Guard, value: 1, count: 6}
  - {name: Priest, value: 2, count: 14}
  - {name: Princess, value: 9}
"""
# After the deal each player discards their first card: a step after the deal that changes the hands.
# Later steps (a market from the rest of the deck, shuffled) change no hand and may be left out.
SETUP = """\
variants:
  - id: standard
    players: {min: 2, max: 4}
    steps:
      - take: {component: deck, to: deck}
      - shuffle: {zone: deck}
      - deal: {from: deck, to: hand, count: 2}
      - say: each player discards the first card of their hand
        remove: {from: hand, count: 1, each_player: true}
      - take: {from: deck, count: 3, to: market}
      - shuffle: {zone: market}
    events:
      - {name: player 1 still holds two cards, zone: hand, where: "value >= 1", min: 2, who: first}
      - {name: player 1 holds the Princess, zone: hand, where: "name == 'Princess'", who: first}
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_step_after_the_deal_that_changes_the_hands_is_replayed(tmp_path: Path, jobs: str) -> None:
    folder = tmp_path / "letters"
    folder.mkdir()
    for name, text in (("game.yaml", GAME), ("deck.yaml", DECK), ("setup.yaml", SETUP)):
        (folder / name).write_text(text, encoding="utf-8")
    done = run_cli("verify", str(folder), "--json", "--trials", "1500", "--cross-check", "--jobs", jobs, "--out", str(tmp_path / "out"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    events = {(r["players"], e["name"]): e for r in json.loads(done.stdout) if r["players"] for e in r["events"]}
    for players in (2, 3, 4):
        # one card is left in every hand: never two (a replay without the discard would always see two)
        two = events[(players, "player 1 still holds two cards")]
        assert two["exact"] == 0 and two["hits"] == 0 and two["agrees"], two
        # the card left is a uniformly random one of the 21: 1/21, and the replays agree
        princess = events[(players, "player 1 holds the Princess")]
        assert princess["exact"] == pytest.approx(1 / 21, abs=1e-12) and princess["exact_kind"] == "exact"
        assert 0 < princess["hits"] < 1500 and princess["agrees"], princess
