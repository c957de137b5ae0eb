"""punchboard's canvas and document: reportlab's, with punchboard's per-document state and stream filter.

Every canvas punchboard draws on is a :class:`PunchCanvas`. Its document (:class:`PunchDocument`) holds

- ``state``: what punchboard's drawing keeps of this one document (:class:`DocumentState`: side forms, their
  warnings and print fingerprints, run forms, the encoded forms' spill file …), read by the modules that
  draw and write it;
- ``flate``: the Flate filter every compressed stream of the document is encoded with (binary, never ASCII85:
  reportlab's ``rl_config.useA85`` is not read for it);
- ``writer``: how the document is written out (document/pdf_encoding.py's :class:`PdfWriter`), or None for a
  canvas that is only drawn on (fingerprints, warm-up drawing) and written, if ever, as reportlab writes.

Text is counted ``loose`` (``state.loose``) when it is set in a font, or holds a character, that the document's
fixed fonts (``state.fixed``, draw/kept.py's ``fix_fonts``) do not fix: its names and codes then depend on where
it falls in the document, and a side that drew it is not kept. The TrueType fonts text is set in are
``state.faces_used``: a fixed font no text uses is not embedded (document/pdf_encoding.py).

Nothing here changes reportlab itself: another canvas in the same process is written as before.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import (
    PDF_VERSION_DEFAULT,
    PDFDictionary,
    PDFDocument,
    PDFFormXObject,
    pdfdocEnc,
)
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

_UNMAPPED = bytes(range(0x18, 0x20))


def pdfdoc_encode(text: Any) -> Any:
    """reportlab's PDFDocEncoding (``pdfdoc.pdfdocEnc``), the same bytes, fast for ASCII text.

    reportlab encodes through its ``extpdfdoc`` codec, a Python-level character map: in a 1,000-card deck that
    was a fifth of the build. For ASCII without the eight codes the codec leaves unmapped (0x18–0x1F, which
    it refuses), PDFDocEncoding is ASCII itself; anything else still goes through the codec, errors included."""
    if isinstance(text, str) and text.isascii():
        encoded = text.encode("ascii")
        if len(encoded.translate(None, _UNMAPPED)) == len(encoded):
            return encoded
    return pdfdocEnc(text)


class StreamFilter(Protocol):
    """A stream filter as reportlab's PDFStream applies it."""

    pdfname: str

    def encode(self, text: Any) -> bytes: ...


class Flate:
    """Flate as reportlab's PDFStreamFilterZCompress encodes it (text as UTF-8), the same bytes."""

    pdfname = "FlateDecode"

    def encode(self, text: Any) -> bytes:
        if isinstance(text, str):
            text = text.encode("utf8")
        return zlib.compress(text)

    def decode(self, encoded: bytes) -> bytes:
        return zlib.decompress(encoded)


FLATE = Flate()


class Writer(Protocol):
    """How a document is written out: what ``GetPDFData`` returns (document/pdf_encoding.py)."""

    def data(self, document: PunchDocument, canvas: Canvas) -> bytes: ...


@dataclass(frozen=True)
class FixedFonts:
    """A document's fonts as fixed before its sides were drawn (draw/kept.py's ``fix_fonts``)."""

    fonts: str  # the digest of the font set fixed
    faces: dict[str, Any]  # name → the font object fixed
    chars: frozenset[str]  # every character given its code in each face
    digest: str  # of the names and codes that left in the document

    def holds(self, font: Any, text: str) -> bool:
        """Whether ``text`` set in ``font`` names and shows only what is fixed."""
        return self.faces.get(font.fontName) is font and self.chars.issuperset(text)


@dataclass
class DocumentState:
    """What punchboard's drawing keeps of one document besides reportlab's own state."""

    forms: dict[tuple[Any, ...], str] = field(default_factory=dict)  # a side's form key → its form's name (side.py)
    form_warnings: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # form → (where, warnings)
    form_prints: dict[tuple[str, float], str] = field(default_factory=dict)  # (form, bleed) → print fingerprint
    run_resources: dict[tuple[str, ...], PDFDictionary] = field(default_factory=dict)  # run forms' resources
    runs: dict[Any, Any] = field(default_factory=dict)  # the run forms of fixed elements (fixed_forms.py)
    form_heads: dict[tuple[Any, ...], tuple[bytes, bytes]] = field(default_factory=dict)  # packed_forms.py
    spill: IO[bytes] | None = None  # encoded form streams waiting for the writer (packed_forms.py)
    font_labels: dict[str, str] = field(default_factory=dict)  # fingerprint.py: a font's name in fingerprints
    fixed: FixedFonts | None = None  # the fonts fixed before its sides were drawn (draw/kept.py)
    loose: int = 0  # text set beyond them (see the module's docstring)
    faces_used: set[str] = field(default_factory=set)  # TrueType fonts its text is set in: the ones embedded
    side_faces: set[str] | None = None  # those the side being drawn sets its text in, while it is watched (draw/kept.py)
    drawings: int = 0  # sides drawn on a scratch canvas (fingerprint.py)


