"""Which renderer prints which component kind.

A renderer takes the shared :class:`~punchboard.generator.impose.context.BuildContext`, the game,
the component and the build options, and returns its :class:`~punchboard.generator.document.pages.Page` list.
Kinds missing here are reported as not yet printable and skipped.
"""

from __future__ import annotations

from collections.abc import Callable

from punchboard.generator.document.pages import Page
from punchboard.generator.options import BuildOptions

from punchboard.spec.model import Component, Game

from .cards import render_cards
from .context import BuildContext
from .part_pages import render_board, render_sheet, render_tiles
from .tokens import render_tokens

KindRenderer = Callable[[BuildContext, Game, Component, BuildOptions], list[Page]]

KINDS: dict[str, KindRenderer] = {
    "deck": render_cards,
    "banknotes": render_cards,
    "tokens": render_tokens,
    "board": render_board,
    "tiles": render_tiles,
    "sheet": render_sheet,
}


def register(kind: str, renderer: KindRenderer) -> None:
    KINDS[kind] = renderer
