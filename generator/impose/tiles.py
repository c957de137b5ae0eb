"""Square and polyomino tiles packed on sheets, cut along their outline.

A piece is drawn in its own frame: origin at the lower-left of its cells'
bounding box, y up. The layout covers the whole bounding box and is clipped to
the cells grown by the bleed; the cut line follows the outline of the cells.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.outlines import (
    Cell,
    Outline,
    PathLike,
    cells_extent,
    grown_polyomino_rings,
    polyomino_outline,
)
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.units import to_mm
from punchboard.spec.fit import size_location
from punchboard.spec.model import Component, Paper, Piece, Side

from .packing import Placement, pack

ClipShape = Callable[[object], None]
DrawSide = Callable[[Canvas, Side, Piece, Rect, float, ClipShape | None, int], None]
"""Draws one side of a piece: trim rect, bleed, clip shape (or None), rotation in degrees."""

CUT_STROKE = 0.4  # pt; tests find cut lines by this width
CUT_COLOUR = "#1a1a1a"


def piece_size(cells: Sequence[Cell], cell: float) -> tuple[float, float]:
    rows, cols = cells_extent(cells)
    return cols * cell, rows * cell


def mirrored_cells(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """The cells as seen from behind, turned over about the piece's vertical axis."""
    _, cols = cells_extent(cells)
    return tuple(sorted((r, cols - 1 - c) for r, c in cells))


def grown_cells_clip(cells: Sequence[Cell], cell: float, bleed: float) -> ClipShape:
    """A clip shape: the cells grown by the bleed."""
    outline = Outline("polygon", (0.0, 0.0, 0.0, 0.0), rings=grown_polyomino_rings(cells, cell, bleed))
    return outline.add_to  # type: ignore[return-value]


def page_flip(canvas: Canvas, paper: Paper, flip: str | None) -> None:
    """Turn the canvas so the back page mirrors the front: long edge left–right, short edge top–bottom."""
    if flip == "long":
        canvas.translate(paper.width, 0)
        canvas.scale(-1, 1)
    elif flip == "short":
        canvas.translate(0, paper.height)
        canvas.scale(1, -1)


@contextmanager
def piece_frame(canvas: Canvas, placement: Placement, local_w: float, mirror: bool) -> Iterator[None]:
    """Draw in the piece's own frame at its placement (turned 90° anticlockwise if turned).

    With ``mirror`` the frame is also mirrored about its vertical axis: combined
    with a mirrored page this keeps the back's art upright and right-reading.
    """
    canvas.saveState()
    if placement.turned:
        canvas.translate(placement.x + placement.width, placement.y)
        canvas.rotate(90)
    else:
        canvas.translate(placement.x, placement.y)
    if mirror:
        canvas.translate(local_w, 0)
        canvas.scale(-1, 1)
    try:
        yield
    finally:
        canvas.restoreState()


def stroke_cut(canvas: Canvas, outline_path_adder: Callable[[PathLike], None]) -> None:
    path = canvas.beginPath()
    outline_path_adder(path)
    canvas.setStrokeColor(CUT_COLOUR)
    canvas.setLineWidth(CUT_STROKE)
    canvas.setDash()
    canvas.drawPath(path, stroke=1, fill=0)


def tile_cells(piece: Piece) -> tuple[Cell, ...]:
    return piece.cells


def pack_tiles(component: Component, paper: Paper, room: Rect, bleed: float, gap: float, margin: float | None = None) -> list[list[Placement]]:
    """Tiles shelf-packed into ``room``; ``margin`` (the unprintable margin around it) names the figure when one does not fit."""
    assert component.cell is not None  # the loader requires a cell size for tiles
    sizes = [piece_size(tile_cells(p), component.cell) for p in component.pieces]
    try:
        return pack(sizes, (room.x, room.y, room.width, room.height), gap + 2 * bleed)
    except ValueError:
        big = max(sizes, key=lambda s: s[0] * s[1])
        message = (
            f"{component.id}: a tile of {to_mm(big[0]):.0f} × {to_mm(big[1]):.0f} mm does not fit on "
            f"{paper.name} paper inside {margin_phrase(margin)}; use a smaller cell or larger paper"
        )
        raise SpecError([Problem(*size_location(component, "cell"), message)]) from None


def draw_tiles_page(
    canvas: Canvas,
    paper: Paper,
    component: Component,
    placements: Sequence[Placement],
    bleed: float,
    draw_side: DrawSide,
    back_flip: str | None = None,
    cut_lines: bool = True,
) -> None:
    """One page of tiles: fronts, or with ``back_flip`` (long|short) the backs that sit behind them.
    ``cut_lines`` False: no printed outline (a cutting machine follows its cut file)."""
    assert component.cell is not None
    cell = component.cell
    canvas.saveState()
    page_flip(canvas, paper, back_flip)
    for placement in placements:
        piece = component.pieces[placement.item]
        side = piece.back if back_flip else piece.face
        cells = tile_cells(piece)
        local_w, _ = piece_size(cells, cell)
        if back_flip:
            cells = mirrored_cells(cells)
        with piece_frame(canvas, placement, local_w, mirror=back_flip is not None):
            if side is not None:
                width, height = piece_size(cells, cell)
                draw_side(canvas, side, piece, Rect(0, 0, width, height), bleed, grown_cells_clip(cells, cell, bleed), 0)
            if not back_flip and cut_lines:
                stroke_cut(canvas, polyomino_outline(cells, cell, 0, 0).add_to)
    canvas.restoreState()


def margin_phrase(margin: float | None) -> str:
    return "the margins" if margin is None else f"its {to_mm(margin):.2f}".rstrip("0").rstrip(".") + " mm unprintable margin"
