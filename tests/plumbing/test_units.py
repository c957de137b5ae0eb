from __future__ import annotations

import pytest

from punchboard.plumbing.units import UnitError, parse_dim, parse_length, to_mm


@pytest.mark.parametrize(
    ("text", "points"),
    [("2.5in", 180.0), ("63.5mm", 180.0), ("6.35cm", 180.0), ("12pt", 12.0), (25.4, 72.0), ("25.4", 72.0)],
)
def test_lengths_in_points(text, points):
    assert parse_length(text) == pytest.approx(points)


def test_round_trip_mm():
    assert to_mm(parse_length("88.9mm")) == pytest.approx(88.9)


@pytest.mark.parametrize("bad", ["63qq", "abc", "", True, None, "12 px"])
def test_bad_units(bad):
    with pytest.raises(UnitError):
        parse_length(bad)


def test_percent_dims():
    dim = parse_dim("50%")
    assert dim.percent and dim.resolve(200) == 100
    assert parse_dim("10mm").resolve(1000) == pytest.approx(parse_length("10mm"))
