"""A picture file (PNG, JPG or SVG) drawn into a box with a fit and a focal point."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from . import svg
from .geometry import Rect
from .images import draw_image


def draw_picture(canvas: Canvas, path: Path, box: Rect, fit: str = "contain", focus: tuple[float, float] | None = None) -> tuple[str, ...]:
    """Draw ``path`` into ``box``; returns what could not be drawn faithfully (SVG features), empty if all was.

    Raises :class:`svg.SvgError` for an SVG that cannot be read at all.
    """
    if path.suffix.lower() == ".svg":
        return svg.draw_svg(canvas, path, box, fit, focus or (0.5, 0.5))
    draw_image(canvas, path, box.x, box.y, box.width, box.height, preserve_aspect=fit != "stretch",
               fit=fit if fit == "cover" else None, focus=focus)
    return ()
