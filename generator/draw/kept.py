"""A drawn side kept across builds: a one-card edit redraws that card, not its deck.

Each distinct side of a piece is a form XObject (:func:`~.side.draw_side`). What
drawing it leaves behind is the form's encoded content stream, the warnings it
gave (preflight findings included) and its print fingerprint. Its text names
fonts (``/F3+0``) and shows TrueType subset codes, which reportlab gives in
order of first use in a document; so before a document's sides are drawn, its
fonts are fixed (:func:`fix_fonts`): every face the component's layouts can use
is named in sorted order, and every character the component's text can hold
(:func:`font_set`: the characters of every string value of its pieces and of its
layouts' elements) is given its code in each face, in code-point order. A side
whose text uses only those faces and characters is then written the same
wherever it falls in the document, and is reused by its key alone: the key holds
a digest of the fixed fonts, so adding a character to one card draws every side
of that component again. A side whose text goes beyond them (an SVG's own
text, say) is drawn every time; the text that does so is counted by the
document (draw/pdf_canvas.py), and a side during whose drawing the count moved
is not kept.

A side that touched anything else of the document (an image or a form
registered, a font named, a transparency state, a shading, a colour space) is
not kept either; the run forms of fixed elements it places (draw/fixed_forms.py)
are kept with it by the runs they stand for, and drawn in the document, if they
are not yet, when it is reused.

A kept side is found by a key over everything its drawing depends on: the
build's shared inputs (code, options, paper, palette, the game's icons;
``salt``), the layout with its fonts' files, the pictures it shows, the fields
it reads, the frame and the document's fixed fonts. The record, its key and the
store live in the incremental layer (punchboard/incremental/sides.py); this
module decides what is kept. A side that shows a raster image is not kept (the
image is an object of the document).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental.identity import ByIdentity
from punchboard.incremental.sides import FontSet
from punchboard.spec.model import Component, Game, Layout

from . import fonts as font_files
from .pdf_canvas import FixedFonts, PunchDocument

ASCII = frozenset(map(chr, range(32, 127)))



def _sizes(thing: object) -> dict[str, tuple[int, int]]:
    return {name: (id(value), len(value)) for name, value in vars(thing).items() if isinstance(value, (dict, list))}


class Watch:
    """What a side's drawing changed besides its form's code.

    A named resource a form's operators use (a font, a transparency state, an image or form, a shading, a
    colour space) is one reportlab records for the form's resource dictionary: in the canvas's accumulators
    and transparency state, or as a new object of the document. Any of those makes the side one to draw
    again, and so does text beyond the document's fixed fonts (its ``loose`` count moved, draw/pdf_canvas.py),
    but for the run forms of fixed elements it places (``runs``: their names, in order; draw/fixed_forms.py),
    drawn in the document before the side and placed again when it is reused."""

    ACCUMULATORS = ("_annotationrefs", "_colorsUsed", "_shadingUsed")

    def __init__(self, canvas: Canvas, runs: list[str] | None = None):
        self.canvas = canvas
        self.runs = runs or []
        self.doc = canvas._doc
        self.doc_before = _sizes(self.doc)
        self.loose = self.doc.state.loose
        self.canvas_before = dict(vars(canvas))
        self.faces: set[str] = set()
        self._outer = self.doc.state.side_faces
        self.doc.state.side_faces = self.faces

    def faces_used(self) -> tuple[str, ...]:
        """The fonts the side's text was set in (sorted); the watch ends: a side drawn after is not heard."""
        self.doc.state.side_faces = self._outer
        return tuple(sorted(self.faces))

    def keepable(self) -> bool:
        """True when the drawing touched nothing of the document, set its text in the fixed fonts only, and left
        the canvas as it was."""
        canvas = self.canvas
        if self.doc.state.loose != self.loose or _sizes(self.doc) != self.doc_before:
            return False
        if any(getattr(canvas, name, None) for name in self.ACCUMULATORS) or canvas._formsinuse != self.runs:
            return False
        ext = canvas._extgstate
        if ext._d or ext._c:
            return False
        now = vars(canvas)
        return all(now.get(name) is value for name, value in self.canvas_before.items() if name != "_code") \
            and now.keys() == self.canvas_before.keys()


