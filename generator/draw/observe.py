"""What a side drew, element by element, for whoever watches the drawing (the preflight).

:func:`~punchboard.generator.draw.side.draw_side` reports every element it draws
to an optional :class:`SideObserver` as a :class:`Drawn`: the element with the
piece's fields bound, the rectangle it was placed in, and for text the size it
was fitted at. The observer sees the one drawing the PDF gets; nothing is drawn
a second time for it. Coordinates are the side's own (the trim's lower-left
corner at the origin when the side is drawn once and reused).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from punchboard.spec.model import Element

from .geometry import Rect
from .text import Fitted

Warn = Callable[[str], None]


@dataclass(frozen=True)
class Drawn:
    """One element as it was drawn."""

    element: Element  # its props with the piece's field-bound colours, fonts and sizes filled in
    rect: Rect  # where it was placed (lines and polygons: their reference box)
    box: Rect  # the reference box (trim, bleed or safe)
    palette: Mapping[str, str]  # the names its colours are looked up in
    text: Fitted | None = None  # text: the lines and the size after shrinking to fit
    font: str = ""  # text: the base font
    picture: Path | None = None  # image: the file drawn


class SideObserver(Protocol):
    """Watches one side being drawn; ``done`` is called once when the side is finished."""

    def see(self, drawn: Drawn) -> None: ...

    def done(self, warn: Warn, where: str) -> None: ...
