"""Look checks that passed, remembered on disk: a deck with one card edited checks that card's sides, not the deck's.

:mod:`.look_checks` checks each side of each piece against the values its fields
give (colours, fonts, lengths, icon names). Whether a side passes depends on its
layout, the palette, the fonts and icons it may name, and the values of the fields
the layout reads; not on where those values were written (only a problem names
that). So a pass is remembered by a digest of exactly those, one small file per
game folder in the user's cache folder (beside the parsed YAML), holding the
passes of the sides the game has now: the file does not grow with edits. A side
that found a problem is checked every time, so its message names its own cell. The
digest includes this module's and the checks' source, so new checks check again.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from functools import cache
from pathlib import Path
from typing import Any

from punchboard.plumbing.paths import PACKAGE, resolved

from . import validated
from .sealed import read_sealed_strict, write_sealed

SUBFOLDER = "looks"
FORMAT = 4  # the passes as one string of 32-byte digests (a marshalled set marshals each member again to sort it); 4: rich-text tags checked
_DIGEST = 32


@cache
def _versions() -> bytes:
    sha = hashlib.sha256(f"{FORMAT}:python {sys.version_info[0]}.{sys.version_info[1]}:marshal {marshal.version}".encode())
    spec = PACKAGE / "spec"
    for source in (Path(__file__), *(spec / name for name in ("look_checks.py", "binding.py", "icons.py", "reads.py"))):
        sha.update(source.read_bytes())
    return sha.digest()


class LookPasses:
    """The passes remembered for one game folder; :meth:`save` keeps those asked about in this load."""

    def __init__(self, game_folder: Path):
        name = hashlib.sha256(str(resolved(game_folder)).encode()).hexdigest()
        self.path = validated.folder().parent / SUBFOLDER / name[:2] / name
        self.known: set[bytes] = set()
        self.now: set[bytes] = set()  # the passes of this load's sides
        try:
            versions, known = marshal.loads(read_sealed_strict(self.path))
            if versions == _versions() and isinstance(known, bytes) and len(known) % _DIGEST == 0:
                self.known = {known[at:at + _DIGEST] for at in range(0, len(known), _DIGEST)}
        except (OSError, EOFError, ValueError, TypeError):
            pass

    @staticmethod
    def setting(*parts: Any) -> bytes:
        """A digest of what every side of one layout is checked under (the layout, palette, fonts, icons)."""
        return hashlib.sha256(repr(parts).encode()).digest()

    @staticmethod
    def key(setting: bytes, reads: bytes) -> bytes:
        """A side's pass: its layout's setting and the values of the fields the layout reads (their digest,
        reads.reuse_key)."""
        return hashlib.sha256(setting + reads).digest()

    def passed(self, key: bytes) -> bool:
        if key in self.known:
            self.now.add(key)
            return True
        return False

    def add(self, key: bytes) -> None:
        self.now.add(key)

    def save(self) -> None:
        """Keep this load's passes, unless they are the ones already kept (or the folder cannot be written)."""
        if self.now == self.known:
            return
        try:
            write_sealed(self.path, marshal.dumps((_versions(), b"".join(sorted(self.now)))))
        except OSError:
            pass
