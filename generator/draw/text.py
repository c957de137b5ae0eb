"""Text that fits its box: rich markup, wrapping, lists, tables, hyphenation, shrink-to-fit, drawing.

Markup (generator/draw/markup.py): ``**bold**``, ``*italic*``, ``:icon:`` (any name from
:mod:`punchboard.generator.draw.art` or the game's own), span tags ``[color=…]``, ``[size=…]``, ``[font=…]``,
``[u]``, ``[s]``, bullet and numbered list lines, and table rows (cells split by a tab or `` | ``). Text shrinks
in half-point steps from ``size`` down to ``min_size``, spans with it; when it still does not fit, :func:`fit`
says so and the caller warns, naming game, component and card. :class:`Options` carries the element's
``columns``, ``rules``, ``hyphenate``, ``outline`` and ``shadow``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .art import Ink, draw_icon
from .effects import opacity
from .geometry import Rect
from .markup import BULLET, Fragment, Icons, Word, parse
from .text_layout import ICON_SCALE, Line, Metrics, Run, Setting, lay_out, placed

__all__ = ["ICON_SCALE", "Fitted", "Icons", "Options", "block_height", "draw", "extent", "fit", "options", "printable"]

# Stand-ins for characters a font lacks (Vera has no arrows), so no empty boxes get printed.
SUBSTITUTES = {"→": "->", "←": "<-", "↔": "<->", "−": "-", "≤": "<=", "≥": ">=", "×": "x", "…": "...", "✓": "v", "•": "-"}


@dataclass(frozen=True)
class Options:
    """An element's text keys beyond font, size and alignment."""

    setting: Setting = Setting()
    outline: tuple[str, float] | None = None  # stroke colour, width (points)
    shadow: tuple[float, float, str] | None = None  # offset right, offset down (points), colour
    palette: Mapping[str, str] = field(default_factory=dict, compare=False)  # colour names spans may use
    fallback: str | None = None  # the font drawing the characters the text's font lacks (fallback:)


PLAIN_OPTIONS = Options()
HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


def options(props: Mapping[str, Any], palette: Mapping[str, str]) -> Options:
    """The :class:`Options` of a text element's (loaded) properties."""
    columns = tuple(props.get("columns", ()))
    hyphenate = props.get("hyphenate")
    return Options(
        Setting(columns, bool(props.get("rules", False)), hyphenate if isinstance(hyphenate, str) and hyphenate else None),
        props.get("outline"), props.get("shadow"), palette,
        props.get("fallback") if isinstance(props.get("fallback"), str) else None,
    )


def printable(text: str, font: str) -> str:
    """``text`` with characters missing from ``font`` replaced by stand-ins (or '?')."""
    glyphs = getattr(pdfmetrics.getFont(font).face, "charToGlyph", None)
    if not glyphs:
        return text
    spare = fonts.fallback_glyphs()  # a fallback: font in force draws what it has
    return "".join(ch if ord(ch) in glyphs or ch in " \t\n" or ord(ch) in spare else SUBSTITUTES.get(ch, "?") for ch in text)


@dataclass(frozen=True)
class Fitted:
    """Text laid out at the size it fits (or its smallest): its lines, their places and how it is drawn."""

    size: float  # the element's size after shrinking
    lines: tuple[Line, ...]
    line_height: float
    fits: bool
    height: float  # of the block of lines, from the first line's ascent to the last one's descent
    smallest: float  # the smallest size any span is set at
    asked: float  # the size asked for (spans shrink in proportion)
    options: Options = PLAIN_OPTIONS
    uniform: bool = True  # every line set at ``size``, no table rules: the block measured as plain lines


def block_height(n_lines: int, base: str, size: float, leading: float) -> float:
    """The height of ``n_lines`` plain lines at ``size``."""
    return (n_lines - 1) * size * leading + fonts.ascent(base, size) + fonts.descent(base, size)


