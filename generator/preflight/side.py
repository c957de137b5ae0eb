"""The preflight's watcher of one side: collects what the side draws, then runs the per-side checks.

:func:`observe` is handed to the drawing (``SideContext.observe``); when the
side is finished every check reads what was drawn and each finding becomes a
named warning for the piece, unless its element silences it
(``preflight: {ignore: [code]}``). A side drawn once and placed on many
pieces is checked once: the drawing gives its warnings again for each piece.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from punchboard.generator.draw.observe import Drawn, Warn
from punchboard.generator.draw.side import SideFrame

from punchboard.spec.model import Layout

from . import contrast, resolution, safe_zone, strokes, text_size, trim_edge
from .findings import ignored, message
from .seen import Finding, SideSeen

CHECKS: tuple[Callable[[SideSeen], Iterable[Finding]], ...] = (
    resolution.check, text_size.check, strokes.check, safe_zone.check, contrast.check, trim_edge.check,
)


class SideCheck:
    def __init__(self, layout: Layout, frame: SideFrame):
        self.seen = SideSeen(layout, frame)

    def see(self, drawn: Drawn) -> None:
        self.seen.drawn.append(drawn)

    def done(self, warn: Warn, where: str) -> None:
        for check in CHECKS:
            for element, code, text in check(self.seen):
                if not ignored(element, code):
                    warn(message(where, code, text, element))


def observe(layout: Layout, frame: SideFrame) -> SideCheck:
    return SideCheck(layout, frame)
