"""The fast path for PDFDocEncoding writes exactly what reportlab's codec writes, and refuses what it refuses."""

from __future__ import annotations

import random

import pytest
from punchboard.generator.document.pdf_encoding import pdfdoc_encode


def _codec(text: str) -> bytes | type[Exception]:
    try:
        return text.encode("extpdfdoc")
    except UnicodeEncodeError:
        return UnicodeEncodeError


def _fast(text: str) -> bytes | type[Exception]:
    try:
        return pdfdoc_encode(text)
    except UnicodeEncodeError:
        return UnicodeEncodeError


def test_every_character_up_to_U_FF_and_a_few_beyond_encode_as_the_codec_does():
    import reportlab.pdfbase.pdfdoc  # noqa: F401 - registers the codec

    for code in [*range(256), 0x2022, 0x20AC, 0xFB01, 0x1F600]:
        assert _fast(chr(code)) == _codec(chr(code)), hex(code)


@pytest.mark.parametrize("seed", range(5))
def test_content_streams_mixing_characters_encode_as_the_codec_does(seed: int):
    rng = random.Random(seed)
    alphabet = [chr(c) for c in (*range(9, 14), *range(24, 40), *range(32, 127), 127, 160, 200, 0x20AC)]
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        assert _fast(text) == _codec(text), repr(text)
    assert pdfdoc_encode(b"already bytes") == b"already bytes"