def fit(
    text: str, base: str, size: float, min_size: float, box: Rect, leading: float = 1.2, own: Icons | None = None,
    options: Options = PLAIN_OPTIONS,
) -> Fitted:
    """``text`` laid out in ``box`` at the largest half-point step from ``size`` down to ``min_size`` that fits
    (the characters its fonts lack measured in ``options.fallback``)."""
    with fonts.falling_back(options.fallback):
        return _fit(text, base, size, min_size, box, leading, own, options)


def _fit(text: str, base: str, size: float, min_size: float, box: Rect, leading: float, own: Icons | None,
         options: Options) -> Fitted:
    paragraphs = parse(printable(text, base), own, printable(BULLET, base))
    current = size
    floor = min(min_size, size)
    sized = any(f.style.size is not None for p in paragraphs for w in (*p.words, p.marker, *(w for c in p.cells for w in c)) for f in w)
    while True:
        metrics = Metrics(base, size, current, sized)
        lines, fits = lay_out(paragraphs, box.width, metrics, options.setting)
        ready, height = placed(lines, metrics, leading)
        uniform = all(line.size == current and line.rule is None for line in ready)
        if uniform:
            height = block_height(len(ready), base, current, leading)
        fits = fits and height <= box.height + 0.01
        if fits or current - 0.5 < floor - 1e-9:
            smallest = min((metrics.size(f) for line in ready for run in line.runs for w in run.words for f in w), default=current) if sized else current
            return Fitted(current, ready, current * leading, fits, height, min(smallest, current), size, options, uniform)
        current = max(floor, current - 0.5)


def draw(
    canvas: Canvas, fitted: Fitted, base: str, box: Rect, colour: str, align: str = "left", valign: str = "top", own: Icons | None = None,
    index_mark: bool = True,
) -> None:
    """Draw fitted text into ``box``: its shadow, its outline, then its glyphs. Text that does not fit is kept
    inside the box: lines below it are left out, words wider than their room are cut at its end, the rest clipped.
    ``index_mark``: underline a lone 6, 9 or other number that reads differently turned over."""
    with fonts.falling_back(fitted.options.fallback):
        _draw(canvas, fitted, base, box, colour, align, valign, own, index_mark)


def _draw(canvas: Canvas, fitted: Fitted, base: str, box: Rect, colour: str, align: str, valign: str,
          own: Icons | None, index_mark: bool) -> None:
    limit = None if fitted.fits else box
    if limit is not None:
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(path, stroke=0, fill=0)
        valign = "top"
    pen = _Pen(canvas, fitted, base, colour, own, limit)
    top = _top(fitted, base, box, valign)
    look = fitted.options
    if look.shadow is not None:
        dx, dy, shade = look.shadow
        pen.paint(box, top, align, dx, -dy, ink=look.palette.get(shade, shade),
                  stroke=look.outline[1] if look.outline else 0.0)
    if look.outline is not None:
        ring, width = look.outline
        pen.paint(box, top, align, ink=look.palette.get(ring, ring), stroke=width, icons=False)
    pen.paint(box, top, align, index_mark=index_mark)
    if limit is not None:
        canvas.restoreState()


def _top(fitted: Fitted, base: str, box: Rect, valign: str) -> float:
    """Where the block of lines starts: the top of its first line's ascent."""
    height = _height(fitted, base)
    if valign == "middle":
        return box.top - (box.height - height) / 2
    if valign == "bottom":
        return box.y + height
    return box.top


def _height(fitted: Fitted, base: str) -> float:
    """The block's height; lines all of one size as :func:`block_height` has always worked it out."""
    if fitted.uniform:
        return block_height(len(fitted.lines), base, fitted.size, fitted.line_height / fitted.size)
    return fitted.height


def _start(run: Run, natural: float, box: Rect, align: str) -> float:
    """Where a run's words start for ``align`` (justified and left runs start at the run's left)."""
    left = box.x + run.x
    if align == "center":
        return left + (run.width - natural) / 2
    if align == "right":
        return left + run.width - natural
    return left


