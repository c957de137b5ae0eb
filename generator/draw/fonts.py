"""TrueType fonts, all embedded: reportlab's bundled Bitstream Vera plus any a layout names.

The base-14 fonts (Helvetica …) are never used: they are not embedded.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

VERA_DIR = Path(reportlab.__file__).parent / "fonts"
VERA_FILES = {
    "Vera": "Vera.ttf",
    "Vera-Bold": "VeraBd.ttf",
    "Vera-Italic": "VeraIt.ttf",
    "Vera-BoldItalic": "VeraBI.ttf",
}
DEFAULT_FONT = "Vera"
_registered: dict[str, Path] = {}


def register_builtin() -> None:
    for name, file in VERA_FILES.items():
        register(name, VERA_DIR / file)


def register(name: str, path: Path) -> None:
    if _registered.get(name) == path:
        return
    pdfmetrics.registerFont(TTFont(name, str(path)))
    _registered[name] = path


def register_layout_fonts(fonts: Mapping[str, Path]) -> None:
    for name, path in fonts.items():
        register(name, path)


def known(name: str) -> bool:
    return name in _registered


def resolve(name: str | None) -> str:
    """A registered font name; unknown names fall back to Vera (the loader reports bad names)."""
    if name and name in _registered:
        return name
    return DEFAULT_FONT


def styled(name: str, bold: bool, italic: bool) -> str:
    """The bold/italic face of a family: ``X-Bold``, ``X-Italic``, ``X-BoldItalic`` when registered."""
    base = name
    for suffix in ("-BoldItalic", "-Bold", "-Italic"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            bold = bold or "Bold" in suffix
            italic = italic or "Italic" in suffix
            break
    suffix = "-BoldItalic" if bold and italic else "-Bold" if bold else "-Italic" if italic else ""
    candidate = base + suffix
    if candidate in _registered:
        return candidate
    fallback = "Vera" + suffix
    return fallback if bold or italic else resolve(base)


def width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


def ascent(font: str, size: float) -> float:
    face = pdfmetrics.getFont(font).face
    return face.ascent * size / 1000.0


def descent(font: str, size: float) -> float:
    face = pdfmetrics.getFont(font).face
    return -face.descent * size / 1000.0


register_builtin()