class PunchDocument(PDFDocument):  # type: ignore[misc]
    """reportlab's document with punchboard's state, stream filter and writer (see the module's docstring); a
    font it names by its order of first use (not a TrueType one: a base-14 font) is loose text."""

    def __init__(self, compression: int, invariant: int, flate: StreamFilter = FLATE, writer: Writer | None = None):
        super().__init__(compression=compression, invariant=invariant, pdfVersion=PDF_VERSION_DEFAULT)
        self.state = DocumentState()
        self.flate = flate
        self.writer = writer

    def getInternalFontName(self, psfontname: str) -> Any:  # noqa: N802 (reportlab's name)
        self.state.loose += 1
        return super().getInternalFontName(psfontname)

    def GetPDFData(self, canvas: Canvas) -> bytes:  # noqa: N802 (reportlab's name)
        if self.writer is None:
            return super().GetPDFData(canvas)  # type: ignore[no-any-return]
        return self.writer.data(self, canvas)


class PunchTextObject(PDFTextObject):  # type: ignore[misc]
    """reportlab's text object; text it sets beyond its document's fixed fonts is counted loose (see the module's
    docstring)."""

    def _formatText(self, text: Any) -> Any:  # noqa: N802 (reportlab's name)
        state = self._canvas._doc.state
        font = pdfmetrics.getFont(self._fontname)
        fixed = state.fixed
        if fixed is None or not fixed.holds(font, text if isinstance(text, str) else text.decode("utf-8")):
            state.loose += 1
        if getattr(font, "_dynamicFont", False):
            state.faces_used.add(font.fontName)
            if state.side_faces is not None:
                state.side_faces.add(font.fontName)
        return super()._formatText(text)


class PunchCanvas(Canvas):  # type: ignore[misc]
    """reportlab's canvas on a :class:`PunchDocument` (invariant: the same drawing gives the same bytes)."""

    _doc: PunchDocument

    def __init__(self, target: Any, pagesize: tuple[float, float] = (612, 792), page_compression: int = 1,
                 flate: StreamFilter = FLATE, writer: Writer | None = None):
        super().__init__(target, pagesize=pagesize, invariant=1, pageCompression=page_compression,
                         initialFontName="Vera")
        self._doc = PunchDocument(page_compression, 1, flate, writer)

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PunchTextObject:  # noqa: N802
        return PunchTextObject(self, x, y, direction=direction)

    def endForm(self, **extra_attributes: Any) -> None:  # noqa: N802 (reportlab's name)
        """reportlab's ``endForm`` (4–5), the form's operators encoded by :func:`pdfdoc_encode`."""
        name, lowerx, lowery, upperx, uppery = self._formData
        width, height = self._pagesize
        form = PDFFormXObject(lowerx=lowerx, lowery=lowery, upperx=width if upperx is None else upperx,
                              uppery=height if uppery is None else uppery)
        form.compression = self._pageCompression
        form.stream = pdfdoc_encode("\n".join([self._preamble, *self._code]))
        for key, value in extra_attributes.items():
            setattr(form, key, value)
        self._setColorSpace(form)
        self._setExtGState(form)
        self._setXObjects(form)
        self._setAnnotations(form)
        self._doc.addForm(name, form)
        self._restartAccumulators()
        self.pop_state_stack()

    @property
    def state(self) -> DocumentState:
        """This document's :class:`DocumentState`."""
        return self._doc.state


def state_of(canvas: Canvas) -> DocumentState:
    """The :class:`DocumentState` of a canvas punchboard draws on (a :class:`PunchCanvas`)."""
    if not isinstance(canvas, PunchCanvas):
        raise TypeError(f"punchboard draws on a PunchCanvas, not a {type(canvas).__name__}")
    return canvas.state
