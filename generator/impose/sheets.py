"""Player sheets, reference cards and fold-in-half tents.

A sheet's ``size`` is the flat sheet as cut. With ``fold: half-horizontal`` it
stands as a tent: the fold runs across the middle, the half facing the player
(``layout``) is the lower half, and the half facing the others (``outside``) is
the upper half printed upside down so it reads upright once folded. With
``fold: half-vertical`` it stands like a greeting card: outside on the left,
inside on the right, both upright. Without ``outside`` the layout covers the
whole flat sheet and only the fold line is added.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from punchboard.generator.draw.geometry import Rect
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.units import mm, to_mm
from punchboard.spec.fit import size_location
from punchboard.spec.model import Component, Paper, Piece, Side

from .packing import Placement, pack
from .tiles import DrawSide, margin_phrase, page_flip, piece_frame, stroke_cut

FOLD_DASH = (mm(2), mm(1.2))
FOLD_STROKE = 0.5  # pt; tests find fold lines by this width
FOLD_COLOUR = "#555555"
FOLD_OVERHANG = mm(3)  # the fold line continues this far past the trim, so it survives the cut (within the usual bleed)
SIZE_TOLERANCE = mm(0.5)


@dataclass(frozen=True)
class Panel:
    side: Side
    trim: Rect  # in the sheet's own frame
    clip: Rect  # the half plus bleed on its outer edges
    rotation: int


def panels(component: Component, piece: Piece, width: float, height: float, bleed: float) -> list[Panel]:
    """What is drawn where on a flat sheet: one panel, or the two halves of a folded sheet."""
    assert piece.face is not None
    face = Side(piece.face.layout, piece.face.fields)
    if component.fold == "none" or component.outside is None:
        return [Panel(face, Rect(0, 0, width, height), Rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed), 0)]
    outside = component.outside
    if component.fold == "half-horizontal":
        half = height / 2
        return [
            Panel(face, Rect(0, 0, width, half), Rect(-bleed, -bleed, width + 2 * bleed, half + bleed), 0),
            Panel(outside, Rect(0, half, width, half), Rect(-bleed, half, width + 2 * bleed, half + bleed), 180),
        ]
    half = width / 2
    return [
        Panel(outside, Rect(0, 0, half, height), Rect(-bleed, -bleed, half + bleed, height + 2 * bleed), 0),
        Panel(face, Rect(half, 0, half, height), Rect(half, -bleed, half + bleed, height + 2 * bleed), 0),
    ]


def fold_line(component: Component, width: float, height: float) -> tuple[float, float, float, float] | None:
    if component.fold == "half-horizontal":
        return (-FOLD_OVERHANG, height / 2, width + FOLD_OVERHANG, height / 2)
    if component.fold == "half-vertical":
        return (width / 2, -FOLD_OVERHANG, width / 2, height + FOLD_OVERHANG)
    return None


def is_full_page(component: Component, paper: Paper) -> bool:
    """A sheet as large as the paper is the paper itself: printed edge to edge, not cut."""
    assert component.size is not None
    w, h = component.size.width, component.size.height
    return (abs(w - paper.width) <= SIZE_TOLERANCE and abs(h - paper.height) <= SIZE_TOLERANCE) or (
        abs(h - paper.width) <= SIZE_TOLERANCE and abs(w - paper.height) <= SIZE_TOLERANCE
    )


def pack_sheets(component: Component, paper: Paper, room: Rect, bleed: float, gap: float, margin: float | None = None) -> list[list[Placement]]:
    assert component.size is not None
    size = (component.size.width, component.size.height)
    if is_full_page(component, paper):
        turned = size[0] > size[1] + SIZE_TOLERANCE
        placed = Placement(0, 0.0, 0.0, paper.width, paper.height, turned)
        return [[Placement(i, placed.x, placed.y, placed.width, placed.height, turned)] for i in range(len(component.pieces))]
    sizes, box = [size] * len(component.pieces), (room.x, room.y, room.width, room.height)
    try:
        upright = pack(sizes, box, gap + 2 * bleed, prefer_flat=False)
        flat = pack(sizes, box, gap + 2 * bleed, prefer_flat=True)
        return flat if len(flat) < len(upright) else upright
    except ValueError:
        message = (
            f"{component.id}: a sheet of {to_mm(size[0]):.0f} × {to_mm(size[1]):.0f} mm does not fit on {paper.name} paper "
            f"inside {margin_phrase(margin)}; make it the paper's size (printed edge to edge) or smaller, or make it a board"
        )
        raise SpecError([Problem(*size_location(component, "size"), message)]) from None


def draw_sheets_page(
    canvas: Canvas,
    paper: Paper,
    component: Component,
    placements: Sequence[Placement],
    bleed: float,
    draw_side: DrawSide,
    back_flip: str | None = None,
) -> None:
    """One page of sheets: fronts with cut and fold lines, or with ``back_flip`` the backs behind them."""
    assert component.size is not None
    width, height = component.size.width, component.size.height
    full_page = is_full_page(component, paper)
    canvas.saveState()
    page_flip(canvas, paper, back_flip)
    for placement in placements:
        piece = component.pieces[placement.item]
        with piece_frame(canvas, placement, width, mirror=back_flip is not None):
            if back_flip:
                if piece.back is not None:
                    draw_side(canvas, piece.back, piece, Rect(0, 0, width, height), bleed, _rect_clip(Rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)), 0)
                continue
            for panel in panels(component, piece, width, height, bleed):
                # draw_side clips after turning the side, so a turned panel's clip is given turned too.
                clip = _turned(panel.clip, panel.trim) if panel.rotation == 180 else panel.clip
                draw_side(canvas, panel.side, piece, panel.trim, bleed, _rect_clip(clip), panel.rotation)
            if not full_page:
                stroke_cut(canvas, lambda path: path.rect(0, 0, width, height))  # type: ignore[attr-defined]
            line = fold_line(component, width, height)
            if line is not None:
                _draw_fold(canvas, line, full_page, width, height)
    canvas.restoreState()


def _turned(rect: Rect, about: Rect) -> Rect:
    cx, cy = about.center
    return Rect(2 * cx - rect.right, 2 * cy - rect.top, rect.width, rect.height)


def _rect_clip(rect: Rect):  # type: ignore[no-untyped-def]
    def add(path: object) -> None:
        path.rect(rect.x, rect.y, rect.width, rect.height)  # type: ignore[attr-defined]

    return add


def _draw_fold(canvas: Canvas, line: tuple[float, float, float, float], full_page: bool, width: float, height: float) -> None:
    x1, y1, x2, y2 = line
    if full_page:  # nothing to cut: keep the fold line on the paper
        x1, y1, x2, y2 = max(x1, 0.0), max(y1, 0.0), min(x2, width), min(y2, height)
    canvas.saveState()
    canvas.setStrokeColor(FOLD_COLOUR)
    canvas.setLineWidth(FOLD_STROKE)
    canvas.setDash(*FOLD_DASH)
    canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


FOLD_LEGEND = "solid line: cut · dashed line: fold with the print outside (mountain fold)"
