"""A fast path for reportlab's PDFDocEncoding of ASCII text, giving the same bytes.

reportlab encodes every content stream and every formatted number through its
``extpdfdoc`` codec, a Python-level character map: in a 1,000-card deck that
was a fifth of the build. For ASCII without the eight codes the codec leaves
unmapped (0x18–0x1F, which it refuses), PDFDocEncoding is ASCII itself, so
``str.encode('ascii')`` writes exactly the bytes the codec would; anything
else still goes through the codec, errors included.
"""

from __future__ import annotations

from typing import Any

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
    """Use the fast path for everything reportlab's pdfdoc module encodes (idempotent)."""
    pdfdoc.pdfdocEnc = pdfdoc_encode
