"""How punchboard's PDFs are encoded: binary streams, and a fast path for PDFDocEncoding.

Streams (page contents, forms, images, fonts) are Flate-compressed and written
as binary, without reportlab's default ASCII85 layer on top (``rl_config.useA85``):
ASCII85 makes every stream a quarter larger and costs time to write and to read,
and a PDF is a binary file anyway. Renders are identical either way.

A fast path for reportlab's PDFDocEncoding of ASCII text, giving the same bytes:

reportlab encodes every content stream and every formatted number through its
``extpdfdoc`` codec, a Python-level character map: in a 1,000-card deck that
was a fifth of the build. For ASCII without the eight codes the codec leaves
unmapped (0x18–0x1F, which it refuses), PDFDocEncoding is ASCII itself, so
``str.encode('ascii')`` writes exactly the bytes the codec would; anything
else still goes through the codec, errors included.
"""

from __future__ import annotations

import hashlib
import marshal
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc

_UNMAPPED = bytes(range(0x18, 0x20))
_codec_encode = pdfdoc.pdfdocEnc


def pdfdoc_encode(text: Any) -> Any:
    if isinstance(text, str) and text.isascii():
        encoded = text.encode("ascii")
        if len(encoded.translate(None, _UNMAPPED)) == len(encoded):
            return encoded
    return _codec_encode(text)


_ORIGINAL_FILE = pdfdoc.PDFFile
_local = threading.local()


