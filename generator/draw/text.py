"""Text that fits its box: inline markup, wrapping, shrink-to-fit, drawing.

Markup: ``**bold**``, ``*italic*``, ``:icon:`` (any name from :mod:`punchboard.generator.draw.art`),
and line breaks. Text shrinks in half-point steps from ``size`` down to
``min_size``; when it still does not fit, :func:`fit` says so and the caller
warns, naming game, component and card.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .art import ICONS, Ink, draw_icon
from .geometry import Rect

ICON_SCALE = 1.05  # an inline icon is a square this many font sizes wide
# Stand-ins for characters a font lacks (Vera has no arrows), so no empty boxes get printed.
SUBSTITUTES = {"→": "->", "←": "<-", "↔": "<->", "−": "-", "≤": "<=", "≥": ">=", "×": "x", "…": "...", "✓": "v"}
_TOKEN = re.compile(r"\*\*|\*|:([a-z_][a-z0-9_]*):|\n|[ \t]+|[^*:\n \t]+|:")
Icons = Mapping[str, Path]  # the game's own icons: name → SVG/PNG file


@dataclass(frozen=True)
class Fragment:
    text: str
    bold: bool = False
    italic: bool = False
    icon: str | None = None


Word = tuple[Fragment, ...]
Paragraph = tuple[Word, ...]


def parse(text: str, own: Icons | None = None) -> tuple[Paragraph, ...]:
    paragraphs: list[Paragraph] = []
    words: list[Word] = []
    word: list[Fragment] = []
    bold = italic = False

    def end_word() -> None:
        if word:
            words.append(tuple(word))
            word.clear()

    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token == "**":
            bold = not bold
        elif token == "*":
            italic = not italic
        elif token == "\n":
            end_word()
            paragraphs.append(tuple(words))
            words = []
        elif token.isspace():
            end_word()
        elif match.group(1) and (match.group(1) in ICONS or (own and match.group(1) in own)):
            word.append(Fragment("", bold, italic, icon=match.group(1)))
        else:
            word.append(Fragment(token, bold, italic))
    end_word()
    paragraphs.append(tuple(words))
    return tuple(paragraphs)


def printable(text: str, font: str) -> str:
    """``text`` with characters missing from ``font`` replaced by stand-ins (or '?')."""
    glyphs = getattr(pdfmetrics.getFont(font).face, "charToGlyph", None)
    if not glyphs:
        return text
    return "".join(ch if ord(ch) in glyphs or ch in " \t\n" else SUBSTITUTES.get(ch, "?") for ch in text)


def _face(base: str, fragment: Fragment) -> str:
    return fonts.styled(base, fragment.bold, fragment.italic) if fragment.bold or fragment.italic else base


def word_width(word: Word, base: str, size: float) -> float:
    return sum(
        size * ICON_SCALE if f.icon else fonts.width(f.text, _face(base, f), size) for f in word
    )


@dataclass(frozen=True)
class Fitted:
    size: float
    lines: tuple[tuple[Word, ...], ...]
    line_height: float
    fits: bool
    paragraph_ends: frozenset[int]


def _wrap(paragraphs: tuple[Paragraph, ...], base: str, size: float, width: float) -> tuple[list[list[Word]], bool, set[int]]:
    space = fonts.width(" ", base, size)
    lines: list[list[Word]] = []
    ends: set[int] = set()
    fits = True
    for paragraph in paragraphs:
        line: list[Word] = []
        used = 0.0
        for word in paragraph:
            w = word_width(word, base, size)
            if w > width + 0.01:
                fits = False
            extra = w if not line else space + w
            if line and used + extra > width + 0.01:
                lines.append(line)
                line, used = [word], w
            else:
                line.append(word)
                used += extra
        lines.append(line)
        ends.add(len(lines) - 1)
    return lines, fits, ends


def block_height(n_lines: int, base: str, size: float, leading: float) -> float:
    return (n_lines - 1) * size * leading + fonts.ascent(base, size) + fonts.descent(base, size)


def fit(text: str, base: str, size: float, min_size: float, box: Rect, leading: float = 1.2, own: Icons | None = None) -> Fitted:
    paragraphs = parse(printable(text, base), own)
    current = size
    floor = min(min_size, size)
    while True:
        lines, fits, ends = _wrap(paragraphs, base, current, box.width)
        if fits and block_height(len(lines), base, current, leading) <= box.height + 0.01:
            return Fitted(current, tuple(tuple(line) for line in lines), current * leading, True, frozenset(ends))
        if current - 0.5 < floor - 1e-9:
            return Fitted(current, tuple(tuple(line) for line in lines), current * leading, False, frozenset(ends))
        current = max(floor, current - 0.5)


def draw(
    canvas: Canvas, fitted: Fitted, base: str, box: Rect, colour: str, align: str = "left", valign: str = "top", own: Icons | None = None,
    index_mark: bool = True,
) -> None:
    """Draw fitted text into ``box``. Text that does not fit is kept inside the box: lines
    below it are left out, words wider than it are cut at its right edge, and the rest is clipped.
    ``index_mark``: underline a lone 6, 9 or other number that reads differently turned over."""
    if not fitted.fits:
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(path, stroke=0, fill=0)
        _draw(canvas, fitted, base, box, colour, align, "top", own, limit=box, index_mark=index_mark)
        canvas.restoreState()
        return
    _draw(canvas, fitted, base, box, colour, align, valign, own, index_mark=index_mark)


def _draw(
    canvas: Canvas, fitted: Fitted, base: str, box: Rect, colour: str, align: str, valign: str, own: Icons | None = None,
    limit: Rect | None = None, index_mark: bool = True,
) -> None:
    size = fitted.size
    top = _top(fitted, base, box, valign)
    baseline = top - fonts.ascent(base, size)
    space = fonts.width(" ", base, size)
    canvas.setFillColor(colour)
    for index, line in enumerate(fitted.lines):
        if limit is not None and index and baseline - fonts.descent(base, size) < limit.y - 0.01:
            break  # the lines that do not fit are reported, not drawn past the box
        widths = [word_width(word, base, size) for word in line]
        natural = sum(widths) + space * max(0, len(line) - 1)
        gap = space
        if align == "center":
            x = box.x + (box.width - natural) / 2
        elif align == "right":
            x = box.right - natural
        else:
            x = box.x
            if align == "justify" and len(line) > 1 and index not in fitted.paragraph_ends:
                gap = space + (box.width - natural) / (len(line) - 1)
        if limit is not None:
            x = max(x, limit.x)
        for word, w in zip(line, widths, strict=True):
            if limit is not None and x >= limit.right - 0.01:
                break
            _draw_word(canvas, word, base, size, x, baseline, colour, own, limit.right if limit is not None else None)
            if index_mark and len(fitted.lines) == 1 and len(line) == 1 and ambiguous_index(_plain(word)):
                _underline(canvas, x, baseline, w, base, size)
            x += w + gap
        baseline -= fitted.line_height


def _top(fitted: Fitted, base: str, box: Rect, valign: str) -> float:
    """Where the block of lines starts: the top of its first line's ascent."""
    height = block_height(len(fitted.lines), base, fitted.size, fitted.line_height / fitted.size)
    if valign == "middle":
        return box.top - (box.height - height) / 2
    if valign == "bottom":
        return box.y + height
    return box.top


