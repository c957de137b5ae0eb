"""The flate memo (generator/document/pdf_encoding.FlateMemo): a PDF's long streams compressed as its last build
compressed them are taken from a file beside it, and the PDF is byte for byte the one a build without the memo
writes. Through the CLI: a token edit compresses only the sheets it changed, and matches a clean build."""

from __future__ import annotations

import marshal
import random
import shutil
import zlib
from pathlib import Path

import pytest
from punchboard.generator.document import pdf_encoding
from punchboard.generator.document.pdf_encoding import FlateMemo

from punchboard.plumbing.paths import COMPONENTS
from tests.conftest import run_cli


def _memo(path: Path, read: bool = True) -> FlateMemo:
    """A memo as a PDF's write uses it (pdf_encoding.stream_filter)."""
    memo = FlateMemo(path, read)
    memo.active = True
    return memo


def _stream(seed: int, size: int = FlateMemo.SHORTEST + 1000) -> bytes:
    rng = random.Random(seed)
    return " ".join(f"{rng.uniform(0, 600):.4f} {rng.uniform(0, 800):.4f} l" for _ in range(size // 20)).encode()[:size]


class _Counting:
    """zlib as pdf_encoding uses it, counting the streams it compresses."""

    def __init__(self) -> None:
        self.compressed: list[int] = []

    def compress(self, data: bytes) -> bytes:
        self.compressed.append(len(data))
        return zlib.compress(data)

    def __getattr__(self, name: str) -> object:
        return getattr(zlib, name)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    counter = _Counting()
    monkeypatch.setattr(pdf_encoding, "zlib", counter)
    return counter


def test_a_memo_gives_what_zlib_gives_and_the_next_one_takes_it_from_the_file(tmp_path: Path, counting: _Counting):
    path = tmp_path / "deck.flate"
    streams = [_stream(n) for n in range(3)]
    first = _memo(path)
    assert [first.encode(s) for s in streams] == [zlib.compress(s) for s in streams]
    assert first.encode(b"short") == zlib.compress(b"short")  # short streams are compressed every time
    first.save()
    assert path.is_file() and len(counting.compressed) == 4
    counting.compressed.clear()
    second = _memo(path)
    assert [second.encode(s) for s in streams] == [zlib.compress(s) for s in streams]
    assert counting.compressed == []
    before = path.stat().st_mtime_ns
    second.save()  # the same streams: the file is not written again
    assert path.stat().st_mtime_ns == before


def test_the_file_holds_what_the_last_write_used(tmp_path: Path):
    path = tmp_path / "deck.flate"
    memo = _memo(path)
    for n in range(3):
        memo.encode(_stream(n))
    memo.save()
    memo = _memo(path)
    memo.encode(_stream(1))
    memo.encode(_stream(7))
    memo.save()
    _, known = marshal.loads(path.read_bytes())
    assert sorted(known.values()) == sorted([zlib.compress(_stream(1)), zlib.compress(_stream(7))])
    _memo(path).save()  # a write with no long stream leaves no file
    assert not path.exists()


def test_a_memo_no_write_used_leaves_its_file_alone(tmp_path: Path):
    """A process that keeps every compressed stream itself (watch, serve) writes its PDFs without the memo."""
    path = tmp_path / "deck.flate"
    memo = _memo(path)
    memo.encode(_stream(0))
    memo.save()
    before = path.read_bytes()
    FlateMemo(path).save()
    assert path.read_bytes() == before


def test_force_reads_nothing_but_keeps_what_it_compressed(tmp_path: Path, counting: _Counting):
    path = tmp_path / "deck.flate"
    memo = _memo(path)
    memo.encode(_stream(0))
    memo.save()
    counting.compressed.clear()
    forced = _memo(path, read=False)
    forced.encode(_stream(0))
    assert len(counting.compressed) == 1
    forced.save()
    assert path.is_file()


@pytest.mark.parametrize("damage", ["garbage", "another header", "wrong bytes", "not flate", "not bytes"])
def test_a_damaged_or_foreign_memo_is_compressed_afresh(tmp_path: Path, counting: _Counting, damage: str):
    path = tmp_path / "deck.flate"
    data = _stream(3)
    memo = _memo(path)
    memo.encode(data)
    memo.save()
    header, known = marshal.loads(path.read_bytes())
    (key,) = known
    if damage == "garbage":
        path.write_bytes(b"\x00not marshal")
    elif damage == "another header":
        path.write_bytes(marshal.dumps((header.replace("zlib", "zlib 0.0"), known)))
    elif damage == "wrong bytes":
        path.write_bytes(marshal.dumps((header, {key: zlib.compress(_stream(4))})))
    elif damage == "not flate":
        path.write_bytes(marshal.dumps((header, {key: b"\x78\x9c broken"})))
    else:
        path.write_bytes(marshal.dumps((header, {key: "text"})))
    counting.compressed.clear()
    assert _memo(path).encode(data) == zlib.compress(data)
    assert counting.compressed == [len(data)]


def test_a_memo_holds_at_most_its_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "deck.flate"
    one = len(zlib.compress(_stream(0)))
    monkeypatch.setattr(FlateMemo, "LIMIT", 2 * one + one // 2)
    memo = _memo(path)
    outs = [memo.encode(_stream(n)) for n in range(5)]
    assert outs == [zlib.compress(_stream(n)) for n in range(5)]
    memo.save()
    _, known = marshal.loads(path.read_bytes())
    assert len(known) == 2


def _steam_court(tmp_path: Path) -> Path:
    game = tmp_path / "steam_court"
    shutil.copytree(COMPONENTS / "steam_court", game)
    return game


def _build(game: Path, out: Path, *flags: str) -> str:
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "1", "--quiet", *flags)
    assert result.returncode == 0, result.stderr
    return result.stderr


def test_a_token_edit_through_the_cli_matches_a_clean_build(tmp_path: Path):
    """The edit changes one token's back (its power is printed there): the token sheets' fronts are taken from
    the memo, the backs compressed again, and every PDF is what a clean build writes."""
    game, out, clean = _steam_court(tmp_path), tmp_path / "out", tmp_path / "clean"
    _build(game, out)
    memo = out / "steam_court" / ".punchboard-sides" / "gear_tokens.flate"
    _, before = marshal.loads(memo.read_bytes())
    assert before, "a sheet of gear tokens has long streams"
    tokens = game / "gear_tokens.yaml"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace("power: Discard two cards", "power: Discard a card"),
                      encoding="utf-8")
    warnings = _build(game, out)
    _, after = marshal.loads(memo.read_bytes())
    assert set(before) & set(after), "the fronts' sheet is the same stream as before"
    assert _build(game, clean, "--force") == warnings
    made = sorted(p.relative_to(clean) for p in clean.rglob("*.pdf"))
    assert len(made) >= 8
    for name in made:
        assert (out / name).read_bytes() == (clean / name).read_bytes(), f"{name} differs from a clean build"


def test_a_token_edit_compresses_only_the_sheets_it_changed(tmp_path: Path, counting: _Counting,
                                                           monkeypatch: pytest.MonkeyPatch):
    """In-process, the long streams compressed by a build after a one-token edit: the sheets that token is on
    (its component's and its print group's), none of the others."""
    from punchboard.cli import main

    monkeypatch.setattr(pdf_encoding, "_KEPT", [])  # as a new process has it (no watch before)

    game, out = _steam_court(tmp_path), tmp_path / "out"
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    whole = [n for n in counting.compressed if n >= FlateMemo.SHORTEST]
    tokens = game / "gear_tokens.yaml"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace("power: Discard two cards", "power: Discard a card"),
                      encoding="utf-8")
    counting.compressed.clear()
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    again = [n for n in counting.compressed if n >= FlateMemo.SHORTEST]
    assert len(whole) >= 4 and len(again) < len(whole) / 2, (whole, again)
