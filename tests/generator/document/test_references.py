"""The references the PDF copiers renumber (generator/document/references.py) are exactly those the regular
expression ``(\\d+) 0 R\\b`` finds, on generated dictionaries of digits, spaces, letters and punctuation."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from punchboard.generator.document.references import references, renumbered

REF = re.compile(rb"(\d+) 0 R\b")
PIECES = st.sampled_from([b" 0 R", b"0 R", b" 0 RG", b"12", b"3", b" ", b"/Font", b"<<", b">>", b"R", b"_", b"\n", b"0"])


@given(st.lists(PIECES, max_size=30).map(b"".join))
def test_the_references_are_those_the_regular_expression_finds(head: bytes):
    assert references(head) == [match.span(1) for match in REF.finditer(head)]
    numbers = {int(n): int(n) * 7 + 1 for n in REF.findall(head)}
    assert renumbered(head, references(head), numbers) == REF.sub(lambda m: b"%d 0 R" % numbers[int(m.group(1))], head)
