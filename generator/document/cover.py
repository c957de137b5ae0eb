"""The cover page of the print-and-play PDF: contents, bought supplies, printing instructions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from punchboard.generator.draw import fonts, text
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.impose.bleed_notes import bleed_notes
from punchboard.generator.impose.grid import printable_margin
from punchboard.generator.impose.style import SheetStyle
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm
from punchboard.plumbing.words import ENGLISH, N_, NP_, Words, words
from punchboard.spec.model import Game, Paper

from .pages import FooterBand, Page


@dataclass(frozen=True)
class ContentsLine:
    name: str
    kind: str
    pieces: int
    pages: int
    file: str
    where: tuple[int, int] | None = None  # its first and last page in the combined PDF


BACK_ADVICE = {
    "none": N_("Backs are not printed (--backs none)."),
    "duplex-long": N_("Print duplex, **flip on the long edge**. Each backs page follows its fronts page."),
    "duplex-short": N_("Print duplex, **flip on the short edge**. Each backs page follows its fronts page."),
    "gutterfold": N_("Print single-sided. Fronts and backs share a page: fold on the dashed marks, glue, then cut."),
    "separate": N_("All backs come after the fronts of each component: print the fronts, turn the stack over "
                   "(long edge) and print the backs."),
}

# a piece kind's noun, singular and plural, as the cover counts it ("12 cards")
KIND_COUNTS = {
    "deck": NP_("{count} card", "{count} cards"),
    "banknotes": NP_("{count} banknote", "{count} banknotes"),
    "tokens": NP_("{count} token", "{count} tokens"),
    "board": NP_("{count} board", "{count} boards"),
    "tiles": NP_("{count} tile", "{count} tiles"),
    "sheet": NP_("{count} sheet", "{count} sheets"),
}
OTHER_PIECES = NP_("{count} piece", "{count} pieces")


Sections = tuple[tuple[int, int] | None, tuple[int, int] | None]


def _pages(span: tuple[int, int], w: Words) -> str:
    if span[0] == span[1]:
        return w.text("page {first}", first=span[0])
    return w.text("pages {first}–{last}", first=span[0], last=span[1])


def instructions(options: BuildOptions, paper: Paper, sections: Sections = (None, None), lang: str = ENGLISH) -> list[str]:
    """The cover's printing instructions for these options, in ``lang``."""
    w = words(lang)
    back_advice = w.text(BACK_ADVICE[options.backs]) if options.backs in BACK_ADVICE else ""
    double, single = sections
    if double is not None and single is not None:  # duplex, with one-sided parts (document/sections.py)
        if options.backs == "duplex-long":
            flip = w.text("Print **{pages} duplex, flip on the long edge**: each backs page follows its fronts page.",
                          pages=_pages(double, w))
        else:
            flip = w.text("Print **{pages} duplex, flip on the short edge**: each backs page follows its fronts page.",
                          pages=_pages(double, w))
        back_advice = (
            flip + " "
            + w.text("Print **{pages} single-sided**: one-sided parts, nothing goes on their reverse "
                     "(printed back to back, cutting one would cut the other).", pages=_pages(single, w))
        )
    lines = [
        w.text("Paper: **{paper}**. Print at **100 % / actual size**, never *fit to page*; "
               "measure a scale bar in the footer to check.", paper=paper.name),
        back_advice,
        w.text("Cut on the solid crop marks with a ruler; tokens along their outlines. Dashed marks are folds."),
    ]
    if options.backs in ("duplex-long", "duplex-short"):
        lines.append(w.text(
            "Duplex printers misregister by 1–4 mm: print the calibration sheet (next pages) first and pass "
            "the offset you read to *--duplex-offset X,Y*."
        ))
    if options.print_shop:
        lines = [w.text("Print-shop files: one piece per page at trim + bleed, fronts and backs alternating; "
                        "TrimBox and BleedBox are set, no marks.")]
    return lines


def contents_line(line: ContentsLine, w: Words) -> str:
    """One line of the cover's contents: "Cards: 12 cards — 2 pages: 5–6 (cards.pdf)"."""
    singular, many = KIND_COUNTS.get(line.kind, OTHER_PIECES)
    pages = w.plural(line.pages, "{count} page", "{count} pages")
    if line.where is not None and line.pages:  # where in the combined PDF: "2 pages: 5–6"
        first, last = line.where
        pages += f": {first}" if first == last else f": {first}–{last}"
    return f"{line.name}: {w.plural(line.pieces, singular, many)} — {pages} ({line.file})"


