"""The preflight without a build, for ``punchboard check``: the draw stage alone, no imposition.

Every distinct side of every printed piece is drawn once, at its own size with
its bleed, on a scratch canvas that is never written (the side drawing
:func:`~punchboard.generator.draw.side.draw_side` reuses for identical sides,
so a deck's common back is drawn once and its findings given for every card),
with the same watcher ``build`` uses; then each component's colour check runs.
The findings are exactly the ones ``build`` reports, without sheets, marks,
fonts embedded or files written.
"""

from __future__ import annotations

from io import BytesIO
from typing import Protocol

from punchboard.generator.draw import packed_forms
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from punchboard.generator.draw.side import SideFrame, draw_side
from punchboard.generator.impose.context import BuildContext
from punchboard.generator.impose.kinds import KINDS
from punchboard.generator.impose.part_bleed import bleed_for
from punchboard.generator.impose.sheets import panels
from punchboard.generator.impose.style import load_style
from punchboard.generator.impose.tiles import piece_size
from punchboard.generator.options import BuildOptions

from punchboard.incremental.sides import Store
from punchboard.spec.loader import load_paper
from punchboard.spec.model import PIECE_NOUNS, Component, Game, Piece, Side

from .colour_blind import Kept as LookKept
from .colour_blind import check_component

CARD_KINDS = ("deck", "banknotes", "tokens")  # their bleed comes from BuildContext.bleed_for, as on card sheets
Part = tuple[Side, Rect, Rect, int]  # side, trim, clip, turn in the piece's own frame


def _size(component: Component, piece: Piece) -> tuple[float, float]:
    if component.kind == "tiles" and component.cell is not None:
        return piece_size(piece.cells, component.cell)
    assert component.size is not None
    return component.size.width, component.size.height


def _parts(component: Component, piece: Piece, bleed: float) -> list[Part]:
    width, height = _size(component, piece)
    whole = Rect(0, 0, width, height)
    grown = whole.inset(-bleed)
    parts: list[Part] = []
    if component.kind == "sheet" and piece.face is not None:
        parts += [(p.side, p.trim, p.clip, p.rotation) for p in panels(component, piece, width, height, bleed)]
    elif piece.face is not None:
        parts.append((piece.face, whole, grown, 0))
    if piece.back is not None:
        parts.append((piece.back, whole, grown, 0))
    return parts


class Kept(Protocol):
    """Where ``check`` finds the sides and looks an earlier check worked out (punchboard/incremental/check_stores.py)."""

    def sides(self, component: Component) -> Store: ...
    def looks(self, component: Component) -> LookKept: ...
    def done(self, component: Component, finished: bool) -> None: ...


def preflight_game(game: Game, options: BuildOptions | None = None, kept: Kept | None = None) -> list[str]:
    """Every preflight finding (and drawing warning) of ``game``, in component order. With ``kept``, a side
    drawn by an earlier check is replayed with the findings it gave (draw/kept.py), and a piece's look for
    the colour check is found again, as a build finds them."""
    options = options or BuildOptions()
    ctx = BuildContext(game, load_paper(options.paper), options, load_style(), preflight=True)
    for component in game.printed:
        if component.kind not in KINDS:
            continue
        canvas = PunchCanvas(BytesIO(), page_compression=1 if kept is not None else 0)
        bleed = ctx.bleed_for(component) if component.kind in CARD_KINDS else bleed_for(ctx, component)
        noun = PIECE_NOUNS.get(component.kind, "piece")
        store = kept.sides(component) if kept is not None else None
        finished = False
        try:
            for piece in component.pieces:
                side_ctx = ctx.side_context(ctx.where(component, piece, noun))
                side_ctx.kept_sides = store
                for side, trim, clip, rotation in _parts(component, piece, bleed):
                    layout = game.layouts[side.layout]
                    draw_side(canvas, layout, {**piece.fields, **side.fields}, SideFrame(trim, bleed, bleed, clip, rotation), side_ctx)
            for finding in check_component(game, component, kept.looks(component) if kept is not None else None):
                ctx.warn(finding)
            finished = True
        finally:
            packed_forms.close(canvas)
            if kept is not None:
                kept.done(component, finished)
    return ctx.warnings
