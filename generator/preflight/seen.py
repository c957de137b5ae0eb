"""One side as the preflight saw it being drawn, and the geometry its checks share."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.observe import Drawn
from punchboard.generator.draw.placement import CENTRE, Placement, place_picture
from punchboard.generator.draw.side import SideFrame
from punchboard.generator.draw.text import extent

from punchboard.plumbing.units import to_mm
from punchboard.spec.model import Element, Layout

Point = tuple[float, float]
Finding = tuple[Element, str, str]  # the element, the finding's code, what was found with its figure


@dataclass
class SideSeen:
    """A side's layout, its frame and every element as drawn, in drawing order."""

    layout: Layout
    frame: SideFrame
    drawn: list[Drawn] = field(default_factory=list)
    _inks: dict[int, Rect | None] = field(default_factory=dict)

    def ink(self, drawn: Drawn) -> Rect | None:
        """Where a text element's lines lie (:func:`ink`), measured once per side."""
        key = id(drawn)
        if key not in self._inks:
            self._inks[key] = ink(drawn)
        return self._inks[key]

    @property
    def safe(self) -> Rect:
        return self.frame.trim.inset(self.layout.safe)


def angle(drawn: Drawn) -> float:
    """The element's turn in degrees, clockwise (``rotate:``) about its rectangle's centre."""
    return float(drawn.element.props.get("rotate") or 0.0)


def turn(point: Point, degrees: float, about: Point) -> Point:
    """``point`` turned clockwise by ``degrees`` about ``about`` (y points up, as on the page)."""
    if not degrees:
        return point
    rad = math.radians(-degrees)
    dx, dy = point[0] - about[0], point[1] - about[1]
    return about[0] + dx * math.cos(rad) - dy * math.sin(rad), about[1] + dx * math.sin(rad) + dy * math.cos(rad)


def bounds(rect: Rect, degrees: float, about: Point) -> Rect:
    """The upright rectangle around ``rect`` turned by ``degrees`` about ``about``."""
    if not degrees:
        return rect
    corners = [turn(p, degrees, about) for p in ((rect.x, rect.y), (rect.right, rect.y), (rect.x, rect.top), (rect.right, rect.top))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def ink(drawn: Drawn) -> Rect | None:
    """Where a text element's lines lie (upright bounds, turns included); None for other elements."""
    if drawn.text is None:
        return None
    props = drawn.element.props
    block = extent(drawn.text, drawn.font, drawn.rect, props.get("align", "left"), props.get("valign", "top"))
    return bounds(block, angle(drawn), drawn.rect.center)


def grid(rect: Rect, columns: int = 5, rows: int = 3) -> Iterator[Point]:
    """Points spread over the middle 80 % of ``rect``."""
    for i in range(columns):
        for j in range(rows):
            yield rect.x + rect.width * (0.1 + 0.8 * (i + 0.5) / columns), rect.y + rect.height * (0.1 + 0.8 * (j + 0.5) / rows)


def millimetres(points: float) -> str:
    return f"{to_mm(points):.1f} mm"


# ---------------------------------------------------------------- raster pictures


@dataclass(frozen=True)
class Raster:
    """A PNG or JPG: its pixel size, and a small copy for reading colours under text."""

    width: int
    height: int
    path: Path

    def thumbnail(self) -> Image.Image:
        return _thumbnail(self.path, *_stamp(self.path))


def _stamp(path: Path) -> tuple[int, int]:
    try:
        stat = path.stat()
    except OSError:
        return 0, 0
    return stat.st_mtime_ns, stat.st_size


def raster(path: Path | None) -> Raster | None:
    """The raster picture at ``path``, None for SVG or a file that cannot be read."""
    if path is None or path.suffix.lower() == ".svg":
        return None
    size = _size(path, *_stamp(path))
    return Raster(size[0], size[1], path) if size else None


@lru_cache(maxsize=1024)
def _size(path: Path, _mtime: int, _bytes: int) -> tuple[int, int] | None:
    try:
        with Image.open(path) as image:
            return image.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


@lru_cache(maxsize=64)
def _thumbnail(path: Path, _mtime: int, _bytes: int) -> Image.Image:
    with Image.open(path) as image:
        small = image.convert("RGBA")
    small.thumbnail((256, 256))
    return small


def placement(drawn: Drawn, picture: Raster) -> Placement:
    """Where the picture lies for its element's ``fit`` and ``focus`` (as draw/images.py places it)."""
    props = drawn.element.props
    fit = props.get("fit", "contain")
    return place_picture(drawn.rect, picture.width, picture.height, fit, props.get("focus") or CENTRE)
