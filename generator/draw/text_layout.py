"""Paragraphs of styled words laid out into lines at one font size: wrapping, hanging list indents,
table rows in columns, hyphenation by language (pyphen) and the vertical place of every line.

Span sizes shrink with the text: a ``[size=8]`` span in text asked at 10 pt and set at 9 pt is set at 7.2 pt.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import fonts
from .markup import PLAIN, Fragment, Paragraph, Style, Word, with_text

ICON_SCALE = 1.05  # an inline icon is a square this many font sizes wide
LONGEST_HYPHENATED = 64  # characters: a longer "word" (a URL, a run of letters) is not hyphenated but cut
COLUMN_GAP = 0.8  # between table columns, × the font size
RULE_PAD = 0.4  # the room a rule between table rows takes, × the font size


@dataclass(frozen=True)
class Setting:
    """What an element asks of its text's layout beyond font and size."""

    columns: tuple[tuple[str, float | None], ...] = ()  # per table column: alignment, width as a fraction of the box
    rules: bool = False  # a rule between table rows
    hyphenate: str | None = None  # a pyphen language (en, en_GB, de, fr …)


class Metrics:
    """Sizes and faces at one step of shrinking: ``current`` of ``asked`` points, ``base`` the element's font;
    ``sized`` False promises no fragment has a span size (every line is then ``current`` tall)."""

    __slots__ = ("asked", "base", "current", "faces", "sized")

    def __init__(self, base: str, asked: float, current: float, sized: bool = True):
        self.base, self.asked, self.current, self.sized = base, asked, current, sized
        self.faces: dict[Style, str] = {PLAIN: base}

    def size(self, fragment: Fragment) -> float:
        """The size ``fragment`` is set at: its span's size shrunk with the text, else the current size."""
        span = fragment.style.size
        return self.current if span is None else span * self.current / self.asked

    def face(self, fragment: Fragment) -> str:
        """The font ``fragment`` is set in: its span's font or the element's, in its weight and style."""
        style = fragment.style
        if style is PLAIN:
            return self.base
        found = self.faces.get(style)
        if found is None:
            font = fonts.resolve(style.font) if style.font else self.base
            found = self.faces[style] = fonts.styled(font, style.bold, style.italic) if style.bold or style.italic else font
        return found

    def fragment_width(self, fragment: Fragment) -> float:
        """How wide ``fragment`` is set (an icon: a square of its size)."""
        if fragment.icon:
            return self.size(fragment) * ICON_SCALE
        return fonts.width(fragment.text, self.face(fragment), self.size(fragment))

    def width(self, word: Word) -> float:
        """How wide ``word`` is set (the sum of :meth:`fragment_width`, inlined: fitting measures every word
        at every step of shrinking)."""
        total = 0.0
        for f in word:
            if f.icon:
                total += self.size(f) * ICON_SCALE
            elif f.style is PLAIN:
                total += fonts.width(f.text, self.base, self.current)
            else:
                total += fonts.width(f.text, self.face(f), self.size(f))
        return total

    def space(self) -> float:
        """The width of a space between words."""
        return fonts.width(" ", self.base, self.current)

    def natural(self, words: Sequence[Word]) -> float:
        """How wide ``words`` are set one space apart."""
        return sum(self.width(w) for w in words) + self.space() * max(0, len(words) - 1)

    def tallest(self, words: Sequence[Word]) -> float:
        """The largest size set among ``words`` (the current size when there are none)."""
        if not self.sized:
            return self.current
        return max((self.size(f) for w in words for f in w), default=self.current)


@dataclass(frozen=True)
class Run:
    """Words set in a stretch of a line: from ``x`` (off the box's left) and ``width`` wide."""

    x: float
    width: float
    words: tuple[Word, ...]
    align: str | None = None  # None: the element's alignment
    last: bool = True  # the last line of its paragraph or cell: never justified


@dataclass(frozen=True)
class Line:
    """One line of the block: its runs (one, or a list marker and its text, or a table row's cells)."""

    runs: tuple[Run, ...]
    size: float  # the tallest size set on it
    drop: float = 0.0  # from the block's top to its baseline
    advance: float = 0.0  # from the line before's baseline to its own
    rule: float | None = None  # a rule between table rows: its distance from the block's top


