"""Outlines of cut pieces: token shapes and polyominoes, as geometry and as PDF paths.

Coordinates are PDF points with y growing upwards; a box is (x, y, width, height)
with (x, y) its lower-left corner. Polygons are closed rings of points; an outline
may hold several rings (a polyomino with a hole), filled with the even-odd rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from punchboard.incremental.geometry_memo import is_rings, remembered
from punchboard.spec.model import TokenShape

if TYPE_CHECKING:
    from reportlab.pdfgen.pathobject import PDFPathObject
    from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]
Ring = tuple[Point, ...]
Cell = tuple[int, int]  # (row, column), row 0 at the top

ROUNDED_FRACTION = 0.125  # corner radius of a rounded token, as a fraction of its shorter side
GEAR_ROOT = 0.82  # radius of the gear's tooth roots, as a fraction of its outer radius
CIRCLE_SEGMENTS = 96  # polygon approximation used only by points(), never for drawing
OFFSET_QUARTER_SEGMENTS = 32  # chords per quarter circle on the rounded corners of a grown polygon


class PathLike(Protocol):
    """The part of reportlab's PDFPathObject an outline draws with."""

    def moveTo(self, x: float, y: float) -> None: ...  # noqa: N802
    def lineTo(self, x: float, y: float) -> None: ...  # noqa: N802
    def close(self) -> None: ...
    def ellipse(self, x: float, y: float, width: float, height: float) -> None: ...
    def roundRect(self, x: float, y: float, width: float, height: float, radius: float) -> None: ...  # noqa: N802


