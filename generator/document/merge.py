"""Concatenate PDFs that punchboard wrote itself, without parsing their content.

The component PDFs come from reportlab (:func:`generator.document.pages.render`):
a classic cross-reference table, one flat page tree, no object streams. Their
objects are copied byte for byte — content streams and images are never
decoded — and only the object numbers in each object's dictionary are shifted.
This is what the combined print-and-play PDF is made of; parsing every page
with a general PDF library took most of an image deck's build.

Only each object's dictionary is read into memory; streams are copied from the
part files to the output in chunks as it is written, so combining a large deck
costs memory for its page dictionaries, not for its pages.

The largest part (a game's big deck) is not even split into objects: it keeps
its own object numbers, so its bytes are copied as they lie, and the combined
PDF's catalog, page tree and information dictionary take the numbers its own
had (:class:`_Verbatim`); the other parts are numbered after it.

:func:`merge_to` returns False (having written nothing) for anything it does not
recognise, and the caller falls back to pypdf.

In a long-running process (watch, serve), :func:`keep_copies` has each part's objects, as copied
into the combined PDF, remembered by the part's identity and place: after a save only the parts that
changed are read and renumbered again; the bytes written are the same.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

from punchboard.incremental.file_digest import stamp
from punchboard.plumbing.file_window import BLOCK, FileWindow

from .references import references, renumbered

_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_HEADER = re.compile(rb"(\d+) 0 obj\r?\n")
_STREAM = re.compile(rb">>\s*stream\r?\n")
_ROOT = re.compile(rb"/Root (\d+) 0 R")
_INFO = re.compile(rb"/Info (\d+) 0 R")
_PAGES = re.compile(rb"/Pages (\d+) 0 R")
_KIDS = re.compile(rb"/Kids\s*\[([^\]]*)\]")
_PARENT = re.compile(rb"/Parent (\d+) 0 R")
_COUNT = re.compile(rb"/Count (\d+)")
_VIEWER = re.compile(rb"/ViewerPreferences (\d+) 0 R")
_HEAD_READ = 1 << 16  # bytes read to find an object's dictionary; streams are copied, not read whole
_CHUNK = BLOCK


class _Unknown(Exception):
    """Not a PDF of the shape this module copies."""


def _cross_references(handle: BinaryIO) -> tuple[int, dict[int, int], int, int, int | None]:
    """A PDF's size, where each object in use begins, where its cross-reference table begins, and its catalog's and information dictionary's numbers (``_Unknown``: not a file of the shape reportlab writes)."""
    size = handle.seek(0, 2)
    handle.seek(max(0, size - 1024))
    tail = handle.read()
    start = size - len(tail) + tail.rindex(b"startxref")
    xref = int(tail[tail.rindex(b"startxref") + 9:].split()[0])
    handle.seek(xref)
    head = handle.read(start - xref)
    if head[:4] != b"xref":
        raise _Unknown
    lines = head.split(b"\n")
    first, count = (int(v) for v in lines[1].split())
    offsets: dict[int, int] = {}
    for n, line in enumerate(lines[2:2 + count]):
        entry = _ENTRY.match(line)
        if entry is None:
            raise _Unknown
        if entry.group(3) == b"n":
            offsets[first + n] = int(entry.group(1))
    trailer = head[head.index(b"trailer"):]
    root, info = _ROOT.search(trailer), _INFO.search(trailer)
    if root is None:
        raise _Unknown
    return size, offsets, xref, int(root.group(1)), int(info.group(1)) if info else None


