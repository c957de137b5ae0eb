"""Effects as layout data, read into the model: gradient fills, drop shadows of shapes and pictures, picture masks.

The schema has checked each value's shape; these functions turn it into a frozen, hashable model value and raise
:class:`~punchboard.plumbing.units.UnitError` for a length or a percentage that is wrong (the loader locates it):

- ``fill: {linear: ANGLE or {from: [x, y], to: [x, y]}, stops: [...]}`` or ``fill: {radial: {center, radius}, stops}``
  → :class:`Gradient`; a stop is a colour (stops spread evenly) or ``{color, at: PERCENT}``.
- ``shadow: {color, dx, dy, opacity, blur}`` → :class:`Shadow` (a text's shadow keeps its own model, text_keys.py).
- ``mask: circle | ellipse | {rounded: LENGTH} | {polygon: [[x, y], …]}`` → :class:`Mask`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from punchboard.plumbing.units import Dim, UnitError, parse_dim, parse_fraction, parse_length

SHADOW_OFFSET = "0.6mm"
MASKS = ("circle", "ellipse")


@dataclass(frozen=True)
class Gradient:
    """A vector gradient fill. ``kind`` is ``linear`` or ``radial``; ``stops`` are (offset 0–1, colour) in order.

    Linear: ``angle`` in degrees clockwise from left-to-right (90: top to bottom), across the element's box, or
    ``start``/``end`` points in the box (from its top-left corner, downwards). Radial: ``center`` in the box and
    ``radius`` (None: to the box's farthest corner)."""

    kind: str
    stops: tuple[tuple[float, str], ...]
    angle: float | None = None
    start: tuple[Dim, Dim] | None = None
    end: tuple[Dim, Dim] | None = None
    center: tuple[Dim, Dim] | None = None
    radius: Dim | None = None

    @property
    def colours(self) -> tuple[str, ...]:
        """The stops' colours, as written (palette names or #rrggbb)."""
        return tuple(colour for _, colour in self.stops)


@dataclass(frozen=True)
class Shadow:
    """A drop shadow of a shape or picture: moved ``dx`` right and ``dy`` down (points), ``colour`` at ``opacity``,
    its edge softened over ``blur`` points (0: a hard shadow)."""

    dx: float
    dy: float
    colour: str
    opacity: float = 1.0
    blur: float = 0.0


@dataclass(frozen=True)
class Mask:
    """The outline a picture is clipped to: ``circle``, ``ellipse``, ``rounded`` (with ``radius`` in points) or
    ``polygon`` (``points`` in the picture's box, from its top-left corner, downwards)."""

    shape: str
    radius: float = 0.0
    points: tuple[tuple[Dim, Dim], ...] = ()


def gradient(value: dict[str, Any]) -> Gradient:
    """A ``fill:`` object as a :class:`Gradient`."""
    stops = _stops(value["stops"])
    if "radial" in value:
        radial = value["radial"] or {}
        center = _point(radial["center"]) if "center" in radial else None
        radius = parse_dim(radial["radius"]) if "radius" in radial else None
        if radius is not None and radius.value <= 0:
            raise UnitError(f"radius must be above zero, got {radial['radius']!r}")
        return Gradient("radial", stops, center=center, radius=radius)
    linear = value["linear"]
    if isinstance(linear, dict):
        return Gradient("linear", stops, start=_point(linear["from"]), end=_point(linear["to"]))
    return Gradient("linear", stops, angle=float(linear))


def _stops(items: list[Any]) -> tuple[tuple[float, str], ...]:
    """Stops in order of offset: colours alone are spread evenly; ``at`` must not go back."""
    last = len(items) - 1
    stops: list[tuple[float, str]] = []
    for index, item in enumerate(items):
        if isinstance(item, str):
            stops.append((index / last, item))
            continue
        at = parse_fraction(item["at"]) if "at" in item else index / last
        if stops and at < stops[-1][0]:
            raise UnitError(f"stop {index + 1} is at {at:.0%}, before the stop above it; expected offsets in order")
        stops.append((at, str(item["color"])))
    return tuple(stops)


def _point(value: list[Any]) -> tuple[Dim, Dim]:
    x, y = value
    return parse_dim(x), parse_dim(y)


def shadow(value: dict[str, Any]) -> Shadow:
    """A shape's or picture's ``shadow:`` object as a :class:`Shadow`."""
    blur = parse_length(value.get("blur", 0))
    if blur < 0:
        raise UnitError(f"blur must be zero or a positive length, got {value.get('blur')!r}")
    return Shadow(parse_length(value.get("dx", SHADOW_OFFSET)), parse_length(value.get("dy", SHADOW_OFFSET)),
                  str(value["color"]), float(value.get("opacity", 1)), blur)


def mask(value: Any) -> Mask:
    """A picture's ``mask:`` as a :class:`Mask`."""
    if isinstance(value, str):
        return Mask(value)
    if "rounded" in value:
        radius = parse_length(value["rounded"])
        if radius < 0:
            raise UnitError(f"rounded must be zero or a positive length, got {value['rounded']!r}")
        return Mask("rounded", radius)
    return Mask("polygon", points=tuple(_point(item) for item in value["polygon"]))