def extent(fitted: Fitted, base: str, box: Rect, align: str = "left", valign: str = "top") -> Rect:
    """The rectangle the drawn lines take up in ``box``, from the first line's ascent to the last
    one's descent and from the leftmost to the rightmost word; text that does not fit fills its box."""
    if not fitted.fits:
        return box
    size = fitted.size
    top = _top(fitted, base, box, valign)
    height = block_height(len(fitted.lines), base, size, fitted.line_height / size)
    space = fonts.width(" ", base, size)
    left, right = box.right, box.x
    for index, line in enumerate(fitted.lines):
        if not line:
            continue
        natural = sum(word_width(word, base, size) for word in line) + space * (len(line) - 1)
        if align == "justify" and len(line) > 1 and index not in fitted.paragraph_ends:
            natural = box.width
        x = box.x + (box.width - natural) / 2 if align == "center" else box.right - natural if align == "right" else box.x
        left, right = min(left, x), max(right, x + natural)
    if right < left:
        return Rect(box.x, top - height, 0.0, height)
    return Rect(left, top - height, right - left, height)


ROTATED_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def ambiguous_index(text: str) -> bool:
    """A number that reads as another number when the piece is turned 180° (6/9, 16/91, 86/98 …)."""
    if not text.isdigit() or any(ch not in ROTATED_DIGITS for ch in text):
        return False
    turned = "".join(ROTATED_DIGITS[ch] for ch in reversed(text))
    return turned != text and not turned.startswith("0")


def _plain(word: Word) -> str:
    return "" if any(f.icon for f in word) else "".join(f.text for f in word)


def _underline(canvas: Canvas, x: float, baseline: float, width: float, base: str, size: float) -> None:
    """The playing-card convention for 6 and 9: a short bar under the index tells which way is up."""
    canvas.saveState()
    thickness = max(0.3, size * 0.07)
    canvas.rect(x + width * 0.1, baseline - thickness * 2.2, width * 0.8, thickness, stroke=0, fill=1)
    canvas.restoreState()


def _draw_word(
    canvas: Canvas, word: Word, base: str, size: float, x: float, baseline: float, colour: str, own: Icons | None = None,
    right: float | None = None,
) -> None:
    for fragment in word:
        if right is not None:
            room = right - x
            wide = size * ICON_SCALE if fragment.icon else fonts.width(fragment.text, _face(base, fragment), size)
            if wide > room + 0.01:
                if fragment.icon:
                    return
                face = _face(base, fragment)
                cut = _longest_start(fragment.text, face, size, room + 0.01)
                if cut:
                    canvas.setFont(face, size)
                    canvas.drawString(x, baseline, cut)
                return
        if fragment.icon:
            side = size * ICON_SCALE
            draw_icon(canvas, fragment.icon, Rect(x, baseline - size * 0.18, side, side), Ink(colour, accent=None), own)
            canvas.setFillColor(colour)
            x += side
        else:
            face = _face(base, fragment)
            canvas.setFont(face, size)
            canvas.drawString(x, baseline, fragment.text)
            x += fonts.width(fragment.text, face, size)


def _longest_start(text: str, face: str, size: float, room: float) -> str:
    """The longest start of ``text`` at most ``room`` wide in ``face`` at ``size`` ('' when none is): a start's
    width never shrinks as it grows, so the cut is bisected, O(n log n) for a word of n characters."""
    short, long = 0, len(text)  # text[:short] fits (or is empty); no start longer than text[:long] fits
    while short < long:
        middle = (short + long + 1) // 2
        if fonts.width(text[:middle], face, size) <= room:
            short = middle
        else:
            long = middle - 1
    return text[:short]