@dataclass(frozen=True)
class Outline:
    """A closed cut outline: an ellipse, a rounded rectangle, or polygon rings."""

    kind: str  # ellipse | rounded | polygon
    box: tuple[float, float, float, float]
    radius: float = 0.0
    rings: tuple[Ring, ...] = ()

    def add_to(self, path: PathLike) -> None:
        """Append the outline to a reportlab path (for stroking a cut line or clipping)."""
        x, y, w, h = self.box
        if self.kind == "ellipse":
            path.ellipse(x, y, w, h)
        elif self.kind == "rounded":
            path.roundRect(x, y, w, h, self.radius)
        elif _is_reportlab_path(path):
            _add_rings(path, self.rings)  # type: ignore[arg-type]
        else:
            for ring in self.rings:
                path.moveTo(*ring[0])
                for point in ring[1:]:
                    path.lineTo(*point)
                path.close()

    def points(self, segments: int = CIRCLE_SEGMENTS) -> tuple[Ring, ...]:
        """Polygon rings approximating the outline (exact for polygons), for tests and geometry;
        ``segments`` chords make a full circle."""
        x, y, w, h = self.box
        if self.kind == "ellipse":
            cx, cy = x + w / 2, y + h / 2
            return (
                tuple(
                    (cx + w / 2 * math.cos(2 * math.pi * i / segments), cy + h / 2 * math.sin(2 * math.pi * i / segments))
                    for i in range(segments)
                ),
            )
        if self.kind == "rounded":
            return (_rounded_ring(x, y, w, h, self.radius, max(2, segments // 4)),)
        return self.rings

    def shape(self, segments: int = CIRCLE_SEGMENTS) -> BaseGeometry:
        """The area inside the outline (even-odd over its rings) as a shapely geometry."""
        return _even_odd(self.points(segments))

    def grown(self, distance: float) -> Outline:
        """The outline offset outward by ``distance``: the bleed edge of a piece cut along this outline.

        Every point of the result lies at least ``distance`` from the outline and no
        point of the outline's surroundings nearer than that is left out: a circle
        grows its radius, a rounded rectangle its box and corner radius, a polygon
        keeps its sides parallel at ``distance`` and rounds its convex corners
        (drawn as chords lying just outside the exact arc). Not a scaled-up outline,
        which falls short on the flat sides of a hexagon and between a gear's teeth.
        """
        if distance <= 0:
            return self
        x, y, w, h = self.box
        box = (x - distance, y - distance, w + 2 * distance, h + 2 * distance)
        if self.kind == "ellipse" and math.isclose(w, h, rel_tol=1e-12, abs_tol=1e-9):
            return Outline("ellipse", box)
        if self.kind == "rounded":
            return Outline("rounded", box, radius=self.radius + distance)
        local = tuple(tuple((round(px - x, 6), round(py - y, 6)) for px, py in ring) for ring in self.points(360))
        rings = _grown_rings(local, distance)
        return Outline("polygon", box, rings=tuple(tuple((px + x, py + y) for px, py in ring) for ring in rings))

    def within(self, box: tuple[float, float, float, float]) -> Outline:
        """The part of the outline's area inside ``box`` (x, y, width, height): itself when it fits."""
        x, y, w, h = self.box
        bx, by, bw, bh = box
        eps = 1e-6
        if x >= bx - eps and y >= by - eps and x + w <= bx + bw + eps and y + h <= by + bh + eps:
            return self
        found = remembered("within", (self, box), (__file__,), lambda: self._within(box), _is_cut)
        return Outline("polygon", found[0], rings=found[1])

    def _within(self, box: tuple[float, float, float, float]) -> tuple[tuple[float, float, float, float], tuple[Ring, ...]]:
        import shapely  # imported when first needed: it loads numpy, a noticeable start-up cost for every command

        bx, by, bw, bh = box
        cut = self.shape(360).intersection(shapely.box(bx, by, bx + bw, by + bh))
        left, bottom, right, top = cut.bounds if not cut.is_empty else (bx, by, bx, by)
        return (float(left), float(bottom), float(right - left), float(top - bottom)), _rings_of(cut)

    def translated(self, dx: float, dy: float) -> Outline:
        x, y, w, h = self.box
        rings = tuple(tuple((px + dx, py + dy) for px, py in ring) for ring in self.rings)
        return Outline(self.kind, (x + dx, y + dy, w, h), self.radius, rings)


def _is_reportlab_path(path: PathLike) -> bool:
    from reportlab.pdfgen.pathobject import PDFPathObject

    return type(path) is PDFPathObject


def _add_rings(path: PDFPathObject, rings: tuple[Ring, ...]) -> None:
    """What ``moveTo``, ``lineTo`` for each further point and ``close`` append to a reportlab path, appended at once:
    the same operators, each number formatted by one ``fp_str`` call over the whole ring (a gear token's bleed edge
    has some 400 points, and a sheet of tokens clips and cuts along dozens of them)."""
    from reportlab.lib.rl_accel import fp_str

    for ring in rings:
        path.moveTo(*ring[0])  # the path's first operator goes through its own check
        numbers = fp_str(*[value for point in ring[1:] for value in point]).split(" ") if len(ring) > 1 else []
        code = path._code
        code.extend([f"{x} {y} l" for x, y in zip(numbers[::2], numbers[1::2], strict=True)])
        path.close()


def _even_odd(rings: Sequence[Ring]) -> BaseGeometry:
    """The even-odd area of closed rings (the fill rule outlines are clipped and filled with)."""
    import shapely

    area: BaseGeometry = shapely.Polygon()
    for ring in rings:
        polygon: BaseGeometry = shapely.polygons(ring)
        if not polygon.is_valid:  # a self-crossing ring: its areas, without the stray lines repair can leave
            repaired = shapely.get_parts(shapely.make_valid(polygon))
            polygon = shapely.unary_union([p for p in repaired if isinstance(p, (shapely.Polygon, shapely.MultiPolygon))])
        area = polygon if area.is_empty else area.symmetric_difference(polygon)
    return area


@lru_cache(maxsize=256)
def _grown_rings(rings: tuple[Ring, ...], distance: float) -> tuple[Ring, ...]:
    """The rings of the area within ``distance`` of polygon rings (shapely's round-joined buffer).

    The buffer puts its arc vertices on a circle of the radius it is given, so its
    chords cut inside that circle; the radius is raised until the chords' midpoints
    lie at ``distance``, so no point of the bleed edge is nearer than the declared bleed.
    GEOS rounds an arc's chord count to the nearest whole number, so a chord may span
    up to 1.5 × a quarter circle / ``OFFSET_QUARTER_SEGMENTS``; the radius allows for
    that (the sides then lie 0.07 % further out than ``distance``: 0.002 mm at 3 mm).
    """
    radius = distance / math.cos(1.5 * math.pi / (4 * OFFSET_QUARTER_SEGMENTS))
    return remembered("grown", (rings, distance), (__file__,),
                      lambda: _rings_of(_even_odd(rings).buffer(radius, quad_segs=OFFSET_QUARTER_SEGMENTS,
                                                                join_style="round")), is_rings)


def _is_cut(value: object) -> bool:
    """Whether ``value`` is what :meth:`Outline._within` answers: a box of four floats and rings."""
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple) and len(value[0]) == 4
            and all(type(v) is float for v in value[0]) and is_rings(value[1]))


def _rings_of(area: BaseGeometry) -> tuple[Ring, ...]:
    """Every ring (outer and holes) of a shapely area, for drawing with the even-odd rule."""
    out: list[Ring] = []
    import shapely

    for polygon in getattr(area, "geoms", [area]):
        if not isinstance(polygon, shapely.Polygon) or polygon.is_empty:
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            out.append(tuple((round(px, 6), round(py, 6)) for px, py in ring.coords[:-1]))
    return tuple(out)


def _rounded_ring(x: float, y: float, w: float, h: float, r: float, steps: int = 8) -> Ring:
    corners = ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180))
    ring: list[Point] = []
    for cx, cy, start in corners:
        for i in range(steps + 1):
            a = math.radians(start + 90 * i / steps)
            ring.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(ring)


