"""Pages and PDF documents: exact page size, footer, scale bar, viewer preferences, determinism.

Every printed kind produces :class:`Page` objects; :func:`render` turns a list
of them into PDF bytes. The same pages can be rendered into a component's own
PDF and into the combined print-and-play PDF.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from punchboard.generator.draw import fonts, packed_forms
from punchboard.generator.draw.colours import resolved
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from punchboard.generator.impose.style import SheetStyle
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.atomicio import writing
from punchboard.plumbing.units import to_mm
from punchboard.plumbing.words import words

from . import pdf_encoding
from .page_content import PageContent, PageKeeper, SpliceFailed

Draw = Callable[[Canvas], None]


@dataclass(frozen=True)
class FooterBand:
    """The strip that carries footer text and scale bars; ``vertical`` bands read bottom to top."""

    rect: Rect
    vertical: bool = False

    def mirrored(self, page_width: float, page_height: float, flip_x: bool, flip_y: bool) -> FooterBand:
        r = self.rect
        x = page_width - r.right if flip_x else r.x
        y = page_height - r.top if flip_y else r.y
        return FooterBand(Rect(x, y, r.width, r.height), self.vertical)


@dataclass
class Page:
    """One page: its size, what to draw, and what the footer says.

    ``footer`` None means no footer and no scale bar (print-shop pages, cover
    uses its own). ``trim_box``/``bleed_box`` are written as PDF boxes when set.
    """

    width: float
    height: float
    draw: Draw
    component: str = ""
    legend: str = ""
    footer: FooterBand | None = None
    trim_box: Rect | None = None
    bleed_box: Rect | None = None
    role: str = "front"  # front | back | cover | calibration | other
    meta: dict[str, Any] = field(default_factory=dict)
    overlay: Draw | None = None  # drawn over the page for a print shop only: a CutContour die line
    content: Callable[[], PageContent | None] | None = None  # what it shows, for a kept page (None: drawn each time)


DUPLEX_PREFERENCE = {"duplex-long": "DuplexFlipLongEdge", "duplex-short": "DuplexFlipShortEdge"}


def duplex_preference(backs: str) -> str:
    """The PDF /Duplex viewer preference for a back mode: duplex modes ask for their flip, the rest for one side."""
    return DUPLEX_PREFERENCE.get(backs, "Simplex")


def render(pages: Sequence[Page], title: str, style: SheetStyle, subject: str = "", duplex: str | None = None) -> bytes:
    """PDF bytes for ``pages``; identical input gives identical bytes (invariant mode).
    ``duplex`` (Simplex, DuplexFlipLongEdge, DuplexFlipShortEdge) asks the print dialog for it."""
    buffer = BytesIO()
    _write(buffer, pages, title, style, subject, duplex, pdf_encoding.PdfWriter())
    return buffer.getvalue()


def render_to(path: Path, pages: Sequence[Page], title: str, style: SheetStyle, subject: str = "",
              duplex: str | None = None, kept: PageKeeper | None = None) -> None:
    """The same bytes as :func:`render`, streamed to ``path`` (atomically) object by object as they
    are formatted, so a large document is never held whole in memory. With ``kept``, the pages an earlier
    build wrote to ``path`` that would be written the same are copied from it, not drawn (:mod:`.kept_pages`)."""
    def write() -> None:
        with writing(path) as handle:
            _write(BytesIO(), pages, title, style, subject, duplex, pdf_encoding.PdfWriter(handle), kept)

    try:
        write()
    except SpliceFailed:  # raised only with ``kept``
        assert kept is not None
        kept.start_over()  # this document turned out unlike the last one after all: every page is drawn
        write()
    if kept is not None:
        kept.written()


def _canvas(buffer: BytesIO, pages: Sequence[Page], writer: pdf_encoding.PdfWriter | None) -> PunchCanvas:
    """A canvas for ``pages``, written by ``writer`` (None: one that is only drawn on)."""
    size = (pages[0].width, pages[0].height) if pages else (612, 792)
    flate = writer.flate if writer is not None else pdf_encoding.stream_filter()
    return PunchCanvas(buffer, pagesize=size, flate=flate, writer=writer)


def draw_apart(pages: Sequence[Page], first: int, stop: int, title: str, style: SheetStyle) -> None:
    """Draw pages ``first`` to ``stop - 1`` (counted from 0) of ``pages`` as :func:`render` draws them, on a
    canvas of their own that is never written: what is kept of their sides is all that is wanted
    (generator/warm_sides.py)."""
    canvas = _canvas(BytesIO(), pages, None)
    try:
        for index in range(first, stop):
            _draw_page(canvas, pages[index], index + 1, len(pages), title, style)
    finally:
        packed_forms.close(canvas)


def _write(buffer: BytesIO, pages: Sequence[Page], title: str, style: SheetStyle, subject: str, duplex: str | None,
           writer: pdf_encoding.PdfWriter, kept: PageKeeper | None = None) -> None:
    canvas = _canvas(buffer, pages, writer)
    canvas.setTitle(title)
    canvas.setAuthor("punchboard")
    canvas.setCreator("punchboard")
    canvas.setProducer("punchboard")
    canvas.setSubject(subject)
    canvas.setViewerPreference("PrintScaling", "None")
    if duplex:
        canvas.setViewerPreference("Duplex", duplex)
    try:
        if kept is not None:
            kept.begin(canvas, (title, subject, duplex, repr(style), len(pages)))
        for number, page in enumerate(pages, start=1):
            if kept is not None and kept.copied(canvas, page, number):
                continue
            _draw_page(canvas, page, number, len(pages), title, style)
            if kept is not None:
                kept.drawn(canvas, number)
        canvas.save()
    finally:
        packed_forms.close(canvas)
        if kept is not None:
            kept.close()  # the old file is let go before the new one takes its place


def _draw_page(canvas: Canvas, page: Page, number: int, total: int, title: str, style: SheetStyle) -> None:
    canvas.setPageSize((page.width, page.height))
    if page.trim_box:
        canvas.setTrimBox(_box(page.trim_box))
    if page.bleed_box:
        canvas.setBleedBox(_box(page.bleed_box))
    canvas.saveState()
    page.draw(canvas)
    canvas.restoreState()
    if page.overlay is not None:
        canvas.saveState()
        page.overlay(canvas)
        canvas.restoreState()
    if page.footer is not None:
        heading = words(page.meta.get("lang")).text("{title} · {component} · page {number}/{total}", title=title,
                                                     component=page.component, number=number, total=total)
        draw_footer(canvas, page.footer, heading, page.legend, style)
    canvas.showPage()
    if page.trim_box:
        canvas.setTrimBox(None)
    if page.bleed_box:
        canvas.setBleedBox(None)


def _box(rect: Rect) -> tuple[float, float, float, float]:
    return (round(rect.x, 4), round(rect.y, 4), round(rect.right, 4), round(rect.top, 4))


def _fit_size(text: str, font: str, size: float, length: float) -> float:
    natural = fonts.width(text, font, size)
    return size if natural <= length else max(3.5, size * length / natural)


def draw_footer(canvas: Canvas, band: FooterBand, heading: str, legend: str, style: SheetStyle) -> None:
    """Footer text (game · component · page n/N, and the sheet legend) and the scale bars."""
    canvas.saveState()
    r = band.rect
    if band.vertical:
        canvas.translate(r.right, r.y)
        canvas.rotate(90)
        length, thickness = r.height, r.width
    else:
        canvas.translate(r.x, r.y)
        length, thickness = r.width, r.height
    bars_length = draw_scale_bars(canvas, length, thickness, style)
    font = fonts.resolve(style.footer_font)
    room = max(20.0, length - bars_length - 8)
    line = thickness / 2
    canvas.setFillColor(resolved(style.footer_color))
    for y, content in ((line + 0.6, heading), (None, legend)):
        size = _fit_size(content, font, style.footer_size, room)
        if y is None:  # the lowest line: its descenders stay inside the band
            y = fonts.descent(font, size) + 0.2
        canvas.setFont(font, size)
        canvas.drawString(0, y, content)
    canvas.restoreState()


def draw_scale_bars(canvas: Canvas, length: float, thickness: float, style: SheetStyle) -> float:
    """Scale bars of known length, right-aligned in a strip; returns the strip length they use."""
    font = fonts.resolve(style.footer_font)
    size = style.footer_size * 0.9
    label_room = max((fonts.width(f"{label} (100 %)", font, size) for _, label in style.scale_lengths), default=0) + 3
    longest = max((bar for bar, _ in style.scale_lengths), default=0)
    used = longest + label_room
    x0 = length - used
    count = max(1, len(style.scale_lengths))
    row = thickness / count
    canvas.setStrokeColor(resolved(style.scale_color))
    canvas.setFillColor(resolved(style.scale_color))
    canvas.setLineWidth(style.scale_stroke)
    for index, (bar, label) in enumerate(style.scale_lengths):
        y = thickness - row * (index + 0.5)
        tick = min(row * 0.35, 4)
        canvas.line(x0, y, x0 + bar, y)
        canvas.line(x0, y - tick, x0, y + tick)
        canvas.line(x0 + bar, y - tick, x0 + bar, y + tick)
        canvas.setFont(font, size)
        canvas.drawString(x0 + bar + 2, y - size * 0.35, f"{label} (100 %)")
    return used


def describe_mm(points: float) -> str:
    return f"{to_mm(points):.1f} mm"
