"""Raster images in the PDF: named by content, and PNGs embedded without decoding.

Images are registered under a digest of their bytes, so the PDF does not
depend on where the game folder lives, and a file used on many cards is
stored once.

A PNG's IDAT data is a zlib stream of scanlines with PNG predictors, which is
exactly what a PDF image with ``/FlateDecode`` and ``/DecodeParms
<< /Predictor 15 >>`` holds. Copying it saves decoding and recompressing every
card image (the bulk of the time when a deck is made of 300-dpi artwork) and
keeps the designer's own compression. Only plain 8-bit grey or RGB,
non-interlaced PNGs without transparency qualify; anything else is left to
reportlab's usual path.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from reportlab.lib.boxstuff import aspectRatioFix
from reportlab.lib.utils import _digester
from reportlab.pdfbase.pdfdoc import (
    PDFDictionary,
    PDFImageXObject,
    PDFName,
    PDFObjectReference,
    PDFStream,
)
from reportlab.pdfbase.pdfutils import asciiBase85Decode
from reportlab.pdfgen.canvas import Canvas

from .geometry import Rect
from .placement import CENTRE, place_picture

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOURS = {0: ("DeviceGray", 1), 2: ("DeviceRGB", 3)}


class _PassThroughPNG(PDFImageXObject):
    def __init__(self, name: str, width: int, height: int, colour_space: str, colours: int, data: bytes):
        self.name = name
        self.width = width
        self.height = height
        self.bitsPerComponent = 8
        self.colorSpace = colour_space
        self.colours = colours
        self.streamContent = data
        self._filters = ("FlateDecode",)
        self.mask = None

    def format(self, document):  # type: ignore[no-untyped-def]
        stream = PDFStream(content=self.streamContent)
        # The data is already deflated: stop reportlab from compressing it again.
        stream.filters = ()
        entries = stream.dictionary
        entries["Type"] = PDFName("XObject")
        entries["Subtype"] = PDFName("Image")
        entries["Width"] = self.width
        entries["Height"] = self.height
        entries["BitsPerComponent"] = 8
        entries["ColorSpace"] = PDFName(self.colorSpace)
        entries["Filter"] = PDFName("FlateDecode")  # a single name: an array would need DecodeParms as an array too
        entries["DecodeParms"] = PDFDictionary(
            {"Predictor": 15, "Colors": self.colours, "BitsPerComponent": 8, "Columns": self.width}
        )
        entries["Length"] = len(self.streamContent)
        return stream.format(document)


def _binary(image: PDFImageXObject) -> PDFImageXObject:
    """``image`` (and its soft mask) with binary data: reportlab loads an image ASCII85-encoded while its
    ``rl_config.useA85`` is on (its default), and punchboard's PDFs are binary (draw/pdf_canvas.py)."""
    filters = tuple(image._filters)
    if filters[:1] == ("ASCII85Decode",):
        image.streamContent = asciiBase85Decode(image.streamContent)
        image._filters = filters[1:]
    smask = getattr(image, "_smask", None)
    if smask is not None:
        _binary(smask)
    return image


def read_png(path: Path) -> tuple[int, int, str, int, bytes] | None:
    """(width, height, colour space, colours, IDAT data) for a PNG that can pass through, else None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(_SIGNATURE):
        return None
    pos, idat = 8, []
    width = height = 0
    colour: tuple[str, int] | None = None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            colour = _COLOURS.get(colour_type)
            if depth != 8 or interlace or colour is None:
                return None
        elif kind == b"tRNS":
            return None
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if colour is None or not idat:
        return None
    stream = b"".join(idat)
    try:
        zlib.decompressobj().decompress(stream, 16)  # a quick sanity check of the zlib header
    except zlib.error:
        return None
    return width, height, colour[0], colour[1], stream


def draw_image(
    canvas: Canvas, path: Path, x: float, y: float, width: float, height: float, *,
    preserve_aspect: bool, fit: str | None = None, focus: tuple[float, float] | None = None,
) -> None:
    """Draw a PNG or JPG into the box, centred when the aspect ratio is preserved.

    ``fit='cover'`` scales the picture to fill the box and clips what overflows; ``focus``
    (fractions from the left and top) picks the part kept in view, or where a contained
    picture sits.
    """
    data = path.read_bytes()
    name = _digester(data + b"auto")
    document = canvas._doc
    registered = document.getXObjectName(name)
    image = document.idToObject.get(registered)
    if image is None:
        found = read_png(path) if path.suffix.lower() == ".png" else None
        if found is not None:
            w, h, colour_space, colours, stream = found
            image = _PassThroughPNG(name, w, h, colour_space, colours, stream)
        else:
            image = _binary(PDFImageXObject(name, str(path), mask="auto"))
            image.name = name
        canvas._setXObjects(image)
        document.Reference(image, registered)
        document.addForm(name, image)
        smask = getattr(image, "_smask", None)
        if smask:  # reportlab's soft mask for PNGs with transparency, as drawImage sets it up
            mask_name = document.getXObjectName(smask.name)
            if document.idToObject.get(mask_name) is None:
                canvas._setXObjects(smask)
                image.smask = document.Reference(smask, mask_name)
            else:
                image.smask = PDFObjectReference(mask_name)
            del image._smask
    box = Rect(x, y, width, height)
    if fit == "cover" or (focus is not None and preserve_aspect):
        spot = place_picture(box, image.width, image.height, fit or "contain", focus or CENTRE)
        x, y, width, height, clip = spot.x, spot.y, spot.width, spot.height, spot.clip
    else:
        x, y, width, height, _ = aspectRatioFix(preserve_aspect, "c", x, y, width, height, image.width, image.height)
        clip = False
    canvas.saveState()
    if clip:
        outline = canvas.beginPath()
        outline.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(outline, stroke=0, fill=0)
    canvas.translate(x, y)
    canvas.scale(width, height)
    canvas._code.append(f"/{registered} Do")
    canvas.restoreState()
    canvas._formsinuse.append(name)
