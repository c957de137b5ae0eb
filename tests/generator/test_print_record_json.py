"""A print record is written as ``json.dumps(record, indent=1, ensure_ascii=False)`` would write it
(generator/prints.py puts the piece rows together itself, for speed): checked on generated records whose
names hold quotes, backslashes, control characters and text outside ASCII."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from punchboard.generator.prints import PiecePrint, PrintRecord, _grouped

TEXT = st.text(alphabet=st.sampled_from('ab "\\\n\t\x01\x7féß€😀'), max_size=6)
PIECE = st.builds(PiecePrint, TEXT, TEXT, st.integers(0, 3), st.integers(0, 50), st.integers(0, 2),
                  st.sampled_from(["a1", "b2"]), st.sampled_from(["", "c3"]))
OPTIONS = st.dictionaries(st.sampled_from(["paper", "backs", "bleed_mm", "é"]),
                          st.one_of(st.none(), st.integers(-5, 5), st.floats(allow_nan=False), TEXT, st.lists(TEXT, max_size=2)))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9999), TEXT, OPTIONS, st.lists(PIECE, max_size=8))
def test_the_record_is_what_json_dumps_writes(number: int, date: str, options: dict[str, object], pieces: list[PiecePrint]):
    pieces = [PiecePrint(p.component, p.name, p.entry, n // 2, p.copy, p.face, p.back) for n, p in enumerate(pieces)]
    record = PrintRecord(number, date, options, tuple(pieces))
    data = {"number": number, "version": record.version, "date": date, "options": options, "pieces": _grouped(record.pieces)}
    assert record.to_json() == json.dumps(data, indent=1, ensure_ascii=False) + "\n"
