"""How punchboard's PDFs are written: :class:`PdfWriter`, the writer a document is made with (pages.py).

A :class:`PdfWriter` is handed to the :class:`~punchboard.generator.draw.pdf_canvas.PunchCanvas` a document is
drawn on, and writes it out when the canvas is saved:

- streams (page contents, forms, fonts) are Flate-compressed by the writer's own filter and written as
  binary, without reportlab's ASCII85 layer on top: ASCII85 makes every stream a quarter larger and costs time
  to write and to read, and a PDF is a binary file anyway. Renders are identical either way;
- objects go straight to the writer's ``sink`` (the file being written) as they are formatted, instead of a
  list joined at the end (same bytes, same offsets), a run of copied objects at a time (kept_runs.py);
- each TrueType subset is tagged by a digest of its glyph set (:func:`subset_tag`): the same tag in any of a
  game's PDFs is the same font program, and a tag does not depend on what else the document holds;
- of the fonts fixed before a document's sides were drawn (draw/kept.py's ``fix_fonts``), only those its text
  is set in (``state.faces_used``) are embedded.

Nothing here changes reportlab: another document in the same process is written as reportlab writes it.
In ``watch`` and ``serve`` (:func:`keep_encoded`), the writers made from then on remember the streams and
subsets they encoded, so a save re-encodes only what changed (the same bytes).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from punchboard.generator.draw.pdf_canvas import FLATE, Flate, PunchDocument, StreamFilter, pdfdoc_encode
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.ttfonts import TTFont, makeToUnicodeCMap
from reportlab.pdfgen.canvas import Canvas

from .kept_runs import Verbatim, format_in_runs

__all__ = ["PdfWriter", "keep_encoded", "pdfdoc_encode", "stream_filter", "subset_tag"]


class _File(pdfdoc.PDFFile):  # type: ignore[misc]
    """reportlab's output collector; with a ``sink``, each formatted object goes straight to it instead of a list
    joined at the end (same bytes, same offsets)."""

    def __init__(self, version: Any, sink: BinaryIO | None):
        self._sink = sink
        super().__init__(version)
        if sink is not None:
            for chunk in self.strings:
                sink.write(chunk)
            self.strings: list[bytes] = []
            self.write = sink.write

    def add(self, s: Any) -> int:
        s = pdfdoc_encode(s)
        at = self.offset
        self.offset: int = at + len(s)
        self.write(s)
        return at  # type: ignore[no-any-return]

    def format(self, document: Any) -> bytes:
        return b"" if self._sink is not None else super().format(document)  # type: ignore[no-any-return]


class _KeptFlate(Flate):
    """Flate that remembers what it compressed (zlib gives the same bytes for the same input): in a
    long-running process a save rewrites pages and font subsets that are mostly as they were."""

    def __init__(self, limit: int) -> None:
        self.limit = limit  # bytes of input remembered; beyond, it starts afresh
        self.held = 0
        self.known: dict[bytes, bytes] = {}

    def encode(self, text: Any) -> bytes:
        if isinstance(text, str):
            text = text.encode("utf8")
        known = self.known.get(text)
        if known is None:
            known = zlib.compress(text)
            if self.held + len(text) > self.limit:
                self.known.clear()
                self.held = 0
            self.known[text] = known
            self.held += len(text)
        return known


@dataclass
class _Kept:
    """What the writers of a long-running process remember (:func:`keep_encoded`)."""

    flate: _KeptFlate
    subsets: dict[tuple[int, tuple[int, ...]], tuple[Any, bytes]] = field(default_factory=dict)


_KEPT: list[_Kept] = []  # empty, or the one record :func:`keep_encoded` made


def keep_encoded(limit: int = 32 << 20) -> None:
    """For the rest of this process (watch, serve): the writers made from now on remember compressed streams by
    their bytes and font subsets by their font and letters, so a save re-encodes only what changed (same bytes)."""
    if not _KEPT:
        _KEPT.append(_Kept(_KeptFlate(limit)))


def stream_filter() -> StreamFilter:
    """The Flate a document's streams are compressed with: remembering every stream in a process that keeps them
    (:func:`keep_encoded`), else reportlab's own compression without ASCII85."""
    if _KEPT:
        return _KEPT[0].flate
    return FLATE


def subset_tag(program: bytes, codes: Sequence[int]) -> bytes:
    """The six capital letters a font subset is tagged with: a digest of its font program and the characters its
    codes stand for, so two subsets share a tag only when they are the same glyph set (in any document)."""
    digest = hashlib.blake2b(program, digest_size=16)
    digest.update(repr(tuple(codes)).encode())
    return bytes(65 + byte % 26 for byte in digest.digest()[:6])


