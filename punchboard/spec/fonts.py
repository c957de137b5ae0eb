"""Font files named by layouts, parsed at load time so ``check`` refuses every font ``build`` could not embed.

reportlab embeds TrueType outlines only. An OpenType font with CFF (PostScript) outlines is converted once to a
TrueType font with quadratic outlines (fontTools' cu2qu, at most 1/1000 em from the cubic curves), kept in the user's
cache folder under the digest of the original file's bytes; both ``check`` and ``build`` read that converted file.
The conversion keeps the glyph order, advance widths, kerning-free metrics and every other table, so text set in the
converted font measures exactly as in the original.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from punchboard.incremental.file_digest import file_digest
from punchboard.plumbing.atomicio import write_cache
from punchboard.plumbing.cache_root import current_cache_root
from punchboard.plumbing.limits import FLAGS

CONVERTED = "fonts"  # the cache's folder of converted fonts
CONVERTER = "cu2qu1"  # part of a converted file's name: a change of how fonts are converted makes new files
_private: Path | None = None  # converted fonts of this process when the cache folder cannot be written
MAX_ERR = 1.0  # font units (1/1000 em for most CFF fonts): how far a quadratic curve may stray from the cubic one


class FontRefused(Exception):
    """A font file that is too large, not a font, or a font the PDF writer cannot embed."""


def is_cff(path: Path) -> bool:
    """Whether ``path`` is an OpenType font with CFF outlines (its first four bytes are ``OTTO``)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"OTTO"
    except OSError:
        return False


def truetype_file(path: Path) -> Path:
    """The TrueType file reportlab reads for ``path``: the file itself, or for a CFF font its conversion in the
    cache folder (made now if it is not there). Raises :class:`FontRefused` for a CFF font fontTools cannot
    convert."""
    if not is_cff(path):
        return path
    digest = file_digest(path)
    if digest is None:
        return path  # unreadable: reportlab's reader says so
    name = f"{digest}-{CONVERTER}.ttf"
    target = current_cache_root() / CONVERTED / name
    if target.is_file():
        return target
    data = _converted(path)
    try:
        write_cache(target, data)
    except OSError:  # no cache folder to write in (read-only home, full disk): a folder of this process's own
        target = _private_folder() / name
        if not target.is_file():
            target.write_bytes(data)
    return target


def _private_folder() -> Path:
    """A temporary folder for converted fonts, made once per process and removed when it ends."""
    global _private
    if _private is None:
        import atexit
        import shutil
        import tempfile

        _private = Path(tempfile.mkdtemp(prefix="punchboard-fonts-"))
        atexit.register(shutil.rmtree, _private, True)
    return _private


def _converted(path: Path) -> bytes:
    """The bytes of ``path``'s font with its CFF outlines turned into TrueType ones (deterministic)."""
    import io

    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(str(path), recalcTimestamp=False, lazy=False)
        if "CFF2" in font or "fvar" in font:
            raise FontRefused("a variable CFF2 font; expected a static OpenType font (one instance per file)")
        if "CFF " not in font:
            raise FontRefused("no CFF outlines in an OpenType font marked as CFF")
        _to_truetype(font)
        out = io.BytesIO()
        font.save(out, reorderTables=True)
    except FontRefused:
        raise
    except (TTLibError, Exception) as exc:  # noqa: BLE001 - a hostile file can break the parser anywhere
        raise FontRefused(f"not a readable OpenType font ({type(exc).__name__})") from None
    return out.getvalue()


def _to_truetype(font: Any) -> None:
    """Replace ``font``'s CFF table by glyf/loca with quadratic outlines, and its maxp and post by TrueType ones."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    quadratic = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        # CFF outer contours run counter-clockwise, TrueType ones clockwise
        glyphs[name].draw(Cu2QuPen(pen, MAX_ERR, reverse_direction=True))
        quadratic[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = quadratic
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):  # the left side bearing is the outline's left edge in TrueType
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs", "maxStackElements",
                  "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 0)
    maxp.compile(font)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font.sfntVersion = "\000\001\000\000"


def check_font(path: Path, name: str, max_bytes: int) -> None:
    """Parse ``path`` as the renderer will (reportlab's TrueType reader, after converting a CFF font); raise
    :class:`FontRefused` if it cannot."""
    size = path.stat().st_size
    if size > max_bytes:
        raise FontRefused(f"font file '{name}' is {size} bytes, more than the limit of {max_bytes} (raise it with {FLAGS['max_file_bytes']})")
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

    try:
        readable = truetype_file(path)
    except FontRefused as exc:
        raise FontRefused(f"font file '{name}' cannot be used: {exc}") from None
    try:  # read it and make a subset, as embedding the font in a PDF does
        TTFontFile(str(readable), validate=0).makeSubset(list(range(32, 127)))
    except TTFError as exc:
        raise FontRefused(f"font file '{name}' cannot be used ({exc}); expected a TrueType or OpenType font (.ttf, .otf)") from None
    except Exception:  # noqa: BLE001 - a hostile file can break the parser anywhere; it is still only a bad font
        raise FontRefused(f"font file '{name}' is not a readable font (truncated or corrupt); expected a TrueType or OpenType font (.ttf, .otf)") from None
