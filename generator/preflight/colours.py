"""Colour science for the preflight, through coloraide: WCAG contrast, colour-vision deficiency, ΔE2000.

Colours travel as sRGB triples of 0–1 floats. Each figure is cached per
colour (rounded to 1/1000), since a game draws a few dozen distinct colours
on thousands of pieces.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from coloraide import Color
from punchboard.generator.draw.colours import resolved
from punchboard.generator.draw.side import colour as named

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


@lru_cache(maxsize=65536)
def _contrast(a: RGB, b: RGB) -> float:
    return float(Color("srgb", list(a)).contrast(Color("srgb", list(b)), method="wcag21"))


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG 2.1 contrast ratio of two colours, 1 to 21."""
    return _contrast(_key(a), _key(b))


@lru_cache(maxsize=4096)
def _seen(rgb: RGB, vision: str) -> Color:
    base = Color("srgb", list(rgb))
    if vision == "normal":
        return base
    if vision == "grayscale":
        return base.filter("grayscale")
    return base.filter(vision)


@lru_cache(maxsize=65536)
def _delta(a: RGB, b: RGB, vision: str) -> float:
    return float(_seen(a, vision).delta_e(_seen(b, vision), method="2000"))


def delta_e(a: RGB, b: RGB, vision: str = "normal") -> float:
    """ΔE2000 between two colours as seen with ``vision``: normal, protan, deutan, tritan or grayscale."""
    return _delta(_key(a), _key(b), vision)


def hex_of(rgb: RGB) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)