class PdfWriter:
    """How punchboard writes a document (see the module's docstring): to ``sink`` as it is formatted (else into
    the bytes ``GetPDFData`` returns), compressed by ``flate`` (:func:`stream_filter`), the objects ``verbatim``
    says lie as they are in an old file copied from it (kept_pages.py)."""

    def __init__(self, sink: BinaryIO | None = None):
        self.sink = sink
        self.flate = stream_filter()
        self.verbatim: Verbatim | None = None
        self._subsets = _KEPT[0].subsets if _KEPT else None

    def data(self, document: PunchDocument, canvas: Canvas) -> bytes:
        """What reportlab's ``GetPDFData`` does, with this writer's fonts, filters and output."""
        state = document.state
        for font in document.delayedFonts:
            if isinstance(font, TTFont):
                if state.fixed is None or font.fontName in state.faces_used:  # a fixed font no text uses: left out
                    self._add_font(font, document)
            else:
                font.addObjects(document)
        document.info.invariant = document.invariant
        document.info.digest(document.signature)
        document.Reference(document.Catalog)
        document.Reference(document.info)
        document.Outlines.prepare(document, canvas)
        if document.Outlines.ready < 0:
            document.Catalog.Outlines = None
        out = _File(document._pdfVersion, self.sink)
        return format_in_runs(document, self.verbatim or _nothing, out, self._own_filters)

    def _own_filters(self, obj: Any) -> None:
        """Give a stream this writer's Flate in place of reportlab's, and no ASCII85 (a form not packed when it
        was drawn, draw/packed_forms.py, is written as a stream of its own: given its content stream now)."""
        if type(obj) is pdfdoc.PDFFormXObject and obj.compression and not obj.Contents and obj.stream:
            contents = pdfdoc.PDFStream(content=obj.stream, filters=[self.flate])
            contents.__Comment__ = "xobject form stream"
            obj.Contents, obj.compression = contents, 0
            return
        filters = getattr(obj, "filters", None)
        if filters and (pdfdoc.PDFZCompress in filters or pdfdoc.PDFBase85Encode in filters):
            obj.filters = [self.flate if step is pdfdoc.PDFZCompress else step for step in filters
                           if step is not pdfdoc.PDFBase85Encode]

    def _program(self, face: Any, subset: list[int]) -> bytes:
        """The font program of ``subset`` of ``face`` (remembered in a process that keeps them)."""
        known = self._subsets
        if known is None:
            return face.makeSubset(subset)  # type: ignore[no-any-return]
        key = (id(face), tuple(subset))
        found = known.get(key)
        if found is None or found[0] is not face:
            if len(known) >= 64:
                known.clear()
            found = known[key] = (face, face.makeSubset(subset))
        return found[1]

    def _add_font(self, font: TTFont, doc: PunchDocument) -> None:
        """``TTFont.addObjects`` (reportlab 4–5), each subset tagged by :func:`subset_tag`."""
        state = font.state.get(doc)
        if state is None:
            state = font.state[doc] = TTFont.State(font._asciiReadable)
        state.frozen = 1
        face = font.face
        fonts = doc.idToObject["BasicFonts"].dict
        for n, subset in enumerate(state.subsets):
            internal = font.getSubsetInternalName(n, doc)[1:]
            program = self._program(face, subset)
            base = b"".join((subset_tag(program, subset), b"+", face.name, face.subfontNameX)).decode("pdfdoc")
            pdf_font = pdfdoc.PDFTrueTypeFont()
            pdf_font.__Comment__ = f"Font {font.fontName} subset {n}"
            pdf_font.Name = internal
            pdf_font.BaseFont = base
            pdf_font.FirstChar = 0
            pdf_font.LastChar = len(subset) - 1
            pdf_font.Widths = pdfdoc.PDFArray(list(map(face.getCharWidth, subset)))
            cmap = pdfdoc.PDFStream()
            cmap.content = makeToUnicodeCMap(base, subset)
            if doc.compression:
                cmap.filters = [self.flate]
            pdf_font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base)
            pdf_font.FontDescriptor = self._descriptor(face, doc, base, program)
            doc.Reference(pdf_font, internal)
            fonts[internal] = pdf_font
        del font.state[doc]

    def _descriptor(self, face: Any, doc: PunchDocument, name: str, program: bytes) -> Any:
        """``TTFontFace.addSubsetObjects`` (reportlab 4–5) for a subset whose font program is ``program``."""
        file = pdfdoc.PDFStream()
        file.content = program
        file.dictionary["Length1"] = len(program)
        if doc.compression:
            file.filters = [self.flate]
        file_ref = doc.Reference(file, f"fontFile:{face.filename}({name})")
        flags = (face.flags & ~(1 << 5)) | (1 << 2)  # not non-symbolic, symbolic (FF_NONSYMBOLIC, FF_SYMBOLIC)
        descriptor = pdfdoc.PDFDictionary({
            "Type": "/FontDescriptor", "Ascent": face.ascent, "CapHeight": face.capHeight, "Descent": face.descent,
            "Flags": flags, "FontBBox": pdfdoc.PDFArray(face.bbox), "FontName": pdfdoc.PDFName(name),
            "ItalicAngle": face.italicAngle, "StemV": face.stemV, "FontFile2": file_ref,
            "MissingWidth": face.defaultWidth,
        })
        return doc.Reference(descriptor, "fontDescriptor:" + name)


def _nothing(obj: Any, number: int, document: Any) -> None:
    """Nothing lies as it is in an old file: every object is formatted."""
    return None


