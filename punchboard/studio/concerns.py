"""Which piece a build warning concerns, read from the place every warning starts with.

The renderers name the piece they were drawing: ``game / component / card 'Name': …``
(``tile``, ``sheet``, ``token`` …; ``card #7`` for a piece without a name), and a
component-wide warning ``game / component: …``. A warning that names a piece is
shown on every distinct piece with that name (or number); one that names only a
component on the component; anything else on the game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from punchboard.spec.model import Game, Piece


@dataclass
class Placed:
    """Warnings by where they go: (component id, distinct piece number), component id, or the game."""

    pieces: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    components: dict[str, list[str]] = field(default_factory=dict)
    game: list[str] = field(default_factory=list)


def _who(message: str, game_id: str, component_id: str) -> str | None:
    """The piece label a message names for this component (``'Name'``, ``#7``), ``""`` for the
    component itself, None when the message is not about this component."""
    spaced = f"{game_id} / {component_id}"
    if message.startswith(spaced + ": "):
        return ""
    if message.startswith(spaced + " / "):
        rest = message[len(spaced) + 3:]
        match = re.match(r"\S+ ('.*?'|#\d+): ", rest)
        return match.group(1) if match else None
    return None


def _labels(piece: Piece) -> set[str]:
    labels = {f"#{piece.index + 1}"}
    if piece.name:
        labels.add(f"'{piece.name}'")
    return labels


def place_warnings(game: Game, distinct: dict[str, Sequence[Sequence[Piece]]], warnings: Sequence[str]) -> Placed:
    """Sort ``warnings`` onto the distinct pieces (``distinct[component] = [pieces alike, …]``) they name."""
    placed = Placed()
    for message in warnings:
        home = False
        for component_id, groups in distinct.items():
            who = _who(message, game.id, component_id)
            if who is None:
                continue
            home = True
            hits = [n for n, pieces in enumerate(groups) if any(who in _labels(p) for p in pieces)]
            if who == "" or not hits:
                placed.components.setdefault(component_id, []).append(message)
            for n in hits:
                placed.pieces.setdefault((component_id, n), []).append(message)
            break
        if not home:
            placed.game.append(message)
    return placed
