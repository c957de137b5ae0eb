"""A file's content digest, read again only when the file may have changed.

A build digests every file a component is drawn from (its YAML, layouts, fonts, pictures) to tell
whether the component changed; a long-running process (watch, serve) did so after every save, fonts
included. A digest is remembered by the file's path together with its device, inode, size, and
modification and change times: writing a file moves its change time, which no program can set back,
and an editor's save-by-rename makes a new inode. A file changed in the last ``RACY_NS`` is not
remembered: a second write in the same tick of the file system's clock could leave every stamp the
same (git's "racy" files), so such a file is read each time until it has been still for a while.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

RACY_NS = 2_000_000_000
LIMIT = 4096

Stamp = tuple[int, int, int, int, int]

_known: dict[str, tuple[Stamp, str]] = {}


def stamp(path: Path | str) -> Stamp | None:
    """What tells a file's versions apart without reading it (None: no such file): its device, inode, size,
    and modification and change times."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


def file_digest(path: Path | str) -> str | None:
    """The SHA-256 of the file's bytes (hex), or None when it cannot be read."""
    name = str(path)
    now = stamp(name)
    if now is None:
        return None
    known = _known.get(name)
    if known is not None and known[0] == now:
        return known[1]
    try:
        with open(name, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None
    if time.time_ns() - max(now[3], now[4]) > RACY_NS:
        if name not in _known and len(_known) >= LIMIT:
            _known.clear()
        _known[name] = (now, digest)
    return digest
