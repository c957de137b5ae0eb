"""File digests remembered between builds of a long-running process (punchboard/incremental/file_digest.py)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from punchboard.incremental import file_digest as module
from punchboard.incremental.file_digest import file_digest


@pytest.fixture(autouse=True)
def _nothing_known(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(module, "_known", {})


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    real = hashlib.file_digest

    def counting(handle, digest):  # type: ignore[no-untyped-def]
        opened.append(handle.name)
        return real(handle, digest)

    monkeypatch.setattr(module.hashlib, "file_digest", counting)
    return opened


def test_a_still_file_is_read_once_and_any_change_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(module, "RACY_NS", 0)
    reads = _reads(monkeypatch)
    font = tmp_path / "font.ttf"
    font.write_bytes(b"glyphs A")
    first = file_digest(font)
    assert first == hashlib.sha256(b"glyphs A").hexdigest()
    assert file_digest(font) == first and len(reads) == 1
    stat = font.stat()
    with font.open("r+b") as handle:  # the same inode and size, and the modification time set back
        handle.write(b"glyphs B")
    os.utime(font, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert file_digest(font) == hashlib.sha256(b"glyphs B").hexdigest()
    (tmp_path / "saved.tmp").write_bytes(b"glyphs A")
    os.replace(tmp_path / "saved.tmp", font)  # an editor's save by rename
    assert file_digest(font) == first
    font.unlink()
    assert file_digest(font) is None
    assert len(reads) == 3


def test_a_file_changed_moments_ago_is_read_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Two writes in one tick of the file system's clock can leave every stamp alike: such a file is not
    remembered until it has been still for RACY_NS."""
    reads = _reads(monkeypatch)
    card = tmp_path / "card.yaml"
    card.write_text("name: A\n")
    assert file_digest(card) == file_digest(card) == hashlib.sha256(b"name: A\n").hexdigest()
    assert len(reads) == 2
