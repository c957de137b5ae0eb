"""Which renderer prints which component kind.

A renderer takes the shared :class:`~punchboard.generator.impose.context.BuildContext`, the game,
the component and the build options, and returns its :class:`~punchboard.generator.document.pages.Page` list.
Kinds missing here are reported as not yet printable and skipped. A renderer's module is imported when
its kind is first printed: a rebuild of one deck loads the card imposition, not tokens, tiles and boards.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from punchboard.generator.document.pages import Page
    from punchboard.generator.options import BuildOptions

    from punchboard.spec.model import Component, Game

    from .context import BuildContext

KindRenderer = Callable[["BuildContext", "Game", "Component", "BuildOptions"], "list[Page]"]

_WHERE: dict[str, tuple[str, str]] = {  # kind → (module in this package, renderer)
    "deck": ("cards", "render_cards"),
    "banknotes": ("cards", "render_cards"),
    "tokens": ("tokens", "render_tokens"),
    "board": ("part_pages", "render_board"),
    "tiles": ("part_pages", "render_tiles"),
    "sheet": ("part_pages", "render_sheet"),
}


class _Renderers(Mapping[str, KindRenderer]):
    """The kinds and their renderers, each imported when first asked for."""

    def __init__(self) -> None:
        self.found: dict[str, KindRenderer] = {}

    def __getitem__(self, kind: str) -> KindRenderer:
        renderer = self.found.get(kind)
        if renderer is None:
            module, name = _WHERE[kind]
            renderer = self.found[kind] = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        return renderer

    def __contains__(self, kind: object) -> bool:
        return kind in _WHERE or kind in self.found

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(_WHERE), **self.found})

    def __len__(self) -> int:
        return len({**dict.fromkeys(_WHERE), **self.found})


KINDS = _Renderers()


def register(kind: str, renderer: KindRenderer) -> None:
    KINDS.found[kind] = renderer
