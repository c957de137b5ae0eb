"""Boards, playmats and tracks: one sheet when they fit, else tiles with glue strips and an assembly map."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from punchboard.generator.draw import fonts
from punchboard.generator.draw.geometry import Rect
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm, to_mm
from punchboard.spec.model import Component, Paper, Piece, Side

from .board_tiling import (
    Frame,
    Tile,
    TilePlan,
    TilingSettings,
    clip_segment,
    joint_ticks,
    load_settings,
    mirror_plan,
    plan_tiles,
)
from .tiles import DrawSide

LABEL_FONT = "Vera-Bold"
LABEL_SIZE = 14.5  # tests find labels by this size
NOTE_FONT = "Vera"
INK = "#000000"
GREY = "#555555"
STRIP_TINT = "#d0d0d0"
MARK_STROKE = 0.3  # pt: crop marks
TICK_STROKE = 0.45  # pt: alignment ticks; tests find ticks by this width
CROSS_SIZE = mm(3)


@contextmanager
def frame_on_page(canvas: Canvas, frame: Frame, paper: Paper) -> Iterator[None]:
    """Draw in frame coordinates; a rotated frame is turned 90° anticlockwise onto the portrait page."""
    canvas.saveState()
    if frame.rotated:
        canvas.translate(paper.width, 0)
        canvas.rotate(90)
    try:
        yield
    finally:
        canvas.restoreState()


@dataclass(frozen=True)
class BoardJob:
    component: Component
    piece: Piece
    side: Side
    plan: TilePlan
    side_name: str  # "front" | "back"
    copy_label: str  # "" or "2 of 2"
    duplex_back: bool = False  # printed on the reverse of the front tile page


def plan_for(component: Component, bleed: float, paper: Paper, settings: TilingSettings | None = None) -> TilePlan:
    assert component.size is not None  # the loader requires a size for boards
    return plan_tiles(component.size.width, component.size.height, bleed, paper, settings or load_settings())


def draw_tile(canvas: Canvas, paper: Paper, job: BoardJob, tile: Tile, draw_side: DrawSide) -> None:
    """One tile page: the clipped board art, crop marks, joint ticks and the tile label."""
    settings = load_settings()
    plan = job.plan
    b = plan.bleed
    with frame_on_page(canvas, plan.frame, paper):
        x0, y0, x1, y1 = tile.content
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(x0, y0, x1 - x0, y1 - y0)
        canvas.clipPath(clip, stroke=0, fill=0)
        tx, ty = tile.to_frame(b, b)
        draw_side(canvas, job.side, job.piece, Rect(tx, ty, plan.board_width, plan.board_height), b, None, 0)
        canvas.restoreState()
        if not job.duplex_back:  # tiles are aligned on the front; a duplex back only needs its cuts
            _draw_strip_notes(canvas, plan, tile)
            _draw_ticks(canvas, plan, tile, settings)
        _draw_cut_marks(canvas, plan, tile, settings)
        _draw_label(canvas, job, tile)


def _cut_lines(plan: TilePlan, tile: Tile) -> tuple[float, float, float, float]:
    """Where this tile is cut, frame coordinates: the board's trim on outer edges, the content edge inside."""
    x0, y0, x1, y1 = tile.content
    b, eps = plan.bleed, 1e-6
    extent_w, extent_h = plan.extent
    rx0, ry0, rx1, ry1 = tile.region
    left = x0 + (b if rx0 <= eps else 0.0)
    right = x1 - (b if rx1 >= extent_w - eps else 0.0)
    bottom = y0 + (b if ry0 <= eps else 0.0)
    top = y1 - (b if ry1 >= extent_h - eps else 0.0)
    return left, bottom, right, top


def _draw_cut_marks(canvas: Canvas, plan: TilePlan, tile: Tile, settings: TilingSettings) -> None:
    x0, y0, x1, y1 = tile.content
    left, bottom, right, top = _cut_lines(plan, tile)
    gap, length = mm(1), settings.mark_room - mm(1.5)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(MARK_STROKE)
    for x in (left, right):
        canvas.line(x, y1 + gap, x, y1 + gap + length)
        canvas.line(x, y0 - gap, x, y0 - gap - length)
    for y in (bottom, top):
        canvas.line(x0 - gap, y, x0 - gap - length, y)
        canvas.line(x1 + gap, y, x1 + gap + length, y)


