"""The user's cache folder kept under a size bound: when its files add up to more than the bound, the least
recently used go (by the later of the times the file system last saw each file read or written) until they add
up to at most :data:`KEEP_FRACTION` of it. A cache file removed is work done again, never a wrong result: every
memo in the folder treats a missing file as not kept.

The bound is ``$PUNCHBOARD_CACHE_LIMIT`` (bytes, or with a unit: ``200MB``, ``1GiB``; ``0`` turns trimming off),
else :data:`DEFAULT_LIMIT`. The folder is measured at most once per :data:`EVERY` seconds (a stamp file's
modification time), so a command pays for one ``stat`` on most runs."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

LIMIT_ENV = "PUNCHBOARD_CACHE_LIMIT"
DEFAULT_LIMIT = 512 * 1024 * 1024
KEEP_FRACTION = 0.8
EVERY = 3600.0
STAMP = ".trimmed"
_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$", re.IGNORECASE)


def limit_from(text: str | None) -> int:
    """The bound ``$PUNCHBOARD_CACHE_LIMIT`` gives (None or unreadable: the default; 0: no bound)."""
    match = _SIZE.match(text or "")
    if match is None or match.group(2).lower() not in _UNITS:
        return DEFAULT_LIMIT
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def trim(root: Path, limit: int) -> int:
    """Remove the least recently used files under ``root`` while they add up to more than ``limit`` bytes, down
    to :data:`KEEP_FRACTION` of it; the number of bytes removed. Files that vanish meanwhile are skipped."""
    files: list[tuple[float, int, str]] = []
    total = 0
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if name == STAMP and folder == str(root):
                continue
            files.append((max(info.st_atime, info.st_mtime), info.st_size, path))
            total += info.st_size
    if total <= limit:
        return 0
    removed = 0
    for _used, size, path in sorted(files):
        if total - removed <= limit * KEEP_FRACTION:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        removed += size
    _remove_empty_folders(root)
    return removed


def _remove_empty_folders(root: Path) -> None:
    for folder, _dirs, _names in os.walk(root, topdown=False):
        if folder != str(root):
            try:
                os.rmdir(folder)  # only an empty folder is removed
            except OSError:
                pass


def trim_now_and_then(root: Path, limit: int, now: float | None = None) -> int:
    """:func:`trim` when the folder was last measured :data:`EVERY` seconds ago or more (or never)."""
    if limit <= 0 or not root.is_dir():
        return 0
    stamp = root / STAMP
    moment = time.time() if now is None else now
    try:
        if moment - stamp.stat().st_mtime < EVERY:
            return 0
    except OSError:
        pass
    try:
        stamp.touch()
        os.utime(stamp, (moment, moment))
    except OSError:
        return 0
    return trim(root, limit)


def trim_user_cache() -> int:
    """Bound this process's cache folder (see the module's docstring); never raises for a file-system error."""
    from punchboard.plumbing.cache_root import current_cache_root

    try:
        return trim_now_and_then(current_cache_root(), limit_from(os.environ.get(LIMIT_ENV)))
    except OSError:
        return 0
