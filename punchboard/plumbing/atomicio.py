"""Atomic file output: write to a temporary name beside the target, then rename.

A build that fails or is killed midway leaves the previous file intact, never a
truncated file under the final name.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

# Fault injection for tests: when set to N, the process kills itself (SIGKILL) halfway
# through writing the N-th file, as a power cut or `kill -9` would.
KILL_AT_WRITE_ENV = "PUNCHBOARD_TEST_KILL_AT_WRITE"
_writes = 0


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as err:  # name the output, not the temporary name it never got
        raise OSError(err.errno, err.strerror, str(path)) from err
    try:
        # mkstemp creates 0600 files; give outputs the permissions a plain open() would.
        os.fchmod(fd, _FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            _maybe_die(handle, data)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        if err.filename in (None, tmp):  # a failed write() names no file: name the output, for the user's message
            raise OSError(err.errno, err.strerror, str(path)) from err
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_STREAM_BUFFER = 1 << 20  # a streamed PDF comes in an object at a time: written out a megabyte at a time


@contextmanager
def writing(path: Path) -> Iterator[BinaryIO]:
    """A handle on a temporary file beside ``path``, for output written piece by piece (a large PDF
    streamed to disk); synced and renamed over ``path`` when the block ends, removed if it fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(path)) from err
    try:
        os.fchmod(fd, _FILE_MODE)
        with os.fdopen(fd, "wb", buffering=_STREAM_BUFFER) as handle:
            yield handle
            _maybe_die(handle, b"")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        if err.filename in (None, tmp):
            raise OSError(err.errno, err.strerror, str(path)) from err
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_cache(path: Path, data: bytes) -> None:
    """Replace a cache file (kept looks, remembered figures, …) whole: written beside it and renamed over it,
    so a reader never sees half of it. Not synced, and not one of the outputs the kill-at-write fault
    injection counts: a cache is checked when it is read, and one lost to a power cut is worked out again."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _maybe_die(handle: BinaryIO, data: bytes) -> None:
    global _writes
    kill_at = os.environ.get(KILL_AT_WRITE_ENV)
    if not kill_at:
        return
    _writes += 1
    if _writes == int(kill_at):
        handle.write(data[: len(data) // 2])
        handle.flush()
        os.kill(os.getpid(), signal.SIGKILL)


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))