def _draw_ticks(canvas: Canvas, plan: TilePlan, tile: Tile, settings: TilingSettings) -> None:
    canvas.setLineWidth(TICK_STROKE)
    for tick in joint_ticks(plan, settings):
        part = clip_segment(tick, tile.region)
        if part is None:
            continue
        (ax, ay), (bx, by) = tile.to_frame(*part.start), tile.to_frame(*part.end)
        # A white core under a black line reads on dark and light art alike.
        canvas.setStrokeColor("#ffffff")
        canvas.setLineWidth(TICK_STROKE * 3)
        canvas.line(ax, ay, bx, by)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(TICK_STROKE)
        canvas.line(ax, ay, bx, by)


def _neighbour_strips(plan: TilePlan, tile: Tile) -> list[tuple[Rect, str, bool]]:
    """This tile's glue strips (frame rect, the tile laid on it, vertical?)."""
    x0, y0, x1, y1 = tile.content
    o = plan.overlap
    strips = []
    if tile.col + 1 < plan.cols:
        strips.append((Rect(x1 - o, y0, o, y1 - y0), plan.tile(tile.row, tile.col + 1).label, True))
    if tile.row + 1 < plan.rows:
        strips.append((Rect(x0, y0, x1 - x0, o), plan.tile(tile.row + 1, tile.col).label, False))
    return strips


def _draw_strip_notes(canvas: Canvas, plan: TilePlan, tile: Tile) -> None:
    """Tint the glue strips and name the tile that covers them; both vanish under that tile."""
    for rect, neighbour, vertical in _neighbour_strips(plan, tile):
        canvas.saveState()
        canvas.setFillColor(STRIP_TINT)
        canvas.setFillAlpha(0.45)
        canvas.rect(rect.x, rect.y, rect.width, rect.height, stroke=0, fill=1)
        canvas.restoreState()
        text = f"glue {neighbour} here"
        canvas.setFillColor(GREY)
        canvas.setFont(NOTE_FONT, 7)
        cx, cy = rect.center
        canvas.saveState()
        canvas.translate(cx, cy)
        if vertical:
            canvas.rotate(90)
        canvas.drawCentredString(0, -2.5, text)
        canvas.restoreState()


def _draw_label(canvas: Canvas, job: BoardJob, tile: Tile) -> None:
    plan = job.plan
    x0, _, x1, y1 = tile.content
    base = y1 + mm(2.5)
    canvas.setFillColor(INK)
    canvas.setFont(LABEL_FONT, LABEL_SIZE)
    canvas.drawString(x0, base, tile.label)
    label_width = fonts.width(tile.label, LABEL_FONT, LABEL_SIZE)
    parts = [job.component.name, job.side_name]
    if job.copy_label:
        parts.append(job.copy_label)
    if len(plan.tiles) > 1:
        parts.append(f"tile {plan.tiles.index(tile) + 1} of {len(plan.tiles)}")
        parts.append("cut on the marks, lay each tile on its neighbour's grey strip, match the ticks")
    else:
        parts.append("cut on the marks")
    canvas.setFont(NOTE_FONT, 7)
    canvas.setFillColor(GREY)
    text = " · ".join(parts)
    while fonts.width(text, NOTE_FONT, 7) > x1 - x0 - label_width - mm(3) and len(parts) > 2:
        parts.pop()
        text = " · ".join(parts)
    canvas.drawString(x0 + label_width + mm(3), base, text)


# ---------------------------------------------------------------- assembly map


