"""Rich text read into paragraphs of styled words.

Inline: ``**bold**``, ``*italic*``, ``:icon:``, and the span tags of :mod:`punchboard.spec.markup`
(``[color=…]``, ``[size=…]``, ``[font=…]``, ``[u]``, ``[s]``; ``[[`` is a literal ``[``). Per line: a line
starting ``- `` or ``• `` is a bullet item, one starting ``1. `` or ``1) `` a numbered item (both hang their
wrapped lines at the text's start), and a line holding a tab or `` | `` a table row, its cells split there.
The check at load reports bad tags; here an unknown tag is read as text and a stray closing tag is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from punchboard.spec.markup import TAGS, span_size

from .art import ICONS

Icons = Mapping[str, Path]  # the game's own icons: name → SVG/PNG file
_TOKEN = re.compile(r"\[\[|\[(/?)([a-z]+)(?:=([^\]\n]*))?\]|\*\*|\*|:([a-z_][a-z0-9_]*):|[ ]+|[^*:\[ ]+|[:\[]")
_ITEM = re.compile(r"[ ]*(?:([-•])|(\d{1,3}[.)]))[ ]+(?=\S)")
_CELL = re.compile(r"\t| \| ")
BULLET = "•"


@dataclass(frozen=True, eq=False)
class Style:
    """How a run of text is set; None keeps the element's own colour, size or font. Compared and hashed by
    identity: a text's reader hands out one object per change of style, so looking one up is cheap."""

    bold: bool = False
    italic: bool = False
    color: str | None = None
    size: float | None = None  # points, before shrinking to fit
    font: str | None = None
    underline: bool = False
    strike: bool = False


PLAIN = Style()


@dataclass(frozen=True)
class Fragment:
    """A run of one style within a word: its text, or an inline icon."""

    text: str
    style: Style = PLAIN
    icon: str | None = None


Word = tuple[Fragment, ...]


@dataclass(frozen=True)
class Paragraph:
    """One line of the source text: ``kind`` is text, bullet, number or row (a table row: ``cells``)."""

    kind: str
    words: tuple[Word, ...] = ()
    marker: Word = ()
    cells: tuple[tuple[Word, ...], ...] = ()


class _Reader:
    """The style state carried from one line and cell to the next while reading a text."""

    def __init__(self, own: Icons | None):
        """Read with the game's own icons ``own``; nothing bold, italic or open yet."""
        self.own = own
        self.bold = self.italic = False
        self.spans: list[tuple[str, str | None]] = []
        self.current: Style | None = PLAIN  # the style now, None once a switch or tag changed it

    def style(self) -> Style:
        """The style the open switches and tags give the text read next."""
        if self.current is None:
            self.current = self._style()
        return self.current

    def _style(self) -> Style:
        values: dict[str, str | None] = {}
        for name, value in self.spans:
            values[name] = value
        size = span_size(values["size"] or "") if "size" in values else None
        return Style(self.bold, self.italic, (values.get("color") or "").strip() or None, size,
                     (values.get("font") or "").strip() or None, "u" in values, "s" in values)

    def words(self, text: str) -> tuple[Word, ...]:
        """The words of ``text`` (one line or cell), reading its switches and tags into their styles."""
        words: list[Word] = []
        word: list[Fragment] = []
        for match in _TOKEN.finditer(text):
            token = match.group(0)
            if token.isspace():
                if word:
                    words.append(tuple(word))
                    word = []
            elif not self._control(match):
                word.append(self._fragment(match))
        if word:
            words.append(tuple(word))
        return tuple(words)

    def _control(self, match: re.Match[str]) -> bool:
        """Apply a bold/italic switch or a known span tag; False when the token is text."""
        token, closing, name = match.group(0), match.group(1), match.group(2)
        if token == "**":
            self.bold = not self.bold
        elif token == "*":
            self.italic = not self.italic
        elif name in TAGS:
            if not closing:
                self.spans.append((name, match.group(3)))
            elif self.spans and self.spans[-1][0] == name:
                self.spans.pop()
        else:
            return False
        self.current = None
        return True

    def _fragment(self, match: re.Match[str]) -> Fragment:
        """A text token, or an inline icon known to the game, in the current style."""
        token, icon = match.group(0), match.group(4)
        if icon and (icon in ICONS or (self.own and icon in self.own)):
            return Fragment("", self.style(), icon=icon)
        return Fragment("[" if token == "[[" else token, self.style())


def parse(text: str, own: Icons | None = None, bullet: str = BULLET) -> tuple[Paragraph, ...]:
    """The paragraphs of ``text``: one per source line; ``bullet`` marks bullet items."""
    reader = _Reader(own)
    paragraphs: list[Paragraph] = []
    for line in text.split("\n"):
        item = _ITEM.match(line)
        if _CELL.search(line):
            cells = tuple(reader.words(cell) for cell in _CELL.split(line))
            paragraphs.append(Paragraph("row", cells=cells))
        elif item:
            style = reader.style()
            marker = (Fragment(bullet if item.group(1) else item.group(2), style),)
            paragraphs.append(Paragraph("bullet" if item.group(1) else "number", reader.words(line[item.end():]), marker))
        else:
            paragraphs.append(Paragraph("text", reader.words(line.replace("\t", " "))))
    return tuple(paragraphs)


def with_text(fragment: Fragment, text: str) -> Fragment:
    """``fragment`` showing ``text`` in its own style."""
    return replace(fragment, text=text)