class _Source:
    """One PDF split into its objects: number → (dictionary part, where the rest up to endobj lies)."""

    def __init__(self, handle: BinaryIO):
        self.handle = handle
        self.size, offsets, xref, root, info = _cross_references(handle)
        ends = sorted(offsets.values()) + [xref]
        following = {offset: ends[i + 1] for i, offset in enumerate(ends[:-1])}
        self.window = window = FileWindow(handle, _CHUNK)
        # number → (dictionary part, rest in memory or None, rest's start, rest's end in the file)
        self.objects: dict[int, tuple[bytes, bytes | None, int, int]] = {}
        for number, offset in sorted(offsets.items(), key=lambda entry: entry[1]):  # read in file order
            end = following[offset]
            size = min(end - offset, _HEAD_READ)
            data, at = window.at(offset, size)
            header = _HEADER.match(data, at, at + size)
            if header is None or int(header.group(1)) != number:
                raise _Unknown
            stream = _STREAM.search(data, header.end(), at + size)
            if stream is None and size < end - offset:  # a dictionary longer than the first read
                size = end - offset
                data, at = window.at(offset, size)
                header = _HEADER.match(data, at, at + size)
                assert header is not None
                stream = _STREAM.search(data, header.end(), at + size)
            if stream is not None:
                cut = stream.start() + 2
                self.objects[number] = (data[header.end():cut], None, offset + cut - at, end)
            else:
                cut = data.rindex(b"endobj", header.end(), at + size)
                self.objects[number] = (data[header.end():cut], data[cut:at + size], 0, 0)
        catalog = self.objects.get(root)
        pages = _PAGES.search(catalog[0]) if catalog else None
        if pages is None:
            raise _Unknown
        self.pages_root = int(pages.group(1))
        tree = self.objects.get(self.pages_root)
        kids = _KIDS.search(tree[0]) if tree else None
        if kids is None:
            raise _Unknown
        listed = kids.group(1)
        self.pages = [int(listed[start:stop]) for start, stop in references(listed)]
        for page in self.pages:
            page_dict = self.objects.get(page, (b"", None, 0, 0))[0]
            if b"/Type /Page" not in page_dict or b"/Kids" in page_dict:
                raise _Unknown  # a nested page tree: inherited attributes would need care
        self.skip = {root, self.pages_root} | ({info} if info is not None else set())
        self.spans: dict[int, list[tuple[int, int]]] = {}  # where each reachable object's references lie

    def reachable(self) -> list[int]:
        """Objects the pages use (their resources, contents, forms, images, fonts), in number order."""
        seen: set[int] = set()
        todo = list(self.pages)
        objects, skip = self.objects, self.skip
        while todo:
            number = todo.pop()
            if number in seen or number in skip:
                continue
            found = objects.get(number)
            if found is None:
                raise _Unknown
            seen.add(number)
            head = found[0]
            spans = self.spans[number] = references(head)
            todo.extend([int(head[start:stop]) for start, stop in spans])
        return sorted(seen)


def page_digests(pdf: bytes) -> list[str] | None:
    """For each page of ``pdf`` (one punchboard wrote), a SHA-256 over every object it draws with: the page
    itself and everything reachable from it (contents, resources, forms, images, fonts with their embedded
    subsets), dictionaries and streams as written; None for a PDF of another shape. Two pages with the same
    digest are drawn from the same bytes (generator/export/images.py renders a page only when it changed)."""
    try:
        source = _Source(BytesIO(pdf))
    except (_Unknown, ValueError, IndexError):
        return None
    digests = []
    for page in source.pages:
        sha = hashlib.sha256()
        seen: set[int] = set()
        todo = [page]
        while todo:
            number = todo.pop()
            if number in seen or number in source.skip:
                continue
            found = source.objects.get(number)
            if found is None:
                return None
            seen.add(number)
            head, rest, start, end = found
            sha.update(b"%d\n" % number + head + (rest if rest is not None else pdf[start:end]))
            todo.extend(int(head[start:stop]) for start, stop in reversed(references(head)))
        digests.append(sha.hexdigest())
    return digests


def _text(value: str) -> bytes:
    """A PDF text string: literal when ASCII, UTF-16BE with a byte-order mark otherwise."""
    if value.isascii():
        return b"(" + value.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    return b"<FEFF" + value.encode("utf-16-be").hex().upper().encode("ascii") + b">"


# An object of the output: its bytes after "N 0 obj\n", or a dictionary plus a stream to copy from a part.
_Out = bytes | tuple[bytes, "_Source", int, int]


