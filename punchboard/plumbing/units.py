"""Lengths: ``63.5mm``, ``2.5in``, ``1cm``, ``12pt``; bare numbers are millimetres.

Internally every length is a float in PostScript points (1/72 in), the unit
reportlab draws in.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 720.0 / 25.4}

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-z%]*)\s*$")

UNIT_HELP = "a length such as 63.5mm, 2.5in, 1cm or 12pt"
MAX_POINTS = 1_000_000.0  # about 350 m: anything longer is a typo, and would overflow drawing code
MAX_PERCENT = 100_000.0


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
        return _finite(value, float(value) * POINTS_PER["mm"] if _small(value) else math.inf)
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
    return _finite(value, number * POINTS_PER[unit])


def _small(value: float) -> bool:
    """False for integers with hundreds of digits (float() of them overflows) and for inf/nan."""
    return isinstance(value, float) or abs(value) < 10**300


def _finite(value: object, points: float) -> float:
    if not math.isfinite(points) or abs(points) > MAX_POINTS:
        big = isinstance(value, int) and abs(value) >= 10**20
        shown = f"a number with about {int(value.bit_length() * 0.30103) + 1} digits" if isinstance(value, int) and big else repr(value)
        raise UnitError(f"expected {UNIT_HELP}, finite and at most 350 m, got {shown[:40]}")
    return points


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
            percent = float(value.strip()[:-1])
        except ValueError:
            raise UnitError(f"expected a percentage such as 50%, got '{value}'") from None
        if not math.isfinite(percent) or abs(percent) > MAX_PERCENT:
            raise UnitError(f"expected a percentage such as 50%, got '{value}'")
        return Dim(percent, percent=True)
    return Dim(parse_length(value))


def parse_fraction(value: object) -> float:
    """``30%`` (or a bare 30) as the fraction 0.3; from 0% to 100%."""
    text = str(value).strip()
    number = text[:-1] if text.endswith("%") else text
    try:
        fraction = float(number) / 100
    except ValueError:
        raise UnitError(f"expected a percentage such as 30%, got {value!r}") from None
    if not 0 <= fraction <= 1:
        raise UnitError(f"expected a percentage from 0% to 100%, got {value!r}")
    return fraction