class _Pen:
    """Sets the lines of one :class:`Fitted` on a canvas, in one pass: shadow, outline or fill."""

    def __init__(self, canvas: Canvas, fitted: Fitted, base: str, colour: str, own: Icons | None, limit: Rect | None):
        """Set ``fitted`` (laid out in ``base``) in ``colour``; ``limit``: the box it overflows, or None."""
        self.canvas, self.fitted, self.colour, self.own, self.limit = canvas, fitted, colour, own, limit
        self.metrics = Metrics(base, fitted.asked, fitted.size)
        self.icons, self.fill = True, ""  # this pass draws inline icons; the fill colour last set

    @staticmethod
    def _ink(value: Any) -> Color:
        """``value`` as the colour to set: a string parsed by draw/colours.py (reportlab reads ``#rrggbbaa`` and
        ``#rgb`` as one number), with the element's opacity (effects/opacity.py: its shadow, outline and spans too)."""
        found = opacity.ink(value)
        assert found is not None
        return found

    def paint(self, box: Rect, top: float, align: str, dx: float = 0.0, dy: float = 0.0, ink: str | None = None,
              stroke: float = 0.0, index_mark: bool = False, icons: bool = True) -> None:
        """One pass over every line; ``ink`` overrides every colour (a shadow, an outline), ``stroke`` > 0 strokes
        glyphs, ``icons`` False leaves inline icons out (an outline has none)."""
        canvas, metrics, limit = self.canvas, self.metrics, self.limit
        self.icons, self.fill = icons, ""
        if stroke > 0:
            canvas.saveState()
            canvas.setLineWidth(stroke * 2)  # half of it is covered by the glyphs' fill
            canvas.setLineJoin(1)
        elif ink is None:
            canvas.setFillColor(self._ink(self.colour))
            self.fill = self.colour
        lines = self.fitted.lines
        baseline = top + dy
        for index, line in enumerate(lines):
            baseline = baseline - line.drop if index == 0 else baseline - line.advance
            if limit is not None and index and baseline - fonts.descent(metrics.base, line.size) < limit.y - 0.01:
                break  # the lines that do not fit are reported, not drawn past the box
            if line.rule is not None:
                self._rule(box, top - line.rule + dy, dx, ink)
            for run in line.runs:
                lone = index_mark and len(lines) == 1 and len(line.runs) == 1 and len(run.words) == 1
                self._run(run, box, align, baseline, dx, ink, stroke, lone)
        if stroke > 0:
            canvas.restoreState()

    def _rule(self, box: Rect, y: float, dx: float, ink: str | None) -> None:
        """A rule across the box between two table rows."""
        self.canvas.saveState()
        self.canvas.setStrokeColor(self._ink(ink or self.colour))
        self.canvas.setLineWidth(max(0.3, self.metrics.current * 0.05))
        self.canvas.line(box.x + dx, y, box.right + dx, y)
        self.canvas.restoreState()

    def _run(self, run: Run, box: Rect, align: str, baseline: float, dx: float, ink: str | None, stroke: float, lone: bool) -> None:
        """The words of one run, aligned (or justified) within it."""
        metrics = self.metrics
        widths = [metrics.width(word) for word in run.words]
        space = metrics.space()
        natural = sum(widths) + space * max(0, len(widths) - 1)
        how = run.align or align
        x = _start(run, natural, box, how) + dx
        gap = space
        if how == "justify" and len(widths) > 1 and not run.last:
            gap = space + (run.width - natural) / (len(widths) - 1)
        if self.limit is not None:
            x = max(x, self.limit.x)
        right = self.limit.right if self.limit is not None else None
        for word, w in zip(run.words, widths, strict=True):
            if right is not None and x >= right - 0.01:
                break
            self._word(word, x, baseline, ink, stroke, right)
            if lone and ambiguous_index(_plain(word)):
                _underline(self.canvas, x, baseline, w, metrics.current)
            x += w + gap

    def _word(self, word: Word, x: float, baseline: float, ink: str | None, stroke: float, right: float | None) -> None:
        """One word's fragments from ``x``; with ``right``, the fragment crossing it cut there and the rest left out."""
        for fragment in word:
            wide = self.metrics.fragment_width(fragment)
            if right is not None and wide > right - x + 0.01:
                if not fragment.icon:
                    cut = _longest_start(fragment.text, self.metrics.face(fragment), self.metrics.size(fragment), right - x + 0.01)
                    self._fragment(fragment, cut, x, baseline, ink, stroke, fonts.width(cut, self.metrics.face(fragment), self.metrics.size(fragment)))
                return
            self._fragment(fragment, fragment.text, x, baseline, ink, stroke, wide)
            x += wide

    def _span_colour(self, name: str) -> str:
        """A span's colour: a palette name's value or #rrggbb; anything else (text no check read, such as a
        cover's) keeps the element's colour."""
        value = self.fitted.options.palette.get(name, name)
        return value if HEX.fullmatch(value) else self.colour

    def _fragment(self, fragment: Fragment, shown: str, x: float, baseline: float, ink: str | None, stroke: float, wide: float) -> None:
        """One fragment (``shown`` of its text, ``wide`` points wide) or its icon, with underline and strike."""
        canvas, style = self.canvas, fragment.style
        size = self.metrics.size(fragment)
        colour = ink or (self._span_colour(style.color) if style.color else self.colour)
        if fragment.icon:
            if self.icons:
                draw_icon(canvas, fragment.icon, Rect(x, baseline - size * 0.18, size * ICON_SCALE, size * ICON_SCALE),
                          Ink(colour, accent=None), self.own)
                canvas.setFillColor(self._ink(colour))  # the icon set its own colours
                self.fill = colour
            return
        if not shown:
            return
        face = self.metrics.face(fragment)
        if colour != self.fill:
            canvas.setFillColor(self._ink(colour))
            self.fill = colour
        if stroke > 0:
            canvas.setStrokeColor(self._ink(colour))
            glyphs = canvas.beginText(x, baseline)
            glyphs.setTextRenderMode(2)  # fill and stroke: the outline round every glyph
            for part, font in fonts.runs(shown, face):  # the characters the face lacks in the fallback font
                glyphs.setFont(font, size)
                glyphs.textOut(part)
            canvas.drawText(glyphs)
        else:
            at = x
            for part, font in fonts.runs(shown, face):
                canvas.setFont(font, size)
                canvas.drawString(at, baseline, part)
                at += fonts.width(part, font, size)
        for on, height in ((style.underline, -0.12), (style.strike, 0.28)):
            if on:
                canvas.rect(x, baseline + size * height, wide, max(0.25, size * 0.06), stroke=1 if stroke > 0 else 0, fill=1)


