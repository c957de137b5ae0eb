"""How punchboard's PDFs are encoded: binary streams, and a fast path for PDFDocEncoding.

Streams (page contents, forms, images, fonts) are Flate-compressed and written
as binary, without reportlab's default ASCII85 layer on top (``rl_config.useA85``):
ASCII85 makes every stream a quarter larger and costs time to write and to read,
and a PDF is a binary file anyway. Renders are identical either way.

A fast path for reportlab's PDFDocEncoding of ASCII text, giving the same bytes:

reportlab encodes every content stream and every formatted number through its
``extpdfdoc`` codec, a Python-level character map: in a 1,000-card deck that
was a fifth of the build. For ASCII without the eight codes the codec leaves
unmapped (0x18–0x1F, which it refuses), PDFDocEncoding is ASCII itself, so
``str.encode('ascii')`` writes exactly the bytes the codec would; anything
else still goes through the codec, errors included.
"""

from __future__ import annotations

from typing import Any

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc

_UNMAPPED = bytes(range(0x18, 0x20))
_codec_encode = pdfdoc.pdfdocEnc


def pdfdoc_encode(text: Any) -> Any:
    if isinstance(text, str) and text.isascii():
        encoded = text.encode("ascii")
        if len(encoded.translate(None, _UNMAPPED)) == len(encoded):
            return encoded
    return _codec_encode(text)


def install() -> None:
    """Binary streams, and the fast path for everything reportlab's pdfdoc module encodes (idempotent)."""
    rl_config.useA85 = 0
    pdfdoc.pdfdocEnc = pdfdoc_encode
