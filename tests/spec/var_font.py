"""A small variable TrueType font (one axis, wght 100–900, two named instances), built with fontTools' FontBuilder:
no network, no system font. Its glyphs are boxes whose width and advance grow with the weight, so an instance is
told from another by its advance widths. It covers printable ASCII only (no ``ł``)."""

from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables.TupleVariation import TupleVariation

CHARS = "".join(chr(code) for code in range(32, 127))
GROW = 200  # font units the advance of every glyph but the space gains at wght 900


def _name(char: str) -> str:
    return "space" if char == " " else f"uni{ord(char):04X}"


def advance(char: str, wght: float) -> float:
    """The advance width of ``char`` at weight ``wght`` (font units of 1000 per em)."""
    if char == " ":
        return 250
    base = 400 + (ord(char) * 37) % 200
    return base + GROW * max(0.0, (wght - 400) / 500)


def make_variable_font(path: Path, family: str = "Varia") -> Path:
    """Write the variable font to ``path``; return ``path``."""
    order = [".notdef"] + [_name(c) for c in CHARS]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({ord(c): _name(c) for c in CHARS})
    glyphs, metrics, variations = {}, {}, {}
    for glyph, char in zip(order, ["A", *CHARS], strict=True):
        width = int(advance(char, 400))
        pen = TTGlyphPen(None)
        if glyph != "space":
            top = 500 + (ord(char) * 53) % 200
            pen.moveTo((50, 0))
            pen.lineTo((50, top))
            pen.lineTo((width - 50, top))
            pen.lineTo((width - 50, 0))
            pen.closePath()
            deltas = [(0, 0), (0, 0), (GROW, 0), (GROW, 0), (0, 0), (GROW, 0), (0, 0), (0, 0)]
            variations[glyph] = [TupleVariation({"wght": (0, 1.0, 1.0)}, deltas)]
        glyphs[glyph] = pen.glyph()
        metrics[glyph] = (width, 50 if glyph != "space" else 0)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular", "psName": f"{family}-Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.setupFvar([("wght", 100, 400, 900, "Weight")],
                 [{"stylename": "Regular", "location": {"wght": 400}},
                  {"stylename": "Bold", "location": {"wght": 700}},
                  {"stylename": "Black", "location": {"wght": 900}}])
    fb.setupGvar(variations)
    path.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(path))
    return path
