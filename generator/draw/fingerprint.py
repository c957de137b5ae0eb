"""A side's print fingerprint, taken from the operators the build draws it with.

The fingerprint (version :data:`VERSION`) is a SHA-256 over the side's trim size and,
element by element, the PDF operators that element drew in the side's own frame
(trim at the origin, upright), with everything that depends on drawing order
written out by what it stands for: a font by its name and the digest of its file,
text in a TrueType subset by its characters (reportlab numbers fonts and subset
codes in order of first use in a document), a transparency state by its values.
Images are named by their content already. The clip, the stamp and proof guides
are not part of it: they are where and how the sheet shows the side, not the side.

An element laid out on the bleed box depends on how much bleed the sheet keeps;
the fingerprint is defined at the bleed the component declares, so when the sheet
keeps another, that element alone is drawn again, at the declared bleed, on a
scratch canvas (:func:`redrawn`). Everything else is hashed as the build drew it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import BytesIO

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental.file_digest import file_digest

from .pdf_canvas import PunchCanvas, PunchDocument

VERSION = 2


@dataclass(frozen=True)
class Request:
    """Asks :func:`~.side.draw_side` for the side's fingerprint: ``take`` receives it.

    ``bleed`` is the bleed the fingerprint is defined at (the component's declared one)."""

    bleed: float
    take: Callable[[str], None]


_TOKEN = re.compile(
    rb"/(F\d+)(?:\+(\d+))?(?= [-\d.]+ Tf)"  # a font (and subset) selected
    rb"|\(((?:\\.|[^\\()])*)\)"  # a string shown
    rb"|/(gRLs\d+)(?= gs)"  # a transparency state
    rb"|/(Sh\d+)(?= sh)",  # a shading (SVG gradient)
    re.S,
)
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|.)", re.S)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _unescaped(text: bytes) -> bytes:
    def one(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code[:1].isdigit():
            return bytes([int(code, 8) & 0xFF])
        return _ESCAPES.get(code, code)

    return _ESCAPE.sub(one, text) if b"\\" in text else text


def _font_file(font: object) -> str:
    source = getattr(getattr(font, "face", None), "filename", None)
    if not source:
        return ""
    return file_digest(source) or "<missing>"  # a font replaced while `watch` runs is read again


class _Names:
    """What a document's order-dependent names stand for."""

    def __init__(self, canvas: Canvas):
        self.doc = canvas._doc
        self.fonts = {internal.lstrip("/"): name for name, internal in self.doc.fontMapping.items()}
        self.states = {name: key for key, name in canvas._extgstate._c.items()}

    def font(self, internal: str) -> tuple[bytes, object]:
        name = self.fonts.get(internal, internal)
        try:
            font = pdfmetrics.getFont(name)
        except KeyError:
            return name.encode(), None
        return _label(self.doc, name).encode(), font

    def shading(self, name: str) -> bytes:
        found = self.doc.idToObject.get(name)
        return _described(found).encode() if found is not None else name.encode()


def _described(value: object) -> str:
    """A shading by what it holds, its colour functions' too (their repr would be their address in memory)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_described(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_described(item)}" for key, item in sorted(value.items())) + "}"
    if hasattr(value, "__dict__"):
        return type(value).__name__ + _described(vars(value))
    return repr(value)


def _label(doc: PunchDocument, name: str) -> str:
    """A font by its name and its file's digest, worked out once per document."""
    labels = doc.state.font_labels
    found = labels.get(name)
    if found is None:
        try:
            found = f"{name}@{_font_file(pdfmetrics.getFont(name))}"
        except KeyError:
            found = name
        labels[name] = found
    return found


_SLOW = re.compile(r"\\[0-7]|/F\d+\+[1-9]| gs\b| sh\b")  # codes a TrueType subset assigns in order of use, states


def normalised(canvas: Canvas, code: Sequence[str]) -> bytes:
    """``code`` (operators drawn on ``canvas``) with its order-dependent names written out."""
    text = "\n".join(code)
    if "Tf" not in text and " gs" not in text and " sh" not in text:
        return text.encode("utf-8", "surrogateescape")
    if _SLOW.search(text) is None:
        # Only fonts to name: the text is ASCII, which a TrueType subset 0 codes as itself.
        for name, internal in canvas._doc.fontMapping.items():
            if internal + " " in text or internal + "+" in text:
                label = "/" + _label(canvas._doc, name)
                text = text.replace(internal + " ", label + " ").replace(internal + "+", label + "+")
        return text.encode("utf-8", "surrogateescape")
    return _decoded(canvas, text.encode("utf-8", "surrogateescape"))


def _decoded(canvas: Canvas, data: bytes) -> bytes:
    """The slow way: every string shown decoded through its font's subset, every state by its values."""
    names = _Names(canvas)
    out: list[bytes] = []
    last = 0
    subsets: list[int] | None = None
    for match in _TOKEN.finditer(data):
        out.append(data[last:match.start()])
        last = match.end()
        internal, subset, shown, state, shading = match.groups()
        if internal is not None:
            label, font = names.font(internal.decode())
            subsets = None
            if subset is not None:
                try:
                    subsets = font.state[names.doc].subsets[int(subset)]  # type: ignore[attr-defined]
                except (AttributeError, KeyError, IndexError, TypeError):
                    subsets = None
            out.append(b"/" + label)
        elif shown is not None:
            raw = _unescaped(shown)
            if subsets is not None:
                text = "".join(chr(subsets[b]) if b < len(subsets) else f"<{b}>" for b in raw)
                out.append(b"(u:" + text.encode("utf-8", "surrogatepass") + b")")
            else:
                out.append(b"(" + raw + b")")
        elif state is not None:
            out.append(repr(names.states.get(state.decode(), state)).encode())
        else:
            out.append(names.shading(shading.decode()))
    out.append(data[last:])
    return b"".join(out)


def digest(width: float, height: float, chunks: Sequence[bytes]) -> str:
    """The fingerprint of a side of ``width`` × ``height`` points drawn as ``chunks`` (one per element)."""
    sha = hashlib.sha256(f"punchboard side {VERSION} {width:.4f} {height:.4f}\n".encode())
    for chunk in chunks:
        sha.update(chunk)
        sha.update(b"\x00")
    return sha.hexdigest()


_SCRATCH: list[PunchCanvas] = []
SCRATCH_DRAWINGS = 2000  # a fresh scratch canvas after this many, so its document does not grow without end


def scratch() -> PunchCanvas:
    """A canvas to draw an element on only to fingerprint it (its page is emptied after every use)."""
    if not _SCRATCH or _SCRATCH[0].state.drawings >= SCRATCH_DRAWINGS:
        _SCRATCH[:] = [PunchCanvas(BytesIO(), page_compression=0)]
    canvas = _SCRATCH[0]
    canvas.state.drawings += 1
    return canvas
