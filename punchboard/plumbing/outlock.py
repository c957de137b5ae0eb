"""One writer per output folder, and output-folder failures worded for the user.

A build holds an exclusive ``flock`` on ``OUT/.punchboard.lock`` while it writes,
so two builds into one folder run one after the other (the second says it is
waiting) and the folder never mixes their outputs. The lock is released by the
kernel when the process ends, even on ``kill -9``.

An ``OSError`` met while writing inside ``OUT`` (a file where the folder should
be, a read-only folder, a full disk) becomes a :class:`UsageError` naming ``--out``;
outputs are written atomically (:mod:`punchboard.plumbing.atomicio`), so earlier
outputs stay intact.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import UsageError

LOCK_NAME = ".punchboard.lock"

_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EFBIG: "the file is larger than this system allows (disk or quota full?)",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a file stands where a folder should be",
    errno.EEXIST: "a file stands where a folder should be",
}


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def output_error(err: OSError, out: Path, flag: str = "--out") -> UsageError:
    reason = _REASONS.get(err.errno or 0, err.strerror or str(err))
    where = f"'{err.filename}'" if err.filename else f"'{out}'"
    return UsageError(
        f"{flag}: cannot write {where}: {reason}; expected a writable folder with free space"
        " (earlier outputs are kept)"
    )


def _prepare(out: Path, flag: str) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"{flag}: '{out}' is a file, not a folder; expected a folder or a path where one can be made")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise output_error(err, out, flag) from None


def _inside(err: OSError, out: Path) -> bool:
    if not err.filename:
        return False
    try:
        Path(os.fsdecode(err.filename)).resolve().relative_to(out.resolve())
    except (ValueError, OSError, TypeError):
        return False
    return True


@contextmanager
def output_lock(out: Path, flag: str = "--out", on_wait: Callable[[str], None] = _stderr) -> Iterator[None]:
    """Hold the output folder for the duration of the block; wait for another holder with a message."""
    _prepare(out, flag)
    try:
        fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o666)
    except PermissionError:
        try:  # a lock file made by another user: flock works on a read-only descriptor too
            fd = os.open(out / LOCK_NAME, os.O_RDONLY)
        except OSError as err:
            raise output_error(err, out, flag) from None
    except OSError as err:
        raise output_error(err, out, flag) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait(f"waiting: another punchboard is writing into {out}; this one starts when it ends")
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        except OSError as err:
            if _inside(err, out) or err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS):
                raise output_error(err, out, flag) from None
            raise
    finally:
        os.close(fd)
