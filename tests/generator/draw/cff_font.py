"""A small OpenType font with CFF (cubic) outlines, built with fontTools' FontBuilder: no network, no system font."""

from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.t2CharStringPen import T2CharStringPen

CHARS = "".join(chr(code) for code in range(32, 127))  # printable ASCII


def _name(char: str) -> str:
    return "space" if char == " " else f"uni{ord(char):04X}"


def _draw(pen, code: int, width: int, weight: int) -> None:
    """A stem and a bowl of cubic curves whose size depends on the character, so each glyph differs."""
    if code == 32:
        return
    top = 500 + (code * 37) % 250
    pen.moveTo((40, 0))
    pen.lineTo((40 + weight, 0))
    pen.lineTo((40 + weight, top))
    pen.lineTo((40, top))
    pen.closePath()
    right = width - 40
    mid = top / 2
    pen.moveTo((40 + weight, mid - 10))  # counter-clockwise, as the stem: PostScript's outer contours
    pen.curveTo((40 + weight, mid - 120), (right, mid - 160), (right, mid))
    pen.curveTo((right, mid + 160), (40 + weight, mid + 120), (40 + weight, mid))
    pen.closePath()


def make_cff_font(path: Path, family: str = "Testa", style: str = "Regular", weight: int = 80) -> Path:
    """Write an .otf (CFF outlines, 1000 units per em) covering ``CHARS`` to ``path``; return ``path``."""
    order = [".notdef"] + [_name(c) for c in CHARS]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({ord(c): _name(c) for c in CHARS})
    strings, metrics = {}, {}
    for glyph in order:
        code = 0 if glyph == ".notdef" else (32 if glyph == "space" else int(glyph[3:], 16))
        width = 250 if code == 32 else 300 + (code * 53) % 400 + weight
        pen = T2CharStringPen(width, None)
        _draw(pen, code or 65, width, weight)
        strings[glyph] = pen.getCharString()
        bounds = BoundsPen(None)
        _draw(bounds, code or 65, width, weight)
        metrics[glyph] = (width, int(bounds.bounds[0]) if bounds.bounds else 0)
    ps = f"{family}-{style}".replace(" ", "")
    fb.setupCFF(ps, {"FullName": f"{family} {style}"}, strings, {})
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": style, "psName": ps})
    bold, italic = "Bold" in style, "Italic" in style
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200,
                usWeightClass=700 if bold else 400, fsSelection=(0x20 if bold else 0) | (0x01 if italic else 0) or 0x40)
    fb.font["head"].macStyle = (1 if bold else 0) | (2 if italic else 0)
    fb.setupPost(italicAngle=-12 if italic else 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(path))
    return path
