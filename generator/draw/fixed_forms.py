"""A layout's fixed elements drawn once per document: every side of a deck places one form for its frame and art.

A card's background, plate, riveted frame and printed gear are the same on every
card drawn with its layout; drawn into each side's own form they were most of a
deck's bytes (a Steam Court gear card's form is about 26 KB of operators, its
text a few hundred bytes). An element is *fixed* when it draws the same whatever
the piece: a shape or a built-in icon none of whose properties but its ``when``
names a field. Consecutive fixed elements a side shows are a *run*; each distinct
run (the layout, which of its elements, the frame they are drawn in, the palette)
is drawn once per document as a form, which every side showing it places where
its elements would have been drawn. The page looks exactly the same: a form is
drawn in the graphics state it is placed in, and holds the very operators the
elements draw.

A run's operators must name no resource of the document (a transparency state, a
colour space, a font: reportlab names those in order of use), so a run is drawn
first on a scratch canvas and taken only when no operator names one. A run of
fewer than :data:`SMALL` bytes of operators is written into the side as it is:
placing a form costs about as much. Its form is named by a digest of what it is
drawn from (``PBRun…``), the same in every build and in every process, so a side
kept from an earlier build (draw/kept.py) and a page copied from the last file
(document/kept_pages.py) name the run they place, and each element's operators,
kept with the run, are still what the side's print fingerprint reads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental import sides
from punchboard.incremental.identity import ByIdentity, identity
from punchboard.spec.model import Element, Layout
from punchboard.spec.reads import names_no_field

from . import fingerprint, packed_forms
from .art import built_in
from .geometry import Rect
from .pdf_canvas import state_of

FORMAT = 1  # part of every run form's name
SMALL = 2048  # bytes of operators under which a run is written into each side: a form of its own would cost more
SHAPES = frozenset({"rect", "ellipse", "line", "polygon"})  # the elements drawn from their properties alone

Run = tuple[int, ...]  # the indices of a run's elements in its layout
DrawRun = Callable[[Canvas], list[list[str]]]  # draws a run's elements on a canvas: each one's operators


class RunDrawing:
    """A run as a document has it: the form placed for it (None: its operators are written into each side), and
    each element's operators (for the side's print fingerprint: drawn on a scratch canvas when first asked for,
    as a run whose form was copied with a kept page was never drawn in this process)."""

    __slots__ = ("form", "_codes", "_draw")

    def __init__(self, form: str | None, codes: tuple[tuple[str, ...], ...] | None, draw: DrawRun):
        self.form, self._codes, self._draw = form, codes, draw

    @property
    def codes(self) -> tuple[tuple[str, ...], ...]:
        if self._codes is None:
            self._codes = _drawn(self._draw)
        return self._codes


def _drawn(draw: DrawRun) -> tuple[tuple[str, ...], ...]:
    scratch = fingerprint.scratch()
    begin = len(scratch._code)
    codes = tuple(tuple(code) for code in draw(scratch))
    del scratch._code[begin:]
    return codes


def _fixed(element: Element) -> bool:
    if "opacity" in element.props or not names_no_field(element):
        return False
    if element.type in SHAPES:
        return True
    icon = element.props.get("icon")
    return element.type == "icon" and isinstance(icon, str) and built_in(icon.strip().lower())


_FIXED: ByIdentity[Layout, tuple[bool, ...]] = ByIdentity()


def fixed(layout: Layout, own_icons: Mapping[str, Any]) -> tuple[bool, ...]:
    """Which of ``layout``'s elements are fixed; an icon the game gives its own picture is not (``own_icons``)."""
    flags = _FIXED.get(layout, lambda laid: tuple(_fixed(element) for element in laid.elements))
    if not own_icons:
        return flags
    return tuple(flag and not (element.type == "icon" and str(element.props.get("icon", "")).strip().lower() in own_icons)
                 for flag, element in zip(flags, layout.elements, strict=True))


def runs(flags: Sequence[bool], shown: Sequence[bool]) -> tuple[Run, ...]:
    """The runs of a side: the fixed elements it shows, cut where it shows an element that is not fixed (an
    element it does not show draws nothing, and cuts nothing)."""
    found: list[Run] = []
    current: list[int] = []
    for index, (flag, show) in enumerate(zip(flags, shown, strict=True)):
        if not show:
            continue
        if flag:
            current.append(index)
        elif current:
            found.append(tuple(current))
            current = []
    if current:
        found.append(tuple(current))
    return tuple(found)


def _content(layout: Layout, run: Run) -> tuple[Any, ...]:
    """What a run's elements draw from besides the frame and palette: their kinds and properties, and the
    layout's safe margin (the box ``safe`` they may be placed in); not where they were written."""
    return layout.safe, tuple((layout.elements[index].type, dict(layout.elements[index].props)) for index in run)


def drawing(canvas: Canvas, layout: Layout, run: Run, frame: tuple[Any, ...], game_palette: Mapping[str, str],
            palette: Mapping[str, str], bounds: Rect, draw: DrawRun, store: sides.Store | None = None) -> RunDrawing | None:
    """``run`` of ``layout`` drawn in the frame ``frame`` describes (its trim, bleeds and mirroring, rounded) with
    ``palette`` (``game_palette`` with the layout's own), as ``canvas``'s document has it: its form drawn there
    once, inside ``bounds`` (or its content as ``store`` kept it from an earlier build); None when the run names
    a resource and must be drawn with its side."""
    known: dict[tuple[Any, ...], tuple[Layout, Mapping[str, str], RunDrawing | None]] = state_of(canvas).runs
    key = (identity(layout), identity(game_palette), run, frame)
    found = known.get(key)
    if found is not None and found[0] is layout and found[1] is game_palette:
        return found[2]
    name = "PBRun" + hashlib.sha256(repr((FORMAT, _content(layout, run), frame, sorted(palette.items())))
                                    .encode()).hexdigest()[:16]
    result: RunDrawing | None
    kept_run = store.run(name) if store is not None else None
    if canvas._doc.hasForm(name):  # copied with a page kept from the last build: a form, as it was then
        result = RunDrawing(name, None, draw)
    elif kept_run is not None:  # a form when an earlier build drew it: its content as written then
        canvas.beginForm(name, bounds.x, bounds.y, bounds.right, bounds.top)
        canvas.endForm()
        packed_forms.restore(canvas, name, *kept_run)
        result = RunDrawing(name, None, draw)
    else:
        codes = _drawn(draw)
        result = None
        if not any("/" in line for code in codes for line in code):
            size = sum(len(line) + 1 for code in codes for line in code)
            result = RunDrawing(None, codes, draw) if size < SMALL else RunDrawing(name, codes, draw)
        if result is not None and result.form is not None:
            canvas.beginForm(name, bounds.x, bounds.y, bounds.right, bounds.top)
            for code in codes:
                canvas._code.extend(code)
            canvas.endForm()
            packed_forms.pack(canvas, name)
            packed = packed_forms.packed(canvas, name)
            if store is not None and packed is not None:
                store.keep_run(name, *packed)
    known[key] = (layout, game_palette, result)
    return result
