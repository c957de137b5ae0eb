"""Kept sides on disk: ``OUT/<game>/.punchboard-sides/<component>.sides``, one drawn side a record.

A build of a component finds the sides an earlier build drew (sides.py, draw/kept.py) and
keeps the sides this build drew or reused for the next. A record is a one-line head
``key meta-length stream-length crc``, the side's filters, fonts, warnings, fingerprints and run forms
(``marshal``: plain tuples, strings and bytes, quick to read and write; the header names
the Python that wrote them, and another one draws again), and its encoded content stream
as it is (about the size of the side in the PDF). A key names what the side is drawn from,
so a record is right wherever it lies. The file is read lazily (the index holds offsets, a
side is parsed when it is asked for), so a large deck's kept sides are never all in memory.
A record that does not read back (a torn write, another version) is a side to draw again; the index, the
run forms and the layouts beside the file are sealed records (sealed.py).

The file is appended to: a build writes the sides it drew after the last build's, and the
sides it used where they lie (a one-card edit writes one record, not the deck's 13 MB again).
Beside the file, ``<component>.sides.index`` says where this build's sides lie, stamped with
the file it describes (device, inode, size, times): the next build reads it instead of every
record's head while the stamp is the file's, and reads every record otherwise (the first record
under a key is taken: a later one is the same side, or a torn one). When the file holds more than twice what the last
build used, the save writes the used records to a new file that replaces it. A build with
nothing to read from (the first, ``--force``, a file of another version) writes a new file.

The run forms of fixed elements the sides place (draw/fixed_forms.py) are kept beside them in
``<component>.runs`` (marshal, under the build's salt): a build that reuses the first sheet's
sides takes the forms they place from there instead of drawing the frame and art again.
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

from punchboard.incremental.file_digest import stamp
from punchboard.incremental.sealed import read_sealed, write_sealed
from punchboard.incremental.sides import FORMAT, FontSet, KeptSide, Store
from punchboard.plumbing.file_window import FileWindow

from .build_cache import SIDES_FOLDER

FOLDER = SIDES_FOLDER
HEADER = f"punchboard kept sides {FORMAT} marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}\n".encode()
HEAD = 64 + 1 + 8 + 1 + 8 + 1 + 8 + 1  # key, meta length, stream length, crc (hex), spaces and newline


def encode(key: str, kept: KeptSide) -> bytes:
    """A side's record."""
    meta = marshal.dumps((kept.filters, kept.faces, kept.heard, kept.prints, kept.runs))
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
        filters, faces, heard, prints, runs = marshal.loads(meta)
        return key, KeptSide(stream, filters, faces, heard, prints, runs)
    except (ValueError, EOFError, TypeError, IndexError):
        return None


