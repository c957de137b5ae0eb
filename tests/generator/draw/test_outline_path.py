"""An outline appended to a reportlab path at once writes exactly the operators moveTo/lineTo/close write point
by point (outlines._add_rings), for any rings and any numbers fp_str formats."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from punchboard.generator.draw.outlines import Outline, gear
from reportlab.pdfgen.pathobject import PDFPathObject

coordinate = st.one_of(
    st.floats(min_value=-2000, max_value=2000, allow_nan=False),
    st.integers(min_value=-2000, max_value=2000),
    st.sampled_from([0.0, -0.0, 1e-7, -1e-7, 0.0000049, 1234.5678949, 1 / 3]),
)
ring = st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=40).map(tuple)


def point_by_point(rings: tuple[tuple[tuple[float, float], ...], ...]) -> str:
    path = PDFPathObject()
    for points in rings:
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
    return path.getCode()


@settings(max_examples=300, deadline=None)
@given(st.lists(ring, min_size=1, max_size=4).map(tuple))
def test_polygon_rings_write_the_operators_of_point_by_point_drawing(rings):
    path = PDFPathObject()
    Outline("polygon", (0, 0, 1, 1), rings=rings).add_to(path)
    assert path.getCode() == point_by_point(rings)


def test_a_gear_bleed_edge_after_other_path_operators():
    grown = gear(31.7, 402.25, 79.37, 79.37, 12).grown(8.5)
    path = PDFPathObject()
    path.rect(0, 0, 10, 10)
    grown.add_to(path)
    expected = PDFPathObject()
    expected.rect(0, 0, 10, 10)
    for points in grown.rings:
        expected.moveTo(*points[0])
        for point in points[1:]:
            expected.lineTo(*point)
        expected.close()
    assert len(grown.rings[0]) > 100
    assert path.getCode() == expected.getCode()