def _polygon(points: Iterable[Point], box: tuple[float, float, float, float]) -> Outline:
    return Outline("polygon", box, rings=(tuple(points),))


def regular_hexagon(x: float, y: float, w: float, h: float) -> Outline:
    """The largest flat-topped regular hexagon centred in the box."""
    r = min(w / 2, h / math.sqrt(3))
    cx, cy = x + w / 2, y + h / 2
    ring = [(cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i))) for i in range(6)]
    return _polygon(ring, (x, y, w, h))


def gear(x: float, y: float, w: float, h: float, teeth: int) -> Outline:
    """A gear with trapezoid teeth filling the box (elliptical if the box is not square)."""
    cx, cy = x + w / 2, y + h / 2
    rx, ry = w / 2, h / 2
    step = 2 * math.pi / teeth
    ring: list[Point] = []
    # Each tooth: root, rise, tip, tip, fall — tips a little narrower than gaps read as a gear.
    for i in range(teeth):
        a = i * step + math.pi / 2
        for fraction, radius in ((0.0, GEAR_ROOT), (0.18, 1.0), (0.48, 1.0), (0.66, GEAR_ROOT)):
            angle = a + fraction * step
            ring.append((cx + rx * radius * math.cos(angle), cy + ry * radius * math.sin(angle)))
    return _polygon(ring, (x, y, w, h))


def custom(x: float, y: float, w: float, h: float, fractions: Sequence[Point]) -> Outline:
    """A polygon given as fractions of the box, measured from its top-left corner like a layout."""
    return _polygon(((x + fx * w, y + h - fy * h) for fx, fy in fractions), (x, y, w, h))


def token_outline(shape: TokenShape, x: float, y: float, w: float, h: float) -> Outline:
    """The cut outline of a token of this shape filling the box."""
    if shape.name == "circle":
        return Outline("ellipse", (x, y, w, h))
    if shape.name == "square":
        return _polygon(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), (x, y, w, h))
    if shape.name == "rounded":
        return Outline("rounded", (x, y, w, h), radius=ROUNDED_FRACTION * min(w, h))
    if shape.name == "hexagon":
        return regular_hexagon(x, y, w, h)
    if shape.name == "gear":
        return gear(x, y, w, h, shape.teeth)
    if shape.name == "custom":
        return custom(x, y, w, h, shape.outline)
    raise ValueError(f"unknown token shape {shape.name!r}")


# ---------------------------------------------------------------- polyominoes


def cells_extent(cells: Iterable[Cell]) -> tuple[int, int]:
    """(rows, columns) of the smallest grid holding the cells, from row/column 0."""
    cells = list(cells)
    return max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1