class SideStore(Store):
    """One component's kept sides, read from and written to its file (see the module's docstring).

    With ``read`` False (``build --force``) nothing is found; what is drawn is still kept. ``fonts``: the
    component's (draw/kept.py's ``font_set``; None: nothing is kept)."""

    def __init__(self, folder: Path, component_id: str, salt: str, read: bool = True, fonts: FontSet | None = None):
        super().__init__(salt, fonts)
        self.path = folder / FOLDER / f"{component_id}.sides"
        self._old: IO[bytes] | None = None  # the kept file, read
        self._index: dict[str, tuple[int, int]] = {}  # key → (offset, length) of a record in the kept file
        self._indexed = False  # whether that index was read from the index file (see save)
        self._end = 0  # where the kept file's last record in use (or, read through, its last whole one) ends
        self._new: IO[bytes] | None = None  # where this build's new records go: the kept file, or a new file
        self._new_name: str | None = None  # the new file's temporary name (None: appended to the kept file)
        self._new_index: dict[str, tuple[int, int]] = {}  # this build's sides: where they lie
        self._order: list[str] = []  # the keys of this build's sides, in the order they were put
        self._size = 0  # the length of the file the new records go to
        # the side last found, its record (copied as it is) and, when that lies whole in the kept file, where
        self._last: tuple[str, bytes, KeptSide, tuple[int, int] | None] | None = None
        # sides drawn ahead by worker processes (generator/warm_sides.py): their files and indexes
        self._warm: list[tuple[Path, IO[bytes], dict[str, tuple[int, int]]]] = []
        self.drawn_with = self._read_drawn_with() if read else None
        self._read = read
        self._runs: dict[str, tuple[bytes, tuple[str, ...]]] | None = None  # the run forms kept (.runs), once read
        self._runs_used: dict[str, tuple[bytes, tuple[str, ...]]] = {}  # the run forms this build drew or asked for
        if read:
            self._read_index()

    def _read_drawn_with(self) -> tuple[str, dict[str, str]] | None:
        """The salt and the digest of each layout the earlier build drew these sides with (see :meth:`save`)."""
        try:
            data = json.loads(read_sealed(self.path.with_suffix(".layouts")) or b"")
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
        """A side was reused: one a worker drew for this build counts as drawn, not kept."""
        if any(key in index for _, _, index in self._warm):
            self.drawn += 1
        else:
            self.replayed += 1

    def run(self, name: str) -> tuple[bytes, tuple[str, ...]] | None:
        if self._runs is None:
            self._runs = self._read_runs() if self._read else {}
        found = self._runs.get(name)
        if found is not None:
            self._runs_used[name] = found
        return found

    def keep_run(self, name: str, stream: bytes, filters: tuple[str, ...]) -> None:
        self._runs_used[name] = (stream, filters)

    @property
    def _runs_path(self) -> Path:
        return self.path.with_suffix(".runs")

    def _read_runs(self) -> dict[str, tuple[bytes, tuple[str, ...]]]:
        """The run forms of fixed elements the earlier build drew (draw/fixed_forms.py), under the same salt."""
        try:
            head, salt, runs = marshal.loads(read_sealed(self._runs_path) or b"")
        except (EOFError, ValueError, TypeError):
            return {}
        if head != HEADER or salt != self.salt or not isinstance(runs, dict):
            return {}
        return runs

    def _save_runs(self) -> None:
        """Keep the run forms this build drew or placed for the next, when they are not what is kept already."""
        if self._runs_used and self._runs_used != self._runs:
            write_sealed(self._runs_path, marshal.dumps((HEADER, self.salt, self._runs_used)))

    def _drop_warm(self) -> None:
        for path, handle, _ in self._warm:
            handle.close()
            path.unlink(missing_ok=True)
        self._warm = []

    @property
    def _index_path(self) -> Path:
        return self.path.with_name(self.path.name + ".index")

    def _read_index(self) -> None:
        try:  # unbuffered: records appended by this build are read back where a buffer may hold the old bytes
            handle = self.path.open("rb", buffering=0)
        except OSError:
            return
        if handle.readline() != HEADER:
            handle.close()
            return
        self._old = handle
        try:  # the index written with the file (see save): the same file, by its stamp, or the records are read
            head, at, index = marshal.loads(read_sealed(self._index_path) or b"")
            if head == HEADER and tuple(at) == stamp(self.path) and isinstance(index, dict):
                self._index = index
                self._indexed = True
                self._end = max((offset + length for offset, length in index.values()), default=len(HEADER))
                return
        except (EOFError, ValueError, TypeError):
            pass
        size = os.fstat(handle.fileno()).st_size
        offset = handle.tell()
        while offset + HEAD <= size:
            head = _head(handle.read(HEAD))
            if head is None:
                break  # the rest cannot be told apart: those sides are drawn again
            length = HEAD + head[1] + head[2]
            if offset + length > size:
                break  # a torn last record
            self._index.setdefault(head[0], (offset, length))  # the first record under a key: a torn one comes later
            offset += length
            handle.seek(offset)
        self._end = offset

    def get(self, key: str) -> KeptSide | None:
        new = self._new if self._new_name is not None else self._old  # where this build's records are read from
        sources = [(self._new_index, new, False), *((index, handle, False) for _, handle, index in self._warm),
                   (self._index, self._old, True)]
        for index, handle, kept_file in sources:
            place = index.get(key)
            if place is None or handle is None:
                continue
            if self._new is not None:
                self._new.flush()
            at = handle.tell()
            handle.seek(place[0])
            record = handle.read(place[1])
            handle.seek(at)
            found = decode(record)
            if found is None or found[0] != key:
                continue
            self._last = (key, record, found[1], place if kept_file else None)
            return found[1]
        return None

    def put(self, key: str, kept: KeptSide) -> None:
        if key in self._new_index:
            return
        last = self._last
        if last is not None and last[0] == key and last[2] is kept:
            if last[3] is not None and self._new_name is None:  # found whole in the kept file: used where it lies
                self._new_index[key] = last[3]
                self._order.append(key)
                return
            self._write(key, last[1])
            return
        self._write(key, encode(key, kept))

    def _open_new(self) -> IO[bytes]:
        if self._new is not None:
            return self._new
        if self._old is not None:  # appended to the kept file, after its last record in use
            handle = self.path.open("r+b")
            handle.truncate(self._end)
            handle.seek(self._end)
            self._new, self._size = handle, self._end
            return handle
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part", dir=self.path.parent)
        self._new, self._new_name = os.fdopen(fd, "w+b"), name
        self._new.write(HEADER)
        self._size = len(HEADER)
        return self._new

    def _write(self, key: str, record: bytes) -> None:
        new = self._open_new()
        self._new_index[key] = (self._size, len(record))
        self._order.append(key)
        new.write(record)
        self._size += len(record)

    def new_keys(self) -> int:
        """How many sides this build has put or carried so far (see :meth:`keys_from`)."""
        return len(self._order)

    def keys_from(self, start: int) -> list[str]:
        """The keys of the sides put or carried since this build had ``start``."""
        return self._order[start:]

    def carry(self, keys: Sequence[str]) -> None:
        """Keep the sides under ``keys`` where the kept file holds them (the sides of a page copied from the last
        build: generator/document/kept_pages.py); one the kept file does not hold whole is left out."""
        if self._old is None:
            return
        for key in keys:
            place = self._index.get(key)
            if place is None or key in self._new_index or place[0] + place[1] > self._end:
                continue
            self._new_index[key] = place
            self._order.append(key)

    def save(self, layouts: dict[str, str] | None = None) -> None:
        """Keep the sides this build used for the next (see the module's docstring); with ``layouts`` (name →
        digest), remember them and the salt beside it, for the next build to see what changed
        (generator/warm_sides.py)."""
        self._drop_warm()
        self._save_runs()
        if layouts is not None and self.drawn_with != (self.salt, layouts):
            write_sealed(self.path.with_suffix(".layouts"),
                        json.dumps({"salt": self.salt, "layouts": layouts}, sort_keys=True).encode())
        if self._new is not None:
            self._new.close()
        if self._old is not None:
            self._old.close()
        if self._new_name is not None:  # a new file, in place of whatever was there
            os.replace(self._new_name, self.path)
            self._write_index(self._new_index)
            return
        if self._old is None or not self._new_index:
            return  # nothing kept, or nothing used: the kept file is left as it was
        if self._new is None and self._new_index == self._index:
            if not self._indexed:
                self._write_index(self._index)
            return  # the same sides where they were
        used = sum(length for _, length in self._new_index.values())
        if max(self._size, self._end) > 2 * (used + len(HEADER)):
            self._compact()
        else:
            self._write_index(self._new_index)

    def _compact(self) -> None:
        """Write the records this build used to a new file that replaces the kept one."""
        fd, name = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part", dir=self.path.parent)
        index: dict[str, tuple[int, int]] = {}
        try:
            with self.path.open("rb") as old, os.fdopen(fd, "wb") as new:
                window = FileWindow(old)
                new.write(HEADER)
                size = len(HEADER)
                for key in self._order:
                    offset, length = self._new_index[key]
                    data, at = window.at(offset, length)
                    new.write(data[at:at + length])
                    index[key] = (size, length)
                    size += length
            os.replace(name, self.path)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise
        self._write_index(index)

    def _write_index(self, index: dict[str, tuple[int, int]]) -> None:
        """Keep where this build's sides lie beside the file, stamped with it: the next build reads it rather than
        every record's head (4,000 of them for a 2,000-card deck). Another stamp (a file changed since) is not
        trusted."""
        now = stamp(self.path)
        if now is not None:
            write_sealed(self._index_path, marshal.dumps((HEADER, now, index)))

    def restart(self) -> None:
        """Forget the sides put so far in this build (its component is written again from the start)."""
        if self._new is not None:
            self._new.close()
            if self._new_name is not None:
                os.unlink(self._new_name)
        self._new, self._new_name, self._new_index, self._order, self._size, self._last = None, None, {}, [], 0, None

    def discard(self) -> None:
        """The build of the component failed: what it appended stays as records nothing uses (the next save that
        finds the file more than half unused writes it anew), and the kept index describes the file again."""
        self._drop_warm()
        if self._old is not None:
            self._old.close()
        if self._new is not None:
            self._new.close()
            if self._new_name is not None:
                os.unlink(self._new_name)
            elif self._index:
                self._write_index(self._index)


