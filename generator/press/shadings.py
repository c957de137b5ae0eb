"""Gradients (PDF shadings) in DeviceCMYK before Ghostscript sees them, so the press file keeps them as vectors.

A layout's gradient fill and an SVG's gradient are axial or radial shadings in DeviceRGB whose colours are an
exponential function (``C0`` → ``C1``) or a stitching of such functions. Ghostscript's pdfwrite, asked for CMYK
at PDF 1.3, turns an RGB shading into a low-resolution CMYK picture; a DeviceCMYK one it keeps as it is. So each
stop colour becomes the DeviceCMYK the press profile gives it, with the same transform as every other colour
(pdfx.py's first pass). Between stops the inks are interpolated, a close match of the RGB blend. A shading of
any other form is left to Ghostscript.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

Rgb = tuple[int, int, int]


def rgb_shadings(resources: list[Any]) -> list[Any]:
    """The DeviceRGB shadings of ``resources`` (each once) whose colours are exponential or stitched ones."""
    found: dict[tuple[int, int], Any] = {}
    for res in resources:
        for shading in ((res or {}).get("/Shading") or {}).values():
            if str(shading.get("/ColorSpace")) == "/DeviceRGB" and _convertible(shading.get("/Function")):
                found.setdefault(shading.objgen, shading)
    return list(found.values())


def _convertible(function: Any) -> bool:
    if function is None or not hasattr(function, "get"):
        return False
    if int(function.get("/FunctionType", -1)) == 3:
        return all(_convertible(part) for part in function.get("/Functions", ()))
    return int(function.get("/FunctionType", -1)) == 2 and float(function.get("/N", 1)) == 1


def _ends(function: Any) -> Iterator[Any]:
    """The exponential functions of a shading's function, in order."""
    if int(function.FunctionType) == 3:
        for part in function.Functions:
            yield from _ends(part)
    else:
        yield function


def _rgb(values: Any) -> Rgb:
    r, g, b = (max(0.0, min(1.0, float(v))) for v in values)
    return round(r * 255), round(g * 255), round(b * 255)


def colours(shadings: list[Any]) -> list[Rgb]:
    """Every stop colour of ``shadings``, as the 8-bit sRGB the first pass converts."""
    found: dict[Rgb, None] = {}
    for shading in shadings:
        for end in _ends(shading.Function):
            for key in ("/C0", "/C1"):
                found[_rgb(end.get(key, [0, 0, 0] if key == "/C0" else [1, 1, 1]))] = None
    return list(found)


def to_cmyk(shadings: list[Any], inks: Mapping[Rgb, tuple[float, ...]]) -> None:
    """Each of ``shadings`` in DeviceCMYK: its stop colours as ``inks`` gives them."""
    import pikepdf

    for shading in shadings:
        for end in _ends(shading.Function):
            for key in ("/C0", "/C1"):
                rgb = _rgb(end.get(key, [0, 0, 0] if key == "/C0" else [1, 1, 1]))
                end[key] = pikepdf.Array(list(inks[rgb]))
        shading.ColorSpace = pikepdf.Name.DeviceCMYK
