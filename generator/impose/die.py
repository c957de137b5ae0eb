"""Die lines for print shops: a shaped piece's cut path as a separate spot colour.

Print shops' RIPs and cutting tables look for a spot (Separation) colour named
``CutContour`` (the Roland/Mimaki/Summa convention; some shops accept ``Thru-cut``
too): a thin unfilled stroke, set to overprint so it never knocks out the art.
It is drawn on top of the art; the shop's software removes it from the print.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfgen.canvas import Canvas

DIE_NAME = "CutContour"
DIE_COLOUR = CMYKColorSep(0, 1, 0, 0, spotName=DIE_NAME, density=1)  # shown as 100 % magenta
DIE_STROKE = 0.25  # pt

AddPath = Callable[[Any], None]


def draw_die_line(canvas: Canvas, add_path: AddPath) -> None:
    """Stroke the closed outline that ``add_path`` adds, in the CutContour spot colour."""
    canvas.saveState()
    canvas.setStrokeColor(DIE_COLOUR)
    canvas.setStrokeOverprint(True)
    canvas.setLineWidth(DIE_STROKE)
    canvas.setDash()
    path = canvas.beginPath()
    add_path(path)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()
