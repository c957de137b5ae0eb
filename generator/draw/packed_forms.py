"""Encode a side's form when it is closed, not when the whole PDF is written.

reportlab keeps every form's content stream unencoded until ``save()``; a drawn
card face is about 26 KB of operators, so a 10,000-card deck held a quarter of
a gigabyte of them. Running the stream through reportlab's own filters as soon
as its form is closed keeps a tenth of that. The bytes written are the ones
the document's writer would write: its Flate (draw/pdf_canvas.py), applied to
the same stream, named the same.

The encoded content then waits for the writer in a temporary file of the
canvas's own (:class:`_Spilled`), not in memory: about 6 KB a card face, which
a 20,000-card deck would otherwise hold until ``save()``. :func:`close` removes
the file once the document is written.

Writing a deck's forms, reportlab formats each form's dictionary afresh, though
a deck's forms differ only in their length: a form of the plain shape (the
document's fonts, every procedure set, the run forms of fixed elements it places
(draw/fixed_forms.py), nothing else in its resources) is
written from its shape's head, formatted by reportlab once per document with
the length spliced in (:meth:`_Spilled.format`). Any other form is formatted by
reportlab as before.
"""

from __future__ import annotations

import tempfile
from typing import IO, Any

from reportlab.pdfbase.pdfdoc import NoEncryption as _NoEncryption
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFObjectReference,
    PDFResourceDictionary,
    PDFStream,
)
from reportlab.pdfgen.canvas import Canvas

from .pdf_canvas import state_of


class _Applied:
    """A stream filter that was applied in advance (see :func:`pack`): only its name is left to write."""

    def __init__(self, pdfname: str):
        self.pdfname = pdfname

    def encode(self, data: bytes) -> bytes:
        return data


class _Spilled(PDFStream):
    """An encoded stream kept in the canvas's spill file, read back when the writer formats it."""

    def __init__(self, spill: IO[bytes], content: bytes, filters: list[_Applied]):
        self.dictionary = PDFDictionary()
        self.filters = filters
        spill.seek(0, 2)
        self._spill, self._at, self._length = spill, spill.tell(), len(content)
        spill.write(content)

    @property  # type: ignore[override]
    def content(self) -> bytes:
        self._spill.seek(self._at)
        return self._spill.read(self._length)

    @content.setter
    def content(self, value: bytes) -> None:  # PDFStream's own code never sets it once made
        raise AttributeError("a spilled stream's content is fixed")

    def format(self, document: Any) -> bytes:
        shape = _plain_shape(self, document)
        if shape is None:
            return super().format(document)
        heads = document.state.form_heads
        content = self.content
        head = heads.get(shape)
        if head is None:
            formatted = super().format(document)
            dictionary = formatted[: formatted.index(b"\nstream\n")]
            length = b"/Length %d" % len(content)
            if dictionary.count(length) != 1:  # not a shape whose length can be told apart: reportlab writes each
                heads[shape] = (b"", b"")
                return formatted
            before, after = dictionary.split(length)
            heads[shape] = (before + b"/Length ", after + b"\nstream\n")
            return formatted
        if not head[0]:
            return super().format(document)
        return b"".join((head[0], b"%d" % len(content), head[1], content, b"endstream\n"))


_EMPTY_RESOURCES = tuple(name for name in PDFResourceDictionary.dict_attributes if name not in ("Font", "XObject"))
_FORM_KEYS = frozenset({"Type", "Subtype", "FormType", "BBox", "Matrix", "Resources"})


def _plain_shape(stream: _Spilled, document: Any) -> tuple[Any, ...] | None:
    """What a form's written dictionary is made of, when it is of the plain shape (see the module's
    docstring): its box, matrix, filters and fonts; None for any other form."""
    entries = stream.dictionary.dict
    if entries.keys() != _FORM_KEYS or type(document.encrypt) is not _NoEncryption:
        return None
    box, matrix, resources = entries["BBox"], entries["Matrix"], entries["Resources"]
    if type(box) is not PDFArray or type(matrix) is not PDFArray or type(resources) is not PDFResourceDictionary:
        return None
    if any(getattr(resources, name) for name in _EMPTY_RESOURCES) or type(resources.Font) is not PDFObjectReference:
        return None
    if resources.ProcSet != PDFResourceDictionary.stdprocs \
            or set(vars(resources)) != {*_EMPTY_RESOURCES, "XObject", "Font", "ProcSet"}:
        return None
    forms = _forms(resources.XObject)
    if forms is None:
        return None
    if entries["Type"] != "/XObject" or entries["Subtype"] != "/Form" or entries["FormType"] != 1:
        return None
    numbers = (*box.sequence, *matrix.sequence)
    if not all(type(n) in (int, float) for n in numbers):
        return None
    return (tuple((type(n), n) for n in numbers), len(box.sequence), resources.Font.name,
            tuple(step.pdfname for step in stream.filters), forms)


def _forms(xobjects: Any) -> tuple[tuple[str, str], ...] | None:
    """The forms a form's resources name (a side's run forms, draw/fixed_forms.py), as (name, object) pairs:
    a part of its shape; None for anything but a dictionary of references."""
    if not xobjects:
        return ()
    if type(xobjects) is not PDFDictionary:
        return None
    found = tuple((key, value.name) for key, value in xobjects.dict.items() if type(value) is PDFObjectReference)
    return found if len(found) == len(xobjects.dict) else None


def _stream(canvas: Canvas, content: bytes, filters: list[_Applied]) -> PDFStream:
    state = state_of(canvas)
    spill = state.spill
    if spill is None:
        spill = state.spill = tempfile.TemporaryFile(prefix="punchboard-forms-")
    contents = _Spilled(spill, content, filters)
    contents.__Comment__ = "xobject form stream"
    return contents


def close(canvas: Canvas) -> None:
    """The document is written: remove the canvas's spill file."""
    state = state_of(canvas)
    spill, state.spill = state.spill, None
    if spill is not None:
        spill.close()


def pack(canvas: Canvas, name: str) -> None:
    """Encode the content of the form ``name`` now, exactly as reportlab's writer would later."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    if not form.compression or form.Contents or not isinstance(form.stream, bytes):
        return  # not a case this copies (PDFFormXObject.format): leave it to the writer
    flate = canvas._doc.flate  # the document's own Flate (draw/pdf_canvas.py), never with ASCII85
    form.Contents = _stream(canvas, flate.encode(form.stream), [_Applied(flate.pdfname)])
    form.stream = None
    form.compression = 0  # the writer would otherwise set its own filters and encode a second time


def packed(canvas: Canvas, name: str) -> tuple[bytes, tuple[str, ...]] | None:
    """The encoded content and filter names of the form ``name`` after :func:`pack`; None if it was left to the writer."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    contents = form.Contents
    if not isinstance(contents, _Spilled) or form.stream is not None:
        return None
    return contents.content, tuple(step.pdfname for step in contents.filters)


def restore(canvas: Canvas, name: str, content: bytes, filters: tuple[str, ...]) -> None:
    """Give the (empty) form ``name`` the content :func:`packed` gave for a form drawn the same way."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    form.Contents = _stream(canvas, content, [_Applied(step) for step in filters])
    form.stream = None
    form.compression = 0