@functools.lru_cache(maxsize=8)
def _hyphenator(language: str) -> Any:
    """pyphen's dictionary for ``language``, loaded once."""
    import pyphen  # imported only for text that asks for hyphenation

    return pyphen.Pyphen(lang=language)


def _split_points(word: Word, language: str) -> list[int]:
    """Where pyphen may break ``word`` (character offsets into its text), none for a word with an icon."""
    if any(f.icon for f in word):
        return []
    text = "".join(f.text for f in word)
    start = len(text) - len(text.lstrip("\"'([“‘"))
    core = text[start:].rstrip("\"'.,;:!?)]”’")
    if not 5 <= len(core) <= LONGEST_HYPHENATED or not core.isalpha():
        return []
    return [start + p for p in _hyphenator(language).positions(core)]


def _cut(word: Word, at: int) -> tuple[Word, Word]:
    """``word`` split at character ``at`` of its text, fragments keeping their styles."""
    head: list[Fragment] = []
    tail: list[Fragment] = []
    seen = 0
    for f in word:
        if seen + len(f.text) <= at:
            head.append(f)
        elif seen >= at:
            tail.append(f)
        else:
            head.append(with_text(f, f.text[: at - seen]))
            tail.append(with_text(f, f.text[at - seen:]))
        seen += len(f.text)
    return tuple(head), tuple(tail)


def hyphenated(word: Word, room: float, metrics: Metrics, language: str) -> tuple[Word, Word] | None:
    """The longest start of ``word`` that fits ``room`` with a hyphen after it, and the rest; None when none does.
    A start's width never shrinks as it grows, so the break is bisected among pyphen's points."""
    points = _split_points(word, language)
    found: tuple[Word, Word] | None = None
    low, high = 0, len(points) - 1
    while low <= high:
        middle = (low + high) // 2
        head, tail = _cut(word, points[middle])
        head = (*head, with_text(head[-1], "-"))
        if metrics.width(head) <= room + 0.01:
            found, low = (head, tail), middle + 1
        else:
            high = middle - 1
    return found


def wrap(words: Sequence[Word], width: float, metrics: Metrics, language: str | None) -> tuple[list[list[Word]], bool]:
    """``words`` broken into lines at most ``width`` wide; False when a word is wider than that."""
    space = metrics.space()
    lines: list[list[Word]] = []
    line: list[Word] = []
    used = 0.0
    fits = True
    for word in words:
        w = metrics.width(word)
        extra = w if not line else space + w
        if line and used + extra > width + 0.01 and language:
            split = hyphenated(word, width - used - space, metrics, language)
            if split is not None:
                lines.append([*line, split[0]])
                line, used = [], 0.0
                word, w = split[1], metrics.width(split[1])
        if line and used + space + w > width + 0.01:
            lines.append(line)
            line, used = [], 0.0
        while language and not line and w > width + 0.01:
            split = hyphenated(word, width, metrics, language)
            if split is None:
                break
            lines.append([split[0]])
            word, w = split[1], metrics.width(split[1])
        if w > width + 0.01:
            fits = False
        used += w if not line else space + w
        line.append(word)
    lines.append(line)
    return lines, fits


def lay_out(paragraphs: Sequence[Paragraph], width: float, metrics: Metrics, setting: Setting) -> tuple[list[Line], bool]:
    """Every line of ``paragraphs`` at ``metrics``' size (without their vertical places); False when a word overflows."""
    lines: list[Line] = []
    fits = True
    index = 0
    while index < len(paragraphs):
        kind = paragraphs[index].kind
        end = index + 1
        if kind != "text":
            while end < len(paragraphs) and paragraphs[end].kind == kind:
                end += 1
        group = paragraphs[index:end]
        if kind == "row":
            made, ok = _table(group, width, metrics, setting)
        elif kind in ("bullet", "number"):
            made, ok = _list(group, width, metrics, setting)
        else:
            made, ok = _plain(group[0], width, metrics, setting)
        lines.extend(made)
        fits = fits and ok
        index = end
    return lines, fits


def _plain(paragraph: Paragraph, width: float, metrics: Metrics, setting: Setting) -> tuple[list[Line], bool]:
    """A plain paragraph wrapped to the box's width."""
    wrapped, fits = wrap(paragraph.words, width, metrics, setting.hyphenate)
    last = len(wrapped) - 1
    return [Line((Run(0.0, width, tuple(words), None, i == last),), metrics.tallest(words)) for i, words in enumerate(wrapped)], fits