class _Verbatim:
    """The largest part, copied as it lies in its file: its objects keep their numbers, so no dictionary of
    it changes, and the combined PDF takes over its catalog's, page tree's and information dictionary's
    numbers (and its viewer preferences'). A deck's thousands of objects are then one copy of its bytes, not
    each read, renumbered and written again; the other parts are numbered after it.

    Raises ``_Unknown`` for a file this does not know how to copy whole (the part is then copied as the others)."""

    def __init__(self, handle: BinaryIO):
        self.handle = handle
        self.size, offsets, xref, root, info = _cross_references(handle)
        self.last = max(offsets, default=0)
        if sorted(offsets) != list(range(1, self.last + 1)):
            raise _Unknown  # a free object inside: numbers this file does not account for
        ends = sorted(offsets.values()) + [xref]
        self._following = {offset: ends[i + 1] for i, offset in enumerate(ends[:-1])}
        self._offsets = offsets
        catalog = self._body(root)
        pages = _PAGES.search(catalog)
        if pages is None:
            raise _Unknown
        self.pages_root = int(pages.group(1))
        others = {int(catalog[a:b]) for a, b in references(catalog)} - {self.pages_root}
        viewer = _VIEWER.search(catalog)
        if len(others) > 1 or (others and (viewer is None or int(viewer.group(1)) not in others)):
            raise _Unknown  # outlines, names, forms…: what they refer to would need care
        self.preferences = others.pop() if others else None
        for leaf in (self.preferences, info):
            if leaf is not None and references(self._body(leaf)):
                raise _Unknown
        tree = self._body(self.pages_root)
        kids, count = _KIDS.search(tree), _COUNT.search(tree)
        if kids is None or count is None:
            raise _Unknown
        listed = kids.group(1)
        self.pages = [int(listed[a:b]) for a, b in references(listed)]
        if int(count.group(1)) != len(self.pages):
            raise _Unknown
        for page in self.pages:
            body = self._body(page)
            if b"/Type /Page" not in body or b"/Kids" in body:
                raise _Unknown  # a nested page tree: inherited attributes would need care
        self.root, self.info = root, info
        taken = {root, self.pages_root, info, self.preferences}
        # runs of objects that lie one after another in the file, none of them taken over: (start, end, objects)
        self.spans: list[tuple[int, int, list[tuple[int, int]]]] = []
        run: list[tuple[int, int]] = []
        for number, offset in sorted(offsets.items(), key=lambda entry: entry[1]):
            if number in taken:
                if run:
                    self.spans.append((run[0][1], self._following[run[-1][1]], run))
                run = []
                continue
            run.append((number, offset))
        if run:
            self.spans.append((run[0][1], self._following[run[-1][1]], run))

    def _body(self, number: int) -> bytes:
        offset = self._offsets.get(number)
        if offset is None:
            raise _Unknown
        self.handle.seek(offset)
        data = self.handle.read(self._following[offset] - offset)
        header = _HEADER.match(data)
        if header is None or int(header.group(1)) != number or b"stream" in data:
            raise _Unknown
        return data[header.end():]


def _size(pdf: bytes | Path) -> int:
    try:
        return len(pdf) if isinstance(pdf, bytes) else pdf.stat().st_size
    except OSError:
        return 0


def merge(parts: Sequence[tuple[bytes, bool]], blank: bytes, title: str, subject: str, duplex: str | None = None,
          print_range: tuple[int, int] | None = None) -> bytes | None:
    """:func:`merge_to` into memory: the combined PDF's bytes, or None."""
    out = BytesIO()
    return out.getvalue() if merge_to(out, parts, blank, title, subject, duplex, print_range) else None


def merge_to(out: BinaryIO, parts: Sequence[tuple[bytes | Path, bool]], blank: bytes, title: str, subject: str,
             duplex: str | None = None, print_range: tuple[int, int] | None = None) -> bool:
    """Write the pages of every ``(pdf, blank_reverses)`` part in order to ``out``, a blank page after
    each page of parts that ask for it (a part is PDF bytes or a PDF file); False, with nothing written,
    when a part is not a PDF this function knows how to copy. The largest part is copied whole
    (:class:`_Verbatim`) when it can be."""
    handles: list[BinaryIO] = []

    def opened(pdf: bytes | Path) -> BinaryIO:
        handles.append(BytesIO(pdf) if isinstance(pdf, bytes) else pdf.open("rb"))
        return handles[-1]

    def opener(pdf: bytes | Path) -> Callable[[], _Source]:
        def parse() -> _Source:
            try:
                return _Source(opened(pdf))
            except (ValueError, IndexError) as exc:  # a cross-reference table or trailer not as reportlab writes them
                raise _Unknown from exc
        return parse

    try:
        whole: tuple[int, _Verbatim] | None = None
        if parts:
            largest = max(range(len(parts)), key=lambda n: (_size(parts[n][0]), -n))
            try:
                whole = (largest, _Verbatim(opened(parts[largest][0])))
            except (_Unknown, ValueError, IndexError, OSError):
                whole = None
        sources = [(_identity(pdf), opener(pdf), reverses) for pdf, reverses in parts]
        blank_source = (_identity(blank), opener(blank), False) if any(reverses for _, reverses in parts) else None
        try:
            plan = _plan(sources, blank_source, title, subject, duplex, print_range, whole)
        except _Unknown:
            return False
        if plan is None:
            return False
        _write(out, *plan, whole[1] if whole is not None else None)
        return True
    finally:
        for handle in handles:
            handle.close()


# ---------------------------------------------------------------- parts kept between builds (watch, serve)

