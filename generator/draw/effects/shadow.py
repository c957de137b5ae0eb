"""Drop shadows of shapes and pictures: the element's outline drawn under it, moved, in a colour at an opacity.

A hard shadow is one fill. A soft one (``blur`` > 0) is :data:`STEPS` fills of the outline, from grown by half the
blur to shrunk by half of it, each at the opacity that brings the stack to its share of the shadow's: its edge
fades in steps, all vector, and its middle has exactly the shadow's opacity.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from punchboard.spec.effects import Shadow

from ..colours import resolved
from . import Outline

STEPS = 5


def layers(shadow: Shadow, grows: bool = True) -> list[tuple[float, float]]:
    """(grow in points, opacity) of each fill, outermost first."""
    steps = STEPS if shadow.blur > 0 and grows else 1
    if steps == 1:
        return [(0.0, shadow.opacity)]
    found = []
    below = 0.0  # the opacity the fills so far leave
    for index in range(1, steps + 1):
        wanted = shadow.opacity * index / steps
        alpha = 1.0 - (1.0 - wanted) / (1.0 - below) if below < 1.0 else 1.0
        grow = shadow.blur / 2 - shadow.blur * (index - 1) / (steps - 1)
        found.append((round(grow, 6), round(alpha, 6)))
        below = wanted
    return found


def draw(canvas: Any, shadow: Shadow, outline: Outline, palette: Mapping[str, str], grows: bool = True) -> None:
    """Draw ``shadow`` of ``outline`` (``grows``: the outline can be grown, so the edge may be soft)."""
    colour = resolved(palette.get(shadow.colour, shadow.colour))
    canvas.saveState()
    canvas.translate(shadow.dx, -shadow.dy)
    canvas.setFillColor(colour)
    for grow, alpha in layers(shadow, grows):
        canvas.setFillAlpha(alpha)
        path = canvas.beginPath()
        outline(path, grow)
        canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
