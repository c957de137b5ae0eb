"""Image files named by layouts: found inside the allowed folders, and decoded once to prove them sane.

Decoding every pixel is what catches a PNG whose header is fine but whose data
is corrupt, and it is most of the time ``check`` takes on a deck of 300-dpi
art. A successful decode is remembered (:mod:`punchboard.incremental.validated`) under a digest of
the file's bytes, the limits it was checked against and Pillow's version, so
an unchanged picture is decoded once, not on every command.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import re
import struct
import warnings
import zlib
from pathlib import Path, PurePosixPath

from punchboard.incremental import validated
from punchboard.plumbing.limits import DEFAULT_LIMITS, FLAGS
from punchboard.plumbing.paths import is_inside
from punchboard.spec.model import Layout

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
        check_svg(path, src, max_pixels)
        return
    import PIL  # the package's version only; Pillow's image code is imported to decode (a game without pictures never is)

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    entry = validated.key(path, digest, "image", max_pixels, max_bytes, PIL.__version__)
    if validated.known_valid(entry):
        return
    _decode(path, f"image '{src}'", max_pixels)
    validated.remember_valid(entry)


def _decode(source: Path | bytes, label: str, max_pixels: int) -> None:
    """Decode every pixel of ``source`` (a file, or the bytes of an embedded picture) within ``max_pixels``, or
    raise :class:`ImageRefused` saying what is wrong with it (``label``: how it is named, "image 'a.png'")."""
    from PIL import Image, UnidentifiedImageError

    def opened() -> Image.Image:
        return Image.open(io.BytesIO(source) if isinstance(source, bytes) else source)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with opened() as image:
                kind, (width, height) = image.format, image.size
                if kind not in FORMATS:
                    raise ImageRefused(f"{label} is a {kind} file; expected PNG, JPG or SVG")
                if width * height > max_pixels:
                    raise ImageRefused(
                        f"{label} is {width} × {height} pixels, more than the limit of {max_pixels} "
                        f"(raise it with {FLAGS['max_image_pixels']})"
                    )
                image.verify()
            with opened() as image:  # verify() reads chunks, not pixels: decode them all, as the build will
                image.load()
    except Image.DecompressionBombError:
        raise ImageRefused(
            f"{label} has more than {min(max_pixels, 2 * (Image.MAX_IMAGE_PIXELS or 0))} pixels, too many to open safely; "
            f"expected a smaller image (raise the limit with {FLAGS['max_image_pixels']}, up to Pillow's own limit)"
        ) from None
    except UnidentifiedImageError:
        raise ImageRefused(f"{label} is not a readable image; expected PNG, JPG or SVG") from None
    except (OSError, SyntaxError, ValueError, EOFError, struct.error, zlib.error) as exc:
        raise ImageRefused(f"{label} is corrupt ({str(exc)[:120] or type(exc).__name__}); expected a valid PNG, JPG or SVG") from None


MAX_SVG_DEPTH = 64
MAX_SVG_ELEMENTS = 100_000
MAX_SVG_NUMBER = 1e9
MAX_SVG_BYTES = 2_000_000  # the largest SVG the renderer (generator/draw/svg.py) converts
_SVG_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
# Words of an attribute value whose digits are no number: a colour or a reference (#1f4e79, url(#g4e79)),
# an embedded picture (data:…), a quoted font family name
_NOT_NUMBERS = re.compile(r"#[\w.:-]*|url\([^)]*\)|data:\S*|'[^']*'|\"[^\"]*\"", re.IGNORECASE)
# Attributes that hold names, never numbers (their local names)
_NAME_ATTRIBUTES = frozenset({"id", "class", "href", "font-family", "lang", "space", "type", "media", "name", "title"})
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_EMBEDDED = re.compile(r"^data:image/(jpe?g|png);base64")  # what svglib decodes; other data: URIs it leaves out


def check_svg(path: Path, src: str, max_pixels: int = DEFAULT_LIMITS.max_image_pixels) -> None:
    """Parse an SVG as the renderer will; refuse what it could not draw or would draw wrongly, and decode each
    picture it embeds (``data:`` URI) as :func:`check_image` decodes a file (within ``max_pixels``)."""
    import xml.etree.ElementTree as ET

    size = path.stat().st_size
    if size > MAX_SVG_BYTES:
        raise ImageRefused(f"image '{src}' is an SVG of {size} bytes, more than the {MAX_SVG_BYTES} an SVG may have; "
                           "expected a smaller SVG (or a PNG or JPG of the picture)")
    data = path.read_bytes()
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ImageRefused(f"image '{src}' is not a readable SVG ({exc}); expected well-formed SVG XML") from None
    if root.tag.rsplit("}", 1)[-1] != "svg":
        raise ImageRefused(f"image '{src}' is not an SVG (its root element is <{root.tag.rsplit('}', 1)[-1][:40]}>); expected <svg>")
    embedded: list[str] = []
    stack, count = [(root, 1)], 0
    while stack:
        element, depth = stack.pop()
        count += 1
        if depth > MAX_SVG_DEPTH or count > MAX_SVG_ELEMENTS:
            what = f"nests deeper than {MAX_SVG_DEPTH} levels" if depth > MAX_SVG_DEPTH else f"has more than {MAX_SVG_ELEMENTS} elements"
            raise ImageRefused(f"image '{src}' {what}; expected a simpler SVG")
        _check_numbers(element.attrib, src)
        if element.tag.rsplit("}", 1)[-1] == "image":
            href = element.attrib.get(_XLINK_HREF) or element.attrib.get("href") or ""
            if href.startswith("data:"):
                embedded.append(href)
        stack.extend((child, depth + 1) for child in element)
    view = [float(n) for n in _SVG_NUMBER.findall(root.attrib.get("viewBox", ""))]
    if "viewBox" in root.attrib and (len(view) != 4 or view[2] <= 0 or view[3] <= 0):
        raise ImageRefused(f"image '{src}' has viewBox '{root.attrib['viewBox'][:40]}'; expected four numbers with a positive width and height")
    if embedded:
        _check_embedded(path, data, embedded, src, max_pixels)


def _check_numbers(attributes: dict[str, str], src: str) -> None:
    """Refuse a number in an attribute beyond ±MAX_SVG_NUMBER (svglib reads ``1e999`` as infinity); names,
    colours, references and embedded data are not read as numbers."""
    for name, value in attributes.items():
        if name.rsplit("}", 1)[-1] in _NAME_ATTRIBUTES:
            continue
        for number in _SVG_NUMBER.findall(_NOT_NUMBERS.sub(" ", value)):
            if not abs(float(number)) <= MAX_SVG_NUMBER:
                raise ImageRefused(f"image '{src}' holds the number {number[:40]}, beyond ±{MAX_SVG_NUMBER:g}; expected finite coordinates")


def _check_embedded(path: Path, data: bytes, embedded: list[str], src: str, max_pixels: int) -> None:
    """Decode each picture an SVG embeds, as the renderer would; a decode that passed is remembered by the
    SVG's bytes (:mod:`punchboard.incremental.validated`)."""
    import PIL

    entry = validated.key(path, hashlib.sha256(data).hexdigest(), "svg pictures", max_pixels, PIL.__version__)
    if validated.known_valid(entry):
        return
    for number, href in enumerate(embedded, 1):
        what = f"picture {number} embedded in '{src}'"
        kind = _EMBEDDED.match(href)
        if kind is None:
            raise ImageRefused(f"image '{src}' embeds a picture as '{href[:40]}', which is not drawn; "
                               "expected data:image/png;base64 or data:image/jpeg;base64")
        try:
            picture = base64.decodebytes(href[kind.end() + 1:].encode("ascii"))
        except (ValueError, binascii.Error) as exc:
            raise ImageRefused(f"{what} is not readable base64 ({str(exc)[:80]}); expected a base64 PNG or JPG") from None
        _decode(picture, what, max_pixels)
    validated.remember_valid(entry)
