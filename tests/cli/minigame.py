"""A small game written into a tmp folder, for tests that run the CLI on real files."""

from __future__ import annotations

from pathlib import Path

GAME = """\
id: mini
title: Mini
players: {min: 2, max: 4}
components: [cards.yaml, chits.yaml]
"""

CARDS = """\
id: cards
kind: deck
size: poker
layout: base/card
fields: [value, text]
cards:
  - {name: One, value: 1, count: 2, text: "The first card"}
  - {name: Two, value: 2, count: 3, text: "The second card"}
"""

CHITS = """\
id: chits
kind: tokens
size: {width: 20mm, height: 20mm}
layout: base/card
tokens:
  - {name: Chit, count: 12}
"""


def write_game(folder: Path, extra_decks: int = 0) -> Path:
    """The game, with ``extra_decks`` more copies of the deck (for builds that take a while)."""
    folder.mkdir(parents=True, exist_ok=True)
    extra = [f"deck_{n}.yaml" for n in range(extra_decks)]
    game = GAME.replace("components: [cards.yaml, chits.yaml]", f"components: [{', '.join(['cards.yaml', 'chits.yaml', *extra])}]")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    for n, name in enumerate(extra):
        (folder / name).write_text(CARDS.replace("id: cards", f"id: deck_{n}"), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "chits.yaml").write_text(CHITS, encoding="utf-8")
    return folder


def write_setup_short_of_cards(game: Path) -> None:
    """A setup that deals three cards to each of up to four players from a five-card deck: ``verify`` fails it."""
    (game / "setup.yaml").write_text(
        "variants:\n  - id: standard\n    players: {min: 2, max: 4}\n    steps:\n"
        "      - take: {component: cards, to: deck}\n"
        "      - deal: {from: deck, to: hand, count: 3}\n",
        encoding="utf-8",
    )
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "setup: setup.yaml\n", encoding="utf-8")
