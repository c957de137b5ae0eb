"""A picture file (PNG, JPG or SVG) drawn into a box with a fit and a focal point, a mask and a shadow."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from punchboard.spec.effects import Mask, Shadow

from . import svg
from .effects import clip_to, mask, rect_outline, shadow
from .geometry import Rect
from .images import draw_image
from .placement import CENTRE, place_picture


def draw_picture(canvas: Canvas, path: Path, box: Rect, fit: str = "contain", focus: tuple[float, float] | None = None,
                 masked: Mask | None = None, shade: Shadow | None = None,
                 palette: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Draw ``path`` into ``box``; returns what could not be drawn faithfully (SVG features), empty if all was.

    ``masked`` clips the picture to a shape in ``box`` (a vector clip path); ``shade`` draws a shadow under it,
    of the mask's shape, else of the area the picture covers. Raises :class:`svg.SvgError` for an SVG that
    cannot be read at all.
    """
    if shade is not None:
        outline = mask.outline(masked, box) if masked is not None else rect_outline(picture_area(path, box, fit, focus))
        shadow.draw(canvas, shade, outline, palette or {})
    if masked is not None:
        canvas.saveState()
        clip_to(canvas, mask.outline(masked, box))
    try:
        if path.suffix.lower() == ".svg":
            return svg.draw_svg(canvas, path, box, fit, focus or CENTRE)
        draw_image(canvas, path, box.x, box.y, box.width, box.height, preserve_aspect=fit != "stretch",
                   fit=fit if fit == "cover" else None, focus=focus)
        return ()
    finally:
        if masked is not None:
            canvas.restoreState()


def picture_area(path: Path, box: Rect, fit: str, focus: tuple[float, float] | None) -> Rect:
    """Where the picture at ``path`` paints in ``box`` (a contained picture leaves the letterbox bare)."""
    if fit == "stretch":
        return box
    if path.suffix.lower() == ".svg":
        picture = svg.load(path)
        width, height = picture.width, picture.height
    else:
        with Image.open(path) as image:
            width, height = image.size
    spot = place_picture(box, width, height, fit, focus or CENTRE)
    x, y = max(spot.x, box.x), max(spot.y, box.y)
    return Rect(x, y, min(spot.x + spot.width, box.right) - x, min(spot.y + spot.height, box.top) - y)
