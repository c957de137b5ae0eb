"""Where a picture goes in its box: ``contain`` (letterbox), ``cover`` (crop to fill) or ``stretch``.

``focus`` is the point of the picture kept in view, as fractions from its left
and top edges: with ``cover`` it decides which part survives the crop, with
``contain`` where the picture sits in the spare room (centre by default).
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Rect

CENTRE = (0.5, 0.5)


@dataclass(frozen=True)
class Placement:
    x: float
    y: float
    width: float
    height: float
    clip: bool  # the picture overflows its box and must be clipped to it


def place_picture(box: Rect, width: float, height: float, fit: str = "contain", focus: tuple[float, float] = CENTRE) -> Placement:
    """The rectangle a ``width`` × ``height`` picture is drawn into for ``box``."""
    if fit == "stretch" or width <= 0 or height <= 0:
        return Placement(box.x, box.y, box.width, box.height, False)
    sx, sy = box.width / width, box.height / height
    scale = max(sx, sy) if fit == "cover" else min(sx, sy)
    w, h = width * scale, height * scale
    fx, fy = focus
    x = box.x - (w - box.width) * fx
    top = box.top + (h - box.height) * fy
    return Placement(x, top - h, w, h, fit == "cover")
