"""Gradient fills as PDF shadings (vector: an axial or radial shading with a colour function, never a raster).

:func:`paint` fills a shape with a :class:`~punchboard.spec.effects.Gradient`; :func:`colour_at` is the colour it
paints at a point (the preflight reads it). Colours between stops are interpolated in sRGB, as the PDF's
functions do, and the end colours continue past the ends.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from reportlab.lib.colors import Color

from punchboard.plumbing.units import Dim
from punchboard.spec.effects import Gradient

from ..colours import resolved
from ..geometry import Rect
from . import Outline, Point, clip_to

RGB = tuple[float, float, float]


def _at(box: Rect, point: tuple[Dim, Dim]) -> Point:
    """A point given from the box's top-left corner, downwards, in page coordinates."""
    x, y = point
    return box.x + x.resolve(box.width), box.top - y.resolve(box.height)


def axis(gradient: Gradient, box: Rect) -> tuple[Point, Point]:
    """Linear: the start and end points. Radial: the centre and (radius, 0)."""
    if gradient.kind == "radial":
        cx, cy = _at(box, gradient.center) if gradient.center is not None else box.center
        if gradient.radius is not None:
            radius = gradient.radius.resolve(box.width)
        else:
            radius = max(math.hypot(x - cx, y - cy) for x in (box.x, box.right) for y in (box.y, box.top))
        return (cx, cy), (radius, 0.0)
    if gradient.start is not None and gradient.end is not None:
        return _at(box, gradient.start), _at(box, gradient.end)
    turn = math.radians(gradient.angle or 0.0)
    dx, dy = math.cos(turn), -math.sin(turn)  # clockwise from left-to-right, on a page whose y goes up
    half = (abs(box.width * dx) + abs(box.height * dy)) / 2
    cx, cy = box.center
    return (cx - dx * half, cy - dy * half), (cx + dx * half, cy + dy * half)


def _rgb(name: str, palette: Mapping[str, str]) -> Color:
    found = resolved(palette.get(name, name))
    assert found is not None
    return Color(float(found.red), float(found.green), float(found.blue))  # a stop's own alpha is not a shading's


def paint(canvas: Any, gradient: Gradient, box: Rect, outline: Outline, palette: Mapping[str, str]) -> None:
    """Fill ``outline`` with ``gradient`` laid across ``box`` (the element's placed rectangle)."""
    colours = [_rgb(name, palette) for _, name in gradient.stops]
    offsets = [offset for offset, _ in gradient.stops]
    canvas.saveState()
    clip_to(canvas, outline)
    (x0, y0), (x1, y1) = axis(gradient, box)
    if gradient.kind == "radial":
        canvas.radialGradient(x0, y0, max(x1, 1e-3), colours, offsets, extend=True)
    else:
        if (x0, y0) == (x1, y1):
            x1 += 1e-3
        canvas.linearGradient(x0, y0, x1, y1, colours, offsets, extend=True)
    canvas.restoreState()


def colour_at(gradient: Gradient, box: Rect, point: Point, palette: Mapping[str, str]) -> RGB:
    """The colour ``gradient`` across ``box`` paints at ``point`` (page coordinates)."""
    (x0, y0), (x1, y1) = axis(gradient, box)
    if gradient.kind == "radial":
        t = math.hypot(point[0] - x0, point[1] - y0) / max(x1, 1e-3)
    else:
        length = (x1 - x0) ** 2 + (y1 - y0) ** 2
        t = ((point[0] - x0) * (x1 - x0) + (point[1] - y0) * (y1 - y0)) / length if length > 0 else 0.0
    t = min(1.0, max(0.0, t))
    stops = [(offset, _rgb(name, palette)) for offset, name in gradient.stops]
    if t <= stops[0][0]:
        return _tuple(stops[0][1])
    for (a, left), (b, right) in zip(stops, stops[1:], strict=False):
        if t <= b:
            share = (t - a) / (b - a) if b > a else 1.0
            return tuple(float(p) + (float(q) - float(p)) * share  # type: ignore[return-value]
                         for p, q in zip(_tuple(left), _tuple(right), strict=True))
    return _tuple(stops[-1][1])


def _tuple(colour: Color) -> RGB:
    return float(colour.red), float(colour.green), float(colour.blue)