def extent(fitted: Fitted, base: str, box: Rect, align: str = "left", valign: str = "top") -> Rect:
    """The rectangle the drawn lines take up in ``box``, from the first line's ascent to the last
    one's descent and from the leftmost to the rightmost word; text that does not fit fills its box."""
    if not fitted.fits:
        return box
    metrics = Metrics(base, fitted.asked, fitted.size)
    top = _top(fitted, base, box, valign)
    height = _height(fitted, base)
    left, right = box.right, box.x
    for line in fitted.lines:
        for run in line.runs:
            if not run.words:
                continue
            natural = metrics.natural(run.words)
            how = run.align or align
            if how == "justify" and len(run.words) > 1 and not run.last:
                natural = run.width
            x = _start(run, natural, box, how)
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
    """A word's text, '' when it holds an icon."""
    return "" if any(f.icon for f in word) else "".join(f.text for f in word)


def _underline(canvas: Canvas, x: float, baseline: float, width: float, size: float) -> None:
    """The playing-card convention for 6 and 9: a short bar under the index tells which way is up."""
    canvas.saveState()
    thickness = max(0.3, size * 0.07)
    canvas.rect(x + width * 0.1, baseline - thickness * 2.2, width * 0.8, thickness, stroke=0, fill=1)
    canvas.restoreState()


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
