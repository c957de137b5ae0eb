"""``low_contrast``: text against what lies under it, as the WCAG 2.1 contrast ratio.

What lies under a text is read from the elements drawn before it on the same
side, at points spread over its lines: filled rectangles, ellipses and
polygons (with their opacity, a gradient fill by its colour at each point) over
the white paper, and raster pictures by their own pixels (a masked picture only
inside its mask). Points under an SVG picture or an icon are not judged (their
colours are not known without rasterising them). The figure reported is the
contrast a quarter of the text's area stays at or below; over a gradient, the
worst point under the text (a gradient has no noise to forgive). The threshold
is 4.5:1, and 3:1 for large text (18 pt, or 14 pt bold), as WCAG asks.
"""

from __future__ import annotations

from collections.abc import Iterator

from punchboard.generator.draw.effects import gradient as gradients
from punchboard.generator.draw.effects import mask as masks
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.observe import Drawn

from punchboard.plumbing.units import Dim
from punchboard.spec.effects import Gradient, Mask

from .colours import RGB, WHITE, contrast, hex_of, over, paint
from .seen import Finding, Point, SideSeen, angle, bounds, grid, placement, raster, turn

NORMAL, LARGE = 4.5, 3.0
LARGE_SIZE, LARGE_BOLD_SIZE = 18.0, 14.0
UNKNOWN = object()
SHAPES = ("rect", "ellipse", "polygon")


def _opacity(drawn: Drawn) -> float:
    value = drawn.element.props.get("opacity")
    return 1.0 if value is None else float(value)


