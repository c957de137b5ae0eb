"""Kept copies (merge.keep_copies, in watch and serve): a merge that re-uses what the last merge copied
writes the very bytes a merge from scratch writes, whatever changed in between."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from punchboard.generator.document import merge
from punchboard.generator.document.pdf_encoding import PdfWriter
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from punchboard.plumbing.atomicio import write_bytes

WORDS = ["gear", "crown", "Äther", "smoke", "ŵheel", "brass", "cog", "steam"]


def _pdf(words: list[str], pages: int, compressed: bool = True) -> bytes:
    """A small PDF as punchboard's writer makes them: TrueType text (a subset tagged by its glyph set), several
    pages."""
    if "Vera" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("Vera", "Vera.ttf"))
    out = BytesIO()
    canvas = PunchCanvas(out, pagesize=(300, 400), page_compression=int(compressed), writer=PdfWriter())
    for page in range(pages):
        canvas.setFont("Vera", 12)
        canvas.drawString(20, 300, " ".join(words[page:] + words[:page]))
        canvas.rect(10, 10, 50 + page, 60)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def _merged(parts: list[tuple[bytes | Path, bool]], blank: bytes) -> bytes:
    out = BytesIO()
    assert merge.merge_to(out, parts, blank, "Title", "print and play", "DuplexFlipLongEdge")
    return out.getvalue()


def _fresh(parts: list[tuple[bytes | Path, bool]], blank: bytes) -> bytes:
    kept, merge._kept = merge._kept, None
    try:
        return _merged(parts, blank)
    finally:
        merge._kept = kept


content = st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), st.integers(1, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), limit=st.sampled_from([0, 6_000, 32 << 20]))
def test_a_kept_merge_writes_what_a_fresh_merge_writes(tmp_path_factory: pytest.TempPathFactory,
                                                         data: st.DataObject, limit: int):
    folder = tmp_path_factory.mktemp("parts")
    files = [folder / f"part{i}.pdf" for i in range(3)]
    for path in files:
        write_bytes(path, _pdf(*data.draw(content)))
    blank = _pdf(["."], 1)
    kept, merge._kept = merge._kept, None
    try:
        merge.keep_copies(limit)
        reused = 0
        for _ in range(data.draw(st.integers(2, 6), label="merges")):
            step = data.draw(st.sampled_from(["rewrite", "same bytes again", "none"]), label="step")
            if step != "none":
                path = data.draw(st.sampled_from(files), label="file")
                old = path.read_bytes()
                write_bytes(path, old if step == "same bytes again" else _pdf(*data.draw(content)))
            parts: list[tuple[bytes | Path, bool]] = [
                (data.draw(st.sampled_from(files), label="part") if data.draw(st.booleans(), label="a file")
                 else _pdf(*data.draw(content)), data.draw(st.booleans(), label="blank reverses"))
                for _ in range(data.draw(st.integers(1, 4), label="parts"))]
            before = dict(merge._kept or {})
            assert _merged(parts, blank) == _fresh(parts, blank)
            reused += sum(1 for key in merge._kept or {} if key in before)
            held = sum(size for _, _, size in (merge._kept or {}).values())
            assert held <= limit
    finally:
        merge._kept = kept
    if limit == 0:
        assert reused == 0


def test_an_unchanged_part_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """What makes it pay: after one component PDF is written again, only that one is parsed."""
    parts: list[tuple[bytes | Path, bool]] = []
    for i in range(3):
        write_bytes(tmp_path / f"c{i}.pdf", _pdf(WORDS[i:i + 2], 2))
        parts.append((tmp_path / f"c{i}.pdf", i == 1))
    blank = _pdf(["."], 1)
    merge.keep_copies()
    first = _merged(parts, blank)
    parsed: list[int] = []
    original = merge._Source.__init__

    def counting(self: merge._Source, handle: object) -> None:
        parsed.append(1)
        original(self, handle)  # type: ignore[arg-type]

    monkeypatch.setattr(merge._Source, "__init__", counting)
    assert _merged(parts, blank) == first
    assert parsed == []
    write_bytes(tmp_path / "c2.pdf", _pdf(["brass", "cog"], 2))
    after = _merged(parts, blank)
    assert len(parsed) == 1  # the rewritten part only
    assert after == _fresh(parts, blank)


def test_a_part_changed_in_place_is_read_again(tmp_path: Path):
    """A file changed by another program under the same name, size and even modification time still
    has a new change time, so it is read again."""
    import os

    path = tmp_path / "c.pdf"
    write_bytes(path, _pdf(["gear", "cog"], 1, compressed=False))
    merge.keep_copies()
    before = _merged([(path, False)], b"")
    stat = path.stat()
    other = path.read_bytes().replace(b" 50 60 re", b" 51 60 re")
    assert other != path.read_bytes() and len(other) == stat.st_size
    with path.open("r+b") as handle:  # same inode, same size
        handle.write(other)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the modification time set back
    after = _merged([(path, False)], b"")
    assert after != before
    assert after == _fresh([(path, False)], b"")