class _File(_ORIGINAL_FILE):  # type: ignore[misc, valid-type]
    """reportlab's output collector; inside :func:`streaming_to`, each formatted object goes straight
    to the handle instead of a list joined at the end (same bytes, same offsets)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._sink = getattr(_local, "sink", None)
        if self._sink is not None:
            for chunk in self.strings:
                self._sink.write(chunk)
            self.strings = []
            self.write = self._sink.write

    def format(self, document: Any) -> bytes:
        return b"" if self._sink is not None else super().format(document)


@contextmanager
def streaming_to(handle: BinaryIO) -> Iterator[None]:
    """reportlab documents saved in this block (on this thread) are written to ``handle`` as they are formatted."""
    _local.sink = handle
    try:
        yield
    finally:
        _local.sink = None


class _Flate(pdfdoc.PDFStreamFilterZCompress):  # type: ignore[misc]
    """reportlab's Flate; inside :func:`remembering`, a long stream is first looked up among those the last build
    of the same PDF compressed."""

    def encode(self, text: Any) -> bytes:
        memo: FlateMemo | None = getattr(_local, "flate", None)
        if memo is None:
            return super().encode(text)  # type: ignore[no-any-return]
        if isinstance(text, str):
            text = text.encode("utf8")
        return memo.encode(text)


def install() -> None:
    """Binary streams, streamed saving, and the fast path for everything reportlab's pdfdoc module
    encodes (idempotent)."""
    rl_config.useA85 = 0
    pdfdoc.pdfdocEnc = pdfdoc_encode
    pdfdoc.PDFFile = _File
    if type(pdfdoc.PDFZCompress) is pdfdoc.PDFStreamFilterZCompress:
        pdfdoc.PDFZCompress = _Flate()


class FlateMemo:
    """The long streams one PDF's last build compressed, kept in a file beside its other kept parts, so the next
    build of that PDF compresses only the long streams that changed.

    Tokens and other shaped pieces are drawn into their page, not placed as forms: a sheet of gear tokens is a
    340 KB content stream, and compressing it again after a one-token edit cost more than drawing the token.
    A stream is found by a digest of its bytes, and what is found is inflated and compared with them before it
    is used; zlib gives the same bytes for the same input under one zlib version (in the file's header, with
    this module's format), so a PDF written with the memo is the PDF written without it. The file holds what
    the last write used, and is rewritten only when that changed.
    """

    FORMAT = 1
    SHORTEST = 32 << 10  # streams shorter than this are compressed every time (card pages, forms: most of them)
    LIMIT = 16 << 20  # compressed bytes one PDF's memo holds at most

    def __init__(self, path: Path, read: bool = True):
        self.path, self.read = path, read
        self.header = f"punchboard flate {self.FORMAT} zlib {zlib.ZLIB_RUNTIME_VERSION}"
        self._known: dict[bytes, bytes] | None = None
        self.used: dict[bytes, bytes] = {}
        self.held = 0
        self.active = False  # used for a write (:func:`remembering`); a memo never used leaves its file alone

    @property
    def known(self) -> dict[bytes, bytes]:
        """What the file holds (read when first asked for)."""
        if self._known is None:
            self._known = self._load() if self.read else {}
        return self._known

    def _load(self) -> dict[bytes, bytes]:
        try:
            header, known = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        if header != self.header or not isinstance(known, dict):
            return {}
        return known

    def encode(self, data: bytes) -> bytes:
        if len(data) < self.SHORTEST:
            return zlib.compress(data)
        key = hashlib.blake2b(data, digest_size=32).digest()
        found = self.used.get(key)
        if found is None:
            found = self.known.get(key)
            if found is None or not _inflates_to(found, data):  # a damaged file is never a wrong PDF
                found = zlib.compress(data)
            if self.held + len(found) <= self.LIMIT:
                self.used[key] = found
                self.held += len(found)
        return found

    def save(self) -> None:
        """Keep what this write used, when that is not what the file holds."""
        if not self.active or self.used.keys() == self.known.keys():
            return
        from punchboard.plumbing.atomicio import write_cache

        if not self.used:
            self.path.unlink(missing_ok=True)
            return
        write_cache(self.path, marshal.dumps((self.header, self.used)))


def _inflates_to(compressed: Any, data: bytes) -> bool:
    """Whether ``compressed`` is Flate bytes of ``data`` (inflating is a tenth of the cost of deflating)."""
    try:
        return isinstance(compressed, bytes) and zlib.decompress(compressed) == data
    except zlib.error:
        return False


@contextmanager
def remembering(memo: FlateMemo | None) -> Iterator[None]:
    """Long streams compressed in this block (on this thread) go through ``memo``; a process that keeps every
    stream it compressed (:func:`keep_encoded`: watch, serve) has no use for one."""
    if memo is None or isinstance(pdfdoc.PDFZCompress, _KeptFlate):
        yield
        return
    memo.active = True
    _local.flate = memo
    try:
        yield
    finally:
        _local.flate = None


class _KeptFlate(pdfdoc.PDFStreamFilterZCompress):  # type: ignore[misc]
    """Flate that remembers what it compressed (zlib gives the same bytes for the same input): in a
    long-running process a save rewrites pages and font subsets that are mostly as they were."""

    def __init__(self, limit: int) -> None:
        self.limit = limit  # bytes of input remembered; beyond, it starts afresh
        self.held = 0
        self.known: dict[bytes, bytes] = {}

    def encode(self, text: Any) -> bytes:
        if isinstance(text, str):
            text = text.encode("utf8")
        known = self.known.get(text)
        if known is None:
            known = super().encode(text)
            if self.held + len(text) > self.limit:
                self.known.clear()
                self.held = 0
            self.known[text] = known
            self.held += len(text)
        return known


_ORIGINAL_SUBSET = None


def keep_encoded(limit: int = 32 << 20) -> None:
    """For the rest of this process (watch, serve): remember compressed streams by their bytes and font
    subsets by their font and letters, so a save re-encodes only what changed (same bytes)."""
    global _ORIGINAL_SUBSET
    from reportlab.pdfbase import ttfonts

    if not isinstance(pdfdoc.PDFZCompress, _KeptFlate):
        pdfdoc.PDFZCompress = _KeptFlate(limit)
    if _ORIGINAL_SUBSET is None:  # the fonts a document embeds (TTFontFace), not the ones the loader checks
        _ORIGINAL_SUBSET = original = ttfonts.TTFontFace.makeSubset
        subsets: dict[tuple[int, tuple[int, ...]], tuple[Any, bytes]] = {}

        def make_subset(self: Any, subset: Any) -> bytes:
            key = (id(self), tuple(subset))
            known = subsets.get(key)
            if known is None or known[0] is not self:
                if len(subsets) >= 64:
                    subsets.clear()
                known = subsets[key] = (self, original(self, subset))
            return known[1]

        ttfonts.TTFontFace.makeSubset = make_subset
