"""What a piece of work read, and whether any of it has changed since.

:func:`recording` notes every file opened for reading and every folder listed while it is active,
through one :func:`sys.addaudithook` hook per process (hooks cannot be removed, so an idle hook returns
at once). A :class:`Snapshot` then holds each file's size and modification time, and each folder's
names: the folders listed, and the folder of every file read, so that a file added where a lookup probes
(``art/gear.png`` beside the ``art/gear.jpg`` it found) shows as a change. A file modified within
:data:`RACY_NS` of the recording's start also keeps its SHA-256, because a same-size save inside the file
system's timestamp granularity leaves its stat unchanged (git's "racily clean" entries).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

RACY_NS = 3_000_000_000  # coarser than any file system's timestamps (FAT: 2 s)
_NETWORK = frozenset({"socket.connect", "socket.getaddrinfo", "urllib.Request"})
_LISTING = frozenset({"os.listdir", "os.scandir"})
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


@dataclass
class Reads:
    """What was read while recording: absolute paths of files and folders, and whether the network was used."""

    files: set[str] = field(default_factory=set)
    folders: set[str] = field(default_factory=set)
    network: bool = False


_active: list[Reads] = []
_hooked = False


def _path(value: Any) -> str | None:
    if isinstance(value, int) or value is None:
        return None
    try:
        return os.path.abspath(os.fsdecode(value))
    except (TypeError, ValueError):
        return None


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not _active:
        return
    reads = _active[-1]
    if event == "open":
        path, mode, flags = (*args, None, None)[:3]
        reading = ("r" in mode and "+" not in mode) if isinstance(mode, str) else not (flags or 0) & _WRITES
        if reading and (found := _path(path)) is not None:
            reads.files.add(found)
    elif event in _LISTING:
        found = _path(args[0] if args and args[0] is not None else ".")
        if found is not None:
            reads.folders.add(found)
    elif event in _NETWORK:
        reads.network = True


@contextmanager
def recording() -> Iterator[Reads]:
    """Note what this process reads inside the ``with`` (not what worker processes read)."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_hook)
        _hooked = True
    reads = Reads()
    _active.append(reads)
    try:
        yield reads
    finally:
        _active.remove(reads)


def tree(folder: str, skip: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """Every file and folder under ``folder`` (itself included), leaving out the folders in ``skip``."""
    skipped = {os.path.abspath(s) for s in skip}
    files: list[str] = []
    folders: list[str] = []
    pending = [os.path.abspath(folder)]
    while pending:
        current = pending.pop()
        if current in skipped:
            continue
        folders.append(current)
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            else:
                files.append(entry.path)
    return files, folders


def _listing(folder: str) -> list[str] | None:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return None


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _sha(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


@dataclass(frozen=True)
class Snapshot:
    """Files as (size, mtime in ns, SHA-256 when racy; a missing file as None) and folders' sorted names."""

    files: dict[str, list[Any] | None]
    folders: dict[str, list[str] | None]

    @classmethod
    def take(cls, files: Iterable[str], folders: Iterable[str], started_ns: int, *, parents: bool = True,
             contents: bool = True) -> Snapshot:
        """``parents``: also list the folder of every file; ``contents``: keep racy files' SHA-256."""
        kept: dict[str, list[Any] | None] = {}
        for path in sorted(set(files)):
            stat = _stat(path)
            if stat is None:
                kept[path] = None
            else:
                racy = contents and stat[1] >= started_ns - RACY_NS
                kept[path] = [stat[0], stat[1], _sha(path) if racy else None]
        all_folders = set(folders) | ({os.path.dirname(p) for p in kept} if parents else set())
        return cls(kept, {f: _listing(f) for f in sorted(all_folders)})

    def changed(self) -> str | None:
        """The first file or folder that is not as it was (None: nothing changed)."""
        for path, was in self.files.items():
            stat = _stat(path)
            if was is None or stat is None:
                if was is not None or stat is not None:
                    return path
                continue
            if list(stat) != was[:2] or (was[2] is not None and _sha(path) != was[2]):
                return path
        for folder, names in self.folders.items():
            if _listing(folder) != names:
                return folder
        return None

    def as_json(self) -> dict[str, Any]:
        return {"files": self.files, "folders": self.folders}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        return cls(dict(data["files"]), dict(data["folders"]))


def now_ns() -> int:
    """The wall clock in the file system's terms (modification times are wall-clock times)."""
    return time.time_ns()
