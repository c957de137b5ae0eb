"""Lengths: ``63.5mm``, ``2.5in``, ``1cm``, ``12pt``; bare numbers are millimetres.

Internally every length is a float in PostScript points (1/72 in), the unit
reportlab draws in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 720.0 / 25.4}

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-z%]*)\s*$")

UNIT_HELP = "a length such as 63.5mm, 2.5in, 1cm or 12pt"


class UnitError(ValueError):
    pass


def mm(value: float) -> float:
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    return points / POINTS_PER["mm"]


def parse_length(value: object) -> float:
    """Parse a length into points; raises UnitError with a readable reason."""
    if isinstance(value, bool):
        raise UnitError(f"expected {UNIT_HELP}, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value) * POINTS_PER["mm"]
    if not isinstance(value, str):
        raise UnitError(f"expected {UNIT_HELP}, got {value!r}")
    match = _LENGTH.match(value)
    if not match:
        raise UnitError(f"expected {UNIT_HELP}, got '{value}'")
    number, unit = float(match.group(1)), match.group(2) or "mm"
    if unit not in POINTS_PER:
        raise UnitError(
            f"unknown unit '{unit}' in '{value}'; expected one of mm, cm, in, pt"
        )
    return number * POINTS_PER[unit]


@dataclass(frozen=True)
class Dim:
    """A layout coordinate: absolute points, or a percentage of the reference box."""

    value: float
    percent: bool = False

    def resolve(self, extent: float) -> float:
        return extent * self.value / 100.0 if self.percent else self.value


def parse_dim(value: object) -> Dim:
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            return Dim(float(value.strip()[:-1]), percent=True)
        except ValueError:
            raise UnitError(f"expected a percentage such as 50%, got '{value}'") from None
    return Dim(parse_length(value))
