"""A piece's bleed edge is its cut outline offset by the bleed, not the outline scaled up."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from punchboard.generator.draw.outlines import Outline, polyomino_outline, token_outline
from shapely.geometry import Point, Polygon

from punchboard.spec.model import TokenShape

MM = 72 / 25.4
SPLAT = ((0.50, 0.00), (0.62, 0.14), (0.80, 0.06), (0.82, 0.26), (1.00, 0.36), (0.88, 0.52), (0.98, 0.72), (0.76, 0.78),
         (0.70, 1.00), (0.52, 0.86), (0.32, 0.98), (0.28, 0.78), (0.04, 0.76), (0.14, 0.56), (0.00, 0.38), (0.20, 0.28),
         (0.18, 0.06), (0.38, 0.14))
PENTAGON = ((0.5, 0.0), (1.0, 0.363), (0.809, 0.951), (0.191, 0.951), (0.0, 0.363))
SHAPES = {
    "circle": TokenShape("circle"),
    "square": TokenShape("square"),
    "rounded": TokenShape("rounded"),
    "hexagon": TokenShape("hexagon"),
    "gear": TokenShape("gear", teeth=12),
    "splat": TokenShape("custom", outline=SPLAT),
    "pentagon": TokenShape("custom", outline=PENTAGON),
}


def spread(cut: Outline, grown: Outline) -> tuple[float, float]:
    """(least, greatest) distance in mm from the grown outline's edge to the cut outline's edge."""
    cut_edge = cut.shape(1440).boundary
    edge = grown.shape(1440).boundary
    samples = [edge.interpolate(i / 2000, normalized=True) for i in range(2000)]
    distances = [cut_edge.distance(p) for p in samples]
    assert grown.shape(1440).contains(cut.shape(1440))
    return min(distances) / MM, max(distances) / MM


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("size", [18, 30])
def test_every_shape_grows_by_the_bleed_everywhere(name: str, size: float) -> None:
    cut = token_outline(SHAPES[name], 40.0, 50.0, size * MM, size * MM)
    least, most = spread(cut, cut.grown(3 * MM))
    assert least == pytest.approx(3.0, abs=0.002)  # never less than the bleed (chords lie outside the arc)
    assert most == pytest.approx(3.0, abs=0.01)  # and not more: an offset, not a bigger copy


def test_a_hexagon_keeps_the_bleed_on_its_flat_sides() -> None:
    """A 30 mm hexagon scaled up to 36 mm kept 2.60 mm on every flat side; the offset keeps 3."""
    hexagon = token_outline(SHAPES["hexagon"], 0.0, 0.0, 30 * MM, 30 * MM)
    scaled = token_outline(SHAPES["hexagon"], -3 * MM, -3 * MM, 36 * MM, 36 * MM)
    assert spread(hexagon, scaled)[0] == pytest.approx(3 * math.sqrt(3) / 2, abs=0.002)  # the old way: 2.60 mm
    assert spread(hexagon, hexagon.grown(3 * MM))[0] == pytest.approx(3.0, abs=0.002)


def test_a_polyomino_with_a_hole_grows_outward_and_into_its_hole() -> None:
    ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    cut = polyomino_outline(ring, 20 * MM, 0.0, 0.0)
    grown = cut.grown(3 * MM)
    assert len(grown.rings) == 2  # still holed: the 20 mm hole shrinks to 14 mm
    assert grown.shape().contains(Point(30 * MM, 30 * MM)) is False
    assert spread(cut, grown)[0] == pytest.approx(3.0, abs=0.002)


def test_grown_outlines_are_cut_back_to_a_slot() -> None:
    cut = token_outline(SHAPES["gear"], 0.0, 0.0, 20 * MM, 20 * MM)
    grown = cut.grown(3 * MM)
    assert grown.within((-3 * MM, -3 * MM, 26 * MM, 26 * MM)) is grown  # fits: unchanged
    narrow = grown.within((-1 * MM, -3 * MM, 22 * MM, 26 * MM))
    left, bottom, width, _ = narrow.box
    assert left == pytest.approx(-1 * MM) and width == pytest.approx(22 * MM)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 359), st.integers(5, 50)), min_size=3, max_size=12, unique_by=lambda p: p[0]),
       st.floats(0.5, 5))
def test_any_simple_custom_outline_keeps_at_least_the_bleed(spokes: list[tuple[int, int]], bleed: float) -> None:
    """Custom outlines as games write them (fractions to two places): any star-shaped polygon, points at
    whole degrees round the centre and radii in hundredths (simple by construction, concave corners included)."""
    fractions = tuple(
        (round(0.5 + r / 100 * math.cos(math.radians(a)), 2), round(0.5 + r / 100 * math.sin(math.radians(a)), 2))
        for a, r in sorted(spokes)
    )
    simple = Polygon(fractions)
    assume(simple.is_valid and simple.area > 0.001)  # rounding to two places rarely folds a ring
    cut = token_outline(TokenShape("custom", outline=fractions), 0.0, 0.0, 25 * MM, 25 * MM)
    area = cut.shape(1440)
    grown = cut.grown(bleed * MM).shape(1440)
    assert grown.contains(area)
    assert grown.boundary.distance(area.boundary) / MM >= bleed - 0.005  # the tolerance builds measure with
