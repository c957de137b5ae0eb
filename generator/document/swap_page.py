"""The swap list that opens a reprint PDF: what to print, what to swap in the box, what to take out.

Three sections — pieces to swap (with which side changed), pieces new to the
game, pieces no longer in it — as a table of count, piece, component and
change, continued on further pages when long.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from punchboard.generator.draw import fonts
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.impose.grid import printable_margin
from punchboard.generator.impose.style import SheetStyle
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm
from punchboard.plumbing.words import ENGLISH, N_, Words, words
from punchboard.spec.model import Paper

from .pages import FooterBand, Page

TITLE_SIZE = 20
BODY_SIZE = 10
ROW = 14.0  # pt between table rows
INK = "#222222"
MUTED = "#666666"
RULE = "#bbbbbb"
BAND = "#f1ede4"

SECTIONS = (
    ("swap", N_("Swap: print these, cut them out, and put them in place of the old ones")),
    ("added", N_("Add: new pieces")),
    ("removed", N_("Take out: pieces no longer in the game")),
)
SECTION_OF = {"face": "swap", "back": "swap", "both": "swap", "added": "added", "removed": "removed"}


@dataclass(frozen=True)
class SwapLine:
    what: str  # face | back | both | added | removed
    count: int
    piece: str
    component: str
    note: str  # "face", "back", "face and back", …


def _rows(lines: Sequence[SwapLine], w: Words) -> list[tuple[str, SwapLine | None]]:
    """Section headings (("heading", None)) and lines, in section order."""
    rows: list[tuple[str, SwapLine | None]] = []
    for key, title in SECTIONS:
        mine = [line for line in lines if SECTION_OF[line.what] == key]
        if not mine:
            continue
        total = sum(line.count for line in mine)
        rows.append((f"{w.text(title)} ({w.count(total)})", None))
        rows += [("", line) for line in mine]
    return rows


def swap_pages(title: str, heading: str, lines: Sequence[SwapLine], stamp_note: str, paper: Paper, style: SheetStyle,
               lang: str = ENGLISH) -> list[Page]:
    """The swap list on as many pages as it needs (always at least one), its own words in ``lang``
    (``heading``, ``stamp_note`` and each line's note come written in it)."""
    w = words(lang)
    margin = paper.margin + mm(6)
    edge = printable_margin(paper, style)  # the footer's scale bars clear the unprintable margin
    footer = FooterBand(Rect(edge, edge, paper.width - 2 * edge, style.footer_height))
    top = paper.height - margin
    first_table_top = top - TITLE_SIZE - 58
    bottom = edge + style.footer_height + mm(4)
    rows = _rows(lines, w)
    pages: list[list[tuple[str, SwapLine | None]]] = []
    chunk: list[tuple[str, SwapLine | None]] = []
    y = first_table_top
    for row in rows:
        needed = ROW * (3.2 if row[1] is None else 1)
        if y - needed < bottom:
            pages.append(chunk)
            chunk, y = [], top - ROW * 3
        chunk.append(row)
        y -= needed
    pages.append(chunk)
    printed = sum(line.count for line in lines if line.what != "removed")
    if not lines:
        summary = w.text("Nothing changed since that print: there is nothing to reprint and nothing to swap.")
    else:
        taken = sum(line.count for line in lines if line.what == "removed")
        summary = w.text("{count} piece(s) to print on the following pages", count=w.count(printed)) + (
            w.text("; {count} to take out of the box.", count=w.count(taken)) if taken else ".")
    columns = (margin, margin + mm(16), margin + mm(90), margin + mm(140))

    def page(number: int, chunk: list[tuple[str, SwapLine | None]]) -> Page:
        def draw(canvas: Canvas) -> None:
            y = top
            if number == 0:
                canvas.setFillColor(INK)
                canvas.setFont(fonts.resolve("Vera-Bold"), TITLE_SIZE)
                canvas.drawString(margin, y - TITLE_SIZE, w.text("Reprint: {title}", title=title))
                canvas.setFont(fonts.resolve("Vera"), BODY_SIZE)
                canvas.setFillColor(MUTED)
                canvas.drawString(margin, y - TITLE_SIZE - 18, heading)
                canvas.setFillColor(INK)
                canvas.setFont(fonts.resolve("Vera-Bold" if not lines else "Vera"), BODY_SIZE + 1)
                canvas.drawString(margin, y - TITLE_SIZE - 36, summary)
                if stamp_note:
                    canvas.setFont(fonts.resolve("Vera"), BODY_SIZE)
                    canvas.drawString(margin, y - TITLE_SIZE - 50, stamp_note)
                y = first_table_top
            else:
                canvas.setFont(fonts.resolve("Vera-Italic"), BODY_SIZE)
                canvas.setFillColor(MUTED)
                canvas.drawString(margin, y - BODY_SIZE, w.text("Reprint: {title} — swap list, continued", title=title))
                _headers(canvas, y - ROW * 2 + 1, columns, w)
                y = top - ROW * 3
            for label, line in chunk:
                if line is None:
                    y -= ROW * 1.2
                    _section(canvas, label, margin, y, paper.width - 2 * margin, columns, w)
                    y -= ROW * 2
                    continue
                _line(canvas, line, y, columns, w)
                y -= ROW

        return Page(paper.width, paper.height, draw, w.text("swap list"), w.text("reprint: swap these pieces"), footer,
                    role="other", meta={"lang": w.lang})

    return [page(n, c) for n, c in enumerate(pages)]


def _section(canvas: Canvas, title: str, x: float, y: float, width: float, columns: Sequence[float], w: Words) -> None:
    canvas.setFillColor(BAND)
    canvas.rect(x - 3, y - 4, width + 6, ROW + 2, stroke=0, fill=1)
    canvas.setFillColor(INK)
    canvas.setFont(fonts.resolve("Vera-Bold"), BODY_SIZE + 1)
    canvas.drawString(x, y, title)
    _headers(canvas, y - ROW + 2, columns, w)


def _headers(canvas: Canvas, y: float, columns: Sequence[float], w: Words) -> None:
    canvas.setFont(fonts.resolve("Vera-Italic"), BODY_SIZE - 1)
    canvas.setFillColor(MUTED)
    headings = (w.text("count"), w.text("piece"), w.text("component"), w.text("what changed"))
    for column, heading in zip(columns, headings, strict=True):
        canvas.drawString(column, y, heading)


def _line(canvas: Canvas, line: SwapLine, y: float, columns: Sequence[float], w: Words) -> None:
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.3)
    canvas.line(columns[0], y - 4, columns[-1] + mm(40), y - 4)
    canvas.setFillColor(INK)
    canvas.setFont(fonts.resolve("Vera-Bold"), BODY_SIZE)
    canvas.drawRightString(columns[0] + mm(8), y, f"{w.count(line.count)} ×")
    canvas.drawString(columns[1], y, _clip(line.piece, "Vera-Bold", columns[2] - columns[1] - 6))
    canvas.setFont(fonts.resolve("Vera"), BODY_SIZE)
    canvas.drawString(columns[2], y, _clip(line.component, "Vera", columns[3] - columns[2] - 6))
    canvas.drawString(columns[3], y, line.note)


def _clip(content: str, font: str, room: float) -> str:
    if fonts.width(content, font, BODY_SIZE) <= room:
        return content
    while content and fonts.width(content + "…", font, BODY_SIZE) > room:
        content = content[:-1]
    return content + "…"
