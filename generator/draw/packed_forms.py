"""Encode a side's form when it is closed, not when the whole PDF is written.

reportlab keeps every form's content stream unencoded until ``save()``; a drawn
card face is about 26 KB of operators, so a 10,000-card deck held a quarter of
a gigabyte of them. Running the stream through reportlab's own filters as soon
as its form is closed keeps a tenth of that. The bytes written are the ones
reportlab would write: the same filters (``rl_config.useA85`` decides whether
ASCII85 follows Flate), applied to the same stream, named in the same order.
"""

from __future__ import annotations

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFBase85Encode, PDFStream, PDFZCompress
from reportlab.pdfgen.canvas import Canvas


class _Applied:
    """A stream filter that was applied in advance (see :func:`pack`): only its name is left to write."""

    def __init__(self, pdfname: str):
        self.pdfname = pdfname

    def encode(self, data: bytes) -> bytes:
        return data


def pack(canvas: Canvas, name: str) -> None:
    """Encode the content of the form ``name`` now, exactly as reportlab's writer would later."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    if not form.compression or form.Contents or not isinstance(form.stream, bytes):
        return  # not a case this copies (PDFFormXObject.format): leave it to the writer
    filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    content = form.stream
    for step in reversed(filters):  # PDFStream.format applies them last first
        content = step.encode(content)
    contents = PDFStream(content=content, filters=[_Applied(step.pdfname) for step in filters])
    contents.__Comment__ = "xobject form stream"
    form.Contents = contents
    form.stream = None
    form.compression = 0  # the writer would otherwise set its own filters and encode a second time


def packed(canvas: Canvas, name: str) -> tuple[bytes, tuple[str, ...]] | None:
    """The encoded content and filter names of the form ``name`` after :func:`pack`; None if it was left to the writer."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    contents = form.Contents
    if contents is None or form.stream is not None or not isinstance(contents.content, bytes):
        return None
    return contents.content, tuple(step.pdfname for step in contents.filters)


def restore(canvas: Canvas, name: str, content: bytes, filters: tuple[str, ...]) -> None:
    """Give the (empty) form ``name`` the content :func:`packed` gave for a form drawn the same way."""
    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    contents = PDFStream(content=content, filters=[_Applied(step) for step in filters])
    contents.__Comment__ = "xobject form stream"
    form.Contents = contents
    form.stream = None
    form.compression = 0
