"""reportlab's last step, writing a document's objects (document/pdf_encoding.py's writer), with the kept pages'
copies written a run at a time.

A one-card edit of a 2,000-card deck copies 2,900 of its 2,906 objects from the last build's file
(:mod:`.kept_pages`), nearly all of them under the number they had there and with every reference they hold
unchanged: their bytes are the old file's, one after another. reportlab formats each object on its own
(the body copied four times over, 6 µs an object). :func:`format_in_runs` is reportlab's
``PDFDocument.format`` with each such run read from the old file and written in pieces of about a block,
cut at object boundaries, every object's first and last line checked where it lies: the same bytes, the same
offsets. Any other object is formatted as reportlab formats it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, BinaryIO, Protocol

from reportlab.pdfbase import pdfdoc

from punchboard.plumbing.file_window import BLOCK

from .page_content import SpliceFailed


class Source(Protocol):
    handle: BinaryIO


# An object written as it lies in the old file: (that file, its offset, its length), or None
Verbatim = Callable[[Any, int, Any], "tuple[Source, int, int] | None"]


def format_in_runs(doc: Any, verbatim: Verbatim, out: Any, prepare: Callable[[Any], None]) -> bytes:
    """``doc.format()`` (reportlab 4–5) into ``out`` (a ``PDFFile``), each object given to ``prepare`` before it is
    formatted, the objects ``verbatim`` says lie as they are in an old file, one after another, copied from it a
    run at a time. punchboard's documents are invariant and neither encrypted nor signed."""
    doc.encrypt.prepare(doc)
    catalog, info = doc.Catalog, doc.info
    doc.Reference(catalog)
    doc.Reference(info)
    to_id, objects, offsets = doc.numberToId, doc.idToObject, doc.idToOffset
    doc.__accum__ = out
    ids: list[str] = []
    number = 1
    asked = False  # whether ``found`` is already what verbatim says of object ``number`` (it stopped a run)
    found: tuple[Source, int, int] | None = None
    while number in to_id:  # objects may be registered while others are formatted
        name = to_id[number]
        if not asked:
            found = verbatim(objects[name], number, doc)
        asked = False
        if found is None:
            prepare(objects[name])
            offsets[name] = out.add(pdfdoc.PDFIndirectObject(name, objects[name]).format(doc))
            ids.append(name)
            number += 1
            continue
        source, start, length = found
        run = [(number, name, start, length)]
        number += 1
        while number in to_id:
            name = to_id[number]
            found = verbatim(objects[name], number, doc)
            if found is None or found[0] is not source or found[1] != start + length:
                asked = True
                break
            start, length = found[1], found[2]
            run.append((number, name, start, length))
            number += 1
        _copy_run(out, source.handle, run, offsets, ids)
    del doc.__accum__
    if number - 1 != len(to_id):
        raise ValueError(f"counter {number} doesn't match number to id dictionary {len(to_id)}")
    at = out.add(_cross_references(doc, ids))
    trailer = pdfdoc.PDFTrailer(startxref=at, Size=len(to_id) + 1, Root=doc.Reference(catalog),
                                Info=doc.Reference(info), Encrypt=None, ID=doc.ID())
    out.add(trailer.format(doc))
    return out.format(doc)  # type: ignore[no-any-return]


def lies_at(data: bytes, at: int, number: int, length: int) -> bool:
    """Whether object ``number`` lies whole in ``data`` from ``at`` for ``length`` bytes, as reportlab writes it
    (``N 0 obj`` to ``endobj``)."""
    return data.startswith(b"%d 0 obj\n" % number, at) and data.endswith(b"endobj\n", at, at + length)


def _copy_run(out: Any, handle: BinaryIO, run: list[tuple[int, str, int, int]], offsets: dict[str, int],
              ids: list[str]) -> None:
    """Write the objects of ``run`` (number, name, offset and length in ``handle``), which lie one after another
    in ``handle``, read in pieces of whole objects about a block long."""
    first = 0
    while first < len(run):
        last = first
        start = run[first][2]
        while last + 1 < len(run) and run[last + 1][2] + run[last + 1][3] - start <= BLOCK:
            last += 1
        end = run[last][2] + run[last][3]
        handle.seek(start)
        data = handle.read(end - start)
        for number, _, offset, length in run[first:last + 1]:
            if not lies_at(data, offset - start, number, length):
                raise SpliceFailed(f"object {number} is not where it was")
        where = out.add(data)
        for _, name, offset, _ in run[first:last + 1]:
            offsets[name] = where + offset - start
            ids.append(name)
        first = last + 1


def _cross_references(doc: Any, ids: list[str]) -> bytes:
    """The cross-reference table reportlab writes for objects 1… in ``ids``' order (PDFCrossReferenceTable with
    one section from 0), without its object per entry."""
    numbers, offsets = doc.idToObjectNumberAndVersion, doc.idToOffset
    entries = [b"%010d %05d n \n" % (offsets[name], numbers[name][1]) for name in ids]
    return b"xref\n0 %d\n0000000000 65535 f \n" % (len(ids) + 1) + b"".join(entries)