def _list(items: Sequence[Paragraph], width: float, metrics: Metrics, setting: Setting) -> tuple[list[Line], bool]:
    """List items: the marker in a column as wide as the widest, the text hanging at the column's end."""
    marker_width = max(metrics.width(item.marker) for item in items)
    indent = marker_width + metrics.current * 0.5
    lines: list[Line] = []
    fits = indent < width
    for item in items:
        wrapped, ok = wrap(item.words, width - indent, metrics, setting.hyphenate)
        fits = fits and ok
        last = len(wrapped) - 1
        for i, words in enumerate(wrapped):
            runs = [Run(indent, width - indent, tuple(words), None, i == last)]
            if i == 0:
                runs.insert(0, Run(0.0, marker_width, (item.marker,), "right" if item.kind == "number" else "left"))
            lines.append(Line(tuple(runs), metrics.tallest([*words, item.marker] if i == 0 else words)))
    return lines, fits


def _column_widths(rows: Sequence[Paragraph], width: float, metrics: Metrics, setting: Setting) -> list[float]:
    """Each column's width: its ``columns:`` fraction, else its widest cell, the last such column taking the rest."""
    count = max(len(row.cells) for row in rows)
    gap = metrics.current * COLUMN_GAP
    asked = [setting.columns[j][1] if j < len(setting.columns) else None for j in range(count)]
    widths = [width * a if a is not None else max(metrics.natural(r.cells[j]) for r in rows if j < len(r.cells)) for j, a in enumerate(asked)]
    free = [j for j, a in enumerate(asked) if a is None]
    if free:
        others = sum(w for j, w in enumerate(widths) if j != free[-1])
        widths[free[-1]] = max(0.0, width - others - gap * (count - 1))
    return widths


def _table(rows: Sequence[Paragraph], width: float, metrics: Metrics, setting: Setting) -> tuple[list[Line], bool]:
    """Table rows: each cell wrapped in its column, a row as tall as its tallest cell."""
    widths = _column_widths(rows, width, metrics, setting)
    gap = metrics.current * COLUMN_GAP
    starts = [sum(widths[:j]) + gap * j for j in range(len(widths))]
    fits = starts[-1] + widths[-1] <= width + 0.01
    lines: list[Line] = []
    for number, row in enumerate(rows):
        cells: list[list[list[Word]]] = []
        for j, words in enumerate(row.cells):
            wrapped, ok = wrap(words, widths[j], metrics, setting.hyphenate)
            cells.append(wrapped)
            fits = fits and ok
        for i in range(max(len(c) for c in cells)):
            runs = tuple(
                Run(starts[j], widths[j], tuple(c[i]), _column_align(setting, j), i == len(c) - 1)
                for j, c in enumerate(cells) if i < len(c) and c[i]
            )
            tall = max((metrics.tallest(run.words) for run in runs), default=metrics.current)
            lines.append(Line(runs, tall, rule=-1.0 if (i == 0 and number and setting.rules) else None))
    return lines, fits


def _column_align(setting: Setting, column: int) -> str:
    """A table column's alignment: from ``columns:``, else left."""
    return setting.columns[column][0] if column < len(setting.columns) else "left"


def placed(lines: Sequence[Line], metrics: Metrics, leading: float) -> tuple[tuple[Line, ...], float]:
    """``lines`` with their baselines' drops from the block's top (and rules' places), and the block's height."""
    out: list[Line] = []
    drop = 0.0
    previous = 0.0
    for index, line in enumerate(lines):
        rule = None
        advance = 0.0
        if index == 0:
            drop = fonts.ascent(metrics.base, line.size)
        else:
            pad = metrics.current * RULE_PAD if line.rule is not None else 0.0
            rule = drop + fonts.descent(metrics.base, previous) + pad / 2 if line.rule is not None else None
            advance = max(line.size, previous) * leading + pad
            drop += advance
        out.append(Line(line.runs, line.size, drop, advance, rule))
        previous = line.size
    height = drop + fonts.descent(metrics.base, previous) if lines else 0.0
    return tuple(out), height
