"""Cutting guides drawn outside the art: crop marks in line with every cut, fold marks."""

from __future__ import annotations

from punchboard.generator.draw.colours import resolved
from reportlab.pdfgen.canvas import Canvas

from .grid import Sheet
from .style import SheetStyle


def draw_crop_marks(canvas: Canvas, sheet: Sheet, style: SheetStyle) -> None:
    """Solid marks above/below the art for every vertical cut, left/right for every horizontal one."""
    art = sheet.art_box
    if art is None:
        return
    canvas.saveState()
    canvas.setStrokeColor(resolved(style.mark_color))
    canvas.setLineWidth(style.mark_stroke)
    offset_y, length_y = sheet.marks_y
    for x in sheet.cuts_x:
        canvas.line(x, art.y - offset_y - length_y, x, art.y - offset_y)
        canvas.line(x, art.top + offset_y, x, art.top + offset_y + length_y)
    offset_x, length_x = sheet.marks_x
    for y in sheet.cuts_y:
        if y in sheet.folds_y:
            continue
        canvas.line(art.x - offset_x - length_x, y, art.x - offset_x, y)
        canvas.line(art.right + offset_x, y, art.right + offset_x + length_x, y)
    canvas.restoreState()


def draw_fold_marks(canvas: Canvas, sheet: Sheet, style: SheetStyle) -> None:
    """Dashed marks left and right of the art, in line with each fold."""
    art = sheet.art_box
    if art is None or not sheet.folds_y:
        return
    canvas.saveState()
    canvas.setStrokeColor(resolved(style.fold_color))
    canvas.setLineWidth(style.fold_stroke)
    canvas.setDash([v for v in style.fold_dash] or [3, 2])
    offset_x, length_x = sheet.marks_x
    for y in sheet.folds_y:
        canvas.line(art.x - offset_x - length_x, y, art.x - offset_x, y)
        canvas.line(art.right + offset_x, y, art.right + offset_x + length_x, y)
    canvas.restoreState()
