"""The combined print-and-play PDF, assembled from the per-component PDFs.

Pages are copied, not drawn again, so a rebuild after a one-card tweak
re-renders only that component and still yields a combined PDF identical to a
clean build's. The page objects are copied (see :mod:`.merge`); the result is
deterministic (no timestamps, no random file id).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

from punchboard.plumbing.atomicio import writing

from .merge import merge_to


@dataclass(frozen=True)
class Part:
    """A PDF to include, and whether each of its pages is followed by a blank reverse."""

    pdf: bytes | Path
    blank_reverses: bool = False


def assemble(parts: Sequence[Part], blank_page: bytes, title: str, subject: str, duplex: str | None = None,
             print_range: tuple[int, int] | None = None) -> bytes:
    """Every part's pages in order, as bytes (see :func:`assemble_to`)."""
    out = BytesIO()
    _assemble(out, parts, blank_page, title, subject, duplex, print_range)
    return out.getvalue()


def assemble_to(path: Path, parts: Sequence[Part], blank_page: bytes, title: str, subject: str,
                duplex: str | None = None, print_range: tuple[int, int] | None = None) -> None:
    """Every part's pages in order, written to ``path`` (atomically) as they are copied: the parts'
    streams go from their files to this one in chunks, never all in memory at once.
    ``print_range`` (first and last page, from 1) is the print dialog's default page range."""
    with writing(path) as handle:
        _assemble(handle, parts, blank_page, title, subject, duplex, print_range)


def _assemble(out: BinaryIO, parts: Sequence[Part], blank_page: bytes, title: str, subject: str,
              duplex: str | None, print_range: tuple[int, int] | None = None) -> None:
    """PDFs punchboard wrote are copied object by object (:mod:`.merge`, no parsing of their
    content); anything else goes through pypdf."""
    if merge_to(out, [(p.pdf, p.blank_reverses) for p in parts], blank_page, title, subject, duplex, print_range):
        return
    from pypdf import PdfReader, PdfWriter  # only when a combined PDF is written: pypdf takes 0.1 s to import
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    writer = PdfWriter()
    blank = PdfReader(BytesIO(blank_page)).pages[0]
    for part in parts:
        source = BytesIO(part.pdf) if isinstance(part.pdf, bytes) else part.pdf
        for page in PdfReader(source).pages:
            writer.add_page(page)
            if part.blank_reverses:
                writer.add_page(blank)
    writer.add_metadata(
        {"/Title": title, "/Subject": subject, "/Author": "punchboard", "/Creator": "punchboard", "/Producer": "punchboard"}
    )
    preferences = writer.create_viewer_preferences()
    preferences[NameObject("/PrintScaling")] = NameObject("/None")
    if duplex:
        preferences[NameObject("/Duplex")] = NameObject(f"/{duplex}")
    if print_range is not None:
        preferences[NameObject("/PrintPageRange")] = ArrayObject([NumberObject(print_range[0] - 1), NumberObject(print_range[1] - 1)])
    writer.write(out)
