"""Pictures masked to a shape: a vector clip path (circle, ellipse, rounded rectangle or polygon) in the picture's box.

:func:`outline` is the mask's shape for a placed box (the clip, and the picture's shadow); :func:`covers` tells the
preflight whether a point of the box shows the picture.
"""

from __future__ import annotations

from punchboard.plumbing.units import Dim
from punchboard.spec.effects import Mask

from ..geometry import Rect
from . import Outline, Point, ellipse_outline, polygon_outline, rect_outline


def circle_box(box: Rect) -> Rect:
    """The square of the largest circle centred in ``box``."""
    side = min(box.width, box.height)
    cx, cy = box.center
    return Rect(cx - side / 2, cy - side / 2, side, side)


def corners(mask: Mask, box: Rect) -> list[Point]:
    """A polygon mask's corners in page coordinates (from the box's top-left corner, downwards)."""
    def at(value: Dim, extent: float) -> float:
        return value.resolve(extent)
    return [(box.x + at(x, box.width), box.top - at(y, box.height)) for x, y in mask.points]


def outline(mask: Mask, box: Rect) -> Outline:
    """The mask's shape placed in ``box``."""
    if mask.shape == "circle":
        return ellipse_outline(circle_box(box))
    if mask.shape == "ellipse":
        return ellipse_outline(box)
    if mask.shape == "rounded":
        return rect_outline(box, mask.radius)
    return polygon_outline(corners(mask, box))


def covers(mask: Mask, box: Rect, point: Point) -> bool:
    """Whether ``point`` lies inside the mask placed in ``box``."""
    x, y = point
    if mask.shape in ("circle", "ellipse"):
        shape = circle_box(box) if mask.shape == "circle" else box
        if shape.width <= 0 or shape.height <= 0:
            return False
        cx, cy = shape.center
        return ((x - cx) / (shape.width / 2)) ** 2 + ((y - cy) / (shape.height / 2)) ** 2 <= 1
    if mask.shape == "rounded":
        if not (box.x <= x <= box.right and box.y <= y <= box.top):
            return False
        r = min(mask.radius, box.width / 2, box.height / 2)
        nx = min(max(x, box.x + r), box.right - r)
        ny = min(max(y, box.y + r), box.top - r)
        return (x - nx) ** 2 + (y - ny) ** 2 <= r * r + 1e-9
    inside = False
    points = corners(mask, box)
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside
