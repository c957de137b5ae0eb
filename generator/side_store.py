"""Kept sides on disk: ``OUT/<game>/.punchboard-sides/<component>.sides``, one drawn side a record.

A build of a component finds the sides an earlier build drew (draw/kept.py) and
writes, as it goes, the sides this build drew or reused, so the file holds
exactly the current deck's sides. A record is a one-line head ``key meta-length
stream-length crc``, the side's font calls, warnings and fingerprints (``marshal``: plain
tuples, strings and bytes, quick to read and write; the header names the Python that
wrote them, and another one draws again), and its encoded content stream as it is
(about the size of the side in the PDF). The file is read lazily (the index holds offsets, a side is parsed when it is asked for)
and written to a temporary file that replaces the old one when the component's
PDF is written, so a large deck's kept sides are never all in memory. A record
that does not read back (a torn write, another version) is a side to draw again.
Beside the file, ``<component>.sides.index`` keeps where each record lies, stamped with
the file it describes (device, inode, size, times): read instead of every record's
head when the stamp is the file's.
"""

from __future__ import annotations

import json
import marshal
import os
import sys
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from punchboard.generator.draw.kept import FORMAT, FontCall, KeptSide, Store

from punchboard.plumbing.atomicio import write_cache
from punchboard.plumbing.file_digest import stamp

from .cache import SIDES_FOLDER

FOLDER = SIDES_FOLDER
HEADER = f"punchboard kept sides {FORMAT} marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}\n".encode()
HEAD = 64 + 1 + 8 + 1 + 8 + 1 + 8 + 1  # key, meta length, stream length, crc (hex), spaces and newline


def _call_out(call: FontCall) -> FontCall:
    """A font call as kept: printable ASCII shown as itself in the first subset is kept without its result
    (``None``, which draw/kept.py's replay_fonts reads)."""
    if call[0] == "s":
        text, result = call[2], call[3]
        if len(result) == 1 and result[0][0] == 0 and text.isascii() and result[0][1] == text.encode("ascii"):
            return ("s", call[1], text, None)
    return call


def encode(key: str, kept: KeptSide) -> bytes:
    """A side's record."""
    meta = marshal.dumps((kept.filters, tuple(_call_out(call) for call in kept.fonts), kept.heard, kept.prints))
    crc = zlib.crc32(kept.stream, zlib.crc32(meta))
    return b"%s %08x %08x %08x\n%s%s" % (key.encode("ascii"), len(meta), len(kept.stream), crc, meta, kept.stream)


def _head(line: bytes) -> tuple[str, int, int, int] | None:
    try:
        key, meta, stream, crc = line.rstrip(b"\n").split(b" ")
        if len(key) != 64 or len(line) != HEAD:
            return None
        return key.decode("ascii"), int(meta, 16), int(stream, 16), int(crc, 16)
    except ValueError:
        return None


def decode(record: bytes) -> tuple[str, KeptSide] | None:
    """The key and side of a record; None when it does not read back whole."""
    head = _head(record[:HEAD])
    if head is None:
        return None
    key, meta_length, stream_length, crc = head
    meta, stream = record[HEAD:HEAD + meta_length], record[HEAD + meta_length:]
    if len(meta) != meta_length or len(stream) != stream_length or zlib.crc32(stream, zlib.crc32(meta)) != crc:
        return None
    try:
        filters, calls, heard, prints = marshal.loads(meta)
        return key, KeptSide(stream, filters, calls, heard, prints)
    except (ValueError, EOFError, TypeError, IndexError):
        return None


class SideStore(Store):
    """One component's kept sides, read from and written to its file (see the module's docstring).

    With ``read`` False (``build --force``) nothing is found; what is drawn is still kept."""

    def __init__(self, folder: Path, component_id: str, salt: str, read: bool = True):
        super().__init__(salt)
        self.path = folder / FOLDER / f"{component_id}.sides"
        self._old: IO[bytes] | None = None
        self._index: dict[str, tuple[int, int]] = {}  # key → (offset, length) of its line in the old file
        self._new: IO[bytes] | None = None
        self._new_index: dict[str, tuple[int, int]] = {}
        self._order: list[str] = []  # the keys of the new file, in order
        self._size = 0  # the new file's length, with the run of old records still to copy (see carry)
        self._run: list[int] | None = None  # [start, end) of old records to copy to the new file's end
        self._last: tuple[str, bytes, KeptSide] | None = None  # the side last found and its record, copied as it is
        # sides drawn ahead by worker processes (generator/warm_sides.py): their files and indexes
        self._warm: list[tuple[Path, IO[bytes], dict[str, tuple[int, int]]]] = []
        self._indexed = False  # whether the old file's index was read from the index file (see save)
        self.drawn_with = self._read_drawn_with() if read else None
        if read:
            self._read_index()

    def _read_drawn_with(self) -> tuple[str, dict[str, str]] | None:
        """The salt and the digest of each layout the earlier build drew these sides with (see :meth:`save`)."""
        try:
            data = json.loads(self.path.with_suffix(".layouts").read_text(encoding="utf-8"))
            return str(data["salt"]), {str(k): str(v) for k, v in data["layouts"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    @property
    def known(self) -> int:
        """How many sides the earlier build kept."""
        return len(self._index)

    def holds(self, key: str) -> bool:
        """Whether the earlier build kept the side under ``key``."""
        return key in self._index

    def adopt(self, path: Path, index: dict[str, tuple[int, int]]) -> None:
        """Find the sides a worker drew ahead in ``path`` (records at ``index``); the file is removed
        when the store is saved or discarded."""
        self._warm.append((path, path.open("rb"), index))

    def took(self, key: str) -> None:
        """A side was replayed: one a worker drew for this build counts as drawn, not kept."""
        if any(key in index for _, _, index in self._warm):
            self.drawn += 1
        else:
            self.replayed += 1

    def _drop_warm(self) -> None:
        for path, handle, _ in self._warm:
            handle.close()
            path.unlink(missing_ok=True)
        self._warm = []

    @property
    def _index_path(self) -> Path:
        return self.path.with_name(self.path.name + ".index")

    def _read_index(self) -> None:
        try:
            handle = self.path.open("rb")
        except OSError:
            return
        if handle.readline() != HEADER:
            handle.close()
            return
        self._old = handle
        try:  # the index written with the file (see save): the same file, by its stamp, or the records are read
            head, at, index = marshal.loads(self._index_path.read_bytes())
            if head == HEADER and tuple(at) == stamp(self.path) and isinstance(index, dict):
                self._index = index
                self._indexed = True
                return
        except (OSError, EOFError, ValueError, TypeError):
            pass
        size = os.fstat(handle.fileno()).st_size
        offset = handle.tell()
        while offset + HEAD <= size:
            head = _head(handle.read(HEAD))
            if head is None:
                break  # the rest cannot be told apart: those sides are drawn again
            length = HEAD + head[1] + head[2]
            self._index[head[0]] = (offset, length)
            offset += length
            handle.seek(offset)

    def get(self, key: str) -> KeptSide | None:
        sources = [(self._new_index, self._new), *((index, handle) for _, handle, index in self._warm),
                   (self._index, self._old)]
        for index, handle in sources:
            place = index.get(key)
            if place is None or handle is None:
                continue
            if handle is self._new:
                self._copy_run()
                handle.flush()
            at = handle.tell()
            handle.seek(place[0])
            record = handle.read(place[1])
            handle.seek(at)
            found = decode(record)
            if found is None or found[0] != key:
                continue
            self._last = (key, record, found[1])
            return found[1]
        return None

    def put(self, key: str, kept: KeptSide) -> None:
        if key in self._new_index:
            return
        last = self._last
        self._write(key, last[1] if last is not None and last[0] == key and last[2] is kept else encode(key, kept))

    def _open_new(self) -> IO[bytes]:
        if self._new is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part", dir=self.path.parent)
            self._new = os.fdopen(fd, "w+b")
            self._new_name = name
            self._new.write(HEADER)
            self._size = len(HEADER)
        return self._new

    def _write(self, key: str, record: bytes) -> None:
        new = self._open_new()
        self._copy_run()
        self._new_index[key] = (self._size, len(record))
        self._order.append(key)
        new.write(record)
        self._size += len(record)

    def _copy_run(self) -> None:
        """Copy the old records carried since the last write, in one piece."""
        run, self._run = self._run, None
        if run is None or self._old is None or self._new is None:
            return
        self._old.seek(run[0])
        left = run[1] - run[0]
        while left:
            chunk = self._old.read(min(left, 1 << 20))
            if not chunk:
                raise OSError(f"{self.path} changed while its sides were copied")
            self._new.write(chunk)
            left -= len(chunk)

    def new_keys(self) -> int:
        """How many sides the new file holds so far (see :meth:`keys_from`)."""
        return len(self._order)

    def keys_from(self, start: int) -> list[str]:
        """The keys of the sides put since the new file held ``start``."""
        return self._order[start:]

    def carry(self, keys: Sequence[str]) -> None:
        """Copy the sides under ``keys`` from the old file to the new one as they are (the sides of a page copied
        from the last build: generator/document/kept_pages.py); one the old file does not hold is left out."""
        old = self._old
        if old is None:
            return
        size = os.fstat(old.fileno()).st_size
        for key in keys:
            place = self._index.get(key)
            if place is None or key in self._new_index or place[0] + place[1] > size:  # a torn last record stays out
                continue
            self._open_new()
            run = self._run
            if run is not None and run[1] == place[0]:
                run[1] += place[1]  # the next record in the old file: a deck's pages carry long runs of them
            else:
                self._copy_run()
                self._run = [place[0], place[0] + place[1]]
            self._new_index[key] = (self._size, place[1])
            self._order.append(key)
            self._size += place[1]

    def save(self, layouts: dict[str, str] | None = None) -> None:
        """Replace the file with the sides this build used (left alone when they are the ones it held); with
        ``layouts`` (name → digest), remember them and the salt beside it, for the next build to see what
        changed (generator/warm_sides.py)."""
        self._drop_warm()
        if layouts is not None and self.drawn_with != (self.salt, layouts):
            write_cache(self.path.with_suffix(".layouts"),
                        json.dumps({"salt": self.salt, "layouts": layouts}, sort_keys=True).encode())
        if self._new is not None:
            self._copy_run()
        if self._old is not None:
            self._old.close()
        if self._new is None:
            return
        self._new.close()
        if list(self._new_index) == list(self._index) and self.path.is_file() and \
                os.path.getsize(self._new_name) == self.path.stat().st_size:
            os.unlink(self._new_name)  # the same sides, in the same order: nothing to write
            if not self._indexed:
                self._write_index(self._index)
            return
        os.replace(self._new_name, self.path)
        self._write_index(self._new_index)

    def _write_index(self, index: dict[str, tuple[int, int]]) -> None:
        """Keep the file's index beside it, stamped with the file: the next build reads it rather than every
        record's head (4,000 reads for a 2,000-card deck). Another stamp (a file changed since) is not trusted."""
        now = stamp(self.path)
        if now is not None:
            write_cache(self._index_path, marshal.dumps((HEADER, now, index)))

    def restart(self) -> None:
        """Forget the sides put so far in this build (its component is written again from the start)."""
        if self._new is not None:
            self._new.close()
            os.unlink(self._new_name)
        self._new, self._new_index, self._order, self._size, self._run, self._last = None, {}, [], 0, None, None

    def discard(self) -> None:
        """The build of the component failed: keep the old file as it was."""
        self._drop_warm()
        if self._old is not None:
            self._old.close()
        if self._new is not None:
            self._new.close()
            os.unlink(self._new_name)
