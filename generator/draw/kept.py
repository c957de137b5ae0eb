"""A drawn side kept across builds: a one-card edit redraws that card, not its deck.

Each distinct side of a piece is a form XObject (:func:`~.side.draw_side`). What
drawing it leaves behind is the form's encoded content stream, the warnings it
gave (preflight findings included), its print fingerprint — and what it changed
in the document: the fonts it named and the TrueType subset codes its text was
given. reportlab numbers fonts (``/F3``) and subset codes in order of first use
in a document, so the same side drawn after different sides can be written with
other names and codes.

:func:`recording` logs every call through which drawing reaches the document's
font state (``getInternalFontName``, ``splitString``, ``getSubsetInternalName``)
with what each returned. :func:`replay` makes the same calls, in the same order,
on the document being built: they change its state exactly as drawing would
have, and when every one returns what it returned when the side was drawn, the
kept stream is byte for byte the one drawing would write; otherwise the side
is drawn. A side that touched anything else of the document (an image or a form
registered, a transparency state, a shading, a colour space) is not kept; the run
forms of fixed elements it places (draw/fixed_forms.py) are kept with it by the
runs they stand for, and drawn in the document, if they are not yet, when it is
replayed.

A kept side is found by a key over everything its drawing depends on: the
build's shared inputs (code, options, paper, palette, the game's icons;
``salt``), the layout with its fonts' files (:func:`layout_digest`), the
pictures it shows, the fields it reads and the frame (:func:`key`). A side that
shows a raster image is not kept (the image is an object of the document).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.file_digest import file_digest as plumbing_file_digest
from punchboard.plumbing.identity import ByIdentity
from punchboard.spec.model import Layout

from .pdf_canvas import FontCall, PunchDocument

FORMAT = 2  # the kept entries' layout; part of every key (2: sides place their fixed elements' run forms)
_PRINTABLE = re.compile(r"[ -~]*")


@dataclass
class KeptSide:
    """One drawn side as the document received it."""

    stream: bytes  # the form's content, encoded as packed_forms.pack writes it
    filters: tuple[str, ...]  # the stream's filter names, in the order the PDF lists them
    fonts: tuple[FontCall, ...]  # the font calls its drawing made, in order, with their results
    heard: tuple[tuple[bool, str], ...]  # its warnings: (True, text after the piece's 'where') or (False, whole)
    prints: dict[str, str] = field(default_factory=dict)  # print fingerprint by bleed (repr, 4 decimals)
    runs: tuple[tuple[int, ...], ...] = ()  # the runs of fixed elements it places as forms (draw/fixed_forms.py)


class Store:
    """Where a component's kept sides are found and put (generator/side_store.py keeps them in a file);
    this one keeps nothing. ``salt``: what every side is keyed under besides its own inputs."""

    def __init__(self, salt: str):
        self.salt = salt
        self.drawn = 0  # sides drawn in this build
        self.replayed = 0  # sides replayed from an earlier build

    def get(self, key: str) -> KeptSide | None:
        return None

    def put(self, key: str, kept: KeptSide) -> None:
        pass

    def took(self, key: str) -> None:
        """The side kept under ``key`` was replayed."""
        self.replayed += 1

    def run(self, name: str) -> tuple[bytes, tuple[str, ...]] | None:
        """The encoded content and filters of the run form ``name`` as an earlier build drew it (draw/fixed_forms.py),
        or None; asking keeps it for the next build."""
        return None

    def keep_run(self, name: str, stream: bytes, filters: tuple[str, ...]) -> None:
        """The run form ``name`` was drawn in this build: keep it for the next."""


_LAYOUTS: ByIdentity[Layout, str] = ByIdentity()


def file_digest(path: Path) -> str:
    """A file's content digest ("missing" when it cannot be read), read again only when it may have changed."""
    return plumbing_file_digest(path) or "missing"


def layout_digest(layout: Layout) -> str:
    """A layout by its whole content (elements, sizes, palette, the files it came from) and its fonts' files."""
    return _LAYOUTS.get(layout, _layout_digest)


def _layout_digest(layout: Layout) -> str:
    sha = hashlib.sha256(repr(layout).encode())
    for name in sorted(layout.fonts):
        sha.update(f"{name}:{file_digest(layout.fonts[name])}".encode())
    return sha.hexdigest()


def bleed_name(bleed: float) -> str:
    return f"{bleed:.4f}"


def key(salt: str, parts: tuple[Any, ...]) -> str:
    sha = hashlib.sha256(f"{FORMAT}:{salt}:0".encode())  # 0: streams without ASCII85 (draw/pdf_canvas.py)
    sha.update(repr(parts).encode())
    return sha.hexdigest()


