"""SVG pictures drawn as PDF vector paths through svglib (a maintained SVG → reportlab converter).

svglib turns the file into a reportlab Drawing, which is painted onto the
canvas scaled into the element's box. What svglib cannot draw faithfully —
filters, masks, embedded (@font-face) fonts, elements it skips, colours it
cannot read, font families that are not installed (svglib would quietly take
whatever fontconfig offers) — is reported back as a list of notes, so the
caller warns naming the file and the feature instead of silently drawing
something else.

Text svglib would set in a PDF base font (Helvetica, Times, Courier: its
choice for sans-serif, serif, monospace and for text with no font-family) is
set in punchboard's embedded Vera of the same weight and slant instead, since
base fonts are not embedded and print shops reject files that use them; only a
serif or monospace family becoming Vera is a note, a sans one is Vera's own look.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from punchboard.spec.images import MAX_SVG_BYTES

from .fonts import register_builtin
from .geometry import Rect
from .placement import Placement, place_picture

if TYPE_CHECKING:  # reportlab.graphics (and platypus with it) is imported when a game has an SVG, not before
    from reportlab.graphics.shapes import Drawing

MAX_BYTES = MAX_SVG_BYTES  # the loader refuses a larger SVG (spec/images.check_svg)
# Nodes svglib skips that carry no paint of their own; the others are reported.
_SILENT_NODES = {"title", "desc", "metadata", "style", "script", "filter", "mask", "pattern"}
# Attributes svglib leaves unused that change what the picture looks like.
_UNSUPPORTED_ATTRS = {"filter": "filters", "mask": "masks"}
_IGNORED_NODE = re.compile(r"^Ignoring node: (\S+)")
_FONT_FACE = re.compile(rb"@font-face", re.IGNORECASE)


class SvgError(ValueError):
    pass


@dataclass(frozen=True)
class Picture:
    drawing: Drawing
    width: float
    height: float
    notes: tuple[str, ...]  # features svglib could not draw faithfully


class _Notes(logging.Handler):
    """Collects svglib's log records that mean 'this part is not drawn as written'."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.notes: list[str] = []

    def add(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.levelno >= logging.WARNING:
            self.add(message)
            return
        ignored = _IGNORED_NODE.match(message)
        if ignored:
            node = ignored.group(1).rsplit("}", 1)[-1]
            if node not in _SILENT_NODES:
                self.add(f"<{node}> elements are not supported")
        elif message.startswith("Unused attrs:"):
            for attr, feature in _UNSUPPORTED_ATTRS.items():
                if f"'{attr}'" in message:
                    self.add(f"{feature} are not supported ({attr}= ignored)")


_CACHE: dict[tuple[str, int, int], Picture] = {}


def load(path: Path) -> Picture:
    """The file converted once (per content stamp) by svglib, with what it could not draw."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    if stat.st_size > MAX_BYTES:
        raise SvgError(f"file is larger than {MAX_BYTES // 1_000_000} MB")
    from svglib.svglib import svg2rlg  # imported on first use: most games have no SVG

    logger = logging.getLogger("svglib.svglib")
    handler = _Notes()
    if _FONT_FACE.search(path.read_bytes()):
        handler.add("embedded fonts (@font-face) are not supported; text falls back to an installed font")
    level, propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        drawing = svg2rlg(str(path), external_reference_root=str(path.parent))
    except Exception as exc:  # noqa: BLE001 - svglib raises parser errors of several kinds
        raise SvgError(f"not a readable SVG ({exc})") from None
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate
    if drawing is None:
        raise SvgError("not a readable SVG")
    if not drawing.width or not drawing.height or drawing.width <= 0 or drawing.height <= 0:
        raise SvgError("the picture has no area (width, height or viewBox)")
    for note in _substituted_fonts(drawing):
        handler.add(note)
    for note in _embed_base_fonts(drawing):
        handler.add(note)
    picture = Picture(drawing, float(drawing.width), float(drawing.height), tuple(handler.notes))
    _CACHE[key] = picture
    return picture


def draw_svg(canvas: Canvas, path: Path, box: Rect, fit: str = "contain", focus: tuple[float, float] = (0.5, 0.5)) -> tuple[str, ...]:
    """Draw the SVG at ``path`` into ``box``; returns the features that could not be drawn faithfully."""
    from reportlab.graphics import renderPDF

    picture = load(path)
    spot: Placement = place_picture(box, picture.width, picture.height, fit, focus)
    canvas.saveState()
    if spot.clip:
        clip = canvas.beginPath()
        clip.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(spot.x, spot.y)
    canvas.scale(spot.width / picture.width, spot.height / picture.height)
    renderPDF.draw(picture.drawing, canvas, 0, 0)
    canvas.restoreState()
    return picture.notes


def _substituted_fonts(drawing: Drawing) -> list[str]:
    """Text whose font family is not installed: svglib silently draws it in whatever fontconfig offers."""
    from reportlab.graphics.shapes import Group, String
    from svglib.fonts import get_global_font_map

    substitutes = {
        entry["rlgFont"]: entry["svg_family"]
        for entry in get_global_font_map()._map.values()
        if isinstance(entry, dict) and entry.get("exact") is False
    }
    notes: list[str] = []
    stack: list[object] = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String) and node.fontName in substitutes:
            note = f"font '{substitutes[node.fontName]}' is not installed; its text falls back to another font"
            if note not in notes:
                notes.append(note)
        elif isinstance(node, Group):
            stack.extend(node.contents)
    return notes


_VERA_FOR_BASE_FONT = {
    "Helvetica": "Vera", "Helvetica-Bold": "Vera-Bold",
    "Helvetica-Oblique": "Vera-Italic", "Helvetica-BoldOblique": "Vera-BoldItalic",
    "Times-Roman": "Vera", "Times-Bold": "Vera-Bold",
    "Times-Italic": "Vera-Italic", "Times-BoldItalic": "Vera-BoldItalic",
    "Courier": "Vera", "Courier-Bold": "Vera-Bold",
    "Courier-Oblique": "Vera-Italic", "Courier-BoldOblique": "Vera-BoldItalic",
}


def _embed_base_fonts(drawing: Drawing) -> list[str]:
    """Set text svglib put in a PDF base font in embedded Vera; note the serif and monospace ones."""
    from reportlab.graphics.shapes import Group, String

    register_builtin()
    drawing.initialFontName = "Vera"  # renderPDF would otherwise select Helvetica before any text
    notes: list[str] = []
    stack: list[object] = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String):
            vera = _VERA_FOR_BASE_FONT.get(node.fontName)
            if vera is None:
                continue
            if not node.fontName.startswith("Helvetica"):
                note = (f"text set in {node.fontName} (a PDF base font, which is never embedded) is drawn in "
                        f"embedded {vera} instead; name an installed font or convert the text to paths")
                if note not in notes:
                    notes.append(note)
            node.fontName = vera
        elif isinstance(node, Group):
            stack.extend(node.contents)
    return notes
