"""Font files named by layouts, parsed at load time so ``check`` refuses every font ``build`` could not embed.

reportlab embeds TrueType outlines only. An OpenType font with CFF (PostScript) outlines is converted once to a
TrueType font with quadratic outlines (fontTools' cu2qu, at most 1/1000 em from the cubic curves), kept in the user's
cache folder under the digest of the original file's bytes; both ``check`` and ``build`` read that converted file.
The conversion keeps the glyph order, advance widths, kerning-free metrics and every other table, so text set in the
converted font measures exactly as in the original.

A variable font is used at one instance: a named one (``instance: Bold Condensed``) or axis values
(``instance: {wght: 700}``, unnamed axes at their defaults). fontTools' instancer makes that instance a static font
once, kept in the cache folder under the digest of the variable file's bytes and the instance's axis values, so the
same file and instance give the same bytes on every build.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from punchboard.incremental.file_digest import file_digest
from punchboard.plumbing.atomicio import write_cache
from punchboard.plumbing.cache_root import current_cache_root
from punchboard.plumbing.limits import FLAGS

CONVERTED = "fonts"  # the cache's folder of converted fonts
INSTANCER = "inst1"  # part of an instance's file name: a change of how instances are made makes new files
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
    return _cached(f"{digest}-{CONVERTER}.ttf", lambda: _converted(path))


def axis_ranges(path: Path) -> dict[str, tuple[float, float, float]] | None:
    """A variable font's axes (tag → minimum, default, maximum), or None for a static font (or not a font)."""
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(str(path), lazy=True)
        if "fvar" not in font:
            return None
        return {a.axisTag: (a.minValue, a.defaultValue, a.maxValue) for a in font["fvar"].axes}
    except Exception:  # noqa: BLE001 - a hostile file can break the parser anywhere: check_font says it is no font
        return None


def named_instances(path: Path) -> dict[str, dict[str, float]]:
    """A variable font's named instances: subfamily name (``Bold Condensed``) → axis values."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(path), lazy=True)
    names = font["name"]
    out: dict[str, dict[str, float]] = {}
    for instance in font["fvar"].instances:
        title = names.getDebugName(instance.subfamilyNameID) or ""
        out.setdefault(title.strip(), dict(instance.coordinates))
    return out


def instance_label(instance: str | Mapping[str, Any]) -> str:
    """The part of an instance's PostScript name that tells it from the font's other instances: ``BoldCondensed``,
    ``wght700wdth75``."""
    if isinstance(instance, str):
        raw = instance
    else:
        raw = "".join(f"{tag}{float(value):g}" for tag, value in sorted(instance.items()))
    return "".join(c for c in raw if c.isascii() and (c.isalnum() or c in ".")) or "Instance"


def instance_location(path: Path, shown: str, instance: str | Mapping[str, Any]) -> dict[str, float]:
    """Every axis value of ``instance`` in ``path``'s variable font (a named instance's, or the given values with
    the other axes at their defaults); :class:`FontRefused` naming what the font has when there is no such instance."""
    axes = axis_ranges(path)
    if axes is None:
        raise FontRefused(f"font file '{shown}' is not a variable font, so it has no instance {_said(instance)}; "
                          "expected a variable font (with an fvar table), or no instance:")
    ranges = ", ".join(f"{tag} {low:g}–{high:g}" for tag, (low, _, high) in axes.items())
    if isinstance(instance, str):
        named = named_instances(path)
        found = {title.casefold(): coords for title, coords in named.items()}.get(instance.strip().casefold())
        if found is None:
            listed = ", ".join(named) or "none"
            raise FontRefused(f"font file '{shown}' has no named instance '{instance}'; expected one of its named "
                              f"instances {listed}, or axis values ({ranges})")
        given = found
    else:
        given = {str(tag): float(value) for tag, value in instance.items()}
    location = {tag: default for tag, (_, default, _) in axes.items()}
    for tag, value in given.items():
        if tag not in axes:
            raise FontRefused(f"font file '{shown}' has no axis '{tag}'; expected its axes {ranges}")
        low, _, high = axes[tag]
        if not low <= value <= high:
            raise FontRefused(f"font file '{shown}' asks for {tag} {value:g}, outside the axis; expected {low:g}–{high:g}")
        location[tag] = value
    return location


def _said(instance: str | Mapping[str, Any]) -> str:
    return f"'{instance}'" if isinstance(instance, str) else ", ".join(f"{k} {v}" for k, v in instance.items())


def instance_file(path: Path, location: Mapping[str, float], label: str) -> Path:
    """The static font of ``path``'s variable font at ``location`` (every axis), its PostScript name the
    variable font's family with ``-label`` (so two instances are two fonts to the PDF writer), made once into the
    cache folder. Raises :class:`FontRefused` when fontTools cannot make it."""
    digest = file_digest(path)
    if digest is None:
        raise FontRefused("the variable font file cannot be read")
    axes = ",".join(f"{tag}={location[tag]:g}" for tag in sorted(location)) + "/" + label
    name = f"{digest}-{hashlib.sha256(axes.encode()).hexdigest()[:16]}-{INSTANCER}.ttf"
    return _cached(name, lambda: _instanced(path, location, label))


def _instanced(path: Path, location: Mapping[str, float], label: str) -> bytes:
    """The bytes of the static instance at ``location`` (deterministic: no timestamp), named ``FAMILY-label``."""
    import io

    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    try:
        font = TTFont(str(path), recalcTimestamp=False, lazy=False)
        static = instancer.instantiateVariableFont(font, dict(location), static=True, downgradeCFF2="CFF2" in font)
        names = static["name"]
        family = (names.getDebugName(16) or names.getDebugName(1) or "Font").replace(" ", "")
        names.setName(f"{family}-{label}"[:63], 6, 3, 1, 0x409)
        names.setName(f"{family}-{label}"[:63], 6, 1, 0, 0)
        if "CFF " in static:
            _to_truetype(static)
        out = io.BytesIO()
        static.save(out, reorderTables=True)
    except Exception as exc:  # noqa: BLE001 - a hostile file can break the instancer anywhere
        raise FontRefused(f"its instance cannot be made ({type(exc).__name__}: {exc})") from None
    return out.getvalue()


def _cached(name: str, make: Callable[[], bytes]) -> Path:
    """The cache folder's file ``name``, made by ``make`` if it is not there (a private folder if the cache is
    read-only)."""
    target = current_cache_root() / CONVERTED / name
    if target.is_file():
        return target
    data = make()
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
