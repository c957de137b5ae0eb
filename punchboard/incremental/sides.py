"""A drawn side kept across builds, as the incremental layer keeps it: the record, its key, and the store's interface.

The drawing side (generator/draw/kept.py) fixes a document's fonts, watches what a side's drawing changed and
decides whether it is kept; this module holds what is kept of it (:class:`KeptSide`), the key it is found by
(:func:`key`: a digest over the build's ``salt``, the layout with its fonts' files (:func:`layout_digest`), the
pictures, fields, frame and fixed fonts the drawing passes in) and where it is found and put (:class:`Store`; a
store that keeps sides in a file: punchboard/incremental/side_store.py). :data:`FORMAT` is part of every key.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from punchboard.incremental.file_digest import file_digest as plumbing_file_digest
from punchboard.incremental.identity import ByIdentity
from punchboard.spec.model import Layout

FORMAT = 3  # the kept entries' layout; part of every key (3: no font calls, the document's fonts fixed first)


@dataclass
class KeptSide:
    """One drawn side as the document received it."""

    stream: bytes  # the form's content, encoded as packed_forms.pack writes it
    filters: tuple[str, ...]  # the stream's filter names, in the order the PDF lists them
    faces: tuple[str, ...]  # the fonts its text is set in (the document's fixed fonts), sorted
    heard: tuple[tuple[bool, str], ...]  # its warnings: (True, text after the piece's 'where') or (False, whole)
    prints: dict[str, str] = field(default_factory=dict)  # print fingerprint by bleed (repr, 4 decimals)
    runs: tuple[tuple[int, ...], ...] = ()  # the runs of fixed elements it places as forms (draw/fixed_forms.py)


class Store:
    """Where a component's kept sides are found and put (punchboard/incremental/side_store.py keeps them in a file);
    this one keeps nothing. ``salt``: what every side is keyed under besides its own inputs; ``fonts``: the fonts
    of the component whose sides it keeps (:func:`font_set`; None: no side is kept)."""

    def __init__(self, salt: str, fonts: FontSet | None = None):
        self.salt = salt
        self.fonts = fonts
        self.drawn = 0  # sides drawn in this build
        self.replayed = 0  # sides reused from an earlier build

    def get(self, key: str) -> KeptSide | None:
        return None

    def put(self, key: str, kept: KeptSide) -> None:
        pass

    def took(self, key: str) -> None:
        """The side kept under ``key`` was reused."""
        self.replayed += 1

    def run(self, name: str) -> tuple[bytes, tuple[str, ...]] | None:
        """The encoded content and filters of the run form ``name`` as an earlier build drew it (draw/fixed_forms.py),
        or None; asking keeps it for the next build."""
        return None

    def keep_run(self, name: str, stream: bytes, filters: tuple[str, ...]) -> None:
        """The run form ``name`` was drawn in this build: keep it for the next."""


@dataclass(frozen=True)
class FontSet:
    """What a component's text can be set in: each face its layouts can name (name → its file; None for a
    built-in one), by name, and every character its text can hold, by code point (:func:`font_set`)."""

    faces: tuple[tuple[str, Path | None], ...]
    chars: str
    digest: str  # of both


_LAYOUTS: ByIdentity[Layout, str] = ByIdentity()


def file_digest(path: Path) -> str:
    """A file's content digest ("missing" when it cannot be read), read again only when it may have changed."""
    return plumbing_file_digest(path) or "missing"


def layout_digest(layout: Layout) -> str:
    """A layout by its whole content (elements, sizes, palette, the files it came from) and its fonts' files."""
    return _LAYOUTS.get(layout, _layout_digest)


def _layout_digest(layout: Layout) -> str:
    sha = hashlib.sha256(repr(layout).encode())
    for name in sorted(layout.fonts):
        sha.update(f"{name}:{file_digest(layout.fonts[name])}".encode())
    return sha.hexdigest()


def bleed_name(bleed: float) -> str:
    return f"{bleed:.4f}"


def key(salt: str, parts: tuple[Any, ...]) -> str:
    sha = hashlib.sha256(f"{FORMAT}:{salt}:0".encode())  # 0: streams without ASCII85 (draw/pdf_canvas.py)
    sha.update(repr(parts).encode())
    return sha.hexdigest()
