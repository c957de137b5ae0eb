"""The print stamp: a tiny label such as ``P3`` inside the trim, so printed copies of
different prints can be told apart once cut and sleeved.

It sits in the lower-right corner, in the band between the trim and the safe
area where layouts keep no text, on a small white plate so it reads on any art.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm

from . import fonts
from .geometry import Rect

STAMP_FONT = "Vera"
STAMP_SIZE = 4.5  # pt; tests find the stamp by this size
STAMP_INK = "#555555"
STAMP_PLATE = "#ffffff"
MIN_INSET = mm(1.2)  # clear of the cut even when it wanders


def draw_stamp(canvas: Canvas, label: str, trim: Rect, safe: float) -> None:
    """Draw ``label`` right-aligned in the lower-right corner between the trim and the safe area."""
    if not label:
        return
    width = fonts.width(label, STAMP_FONT, STAMP_SIZE)
    inset = max(MIN_INSET, min(safe, mm(4)) * 0.45)
    pad = 0.8
    x = trim.right - inset - width
    y = trim.y + inset
    canvas.saveState()
    canvas.setFillColor(STAMP_PLATE)
    canvas.rect(x - pad, y - pad - STAMP_SIZE * 0.2, width + 2 * pad, STAMP_SIZE + 2 * pad, stroke=0, fill=1)
    canvas.setFillColor(STAMP_INK)
    canvas.setFont(STAMP_FONT, STAMP_SIZE)
    canvas.drawString(x, y, label)
    canvas.restoreState()
