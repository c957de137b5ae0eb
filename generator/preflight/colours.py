"""Colour science for the preflight, through coloraide: WCAG contrast, colour-vision deficiency, ΔE2000.

Colours travel as sRGB triples of 0–1 floats. Each figure is worked out per
colour (rounded to 1/1000), since a game draws a few dozen distinct colours
on thousands of pieces, and remembered across runs in the user's cache folder
(beside the schema verdicts, :mod:`punchboard.spec.validated`), under the
installed coloraide's version: a tweak that draws cards again in colours seen
before does not import coloraide (about 60 ms, a fifth of such a tweak).
"""

from __future__ import annotations

import atexit
import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from punchboard.generator.draw.colours import resolved
from punchboard.generator.draw.side import colour as named

from punchboard.plumbing.sealed import read_sealed_strict, write_sealed
from punchboard.spec import validated

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


FIGURES_FORMAT = 1  # the layout of the remembered figures and what their keys mean
FIGURES_MAX = 20_000  # figures remembered before the file starts afresh
_figures: dict[str, float] | None = None
_new: list[bool] = []  # set once something was worked out that the file does not hold


def _figures_path() -> Path:
    version = validated.installed_version("coloraide")
    return validated.folder().parent / "colours" / f"figures-{FIGURES_FORMAT}-coloraide-{version}.json"


def _remembered(key: str, work_out: Callable[[], float]) -> float:
    global _figures
    if _figures is None:
        try:
            data = json.loads(read_sealed_strict(_figures_path()).decode("utf-8"))
            _figures = {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
            if len(_figures) > FIGURES_MAX:
                _figures = {}
        except (OSError, ValueError, TypeError, AttributeError):
            _figures = {}
    found = _figures.get(key)
    if found is None:
        found = _figures[key] = work_out()
        if not _new:
            _new.append(True)
            atexit.register(_save)
    return found


def _save() -> None:
    """Write the figures back (at exit, once): atomically, and not at all where the folder cannot be written."""
    if _figures is None:
        return
    try:
        write_sealed(_figures_path(), json.dumps(_figures, sort_keys=True).encode("utf-8"))
    except OSError:
        pass


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