_CHARS: ByIdentity[Component, frozenset[str]] = ByIdentity(limit=64)
FOOTER = "·"  # between the game's title, the component's name and the page number (document/pages.py)


def font_set(game: Game, component: Component) -> FontSet | None:
    """The fonts of ``component``'s sides: the built-in faces and those its layouts name, and the characters of
    every string value of its pieces, their sides and its layouts' elements, with printable ASCII (a superset
    of what its text can show: ``{field}`` binding only joins such strings, and text.printable's stand-ins
    are ASCII, all of which are in it), and those of its pages' footers (the game's title, its name). None when two of its layouts name one font with different files."""
    faces: dict[str, Path | None] = dict.fromkeys(font_files.BUILTIN)
    chars = set(ASCII) | _CHARS.get(component, _component_chars) | set(FOOTER + game.title + component.name)
    for name in sorted(component.layouts()):
        layout = game.layouts.get(name)
        if layout is None:
            continue
        for face, path in layout.fonts.items():
            if faces.setdefault(face, path) != path:
                return None
        chars.update(_layout_chars(layout))
    ordered = tuple(sorted(faces.items()))
    text = "".join(sorted(chars))
    digest = hashlib.sha256(repr((ordered, text)).encode()).hexdigest()
    return FontSet(ordered, text, digest)


def _component_chars(component: Component) -> frozenset[str]:
    found: set[str] = set()
    for piece in component.pieces:
        _strings(piece.fields, found)
        for side in (piece.face, piece.back):
            if side is not None:
                _strings(side.fields, found)
    if component.outside is not None:
        _strings(component.outside.fields, found)
    return frozenset(found)


_LAYOUT_CHARS: ByIdentity[Layout, frozenset[str]] = ByIdentity()


def _layout_chars(layout: Layout) -> frozenset[str]:
    def work(layout: Layout) -> frozenset[str]:
        found: set[str] = set()
        for element in layout.elements:
            _strings(element.props, found)
        return frozenset(found)

    return _LAYOUT_CHARS.get(layout, work)


def _strings(value: Any, found: set[str]) -> None:
    """Add the characters of every string in ``value`` (a string, or mappings and sequences of them) to ``found``."""
    if isinstance(value, str):
        found.update(value)
    elif isinstance(value, Mapping):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            _strings(item, found)


def fix_fonts(doc: PunchDocument, fonts: FontSet | None) -> str | None:
    """Fix ``doc``'s fonts to ``fonts`` before its sides are drawn (see the module's docstring): each face
    named (``/F1``, ``/F2`` … in the order of their names) and given every character of ``fonts`` in
    code-point order. The digest of what that left in the document (each face's name and codes), for kept
    sides' keys: the same for any document it is the first font work of. None when no side of ``doc`` is to be kept under ``fonts`` (a
    document fixed to other fonts, a face that is not a TrueType font)."""
    state = doc.state
    fixed = state.fixed
    if fixed is not None:
        return fixed.digest if fonts is not None and fixed.fonts == fonts.digest else None
    if fonts is None:
        return None
    faces: dict[str, Any] = {}
    try:
        for name, path in fonts.faces:
            if path is not None:
                font_files.register(name, path)
            faces[name] = pdfmetrics.getFont(name)
    except (OSError, KeyError, TTFError):
        return None  # drawing reports it
    if not all(getattr(font, "_dynamicFont", False) for font in faces.values()):
        return None
    shown = []
    for name, font in faces.items():
        font.splitString(fonts.chars, doc)
        font.getSubsetInternalName(0, doc)
        own = font.state[doc]
        shown.append((name, own.internalName, own.nextCode, own.subsets))
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()  # a character no face has changes nothing
    state.fixed = FixedFonts(fonts.digest, faces, frozenset(fonts.chars), digest)
    return digest