def draw_assembly_map(canvas: Canvas, paper: Paper, component: Component, plan: TilePlan, two_sided: str) -> None:
    """A page showing the whole board scaled down, its tiles, their labels and the glue strips."""
    margin = paper.margin + mm(8)
    canvas.setFillColor(INK)
    canvas.setFont(LABEL_FONT, 16)
    top = paper.height - margin
    canvas.drawString(margin, top - 16, f"{component.name} — assembly map")
    size = f"{to_mm(plan.board_width):.0f} × {to_mm(plan.board_height):.0f} mm"
    lines = [
        f"Assembled size {size}; {len(plan.tiles)} tiles in {plan.rows} row(s) × {plan.cols} column(s), "
        f"{to_mm(plan.overlap):.0f} mm glue strips.",
        "1. Print at 100 % (actual size). 2. Cut every tile on its crop marks.",
        "3. Lay each tile on the grey strip of the tile to its left and above it;",
        "   the short ticks continue straight across the joint when it sits right. 4. Glue or tape.",
    ]
    if two_sided:
        lines.append(two_sided)
    canvas.setFont(NOTE_FONT, 9)
    y = top - 36
    for line in lines:
        canvas.drawString(margin, y, line)
        y -= 13
    extent_w, extent_h = plan.extent
    avail_w, avail_h = paper.width - 2 * margin, y - margin - mm(12)
    scale = min(avail_w / extent_w, avail_h / extent_h)
    ox = margin + (avail_w - extent_w * scale) / 2
    oy = margin + mm(12) + (avail_h - extent_h * scale) / 2
    canvas.setLineWidth(0.8)
    for tile in plan.tiles:
        x0, y0, x1, y1 = tile.region
        canvas.setStrokeColor(GREY)
        canvas.setFillColor("#f4f4f4")
        canvas.rect(ox + x0 * scale, oy + y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale, stroke=1, fill=1)
    for tile in plan.tiles:
        for rect, _, _ in _neighbour_strips(plan, tile):
            rx = rect.x - tile.content[0] + tile.region[0]
            ry = rect.y - tile.content[1] + tile.region[1]
            canvas.setFillColor(STRIP_TINT)
            canvas.rect(ox + rx * scale, oy + ry * scale, rect.width * scale, rect.height * scale, stroke=0, fill=1)
    b = plan.bleed
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(1.5)
    canvas.rect(ox + b * scale, oy + b * scale, plan.board_width * scale, plan.board_height * scale, stroke=1, fill=0)
    canvas.setFillColor(INK)
    for tile in plan.tiles:
        x0, y0, x1, y1 = tile.region
        canvas.setFont(LABEL_FONT, 18)
        canvas.drawCentredString(ox + (x0 + x1) / 2 * scale, oy + (y0 + y1) / 2 * scale - 6, tile.label)


# ---------------------------------------------------------------- the pages of one board component


def board_jobs(component: Component, bleed: float, paper: Paper, backs: str) -> tuple[TilePlan, list[tuple[BoardJob, Tile, bool]]]:
    """Every tile page in print order: (job, tile, is_back_page).

    Duplex modes put each tile's back on the page after it, mirrored for the flip;
    other modes print every back side as a board of its own after the fronts.
    """
    plan = plan_for(component, bleed, paper)
    pages: list[tuple[BoardJob, Tile, bool]] = []
    separate: list[tuple[BoardJob, Tile, bool]] = []
    copies = len(component.pieces)
    for n, piece in enumerate(component.pieces):
        copy_label = f"board {n + 1} of {copies}" if copies > 1 else ""
        assert piece.face is not None
        front = BoardJob(component, piece, piece.face, plan, "front", copy_label)
        back_side = piece.back if backs != "none" else None
        if back_side is not None and backs in ("duplex-long", "duplex-short"):
            back = BoardJob(component, piece, back_side, mirror_plan(plan, backs.removeprefix("duplex-")), "back", copy_label, duplex_back=True)
            for front_tile, back_tile in zip(front.plan.tiles, back.plan.tiles, strict=True):
                pages.append((front, front_tile, False))
                pages.append((back, back_tile, True))
            continue
        pages.extend((front, tile, False) for tile in plan.tiles)
        if back_side is not None:
            back = BoardJob(component, piece, back_side, plan, "back", copy_label)
            separate.extend((back, tile, False) for tile in plan.tiles)
    return plan, pages + separate


def two_sided_note(component: Component, backs: str) -> str:
    if not component.has_backs or backs == "none":
        return ""
    if backs in ("duplex-long", "duplex-short"):
        flip = "long" if backs == "duplex-long" else "short"
        return f"Two-sided: print duplex, flip on the {flip} edge; each tile's back follows it and lines up behind it."
    return "Two-sided: the back side follows as its own set of tiles; glue the two boards back to back."
