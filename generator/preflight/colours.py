"""Colour science for the preflight, through coloraide: WCAG contrast, colour-vision deficiency, ΔE2000.

Colours travel as sRGB triples of 0–1 floats. Each figure is worked out per
colour (rounded to 1/1000), since a game draws a few dozen distinct colours
on thousands of pieces, and remembered across runs in the user's cache folder
(punchboard/incremental/colour_figures.py), under the
installed coloraide's version: a tweak that draws cards again in colours seen
before does not import coloraide (about 60 ms, a fifth of such a tweak).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from punchboard.generator.draw.colours import resolved
from punchboard.generator.draw.side import colour as named

from punchboard.incremental.colour_figures import remembered as _remembered

if TYPE_CHECKING:
    from coloraide import Color

RGB = tuple[float, float, float]
WHITE: RGB = (1.0, 1.0, 1.0)
# Dichromacy simulations (coloraide's defaults: Viénot for protan and deutan, Brettel for tritan), full severity.
VISIONS: Mapping[str, str] = {"protan": "protanopia", "deutan": "deuteranopia", "tritan": "tritanopia"}


def paint(value: object, palette: Mapping[str, str]) -> tuple[RGB, float] | None:
    """A layout colour (``#rrggbb``, ``#rrggbbaa`` or a palette name) as (sRGB, alpha); None for ``none``."""
    name = named(value, palette)
    if name is None:
        return None
    found = resolved(name)
    if found is None:
        return None
    return (float(found.red), float(found.green), float(found.blue)), float(getattr(found, "alpha", 1.0))


def over(top: RGB, alpha: float, under: RGB) -> RGB:
    """``top`` painted at ``alpha`` over ``under`` (PDF's normal blend in sRGB)."""
    if alpha >= 1.0:
        return top
    return (
        top[0] * alpha + under[0] * (1 - alpha),
        top[1] * alpha + under[1] * (1 - alpha),
        top[2] * alpha + under[2] * (1 - alpha),
    )


def _key(rgb: RGB) -> RGB:
    return (round(rgb[0], 3), round(rgb[1], 3), round(rgb[2], 3))


def _contrast(a: RGB, b: RGB) -> float:
    from coloraide import Color

    return float(Color("srgb", list(a)).contrast(Color("srgb", list(b)), method="wcag21"))


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG 2.1 contrast ratio of two colours, 1 to 21."""
    a, b = _key(a), _key(b)
    return _remembered(f"contrast {a} {b}", lambda: _contrast(a, b))


@lru_cache(maxsize=4096)
def _seen(rgb: RGB, vision: str) -> Color:
    from coloraide import Color

    base = Color("srgb", list(rgb))
    if vision == "normal":
        return base
    if vision == "grayscale":
        return base.filter("grayscale")
    return base.filter(vision)


def _delta(a: RGB, b: RGB, vision: str) -> float:
    return float(_seen(a, vision).delta_e(_seen(b, vision), method="2000"))


def delta_e(a: RGB, b: RGB, vision: str = "normal") -> float:
    """ΔE2000 between two colours as seen with ``vision``: normal, protan, deutan, tritan or grayscale."""
    a, b = _key(a), _key(b)
    return _remembered(f"delta_e {vision} {a} {b}", lambda: _delta(a, b, vision))


def hex_of(rgb: RGB) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)