_Identity = tuple[object, ...]
_Copied = tuple[list["_Out"], list[int], int]  # a part's objects as copied at one place, its pages' numbers there, its size

_kept: dict[tuple[_Identity, int, int, int], _Copied] | None = None
_kept_limit = 0


def keep_copies(limit: int = 32 << 20) -> None:
    """For the rest of this process (watch, serve): remember each part's objects as copied into the last
    combined PDF, by the part's identity and place, up to ``limit`` bytes in all (same bytes written).

    A part file is known by its path, device, inode, size, and modification and change times: a file
    punchboard writes again is a new file (written aside, then renamed over), and any other change to
    it moves its change time, which no program can set back. A part given as bytes is known by a digest.
    """
    global _kept, _kept_limit
    if _kept is None:
        _kept = {}
    _kept_limit = limit


def _identity(pdf: bytes | Path) -> _Identity | None:
    if _kept is None:
        return None
    if isinstance(pdf, bytes):
        return (hashlib.blake2b(pdf, digest_size=16).digest(),)
    now = stamp(pdf)
    return None if now is None else (str(pdf), *now)


_Plan = tuple[list[_Out], int, dict[int, bytes], int, int]  # objects from number base + 1, base, objects by number, root, info


def _plan(sources: Sequence[tuple[_Identity | None, Callable[[], _Source], bool]],
          blank_source: tuple[_Identity | None, Callable[[], _Source], bool] | None, title: str, subject: str,
          duplex: str | None, print_range: tuple[int, int] | None = None,
          whole: tuple[int, _Verbatim] | None = None) -> _Plan | None:
    """The combined PDF's objects: each source (its identity, how to read it, whether its pages get blank
    reverses) copied in order; a source already copied at the same place by a kept merge is not read. The
    source ``whole`` names (by its place) keeps its own numbers and is copied as it lies (:func:`_write`)."""
    global _kept
    kept = _kept  # read once: another thread's merge may put its own in place meanwhile
    verbatim = whole[1] if whole is not None else None
    if verbatim is None:
        base, root, tree, info, preferences = 3, 1, 2, 3, None
    else:
        base, root, tree = verbatim.last, verbatim.root, verbatim.pages_root
        info, preferences = verbatim.info or 0, verbatim.preferences  # (no information dictionary: one is added)
    objects: list[_Out] = []  # numbered from base + 1
    kids: list[int] = []
    used: dict[tuple[_Identity, int, int, int], _Copied] = {}  # what this merge copied, to be kept for the next
    parts_copied = 1 if verbatim is not None else 0  # the part kept whole is part 0
    held = 0

    def copy(identity: _Identity | None, read: Callable[[], _Source]) -> list[int]:
        """Copy one part's objects to the end of ``objects``; the numbers its pages have there."""
        nonlocal parts_copied, held
        part = parts_copied
        parts_copied += 1
        key = None if identity is None else (identity, part, base + len(objects), tree)
        if key is not None and kept is not None and key in kept:
            bodies, pages, size = used[key] = kept[key]
            objects.extend(bodies)
            held += size
            return pages
        source = read()
        keep = key is not None and held + source.size <= _kept_limit  # held whole, so the next merge need not read it
        held += source.size if keep else 0
        numbers = {old: base + len(objects) + 1 + i for i, old in enumerate(source.reachable())}
        numbers[source.pages_root] = tree
        first = len(objects)
        for old in sorted(numbers):
            if old == source.pages_root:
                continue
            head, rest, start, end = source.objects[old]
            spans = source.spans[old]
            if spans:
                head = renumbered(head, spans, numbers)
            if rest is not None:
                objects.append(head + rest)
            elif keep:
                data, at = source.window.at(start, end - start)
                objects.append(head + data[at:at + end - start])
            else:
                objects.append((head, source, start, end))
        pages = [numbers[page] for page in source.pages]
        if keep:
            assert key is not None
            used[key] = (objects[first:], pages, source.size)
        return pages

    try:
        blank_page: _Out | None = None
        if blank_source is not None:
            blank_page = objects[copy(blank_source[0], blank_source[1])[0] - base - 1]
        for place, (identity, read, reverses) in enumerate(sources):
            for page in verbatim.pages if verbatim is not None and whole is not None and place == whole[0] \
                    else copy(identity, read):
                kids.append(page)
                if reverses and blank_page is not None:
                    objects.append(blank_page)  # its own page object, sharing the blank's content
                    kids.append(base + len(objects))
    except KeyError:
        return None
    if kept is not None:
        _kept = used  # what this merge copied, and nothing older
    fixed, info = _catalog(objects, base, kids, (root, tree, info, preferences), title, subject, duplex, print_range)
    return objects, base, fixed, root, info


