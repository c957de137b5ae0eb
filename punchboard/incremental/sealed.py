"""The one rule for every record punchboard keeps to skip work (kept sides' indexes and run forms, looks,
remembered geometry and figures, parsed YAML, the build cache, the last print, …): a record is written sealed —
its bytes, then a trailer with their length and a BLAKE2b digest — and a record whose seal does not match its
bytes (a flipped bit, a torn or truncated write, bytes appended, a file from another format) reads back as
missing, which every reader treats as work to do again. A damaged record is never a wrong output."""

from __future__ import annotations

import hashlib
from pathlib import Path

from punchboard.plumbing.atomicio import write_cache

MAGIC = b"\npbseal1"
_DIGEST = 16
TRAILER = len(MAGIC) + 8 + _DIGEST


def seal(body: bytes) -> bytes:
    """``body`` with its trailer."""
    digest = hashlib.blake2b(body, digest_size=_DIGEST).digest()
    return body + MAGIC + len(body).to_bytes(8, "big") + digest


def unseal(raw: bytes) -> bytes | None:
    """The body :func:`seal` wrote into ``raw``; None when ``raw`` is not exactly such a record."""
    if len(raw) < TRAILER:
        return None
    body, trailer = raw[:-TRAILER], raw[-TRAILER:]
    if trailer[: len(MAGIC)] != MAGIC or int.from_bytes(trailer[len(MAGIC):len(MAGIC) + 8], "big") != len(body):
        return None
    if hashlib.blake2b(body, digest_size=_DIGEST).digest() != trailer[-_DIGEST:]:
        return None
    return body


def write_sealed(path: Path, body: bytes) -> None:
    """Replace the record at ``path`` whole (atomically, not synced: see atomicio.write_cache) with ``body`` sealed."""
    write_cache(path, seal(body))


def read_sealed(path: Path) -> bytes | None:
    """The body of the record at ``path``; None when it is missing, unreadable or does not read back whole."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    return unseal(raw)


class DamagedRecord(ValueError):
    """A record that does not read back whole (a ValueError, which every reader already takes as 'not kept')."""


def read_sealed_strict(path: Path) -> bytes:
    """:func:`read_sealed`, raising OSError for a missing file and :class:`DamagedRecord` for a damaged one."""
    body = unseal(path.read_bytes())
    if body is None:
        raise DamagedRecord(f"{path}: the record does not read back whole")
    return body
