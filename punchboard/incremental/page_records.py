"""Kept pages on disk: ``OUT/<game>/.punchboard-sides/<component>.pages``, what the last build wrote of each page.

generator/document/kept_pages.py copies a page from the last build's PDF when what it shows and the state of its
document agree with what the last build wrote there; this module holds that record: one sealed file (sealed.py)
of ``marshal`` data, headed by :data:`HEADER` (the format and the Python that wrote it), stamped with the PDF it
describes (device, inode, size, times) and keyed by the document (:func:`document_key`). A record that does not
read back, or describes another file or another document, keeps no page.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from pathlib import Path
from typing import Any

from .build_cache import SIDES_FOLDER
from .file_digest import stamp
from .sealed import read_sealed, write_sealed

SUFFIX = ".pages"  # beside the component's kept sides (punchboard/incremental/side_store.py)
FORMAT = 3  # 3: the fonts the document's text is set in after the page
HEADER = f"punchboard kept pages {FORMAT} marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}"
# A page as remembered: key, state before, first object number, object names, their (offset, length), contents
# (number, offset, length), page tree number, references out (name, number), form name per slot, new forms
# (name, where, warnings), warnings given, kept sides used, print fingerprints taken ((component, piece, back),
# digest), its new forms' fingerprints ((form, bleed), digest), and the fonts the document's text was set in
# after it (the ones embedded, draw/pdf_canvas.py).
Record = tuple[Any, ...]
EMPTY: Record = ("",) * 15  # a page not to copy


def path_for(folder: Path, component_id: str) -> Path:
    """Where the pages of ``component_id``'s PDF in the game's output ``folder`` are recorded."""
    return folder / SIDES_FOLDER / f"{component_id}{SUFFIX}"


def document_key(salt: str, taking: bool, document: tuple[Any, ...]) -> str:
    """The key of a component's document: the build's ``salt``, whether print fingerprints are taken, and what
    all its pages share (title, style, page count…)."""
    return hashlib.sha256(repr((FORMAT, salt, taking, document)).encode()).hexdigest()


def read(path: Path, pdf: Path, doc_key: str) -> list[Record] | None:
    """The pages the last build recorded at ``path`` for the file ``pdf`` as it is now, under ``doc_key``; None when
    the record does not read back, or is of another format, file or document."""
    try:
        head, pdf_stamp, key, records = marshal.loads(read_sealed(path) or b"")
    except (EOFError, ValueError, TypeError):
        return None
    if head != HEADER or key != doc_key or tuple(pdf_stamp) != stamp(pdf):
        return None
    return records  # type: ignore[no-any-return]


def write(path: Path, pdf: Path, doc_key: str, records: list[Record | None]) -> None:
    """Record the pages of the file ``pdf`` as it is now (None: a page not to copy); nothing when it is gone."""
    now = stamp(pdf)
    if now is None:
        return
    write_sealed(path, marshal.dumps((HEADER, now, doc_key, [r if r is not None else EMPTY for r in records])))
