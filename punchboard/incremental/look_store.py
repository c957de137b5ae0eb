"""Kept looks on disk: ``OUT/<game>/.punchboard-sides/<component>.looks``.

The colour-blind check (preflight/colour_blind.py) compares what each piece
shows apart from colour, and the colours it shows. Working that out binds every
element of both sides to the piece's fields, which for a 2,000-card deck took
longer than drawing the one card an edit changed. A piece's look depends only
on its layouts, the palette and its fields, so it is kept by a key over those
and found again by the next build. The file holds the looks of the pieces of
the last build (``marshal``: plain tuples, strings and bytes, a look's colours packed in one bytes; a look digest
or a tuple of places many pieces share is written once); its header
names the Python that wrote it and the salt (code, options, palette) the looks
were worked out under, and a file with another header is started afresh.
"""

from __future__ import annotations

import marshal
import sys
from pathlib import Path
from typing import Any

from punchboard.incremental.sealed import read_sealed_strict, write_sealed

from .build_cache import SIDES_FOLDER

FORMAT = 3


class LookStore:
    """One component's kept looks: ``get`` finds a look the last build kept, ``put`` keeps one for the next."""

    def __init__(self, folder: Path, component_id: str, salt: str, read: bool = True):
        self.path = folder / SIDES_FOLDER / f"{component_id}.looks"
        self.header = (f"punchboard kept looks {FORMAT} marshal {marshal.version} "
                       f"python {sys.version_info[0]}.{sys.version_info[1]} {salt}\n").encode()
        self._old: dict[bytes, Any] = {}
        self._new: dict[bytes, Any] = {}
        if read:
            self._read()

    def _read(self) -> None:
        try:
            data = read_sealed_strict(self.path)
        except (OSError, ValueError):  # missing, or damaged (DamagedRecord): worked out again
            return
        head, _, body = data.partition(b"\n")
        if head + b"\n" != self.header:
            return
        try:
            found = marshal.loads(body)
        except (ValueError, EOFError, TypeError):
            return
        if isinstance(found, dict):
            self._old = found

    def get(self, key: bytes) -> Any | None:
        found = self._new.get(key)
        if found is None:
            found = self._old.get(key)
            if found is not None:
                self._new[key] = found
        return found

    def put(self, key: bytes, look: Any) -> None:
        self._new[key] = look

    def save(self) -> None:
        """Write the looks this build used, unless they are the ones the file holds."""
        if self._new == self._old:
            return
        write_sealed(self.path, self.header + marshal.dumps(self._new))
