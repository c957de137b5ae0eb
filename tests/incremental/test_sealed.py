"""A sealed record reads back only as written: every flip, truncation, appended byte or foreign file is missing."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from punchboard.incremental.sealed import TRAILER, read_sealed, seal, unseal, write_sealed


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.data())
def test_any_damage_reads_back_as_missing(body: bytes, data: st.DataObject):
    raw = seal(body)
    assert unseal(raw) == body
    position = data.draw(st.integers(0, len(raw) - 1))
    bit = data.draw(st.integers(0, 7))
    flipped = bytearray(raw)
    flipped[position] ^= 1 << bit
    assert unseal(bytes(flipped)) is None
    cut = data.draw(st.integers(0, len(raw) - 1))
    assert unseal(raw[:cut]) is None
    extra = data.draw(st.binary(min_size=1, max_size=40))
    assert unseal(raw + extra) is None
    assert unseal(extra + raw) is None


def test_a_file_of_another_format_or_a_missing_file_is_missing(tmp_path: Path):
    path = tmp_path / "record"
    assert read_sealed(path) is None
    path.write_bytes(b"x" * (TRAILER + 10))
    assert read_sealed(path) is None
    write_sealed(path, b"kept")
    assert read_sealed(path) == b"kept"
