"""Effects drawn as vector PDF: gradient fills (shadings), drop shadows, picture masks (clip paths).

Each is layout data read into the model by punchboard/spec/effects.py; an element's shape is handed round as an
:data:`Outline`, which adds the shape (grown by some points on every side, for a soft shadow's edge) to a path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..geometry import Rect

Outline = Callable[[Any, float], None]  # adds a closed shape, grown by this many points on every side, to a path
Point = tuple[float, float]


def rect_outline(rect: Rect, radius: float = 0.0) -> Outline:
    """A rectangle, its corners rounded by ``radius`` points (grown: the radius grows with it)."""
    def add(path: Any, grow: float) -> None:
        box = rect.inset(-grow, -grow)
        if box.width <= 0 or box.height <= 0:
            return
        corner = min(max(radius + grow, 0.0), box.width / 2, box.height / 2) if radius > 0 else 0.0
        if corner > 0:
            path.roundRect(box.x, box.y, box.width, box.height, corner)
        else:
            path.rect(box.x, box.y, box.width, box.height)
    return add


def ellipse_outline(rect: Rect) -> Outline:
    """The ellipse inscribed in ``rect``."""
    def add(path: Any, grow: float) -> None:
        box = rect.inset(-grow, -grow)
        if box.width > 0 and box.height > 0:
            path.ellipse(box.x, box.y, box.width, box.height)
    return add


def polygon_outline(points: Sequence[Point]) -> Outline:
    """A closed polygon through ``points`` (page coordinates); it does not grow."""
    def add(path: Any, grow: float) -> None:
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
    return add


def clip_to(canvas: Any, outline: Outline) -> None:
    """Clip what ``canvas`` draws next to ``outline`` (until the state is restored)."""
    path = canvas.beginPath()
    outline(path, 0.0)
    canvas.clipPath(path, stroke=0, fill=0)