def _boundary_edges(cells: set[Cell], rows: int) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Directed unit edges around the cells, counter-clockwise in y-up lattice coordinates.

    A cell (row, col) is the lattice square [col, col+1] × [rows-1-row, rows-row];
    edges shared by two cells cancel, leaving the boundary.
    """
    edges: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for r, c in cells:
        y0 = rows - 1 - r
        corners = [(c, y0), (c + 1, y0), (c + 1, y0 + 1), (c, y0 + 1)]
        for i in range(4):
            edge = (corners[i], corners[(i + 1) % 4])
            reverse = (edge[1], edge[0])
            if reverse in edges:
                edges.remove(reverse)
            else:
                edges.add(edge)
    starts: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for start, end in sorted(edges):
        starts.setdefault(start, []).append(end)
    return starts


def _turn_rank(incoming: Point, outgoing: Point) -> int:
    """Prefer turning left at a vertex where two rings touch, so each ring stays simple."""
    cross = incoming[0] * outgoing[1] - incoming[1] * outgoing[0]
    dot = incoming[0] * outgoing[0] + incoming[1] * outgoing[1]
    if cross > 0:
        return 0
    if dot > 0:
        return 1
    return 2


def polyomino_rings(cells: Iterable[Cell]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Boundary rings of a set of grid cells in lattice units (y up); outer rings run
    counter-clockwise and holes clockwise. Collinear vertices are dropped."""
    cell_set = set(cells)
    if not cell_set:
        return ()
    rows, _ = cells_extent(cell_set)
    starts = _boundary_edges(cell_set, rows)
    rings = []
    while starts:
        first = min(starts)
        ring = [first]
        current = first
        previous: tuple[int, int] | None = None
        while True:
            options = starts[current]
            if previous is None or len(options) == 1:
                nxt = options[0]
            else:
                incoming = (current[0] - previous[0], current[1] - previous[1])
                nxt = min(options, key=lambda p: _turn_rank(incoming, (p[0] - current[0], p[1] - current[1])))
            options.remove(nxt)
            if not options:
                del starts[current]
            previous, current = current, nxt
            if current == first:
                break
            ring.append(current)
        rings.append(tuple(_drop_collinear(ring)))
    return tuple(rings)


def _drop_collinear(ring: list[tuple[int, int]]) -> list[tuple[int, int]]:
    kept = []
    n = len(ring)
    for i, point in enumerate(ring):
        before, after = ring[i - 1], ring[(i + 1) % n]
        cross = (point[0] - before[0]) * (after[1] - point[1]) - (point[1] - before[1]) * (after[0] - point[0])
        if cross != 0:
            kept.append(point)
    return kept


def polyomino_outline(cells: Iterable[Cell], cell: float, x: float, y: float) -> Outline:
    """The cut outline of a polyomino whose grid's lower-left corner is at (x, y)."""
    cells = list(cells)
    rows, cols = cells_extent(cells)
    rings = tuple(tuple((x + px * cell, y + py * cell) for px, py in ring) for ring in polyomino_rings(cells))
    return Outline("polygon", (x, y, cols * cell, rows * cell), rings=rings)


def ring_area(ring: Sequence[Point]) -> float:
    """Signed area (positive counter-clockwise)."""
    n = len(ring)
    return 0.5 * sum(ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1] for i in range(n))


def grown_polyomino_rings(cells: Iterable[Cell], cell: float, grow: float, x: float = 0.0, y: float = 0.0) -> tuple[Ring, ...]:
    """Rings of the union of every cell grown by ``grow`` on all sides (the polyomino plus its bleed).

    One simple polygon set, so clipping to it works under either fill rule.
    """
    cells = list(cells)
    rows, _ = cells_extent(cells)
    squares = [(c * cell - grow, (rows - 1 - r) * cell - grow, (c + 1) * cell + grow, (rows - r) * cell + grow) for r, c in cells]
    xs = sorted({v for s in squares for v in (s[0], s[2])})
    ys = sorted({v for s in squares for v in (s[1], s[3])})
    # Coordinate compression: a grid of the distinct edges, each grid cell covered or not.
    covered = set()
    for i in range(len(xs) - 1):
        for j in range(len(ys) - 1):
            mx, my = (xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2
            if any(s[0] < mx < s[2] and s[1] < my < s[3] for s in squares):
                covered.add((len(ys) - 2 - j, i))  # as (row from the top, column)
    return tuple(tuple((x + xs[px], y + ys[py]) for px, py in ring) for ring in polyomino_rings(covered))