def _catalog(objects: list[_Out], base: int, kids: Sequence[int], numbers: tuple[int, int, int, int | None], title: str,
             subject: str, duplex: str | None, print_range: tuple[int, int] | None) -> tuple[dict[int, bytes], int]:
    """The catalog, page tree (``kids``), viewer preferences and information dictionary at ``numbers`` (root,
    tree, information — 0 for none: it is appended to ``objects`` — and preferences, None to write them inline):
    (the objects at fixed numbers, the information dictionary's number)."""
    root, tree, info, preferences = numbers
    prefs = b"/PrintScaling /None" + (b" /Duplex /" + duplex.encode("ascii") if duplex else b"")
    if print_range is not None:  # the print dialog's default pages, counted from 0
        prefs += b" /PrintPageRange [ %d %d ]" % (print_range[0] - 1, print_range[1] - 1)
    fixed: dict[int, bytes] = {}
    if preferences is not None:
        fixed[preferences] = b"<< " + prefs + b" >>\nendobj\n"
        fixed[root] = b"<< /Type /Catalog /Pages %d 0 R /ViewerPreferences %d 0 R >>\nendobj\n" % (tree, preferences)
    else:
        fixed[root] = b"<< /Type /Catalog /Pages %d 0 R /ViewerPreferences << " % tree + prefs + b" >> >>\nendobj\n"
    fixed[tree] = (b"<< /Type /Pages /Count %d /Kids [ " % len(kids)
                   + b" ".join(b"%d 0 R" % k for k in kids) + b" ] >>\nendobj\n")
    information = (b"<< /Title " + _text(title) + b" /Subject " + _text(subject)
                   + b" /Author (punchboard) /Creator (punchboard) /Producer (punchboard) >>\nendobj\n")
    if info:
        fixed[info] = information
    else:
        objects.append(information)
        info = base + len(objects)
    return fixed, info


def _write(out: BinaryIO, objects: Sequence[_Out], base: int, fixed: dict[int, bytes], root: int, info: int,
           verbatim: _Verbatim | None = None) -> None:
    """The part kept whole copied as it lies (:class:`_Verbatim`), then the other objects in order, then the
    catalog, page tree and information dictionary, gathered into large writes; a stream up to a block long is
    taken from its part's window (the parts are read front to back), a longer one copied block by block."""
    pending = bytearray(b"%PDF-1.4\n%\x93\x8c\x8b\x9e punchboard\n")
    size = 0
    offsets: dict[int, int] = {}

    def copied(handle: BinaryIO, start: int, left: int) -> None:
        """``left`` bytes of ``handle`` from ``start`` written to ``out`` (after what is pending)."""
        nonlocal size, pending
        out.write(pending)
        size += len(pending)
        pending = bytearray()
        handle.seek(start)
        while left:
            chunk = handle.read(min(left, _CHUNK))
            if not chunk:
                raise OSError("a part PDF changed while the combined PDF was written")
            out.write(chunk)
            left -= len(chunk)
            size += len(chunk)

    if verbatim is not None:
        for start, end, run in verbatim.spans:
            at = size + len(pending)
            for number, offset in run:
                offsets[number] = at + offset - start
            copied(verbatim.handle, start, end - start)
    for number, body in enumerate(objects, start=base + 1):
        offsets[number] = size + len(pending)
        pending += b"%d 0 obj\n" % number
        if isinstance(body, bytes):
            pending += body
        else:
            head, source, start, end = body
            pending += head
            left = end - start
            if left <= _CHUNK:
                try:
                    data, at = source.window.at(start, left)
                except ValueError as exc:
                    raise OSError("a part PDF changed while the combined PDF was written") from exc
                pending += memoryview(data)[at:at + left]
            else:
                copied(source.handle, start, left)
        if len(pending) >= _CHUNK:
            out.write(pending)
            size += len(pending)
            pending = bytearray()
    for number, body in sorted(fixed.items()):
        offsets[number] = size + len(pending)
        pending += b"%d 0 obj\n" % number + body
    count = base + len(objects) + 1
    assert sorted(offsets) == list(range(1, count)), "every object of the combined PDF is written once"
    xref = size + len(pending)
    pending += b"xref\n0 %d\n0000000000 65535 f \n" % count
    pending += b"".join(b"%010d 00000 n \n" % offsets[number] for number in range(1, count))
    pending += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (count, root, info, xref)
    out.write(pending)
