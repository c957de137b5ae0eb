"""TrueType fonts, all embedded: reportlab's bundled Bitstream Vera plus any a layout names.

The base-14 fonts (Helvetica …) are never used: they are not embedded. An OpenType font with CFF outlines is drawn
from its TrueType conversion (``punchboard.spec.fonts.truetype_file``, kept in the user's cache folder), which has
the same glyphs, advance widths and vertical metrics.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from punchboard.spec.fonts import truetype_file

VERA_DIR = Path(reportlab.__file__).parent / "fonts"
VERA_FILES = {
    "Vera": "Vera.ttf",
    "Vera-Bold": "VeraBd.ttf",
    "Vera-Italic": "VeraIt.ttf",
    "Vera-BoldItalic": "VeraBI.ttf",
}
DEFAULT_FONT = "Vera"
BUILTIN = frozenset(VERA_FILES)
# name → the file registered under it, and that file's stamp then: a process that builds again (watch, serve)
# reads a font file again once it has changed
_registered: dict[str, tuple[Path, tuple[int, ...]]] = {}
# The fonts the side being drawn may use: the built-in ones and its layout's. Another layout's (another game's,
# in a process that builds several) is not one of them: its ``Body-Bold`` is not this layout's bold face.
_usable: frozenset[str] = BUILTIN
_usable_from: Mapping[str, Path] | None = None
_fallback: str | None = None  # the font drawing the characters a face lacks, while a text with fallback: is set


def _stamp(path: Path) -> tuple[int, ...]:
    try:
        info = path.stat()
    except OSError:
        return ()
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def register_builtin() -> None:
    for name, file in VERA_FILES.items():
        register(name, VERA_DIR / file)


def register(name: str, path: Path) -> None:
    """Register ``path``'s font under ``name`` (a CFF font through its TrueType conversion), once per version of
    the file."""
    stamp = _stamp(path)
    known = _registered.get(name)
    if known == (path, stamp):
        return
    if known is not None:  # another file under this name, or the file changed: reportlab keeps a name's first font
        _forget(name)
    pdfmetrics.registerFont(TTFont(name, str(truetype_file(path))))
    _registered[name] = (path, stamp)


def _forget(name: str) -> None:
    """Let reportlab's font under ``name`` go, and its face's entry when no other name holds that font (reportlab
    gives a new font whose face it knows the font it already has)."""
    old = pdfmetrics._fonts.pop(name, None)
    _registered.pop(name, None)
    if old is None or any(font is old for font in pdfmetrics._fonts.values()):
        return
    face = getattr(getattr(old, "face", None), "name", None)
    if pdfmetrics._dynFaceNames.get(face) is old:
        del pdfmetrics._dynFaceNames[face]


def register_layout_fonts(fonts: Mapping[str, Path]) -> None:
    """Register a layout's fonts (again, if a file changed since) and make them, with the built-in ones, the
    fonts its sides are set in. A layout's fonts are one mapping for all its sides: a deck's cards do this once."""
    global _usable, _usable_from
    if fonts is _usable_from:
        return
    for name, path in fonts.items():
        register(name, path)
    _usable, _usable_from = BUILTIN | frozenset(fonts), fonts


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
    if candidate in _usable:
        return candidate
    fallback = "Vera" + suffix
    return fallback if bold or italic else resolve(base)


def _glyphs(font: str) -> Mapping[int, int]:
    return getattr(pdfmetrics.getFont(font).face, "charToGlyph", None) or {}


@contextmanager
def falling_back(name: str | None) -> Iterator[None]:
    """Within it, the characters a face lacks and the font ``name`` has (one of the side's usable fonts; an
    element's ``fallback:``) are measured and drawn in ``name``."""
    global _fallback
    before = _fallback
    _fallback = name if name and name in _usable and name in _registered else None
    try:
        yield
    finally:
        _fallback = before


def fallback_glyphs() -> Mapping[int, int]:
    """The characters the fallback font in force draws (none outside :func:`falling_back`)."""
    return _glyphs(_fallback) if _fallback is not None else {}


def runs(text: str, font: str) -> list[tuple[str, str]]:
    """``text`` cut into runs of one font each: ``font``, and the fallback in force for the characters ``font``
    lacks and the fallback has (one run in ``font`` without a fallback)."""
    if _fallback is None or _fallback == font:
        return [(text, font)]
    have, spare = _glyphs(font), _glyphs(_fallback)
    out: list[tuple[str, str]] = []
    for char in text:
        face = _fallback if ord(char) not in have and ord(char) in spare else font
        if out and out[-1][1] == face:
            out[-1] = (out[-1][0] + char, face)
        else:
            out.append((char, face))
    return out or [(text, font)]


def width(text: str, font: str, size: float) -> float:
    if _fallback is None:
        return pdfmetrics.stringWidth(text, font, size)
    return sum(pdfmetrics.stringWidth(part, face, size) for part, face in runs(text, font))


def ascent(font: str, size: float) -> float:
    face = pdfmetrics.getFont(font).face
    return face.ascent * size / 1000.0


def descent(font: str, size: float) -> float:
    face = pdfmetrics.getFont(font).face
    return -face.descent * size / 1000.0


register_builtin()