def cover_page(game: Game, paper: Paper, style: SheetStyle, options: BuildOptions, contents: Sequence[ContentsLine],
               sections: Sections = (None, None), lang: str | None = None) -> Page:
    """The cover: title band, contents, bought supplies and printing instructions, in ``lang``
    (default: the game's language, else English)."""
    lang = lang or game.language or ENGLISH
    w = words(lang)
    m = paper.margin + mm(8)
    accent = game.palette.get("brass", game.palette.get("ink", "#333333"))
    ink = game.palette.get("soot", "#222222")

    def paragraph(canvas: Canvas, content: str, y: float, size: float = 10.5, font: str = "Vera", indent: float = 0.0) -> float:
        box = Rect(m + indent, 0, paper.width - 2 * m - indent, y)
        fitted = text.fit(content, font, size, size, Rect(box.x, 0, box.width, 10_000))
        height = text.block_height(len(fitted.lines), font, fitted.size, 1.2)
        text.draw(canvas, fitted, font, Rect(box.x, y - height, box.width, height), ink)
        return y - height - size * 0.5

    def heading(canvas: Canvas, content: str, y: float) -> float:
        canvas.setFillColor(accent)
        canvas.rect(m, y - 16, paper.width - 2 * m, 1.2, stroke=0, fill=1)
        return paragraph(canvas, f"**{content}**", y - 2, 13)

    edge = printable_margin(paper, style)  # unprintable margin: the band and the footer's scale bars clear it

    def draw(canvas: Canvas) -> None:
        canvas.setFillColor(accent)  # the title band keeps inside the printable area, like everything else
        canvas.rect(edge, paper.height - mm(48), paper.width - 2 * edge, mm(48) - edge, stroke=0, fill=1)
        canvas.setFillColor("#ffffff")
        title_font = fonts.resolve("Vera-Bold")
        room = paper.width - 2 * m
        canvas.setFont(title_font, min(30.0, 30.0 * room / max(1.0, fonts.width(game.title, title_font, 30.0))))
        canvas.drawString(m, paper.height - mm(26), game.title)
        canvas.setFont(fonts.resolve("Vera"), 11)
        players = w.text("{min}–{max} players · print-and-play", min=game.players_min, max=game.players_max)
        if game.designers:
            players = w.text("by {designers}", designers=", ".join(game.designers)) + " · " + players
        canvas.drawString(m, paper.height - mm(36), players)
        y = paper.height - mm(60)
        y = heading(canvas, w.text("Contents"), y)
        for line in contents:
            y = paragraph(canvas, contents_line(line, w), y, 10, indent=mm(3))
        y = heading(canvas, w.text("Bought supplies"), y - 6)
        supplies = game.supplies
        if not supplies:
            y = paragraph(canvas, w.text("None."), y, 10, indent=mm(3))
        for item in supplies:
            note = f" — *{item.notes}*" if item.notes else ""
            y = paragraph(canvas, f"{w.count(item.count)} × {item.name}{note}", y, 10, indent=mm(3))
        y = heading(canvas, w.text("Printing"), y - 6)
        for instruction in instructions(options, paper, sections, w.lang):
            if instruction:
                y = paragraph(canvas, f"• {instruction}", y, 10, indent=mm(3))
        for note in bleed_notes(game, options).values():  # what the auto bleed policy gave up, once
            y = paragraph(canvas, "• " + w.text("Bleed: {note}", note=note), y, 9, indent=mm(3))

    footer = FooterBand(Rect(edge, edge, paper.width - 2 * edge, style.footer_height))
    return Page(paper.width, paper.height, draw, w.text("contents"), w.text("cover"), footer, role="cover", meta={"lang": w.lang})


def blank_page(width: float, height: float, lang: str = ENGLISH) -> Page:
    """A blank reverse, saying why it is blank (in ``lang``)."""
    message = words(lang).text("This page is intentionally blank (keeps fronts and backs paired).")

    def draw(canvas: Canvas) -> None:
        canvas.setFont(fonts.resolve("Vera-Italic"), 8)
        canvas.setFillColor("#999999")
        canvas.drawCentredString(width / 2, height / 2, message)

    return Page(width, height, draw, role="blank")
