"""Image files named by layouts: found inside the allowed folders, and decoded once to prove them sane.

Decoding every pixel is what catches a PNG whose header is fine but whose data
is corrupt, and it is most of the time ``check`` takes on a deck of 300-dpi
art. A successful decode is remembered (:mod:`.validated`) under a digest of
the file's bytes, the limits it was checked against and Pillow's version, so
an unchanged picture is decoded once, not on every command.
"""

from __future__ import annotations

import hashlib
import re
import struct
import warnings
import zlib
from pathlib import Path, PurePosixPath

from punchboard.plumbing.limits import FLAGS
from punchboard.plumbing.paths import is_inside
from punchboard.spec.model import Layout

from . import validated

FORMATS = {"PNG": "PNG", "JPEG": "JPG"}
VECTOR_SUFFIXES = (".svg",)


class ImageRefused(Exception):
    """An image src that is outside the allowed folders, missing, unsupported or too large."""


def find_image(src: str, folders: tuple[Path, ...]) -> Path:
    """The file ``src`` names in the first folder holding it; refuses escapes out of those folders."""
    parts = PurePosixPath(src.replace("\\", "/"))
    if parts.is_absolute() or ".." in parts.parts or (len(src) > 1 and src[1] == ":"):
        raise ImageRefused(f"image '{src}' lies outside the game folder; expected a path relative to the game or layout folder, without '..'")
    for folder in folders:
        candidate = folder / src
        if candidate.is_file():
            if not is_inside(candidate, folder):
                raise ImageRefused(f"image '{src}' links to a file outside its folder; expected a file inside the game folder")
            return candidate
    raise ImageRefused(f"image '{src}' not found; expected a file in the game folder or next to the layout")


def image_folders(layout: Layout, folders: tuple[Path, ...]) -> tuple[Path, ...]:
    """Where a layout's image ``src`` is looked for: ``folders`` (the game's) first, then the folders of
    the layout's file and of every file it extends."""
    return (*folders, *(p.parent for p in layout.chain))


def side_image(src: str, layout: Layout, folders: tuple[Path, ...]) -> Path | None:
    """The file a side's image element shows for ``src`` (bound to the piece's fields), searched as
    :func:`image_folders` says; None when there is none, or when it is refused (the loader reported that).
    The renderer, the build's fingerprints and the print fingerprints all find images through this."""
    if not src:
        return None
    try:
        return find_image(src, image_folders(layout, folders))
    except ImageRefused:
        return None


def check_image(path: Path, src: str, max_pixels: int, max_bytes: int) -> None:
    """Raise :class:`ImageRefused` unless ``path`` is a PNG/JPG of bounded size (or an SVG)."""
    size = path.stat().st_size
    if size > max_bytes:
        raise ImageRefused(f"image '{src}' is {size} bytes, more than the limit of {max_bytes} (raise it with {FLAGS['max_file_bytes']})")
    if path.suffix.lower() in VECTOR_SUFFIXES:
        check_svg(path, src)
        return
    import PIL  # the package's version only; Pillow's image code is imported to decode (a game without pictures never is)

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    entry = validated.key(path, digest, "image", max_pixels, max_bytes, PIL.__version__)
    if validated.known_valid(entry):
        return
    _decode(path, src, max_pixels)
    validated.remember_valid(entry)


def _decode(path: Path, src: str, max_pixels: int) -> None:
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                kind, (width, height) = image.format, image.size
                if kind not in FORMATS:
                    raise ImageRefused(f"image '{src}' is a {kind} file; expected PNG, JPG or SVG")
                if width * height > max_pixels:
                    raise ImageRefused(
                        f"image '{src}' is {width} × {height} pixels, more than the limit of {max_pixels} "
                        f"(raise it with {FLAGS['max_image_pixels']})"
                    )
                image.verify()
            with Image.open(path) as image:  # verify() reads chunks, not pixels: decode them all, as the build will
                image.load()
    except Image.DecompressionBombError:
        raise ImageRefused(
            f"image '{src}' has more than {min(max_pixels, 2 * (Image.MAX_IMAGE_PIXELS or 0))} pixels, too many to open safely; "
            f"expected a smaller image (raise the limit with {FLAGS['max_image_pixels']}, up to Pillow's own limit)"
        ) from None
    except UnidentifiedImageError:
        raise ImageRefused(f"image '{src}' is not a readable image; expected PNG, JPG or SVG") from None
    except (OSError, SyntaxError, ValueError, EOFError, struct.error, zlib.error) as exc:
        raise ImageRefused(f"image '{src}' is corrupt ({str(exc)[:120] or type(exc).__name__}); expected a valid PNG, JPG or SVG") from None


MAX_SVG_DEPTH = 64
MAX_SVG_ELEMENTS = 100_000
MAX_SVG_NUMBER = 1e9
_SVG_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def check_svg(path: Path, src: str) -> None:
    """Parse an SVG as the renderer will; refuse what it could not draw or would draw wrongly."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(path.read_bytes())
    except ET.ParseError as exc:
        raise ImageRefused(f"image '{src}' is not a readable SVG ({exc}); expected well-formed SVG XML") from None
    if root.tag.rsplit("}", 1)[-1] != "svg":
        raise ImageRefused(f"image '{src}' is not an SVG (its root element is <{root.tag.rsplit('}', 1)[-1][:40]}>); expected <svg>")
    stack, count = [(root, 1)], 0
    while stack:
        element, depth = stack.pop()
        count += 1
        if depth > MAX_SVG_DEPTH or count > MAX_SVG_ELEMENTS:
            what = f"nests deeper than {MAX_SVG_DEPTH} levels" if depth > MAX_SVG_DEPTH else f"has more than {MAX_SVG_ELEMENTS} elements"
            raise ImageRefused(f"image '{src}' {what}; expected a simpler SVG")
        for value in element.attrib.values():
            for number in _SVG_NUMBER.findall(value):
                if not abs(float(number)) <= MAX_SVG_NUMBER:
                    raise ImageRefused(f"image '{src}' holds the number {number[:40]}, beyond ±{MAX_SVG_NUMBER:g}; expected finite coordinates")
        stack.extend((child, depth + 1) for child in element)
    view = [float(n) for n in _SVG_NUMBER.findall(root.attrib.get("viewBox", ""))]
    if "viewBox" in root.attrib and (len(view) != 4 or view[2] <= 0 or view[3] <= 0):
        raise ImageRefused(f"image '{src}' has viewBox '{root.attrib['viewBox'][:40]}'; expected four numbers with a positive width and height")