def _inside_polygon(point: Point, corners: list[Point]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _corner(box: Rect, px: object, py: object) -> Point:
    """A polygon corner as draw/side.py places it: from the box's top-left corner, downwards."""
    x = px.resolve(box.width) if isinstance(px, Dim) else float(px)  # type: ignore[arg-type]
    y = py.resolve(box.height) if isinstance(py, Dim) else float(py)  # type: ignore[arg-type]
    return box.x + x, box.top - y


class Layer:
    """An element drawn before a text, as far as the colour under that text is concerned."""

    def __init__(self, drawn: Drawn):
        self.drawn = drawn
        self.kind = drawn.element.type
        self.area = bounds(drawn.rect, angle(drawn), drawn.rect.center)
        fill = drawn.element.props.get("fill")
        self.gradient = fill if isinstance(fill, Gradient) and self.kind in SHAPES else None
        self.fill = paint(fill, drawn.palette) if self.kind in SHAPES and self.gradient is None else None
        found = drawn.element.props.get("mask")
        self.mask = found if isinstance(found, Mask) and self.kind == "image" else None
        self.picture = raster(drawn.picture) if self.kind == "image" else None
        self.spot = placement(drawn, self.picture) if self.picture is not None else None
        self.opacity = _opacity(drawn)
        self.turned = angle(drawn)
        self.corners: list[Point] = []
        if self.kind == "polygon":
            self.corners = [_corner(drawn.box, px, py) for px, py in drawn.element.props.get("points", ())]
            self.area = _outline_bounds([turn(p, self.turned, drawn.rect.center) for p in self.corners])
        # the box a gradient is laid across: the shape's rectangle, a polygon's upright bounds
        self.across = _outline_bounds(self.corners) if self.kind == "polygon" else drawn.rect
        self.paints = (self.fill is not None or self.gradient is not None) if self.kind in SHAPES else self.kind in ("icon", "image")

    def covers(self, point: Point) -> bool:
        """Whether the shape covers ``point`` (its turn undone first)."""
        x, y = turn(point, -self.turned, self.drawn.rect.center)
        rect = self.drawn.rect
        if self.kind == "rect":
            return rect.x <= x <= rect.right and rect.y <= y <= rect.top
        if self.kind == "ellipse":
            if rect.width <= 0 or rect.height <= 0:
                return False
            cx, cy = rect.center
            return ((x - cx) / (rect.width / 2)) ** 2 + ((y - cy) / (rect.height / 2)) ** 2 <= 1
        return len(self.corners) > 2 and _inside_polygon((x, y), self.corners)

    def at(self, point: Point, under: RGB) -> RGB | object | None:
        """The colour this layer leaves at ``point`` over ``under``; None when it does not paint
        there, UNKNOWN when it does but its colour is not known."""
        if not (self.area.x <= point[0] <= self.area.right and self.area.y <= point[1] <= self.area.top):
            return None
        drawn = self.drawn
        if self.fill is not None:
            return over(self.fill[0], self.fill[1] * self.opacity, under) if self.covers(point) else None
        if self.gradient is not None:
            if not self.covers(point):
                return None
            upright = turn(point, -self.turned, drawn.rect.center)
            return over(gradients.colour_at(self.gradient, self.across, upright, drawn.palette), self.opacity, under)
        spot = self.spot
        if self.picture is None or spot is None:
            return UNKNOWN  # an icon, or an SVG picture
        x, y = turn(point, -self.turned, drawn.rect.center)
        if spot.clip and not (drawn.rect.x <= x <= drawn.rect.right and drawn.rect.y <= y <= drawn.rect.top):
            return None
        if not (spot.x <= x < spot.x + spot.width and spot.y <= y < spot.y + spot.height):
            return None
        if self.mask is not None and not masks.covers(self.mask, drawn.rect, (x, y)):
            return None
        small = self.picture.thumbnail()
        u = min(small.width - 1, int((x - spot.x) / spot.width * small.width))
        v = min(small.height - 1, int((spot.y + spot.height - y) / spot.height * small.height))
        r, g, b, a = small.getpixel((u, v))  # type: ignore[misc]
        return over((r / 255, g / 255, b / 255), a / 255 * self.opacity, under)


def _outline_bounds(corners: list[Point]) -> Rect:
    corners = corners or [(0.0, 0.0)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def colour_at(layers: list[Layer], point: Point) -> RGB | None:
    """The colour at ``point`` from the paper and ``layers`` in drawing order; None if unknown."""
    here: RGB = WHITE
    for layer in layers:
        found = layer.at(point, here)
        if found is UNKNOWN:
            return None
        if found is not None:
            here = found  # type: ignore[assignment]
    return here


def _points(lines: Rect, below: list[Layer], gradient: bool) -> list[Point]:
    """Where the colour under a text is read: its centre when every layer below is one flat colour over all of
    it; else points spread over it, and under a gradient its edges and corners too (a linear gradient's extremes
    over a box lie at its corners) and a radial gradient's centre where it falls inside the text."""
    if all(layer.kind == "rect" and layer.fill is not None and not layer.turned and layer.drawn.rect.contains(lines)
           for layer in below):
        return [lines.center]
    points = list(grid(lines))
    if gradient:
        xs, ys = (lines.x, lines.center[0], lines.right), (lines.y, lines.center[1], lines.top)
        points += [(x, y) for x in xs for y in ys]
        for layer in below:
            if layer.gradient is not None and layer.gradient.kind == "radial":
                (cx, cy), _ = gradients.axis(layer.gradient, layer.across)
                points.append((min(max(cx, lines.x), lines.right), min(max(cy, lines.y), lines.top)))
    return points


def check(side: SideSeen) -> Iterator[Finding]:
    layers: list[tuple[int, Layer]] = []
    for index, drawn in enumerate(side.drawn):
        if drawn.element.type in (*SHAPES, "icon", "image"):
            layer = Layer(drawn)
            if layer.paints:
                layers.append((index, layer))
            continue
        lines = side.ink(drawn)
        if lines is None or lines.width <= 0 or lines.height <= 0 or drawn.text is None:
            continue
        below = [layer for at, layer in layers if at < index and layer.area.overlaps(lines)]
        props = drawn.element.props
        ink_colour = paint(props.get("color", "#000000"), drawn.palette) or paint("#000000", {})
        assert ink_colour is not None
        bold = "bold" in drawn.font.lower()
        size = drawn.text.size
        least = LARGE if size >= LARGE_SIZE or (bold and size >= LARGE_BOLD_SIZE) else NORMAL
        measured: list[tuple[float, RGB, RGB]] = []
        worst = any(layer.gradient is not None for layer in below)
        for point in _points(lines, below, worst):
            under = colour_at(below, point)
            if under is None:
                continue
            text = over(ink_colour[0], ink_colour[1] * _opacity(drawn), under)
            measured.append((contrast(text, under), text, under))
        if not measured:
            continue
        measured.sort(key=lambda m: m[0])
        ratio, text, under = measured[0 if worst else (len(measured) - 1) // 4]
        if ratio >= least - 1e-9:
            continue
        yield drawn.element, "low_contrast", (
            f"text of element '{drawn.element.id}' ({hex_of(text)} on {hex_of(under)}, {size:g} pt) has a contrast "
            f"ratio of {ratio:.1f}:1, below the {least:g}:1 WCAG asks for text this size; darken or lighten one of them"
        )