@contextmanager
def recording(doc: PunchDocument) -> Iterator[list[FontCall]]:
    """Log the font calls made on ``doc`` while the block runs (see the module's docstring; the document and its
    text objects log them, draw/pdf_canvas.py)."""
    calls: list[FontCall] = []
    doc.recordings.append(calls)  # a recording inside another: both hear the calls
    try:
        yield calls
    finally:
        del doc.recordings[next(n for n, found in enumerate(doc.recordings) if found is calls)]  # by identity


def _sizes(thing: object) -> dict[str, tuple[int, int]]:
    return {name: (id(value), len(value)) for name, value in vars(thing).items() if isinstance(value, (dict, list))}


class Watch:
    """What a side's drawing changed besides its form's code and the logged font calls.

    A named resource a form's operators use (a transparency state, an image or form, a shading, a colour
    space) is one reportlab records for the form's resource dictionary: in the canvas's accumulators and
    transparency state, or as a new object of the document. Any of those makes the side one to draw again,
    but for the run forms of fixed elements it places (``runs``: their names, in order; draw/fixed_forms.py),
    drawn in the document before the side and placed again when it is replayed."""

    FONT_STATE = frozenset({"fontMapping", "delayedFonts", "recordings"})  # recordings: draw/pdf_canvas.py
    ACCUMULATORS = ("_annotationrefs", "_colorsUsed", "_shadingUsed")

    def __init__(self, canvas: Canvas, runs: list[str] | None = None):
        self.canvas = canvas
        self.runs = runs or []
        self.doc = canvas._doc
        self.doc_before = _sizes(self.doc)
        self.canvas_before = dict(vars(canvas))

    def keepable(self) -> bool:
        """True when the drawing touched nothing of the document but its fonts, and left the canvas as it was."""
        canvas = self.canvas
        after = _sizes(self.doc)
        if any(after.get(name) != size for name, size in self.doc_before.items() if name not in self.FONT_STATE):
            return False
        if after.keys() - self.doc_before.keys():
            return False
        if any(getattr(canvas, name, None) for name in self.ACCUMULATORS) or canvas._formsinuse != self.runs:
            return False
        ext = canvas._extgstate
        if ext._d or ext._c:
            return False
        now = vars(canvas)
        return all(now.get(name) is value for name, value in self.canvas_before.items() if name != "_code") \
            and now.keys() == self.canvas_before.keys()


def _ascii_ready(font: Any, doc: PunchDocument) -> bool:
    """Whether ``font`` already shows printable ASCII as itself in ``doc`` (reportlab's asciiReadable
    subsets: codes 32–126 are given in advance, so such text changes nothing of the document)."""
    states = getattr(font, "state", None)  # a TrueType font's per-document state (a WeakKeyDictionary)
    state = states.get(doc) if states is not None else None
    if state is None:
        return False
    known = doc.state.ascii_ready
    ready = known.get(font.fontName)
    if ready is None:
        assignments = state.assignments
        ready = known[font.fontName] = all(assignments.get(code) == code for code in range(32, 127))
    return ready


def replay_fonts(doc: PunchDocument, calls: tuple[FontCall, ...]) -> bool:
    """Make ``calls`` on ``doc``; True when each returned what it returned when the side was drawn.

    A ``splitString`` call kept with ``None`` for its result showed printable ASCII text as itself in the
    first subset (generator/side_store.py's shorthand): once the font shows ASCII as itself in this document,
    such a call would change nothing and return just that, so it is not made.

    Nor is a call that already returned what it should in this document: each of the three gives what it
    gave before once it has given it (a font keeps its name, a subset its name, a character its code), and
    changes nothing when made again. A deck's sides make the same calls (the same font, subset 0, the same
    labels) over and over."""
    made = doc.state.font_calls
    for call in calls:
        if call in made:
            continue
        kind = call[0]
        if kind == "i":
            if doc.getInternalFontName(call[1]) != call[2]:
                return False
            made.add(call)
            continue
        font = pdfmetrics.getFont(call[1])
        if kind == "s":
            text, expected = call[2], call[3]
            if expected is None:
                if _PRINTABLE.fullmatch(text) and _ascii_ready(font, doc):
                    continue
                expected = ((0, text.encode("ascii")),)
            if tuple(font.splitString(text, doc)) != expected:
                return False
            made.add(call)
            continue
        if font.getSubsetInternalName(call[2], doc) != call[3]:
            return False
        made.add(call)
    return True