Warmed = tuple[str, dict[str, tuple[int, int]]]
"""A worker's file of sides drawn ahead, and each side's key → (offset, length) of its record there."""


class AheadStore(Store):
    """A worker's store (generator/warm_sides.py): finds what the last build kept (so those are not drawn
    again), and writes what it draws to a file of its own, named like a torn write."""

    def __init__(self, folder: Path, component_id: str, salt: str, read: bool, fonts: FontSet | None):
        super().__init__(salt, fonts)
        self.kept = SideStore(folder, component_id, salt, read=read, fonts=fonts)
        (folder / FOLDER).mkdir(parents=True, exist_ok=True)
        # named like a torn write, so a build killed meanwhile leaves nothing the next build keeps
        fd, name = tempfile.mkstemp(prefix=f".{component_id}.ahead.", suffix=".part", dir=folder / FOLDER)
        self.path = Path(name)
        self.file: IO[bytes] = os.fdopen(fd, "wb")
        self.file.write(HEADER)
        self.index: dict[str, tuple[int, int]] = {}

    def get(self, key: str) -> KeptSide | None:
        return self.kept.get(key)

    def put(self, key: str, kept: KeptSide) -> None:
        if key in self.index or self.kept.holds(key):
            return
        record = encode(key, kept)
        self.index[key] = (self.file.tell(), len(record))
        self.file.write(record)

    def finish(self) -> Warmed:
        self.file.close()
        self.kept.discard()
        return str(self.path), self.index

    def drop(self) -> None:
        self.file.close()
        self.kept.discard()
        self.path.unlink(missing_ok=True)
