"""Back modes for any grid of rectangular pieces: none, duplex (long/short edge),
gutterfold, separate, and print-shop pages.

A kind turns its pieces into :class:`Item` objects (how to paint the front and,
if any, the back into a :class:`~punchboard.generator.draw.side.SideFrame`) and a
:class:`~punchboard.generator.impose.grid.Sheet`; :func:`paginate` returns the pages.

Duplex geometry (PRINTING.md): with a long-edge flip the back of the piece at
(row, col) lands at (row, cols−1−col) — every back frame is the front frame
mirrored left-right about the page centre; with a short-edge flip it is
mirrored top-bottom, and the sheet turned over top to bottom puts each back's
top where its front's bottom was: the short-edge back page is the long-edge one
turned 180° about the page centre (drawn so), and a cut piece shows the same
back the same way up whichever edge the sheet was flipped on (tests/generator/
impose/test_duplex_short.py). Back pages are then shifted by the duplex offset.
A piece turned 90° in its slot (top to the left) has its back turned 270° (top to
the right), so a turned card's back stands to its front as an upright card's does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from punchboard.generator.document.page_content import PageContent, SlotIdentity
from punchboard.generator.document.pages import Page
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import SideFrame
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental.identity import ByIdentity
from punchboard.plumbing.units import mm

from .grid import Sheet
from .marks import draw_crop_marks, draw_fold_marks
from .style import SheetStyle

Painter = Callable[[Canvas, SideFrame], None]
SheetDecoration = Callable[[Canvas, Sheet, Sequence[int]], None]  # cut lines etc., given used slot indexes


class _Blank:
    """The painter of a piece without a face: nothing on its slot."""

    def __call__(self, canvas: Canvas, frame: SideFrame) -> None:
        pass

    def identity(self, frame: SideFrame) -> SlotIdentity:
        return SlotIdentity("blank", None)


BLANK = _Blank()


_SHEET_TEXTS: ByIdentity[object, str] = ByIdentity(limit=64)  # a deck's full sheets are one object


def _content(slots: Sequence[tuple[Painter, SideFrame]], kind: str, sheet: object = None,
             same_page_backs: bool = False) -> Callable[[], PageContent | None]:
    """What a sheet page shows, for a kept page (generator/document/kept_pages.py): its kind, its sheet (cut
    lines and marks), and what each painter paints into its frame, in drawing order; None when a painter cannot
    say (one that is not a side of a piece)."""

    def content() -> PageContent | None:
        parts: list[object] = [kind, _SHEET_TEXTS.get(sheet, repr), same_page_backs]
        forms = []
        for painter, frame in slots:
            identity = getattr(painter, "identity", None)
            found = identity(frame) if identity is not None else None
            if found is None:
                return None
            parts.append(found.parts)
            forms.append(found.form)
        return PageContent(tuple(parts), tuple(forms))

    return content


@dataclass(frozen=True)
class Item:
    """One piece: how to paint its front and its back (None: no back, an empty slot)."""

    front: Painter
    back: Painter | None
    label: str = ""


def mirror_rect(rect: Rect, width: float, height: float, flip_x: bool, flip_y: bool) -> Rect:
    x = width - rect.right if flip_x else rect.x
    y = height - rect.top if flip_y else rect.y
    return Rect(x, y, rect.width, rect.height)


def back_frame(frame: SideFrame, sheet: Sheet, mode: str, offset: tuple[float, float]) -> SideFrame:
    """Where the back of the piece in ``frame`` goes on the following page."""
    flip_x, flip_y = (True, False) if mode in ("duplex-long", "separate") else (False, True)
    dx, dy = mm(offset[0]), mm(offset[1])
    trim = mirror_rect(frame.trim, sheet.width, sheet.height, flip_x, flip_y).moved(dx, dy)
    clip = frame.clip
    if isinstance(clip, Rect):
        clip = mirror_rect(clip, sheet.width, sheet.height, flip_x, flip_y).moved(dx, dy)
    # A turned front (top to the left) has its back turned the other way (top to the right): mirrored
    # by the flip, the back keeps the same relation to its front as an upright piece's back in this mode.
    return replace(frame, trim=trim, clip=clip, mirror_x=flip_x, mirror_y=flip_y, rotation=(-frame.rotation) % 360)


FLIP_NAMES = {"duplex-long": "long-edge flip", "duplex-short": "short-edge flip", "separate": "long-edge flip"}


def paginate(
    items: Sequence[Item],
    sheet: Sheet,
    mode: str,
    style: SheetStyle,
    component: str,
    offset: tuple[float, float] = (0.0, 0.0),
    decorate: SheetDecoration | None = None,
    front_legend: str = "fronts: cut on the solid crop marks",
) -> list[Page]:
    """Pages for ``items`` on ``sheet`` in back ``mode`` (none, duplex-long, duplex-short,
    gutterfold, separate). Back pages only appear when some item has a back."""
    per_page = sheet.per_page
    chunks = [list(items[i : i + per_page]) for i in range(0, len(items), per_page)]
    any_back = any(item.back is not None for item in items)
    if mode == "gutterfold" and sheet.back_slots is not None:
        turn = "backs are upside down" if not sheet.turned else "cards lie turned, each back below its front"
        legend = f"gutterfold: fold on the dashed marks ({turn}), glue, then cut on the solid marks"
        return [_front_page(chunk, sheet, style, component, legend, decorate, same_page_backs=True) for chunk in chunks]
    fronts = [_front_page(chunk, sheet, style, component, front_legend, decorate) for chunk in chunks]
    if mode == "none" or not any_back:
        return fronts
    flip = FLIP_NAMES.get(mode, "long-edge flip")
    shift = f"; backs shifted {offset[0]:+g},{offset[1]:+g} mm" if offset != (0.0, 0.0) else ""
    backs = []
    frames: dict[int, list[SideFrame]] = {}  # the back frames of a sheet holding so many pieces (one set a deck)
    for number, chunk in enumerate(chunks, start=1):
        what = f"backs of page {number} of this component" if mode == "separate" else "backs"
        legend = f"{what}: print on the reverse, {flip}{shift}"
        used = len(chunk)
        if used not in frames:
            frames[used] = [back_frame(frame, sheet, mode, offset) for frame in sheet.frames(used)]
            if mode == "duplex-short":  # drawn as the long-edge back page, turned 180° (the module's docstring)
                frames[-used] = [back_frame(frame, sheet, "duplex-long", (0.0, 0.0)) for frame in sheet.frames(used)]
        turned = frames[-used] if mode == "duplex-short" else None
        backs.append(_back_page(chunk, sheet, style, component, legend, mode, frames[used], turned, offset))
    if mode == "separate":
        return fronts + backs
    pages = []
    for front, back in zip(fronts, backs, strict=True):
        pages += [front, back]
    return pages


def _front_page(
    chunk: list[Item],
    sheet: Sheet,
    style: SheetStyle,
    component: str,
    legend: str,
    decorate: SheetDecoration | None,
    same_page_backs: bool = False,
) -> Page:
    frames = sheet.frames(len(chunk))
    marked = sheet.used(len(chunk))  # crop marks for the occupied slots only

    def draw(canvas: Canvas) -> None:
        for item, frame in zip(chunk, frames, strict=True):
            item.front(canvas, frame)
        if same_page_backs and sheet.back_slots:
            for item, frame in zip(chunk, sheet.back_slots, strict=False):
                if item.back is not None:
                    item.back(canvas, frame)
        draw_crop_marks(canvas, marked, style)
        draw_fold_marks(canvas, marked, style)
        if decorate:
            decorate(canvas, sheet, range(len(chunk)))

    slots: list[tuple[Painter, SideFrame]] = [(item.front, frame) for item, frame in zip(chunk, frames, strict=True)]
    if same_page_backs and sheet.back_slots:
        slots += [(item.back, frame) for item, frame in zip(chunk, sheet.back_slots, strict=False) if item.back is not None]
    content = _content(slots, "front", marked, same_page_backs) if decorate is None else None
    return Page(sheet.width, sheet.height, draw, component, legend, sheet.footer, role="front",
                meta={"slots": [f.trim for f in frames]}, content=content)


def _back_page(
    chunk: list[Item], sheet: Sheet, style: SheetStyle, component: str, legend: str, mode: str, frames: list[SideFrame],
    turned: list[SideFrame] | None = None, offset: tuple[float, float] = (0.0, 0.0),
) -> Page:
    """The backs of ``chunk`` where ``frames`` put them; with ``turned`` (a short-edge flip) each is drawn into
    its long-edge frame on the page turned 180° about its centre and shifted by the duplex ``offset``."""
    flip_x, flip_y = (True, False) if mode in ("duplex-long", "separate") else (False, True)
    painted = turned if turned is not None else frames

    def draw(canvas: Canvas) -> None:
        if turned is not None:
            canvas.saveState()
            canvas.translate(sheet.width + mm(offset[0]), sheet.height + mm(offset[1]))
            canvas.rotate(180)
        for item, frame in zip(chunk, painted, strict=True):
            if item.back is not None:
                item.back(canvas, frame)
        if turned is not None:
            canvas.restoreState()

    footer = sheet.footer.mirrored(sheet.width, sheet.height, flip_x, flip_y)
    slots = [(item.back, frame) for item, frame in zip(chunk, painted, strict=True) if item.back is not None]
    return Page(sheet.width, sheet.height, draw, component, legend, footer, role="back",
                meta={"slots": [f.trim for f in frames]},
                content=_content(slots, "back turned 180" if turned is not None else "back"))


def print_shop_pages(
    items: Sequence[Item], width: float, height: float, bleed: float, component: str,
    die: Callable[[Canvas, SideFrame], None] | None = None,
) -> list[Page]:
    """One piece per page at trim + bleed, fronts and backs alternating, TrimBox/BleedBox set, no marks;
    ``die`` draws a shaped piece's cut path (a CutContour die line) over its art."""
    page_w, page_h = width + 2 * bleed, height + 2 * bleed
    trim = Rect(bleed, bleed, width, height)
    page_box = Rect(0, 0, page_w, page_h)
    frame = SideFrame(trim, bleed, bleed, page_box)
    any_back = any(item.back is not None for item in items)
    pages: list[Page] = []

    def page_for(painter: Painter | None, role: str) -> Page:
        seen = replace(frame, mirror_x=role == "back")  # a shaped piece's back is its outline turned over

        def draw(canvas: Canvas) -> None:
            if painter is not None:
                painter(canvas, seen)

        def die_line(canvas: Canvas) -> None:
            if die is not None:
                die(canvas, seen)

        has_die = die is not None and (painter is not None or role == "front")
        return Page(page_w, page_h, draw, component, "", None, trim_box=trim, bleed_box=page_box, role=role,
                    overlay=die_line if has_die else None)

    for item in items:
        pages.append(page_for(item.front, "front"))
        if any_back:
            pages.append(page_for(item.back, "back"))
    return pages
