"""PNG files kept across exports: an image drawn the same as last time is not rendered, encoded or written again.

The records live in the incremental layer (punchboard/incremental/image_records.py); this module decides.

Rendering and encoding PNGs were all of ``punchboard images`` but a tenth (Steam Court:
12.6 s, 8.5 of them encoding), and a one-card tweak changes one image. The images folder
holds a record per component of the images the last export wrote: for each file, the SHA-256 of the bytes written, a digest of the pixels
they were encoded from (with their mode, size and the dpi written in the file, under the
encoder's versions: Pillow's and zlib's), and the *drawing key* the pixels were rendered
from: the bytes of the PDF page and of everything it draws with
(generator/document/merge.py's ``page_digests``), the pixel size, pypdfium2's version and
the code that renders and encodes. For each image of an export:

- a file whose drawing key is the same and which still holds the bytes written is left
  as it is, not rendered;
- otherwise the page is rendered, and a file whose pixels digest the same and which still
  holds the bytes written is left as it is, not encoded;
- otherwise it is encoded and written.

So every file is the one a fresh export writes, byte for byte. A drawing key is pessimistic
where the page's PDF changed without its look (another card in the same run giving its font
subset a letter): such a page is rendered, and its pixels decide. A record that does not
read back keeps nothing; the record is rewritten with the images of this export only. ``tts``
keeps its sheets and piece images by their pixels the same way.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from io import BytesIO
from pathlib import Path

from PIL import Image

from punchboard.incremental.file_digest import file_digest
from punchboard.incremental.image_records import FORMAT, Kept, read, read_json, write, write_json
from punchboard.plumbing.atomicio import write_bytes

STRIP = 64  # rows of pixels digested at a time


@cache
def _encoder() -> str:
    import PIL

    return f"{FORMAT}:pillow {PIL.__version__}:zlib {zlib.ZLIB_RUNTIME_VERSION}"


def pixels_digest(image: Image.Image, dpi: float | None) -> str:
    """What a PNG of ``image`` is encoded from: its pixels, mode, size and the dpi written, and the encoder."""
    sha = hashlib.sha256(f"{_encoder()}:{image.mode}:{image.size}:{dpi!r}\n".encode())
    width, height = image.size
    for top in range(0, height, STRIP):  # a strip at a time: a tts sheet is hundreds of MB as one copy
        sha.update(image.crop((0, top, width, min(top + STRIP, height))).tobytes())
    return sha.hexdigest()


class KeptPngs:
    """The PNG files of one export folder: :meth:`write` leaves a file that already holds the PNG of the same
    pixels as it is, and :attr:`written` is the record of this export's files (see the module's docstring).

    A file may also be known by a *drawing key* (``key``): a digest of everything its pixels are made from —
    the bytes of the PDF page they are rendered from and all it draws with, the pixel size, the renderer and
    the encoder. :meth:`current` tells that a file written from the same key still holds what was written,
    and so need not be rendered at all."""

    def __init__(self, record: Path):
        self.record = record
        self.kept = read(record)
        self.written: Kept = {}

    def current(self, path: Path, key: str | None) -> bool:
        """Whether ``path`` holds the PNG an earlier export made from the drawing ``key`` (then kept as it is)."""
        known = self.kept.get(path.name)
        if key is None or known is None or known[2] != key or file_digest(path) != known[1]:
            return False
        self.written[path.name] = known
        return True

    def write(self, path: Path, image: Image.Image, dpi: float | None = None, key: str | None = None) -> None:
        pixels = pixels_digest(image, dpi)
        known = self.kept.get(path.name)
        if known is not None and known[0] == pixels and file_digest(path) == known[1]:
            self.written[path.name] = (pixels, known[1], key or "")
            return
        data = png_bytes(image, dpi)
        write_bytes(path, data)
        self.written[path.name] = (pixels, hashlib.sha256(data).hexdigest(), key or "")

    def save(self) -> None:
        """Record this export's files for the next export (nothing when it wrote none)."""
        if self.written:
            write(self.record, self.written)


class PixelsMemo:
    """The SHA-256 of the pixels rendered from each drawing key, kept in a JSON file (None: kept in memory only):
    what ``tts`` compares a deck's backs by, so deciding whether they differ renders only backs not seen before.
    The file is rewritten with this export's keys when they are not the ones it holds."""

    def __init__(self, path: Path | None):
        self.path = path
        self.kept = {str(k): str(v) for k, v in read_json(path, "pixels").items()} if path is not None else {}
        self.used: dict[str, str] = {}

    def digests(self, keys: Sequence[str | None], render: Callable[[list[int]], Iterable[Image.Image]]) -> list[str]:
        """The pixels digest of each image drawn with ``keys``; ``render`` renders, in one pass, those (by position)
        whose key is not known, or is None."""
        found: list[str | None] = [self.used.get(key, self.kept.get(key)) if key is not None else None for key in keys]
        missing = [n for n, digest in enumerate(found) if digest is None]
        for n, image in zip(missing, render(missing), strict=True):
            found[n] = hashlib.sha256(image.tobytes()).hexdigest()
        for key, digest in zip(keys, found, strict=True):
            if key is not None and digest is not None:
                self.used[key] = digest
        return [digest for digest in found if digest is not None]

    def save(self) -> None:
        if self.path is None or self.used == self.kept:
            return
        write_json(self.path, "pixels", self.used)


def drawing_key(page: str | None, size: tuple[int, int], alpha: bool, dpi: float | None) -> str | None:
    """The drawing key of a PNG rendered at ``size`` from a PDF page whose bytes digest to ``page`` (None: no
    key), with the versions and code that render and encode it (see :class:`KeptPngs`)."""
    if page is None:
        return None
    sha = hashlib.sha256(f"{_renderer()}:{_encoder()}:{size}:{alpha}:{dpi!r}:{page}".encode())
    return sha.hexdigest()


@cache
def _renderer() -> str:
    from punchboard.incremental.validated import installed_version

    here = Path(__file__).resolve().parent
    code = ",".join(file_digest(here / name) or "missing" for name in ("images.py", "kept_images.py"))
    return f"pypdfium2 {installed_version('pypdfium2')}:{code}"


def png_bytes(image: Image.Image, dpi: float | None = None) -> bytes:
    """PNG bytes with no timestamp or text chunks, so identical pixels give identical files."""
    buffer = BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buffer, format="PNG", optimize=False, compress_level=6, **extra)
    return buffer.getvalue()
