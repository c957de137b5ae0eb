"""PNG files kept across exports: an image drawn the same as last time is not encoded or written again.

Encoding PNGs was two thirds of ``punchboard images`` (Steam Court: 8.5 of 12.6 s), and
a one-card tweak changes one image. The images folder holds a record per component,
``.punchboard-images/<component>.json``, of the images the last export wrote: for each file, a
digest of the pixels it was encoded from (with their mode, size and the dpi written in
the file, under the encoder's versions: Pillow's and zlib's) and the SHA-256 of the
bytes written. An image whose pixels digest the same, whose file still holds exactly
those bytes, is left as it is: the file is the one a fresh export writes, byte for
byte. A record that does not read back keeps nothing; the record is rewritten with
the images of this export only.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from functools import cache
from pathlib import Path

from PIL import Image

from punchboard.plumbing.atomicio import write_cache
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
    sha = hashlib.blake2b(f"{_encoder()}:{image.mode}:{image.size}:{dpi!r}\n".encode(), digest_size=32)
    sha.update(image.tobytes())
    return sha.hexdigest()


def _record(images: Path, component: str) -> Path:
    return images / RECORDS / f"{component}.json"


def read(images: Path, component: str) -> Kept:
    """What the last export wrote of this component's images under ``images`` (empty when its record does
    not read back)."""
    try:
        data = json.loads(_record(images, component).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or not isinstance(data.get("files"), dict):
            return {}
        return {str(name): (str(entry[0]), str(entry[1])) for name, entry in data["files"].items()
                if isinstance(entry, list) and len(entry) == 2}
    except (OSError, ValueError, TypeError, AttributeError, KeyError):
        return {}


def unchanged(kept: Kept, path: Path, pixels: str) -> bool:
    """Whether ``path`` already holds the PNG of pixels digesting to ``pixels`` (as the last export wrote it)."""
    known = kept.get(path.name)
    return known is not None and known[0] == pixels and file_digest(path) == known[1]


def write(images: Path, component: str, files: Kept) -> None:
    """Record what this export wrote of this component's images under ``images``."""
    data = {"format": FORMAT, "files": {name: list(files[name]) for name in sorted(files)}}
    write_cache(_record(images, component), (json.dumps(data, indent=0) + "\n").encode("utf-8"))
