"""Areas a PDF page clips its art to and outlines it strokes, read back from its content stream as shapely geometry.

Curves are flattened finely (a chord every few degrees of a token-sized arc stays
within a thousandth of a millimetre), clip paths are intersected with the clip
around them, and even-odd (``W*``) and non-zero (``W``) clips are both read.
Coordinates are PDF points, y up (the PDF's own). Only what the page itself draws
is read, not the inside of form XObjects: a token's art clip and its cut line
are both drawn at page level.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import shapely
from pypdf import PageObject
from pypdf.generic import ContentStream
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

MM = 72 / 25.4
CURVE_STEPS = 48

Point = tuple[float, float]


@dataclass
class Stroke:
    width: float
    colour: tuple[float, ...]
    subpaths: list[tuple[list[Point], bool]]  # points, closed

    def area(self) -> BaseGeometry:
        """The even-odd area of the closed subpaths."""
        area: BaseGeometry = Polygon()
        for points, _ in self.subpaths:
            if len(points) >= 3:
                polygon = Polygon(points)
                area = area.symmetric_difference(polygon if polygon.is_valid else shapely.make_valid(polygon))
        return area


@dataclass
class PageGeometry:
    clips: list[BaseGeometry] = field(default_factory=list)  # every clip area set, in drawing order
    strokes: list[Stroke] = field(default_factory=list)
    fills: list[tuple[tuple[float, ...], BaseGeometry]] = field(default_factory=list)  # fill colour, area (clipped)
    forms: list[BaseGeometry] = field(default_factory=list)  # each form XObject placed: its bounding box, clipped


def _bezier(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    out = []
    for i in range(1, CURVE_STEPS + 1):
        t = i / CURVE_STEPS
        u = 1 - t
        out.append((
            u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
            u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
        ))
    return out


def _area(subpaths: list[tuple[list[Point], bool]], even_odd: bool) -> BaseGeometry:
    polygons = []
    for points, _ in subpaths:
        if len(points) >= 3:
            polygon = Polygon(points)
            polygons.append(polygon if polygon.is_valid else shapely.make_valid(polygon))
    area: BaseGeometry = Polygon()
    for polygon in polygons:
        area = area.symmetric_difference(polygon) if even_odd else area.union(polygon)
    return area


def page_geometry(page: PageObject) -> PageGeometry:
    geometry = PageGeometry()
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    width = 1.0
    stroke_colour: tuple[float, ...] = (0.0,)
    fill_colour: tuple[float, ...] = (0.0,)
    clip: BaseGeometry | None = None
    stack: list[tuple] = []
    subpaths: list[tuple[list[Point], bool]] = []
    current: list[Point] = []
    start: Point | None = None
    clip_rule: bool | None = None  # None: no clip pending; True: even-odd

    def at(x: float, y: float) -> Point:
        a, b, c, d, e, f = ctm
        return a * x + c * y + e, b * x + d * y + f

    def flush() -> None:
        nonlocal current
        if current:  # a subpath that ends where it began is closed (reportlab's ellipses end so, without h)
            ends_at_start = len(current) > 2 and abs(current[0][0] - current[-1][0]) < 1e-6 and abs(current[0][1] - current[-1][1]) < 1e-6
            subpaths.append((current, ends_at_start))
        current = []

    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append((ctm, width, stroke_colour, fill_colour, clip))
        elif op == b"Q":
            ctm, width, stroke_colour, fill_colour, clip = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"w":
            width = float(operands[0]) * (abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) ** 0.5)
        elif op in (b"RG", b"G", b"K", b"SC", b"SCN"):
            stroke_colour = tuple(round(float(v), 4) for v in operands if not isinstance(v, str))
        elif op in (b"rg", b"g", b"k"):
            fill_colour = tuple(round(float(v), 4) for v in operands)
        elif op == b"m":
            flush()
            start = at(float(operands[0]), float(operands[1]))
            current = [start]
        elif op == b"l":
            current.append(at(float(operands[0]), float(operands[1])))
        elif op in (b"c", b"v", b"y") and current:
            values = [float(v) for v in operands]
            p0 = current[-1]
            if op == b"c":
                p1, p2, p3 = at(values[0], values[1]), at(values[2], values[3]), at(values[4], values[5])
            elif op == b"v":
                p1, p2, p3 = p0, at(values[0], values[1]), at(values[2], values[3])
            else:
                p1, p2, p3 = at(values[0], values[1]), at(values[2], values[3]), at(values[2], values[3])
            current.extend(_bezier(p0, p1, p2, p3))
        elif op == b"h":
            if current:
                subpaths.append((current, True))
                current = []
        elif op == b"re":
            flush()
            x, y, w, h = (float(v) for v in operands)
            subpaths.append(([at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)], True))
        elif op in (b"W", b"W*"):
            clip_rule = op == b"W*"
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"):
            if op in (b"s", b"b", b"b*") and current:
                subpaths.append((current, True))
                current = []
            flush()
            if op in (b"S", b"s", b"B", b"B*", b"b", b"b*"):
                geometry.strokes.append(Stroke(round(width, 4), stroke_colour, list(subpaths)))
            if op in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
                area = _area(subpaths, op in (b"f*", b"B*", b"b*"))
                geometry.fills.append((fill_colour, area if clip is None else area.intersection(clip)))
            if clip_rule is not None:
                area = _area(subpaths, clip_rule)
                clip = area if clip is None else clip.intersection(area)
                geometry.clips.append(clip)
                clip_rule = None
            subpaths = []
        elif op == b"Do":
            xobject = page["/Resources"]["/XObject"][operands[0]].get_object()
            x0, y0, x1, y1 = (float(v) for v in xobject["/BBox"])
            a, b, c, d, e, f = (float(v) for v in xobject.get("/Matrix", (1, 0, 0, 1, 0, 0)))
            corners = [(a * x + c * y + e, b * x + d * y + f) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
            area = Polygon([at(x, y) for x, y in corners])
            geometry.forms.append(area if clip is None else area.intersection(clip))
    return geometry


def cut_outlines(geometry: PageGeometry, width: float, colour: tuple[float, ...] | None = None) -> list[BaseGeometry]:
    """The closed outlines stroked with this line width (and colour, if given), as areas."""
    return [s.area() for s in geometry.strokes
            if abs(s.width - width) < 0.01
            and (colour is None or all(abs(a - b) < 0.01 for a, b in zip(s.colour, colour, strict=False)))
            and any(closed and len(points) > 2 for points, closed in s.subpaths)]


def kept_bleeds(geometry: PageGeometry, cuts: list[BaseGeometry]) -> list[float]:
    """For each cut outline with art clipped around it: the distance in mm from it to the edge
    of the art showing around it (outlines with no clip around them, such as a calibration
    page's drawings, are not pieces and are left out).

    Its art is the smallest clip area holding the whole outline; art clipped later
    on the page covers what it overlaps. 0 when a later clip reaches over the cut line.
    """
    arts: list[tuple[BaseGeometry, int, BaseGeometry]] = []
    for cut in cuts:
        holding = [(i, c) for i, c in enumerate(geometry.clips) if c.buffer(1e-3).contains(cut)]
        if holding:
            arts.append((cut, *min(holding, key=lambda ic: ic[1].area)))
    out = []
    for cut, order, art in arts:
        later = [a for _, o, a in arts if o > order and a.intersects(art)]
        visible = art.difference(shapely.unary_union(later)) if later else art
        if cut.difference(visible).area > 1e-4:
            out.append(0.0)
        else:
            out.append(visible.boundary.distance(cut.boundary) / MM)
    return out
