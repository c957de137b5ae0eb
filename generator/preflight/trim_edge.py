"""``trim_edge``: a filled shape or picture whose edge stops exactly at the trim of a piece that has bleed.

A title band drawn to the trim, not into the bleed, looks right on screen and
on a perfect cut; when the cut drifts by a fraction of a millimetre it prints a
sliver of what lies beyond it — the paper, or the background — along that edge.
A print shop's preflight flags it; art meant to reach the edge must run on into
the bleed.

Fires for a filled ``rect`` (its fill not ``none``, not transparent) or a
picture (``image``: a raster picture where it is placed for its ``fit``, an
SVG picture when ``fit`` is ``cover`` or ``stretch``) when one of its edges
lies on the trim line — within :data:`TOLERANCE`, on the inside or the outside —
along at least :data:`ALONG` of the trim, on an axis where the side has bleed,
and what the side shows just beyond that edge, in the bleed, differs from what
it shows just inside (ΔE2000 :data:`SLIVER` or more, read as the contrast check
reads colours: fills with their opacity over the paper, raster pictures by
their pixels; a point under an icon or an SVG picture is not judged). An edge
that runs on into the bleed, one the same colour carries on past (a band over a
background of its own colour), or one that stops well inside the trim (an
element in the safe area, a frame inset from the edge) is fine. Elements turned
by other than a quarter turn, ellipses and polygons, and shaped pieces (round
tokens: the cut is no rectangle) are not judged.
"""

from __future__ import annotations

from collections.abc import Iterator

from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.observe import Drawn

from punchboard.plumbing.units import mm

from .colours import delta_e, paint
from .contrast import Layer, colour_at
from .seen import Finding, Point, SideSeen, angle, bounds, millimetres, placement, raster

TOLERANCE = mm(0.1)  # how near the trim line an edge counts as on it (points)
ALONG = mm(1.0)  # how long a stretch of the trim an edge must run along to count
DEPTH = mm(0.5)  # how far inside and beyond the edge the colours are read (at most the bleed)
SAMPLES = 5  # points read along the edge
SLIVER = 5.0  # ΔE2000 between the colours either side of the edge from which a sliver shows


def _filled(drawn: Drawn) -> bool:
    props = drawn.element.props
    opacity = props.get("opacity")
    if opacity is not None and float(opacity) <= 0:
        return False
    found = paint(props.get("fill"), drawn.palette)
    return found is not None and found[1] > 0


def _area(drawn: Drawn) -> tuple[Rect, str] | None:
    """Where a filled rectangle or a picture paints (upright bounds), and what to call it; None for others."""
    kind = drawn.element.type
    if angle(drawn) % 90:
        return None
    if kind == "rect":
        return (bounds(drawn.rect, angle(drawn), drawn.rect.center), "filled rect") if _filled(drawn) else None
    if kind != "image" or drawn.picture is None:
        return None
    fit = drawn.element.props.get("fit", "contain")
    picture = raster(drawn.picture)
    if picture is None:  # SVG: its shape inside the box is not known unless it fills it
        placed = drawn.rect if fit in ("cover", "stretch") else None
    else:
        spot = placement(drawn, picture)
        placed = drawn.rect if spot.clip else Rect(spot.x, spot.y, spot.width, spot.height)
    return (bounds(placed, angle(drawn), drawn.rect.center), "picture") if placed is not None else None


def _edges(area: Rect, trim: Rect, bleed_x: float, bleed_y: float) -> Iterator[tuple[str, list[Point], Point]]:
    """The trim edges ``area`` stops at — its edge on the trim line, running along the trim — each with points
    just inside it along the stretch it runs, and the step from a point to its mirror just beyond, in the bleed."""
    span_x = (max(area.x, trim.x), min(area.right, trim.right))  # where it runs along a top or bottom edge
    span_y = (max(area.y, trim.y), min(area.top, trim.top))
    for name, edge, line, bleed, (low, high), outward in (
        ("left", area.x, trim.x, bleed_x, span_y, (-1, 0)), ("right", area.right, trim.right, bleed_x, span_y, (1, 0)),
        ("bottom", area.y, trim.y, bleed_y, span_x, (0, -1)), ("top", area.top, trim.top, bleed_y, span_x, (0, 1)),
    ):
        if bleed <= TOLERANCE or high - low < ALONG or abs(edge - line) > TOLERANCE:
            continue
        depth = min(bleed, DEPTH)
        along = [low + (high - low) * (n + 0.5) / SAMPLES for n in range(SAMPLES)]
        inside = [(line - outward[0] * depth, at) if outward[0] else (at, line - outward[1] * depth) for at in along]
        yield name, inside, (2 * depth * outward[0], 2 * depth * outward[1])


def _sliver(layers: list[Layer], inside: list[Point], step: Point) -> float:
    """The largest ΔE2000 between what the side shows at a point just inside the edge and just beyond it."""
    worst = 0.0
    for x, y in inside:
        here, there = colour_at(layers, (x, y)), colour_at(layers, (x + step[0], y + step[1]))
        if here is not None and there is not None:
            worst = max(worst, delta_e(here, there))
    return worst


def check(side: SideSeen) -> Iterator[Finding]:
    frame = side.frame
    if frame.clip is not None and not isinstance(frame.clip, Rect):
        return  # a shaped piece: its cut is no rectangle
    layers: list[Layer] | None = None
    for drawn in side.drawn:
        found = _area(drawn)
        if found is None:
            continue
        area, what = found
        edges = []
        for name, inside, step in _edges(area, frame.trim, frame.bleed_x, frame.bleed_y):
            if layers is None:
                layers = [layer for layer in map(Layer, side.drawn) if layer.paints]
            if _sliver(layers, inside, step) >= SLIVER:
                edges.append(name)
        if not edges:
            continue
        bleed = frame.bleed_x if edges[0] in ("left", "right") else frame.bleed_y
        yield drawn.element, "trim_edge", (
            f"{what} of element '{drawn.element.id}' stops at the trim on its {' and '.join(edges)} "
            f"edge{'s' if len(edges) > 1 else ''} while the piece has {millimetres(bleed)} of bleed: a cut that "
            f"drifts prints a sliver of what lies beyond (paper or background) there; draw it on into the bleed "
            f"(box: bleed, or {millimetres(bleed)} longer on that side)"
        )
