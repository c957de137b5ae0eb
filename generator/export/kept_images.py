"""PNG files kept across exports: an image drawn the same as last time is not encoded or written again.

Encoding PNGs was two thirds of ``punchboard images`` (Steam Court: 8.5 of 12.6 s), and
a one-card tweak changes one image. The images folder holds a record per component,
``.punchboard-images/<component>.json``, of the images the last export wrote: for each file, a
digest of the pixels it was encoded from (with their mode, size and the dpi written in
the file, under the encoder's versions: Pillow's and zlib's) and the SHA-256 of the
bytes written. An image whose pixels digest the same, whose file still holds exactly
those bytes, is left as it is: the file is the one a fresh export writes, byte for
byte. A record that does not read back keeps nothing; the record is rewritten with
the images of this export only. ``tts`` keeps its sheets and piece images the same
way (``tts/.punchboard-images.json``).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from functools import cache
from io import BytesIO
from pathlib import Path

from PIL import Image

from punchboard.plumbing.atomicio import write_bytes, write_cache
from punchboard.plumbing.file_digest import file_digest

RECORDS = ".punchboard-images"  # beside the component folders, which hold only images
FORMAT = 1
Kept = dict[str, tuple[str, str]]  # file name → (pixels digest, file's SHA-256)


@cache
def _encoder() -> str:
    import PIL

    return f"{FORMAT}:pillow {PIL.__version__}:zlib {zlib.ZLIB_RUNTIME_VERSION}"


def pixels_digest(image: Image.Image, dpi: float | None) -> str:
    """What a PNG of ``image`` is encoded from: its pixels, mode, size and the dpi written, and the encoder."""
    sha = hashlib.sha256(f"{_encoder()}:{image.mode}:{image.size}:{dpi!r}\n".encode())
    sha.update(image.tobytes())
    return sha.hexdigest()


def read(record: Path) -> Kept:
    """What the export that wrote ``record`` wrote (empty when it does not read back)."""
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or not isinstance(data.get("files"), dict):
            return {}
        return {str(name): (str(entry[0]), str(entry[1])) for name, entry in data["files"].items()
                if isinstance(entry, list) and len(entry) == 2}
    except (OSError, ValueError, TypeError, AttributeError, KeyError):
        return {}


def write(record: Path, files: Kept) -> None:
    """Record what an export wrote (file name → pixels digest, file's SHA-256)."""
    data = {"format": FORMAT, "files": {name: list(files[name]) for name in sorted(files)}}
    write_cache(record, (json.dumps(data, indent=0) + "\n").encode("utf-8"))


class KeptPngs:
    """The PNG files of one export folder: :meth:`write` leaves a file that already holds the PNG of the same
    pixels as it is, and :attr:`written` is the record of this export's files (see the module's docstring)."""

    def __init__(self, record: Path):
        self.record = record
        self.kept = read(record)
        self.written: Kept = {}

    def write(self, path: Path, image: Image.Image, dpi: float | None = None) -> None:
        pixels = pixels_digest(image, dpi)
        known = self.kept.get(path.name)
        if known is not None and known[0] == pixels and file_digest(path) == known[1]:
            self.written[path.name] = known
            return
        data = png_bytes(image, dpi)
        write_bytes(path, data)
        self.written[path.name] = (pixels, hashlib.sha256(data).hexdigest())

    def save(self) -> None:
        """Record this export's files for the next export (nothing when it wrote none)."""
        if self.written:
            write(self.record, self.written)


def png_bytes(image: Image.Image, dpi: float | None = None) -> bytes:
    """PNG bytes with no timestamp or text chunks, so identical pixels give identical files."""
    buffer = BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buffer, format="PNG", optimize=False, compress_level=6, **extra)
    return buffer.getvalue()
