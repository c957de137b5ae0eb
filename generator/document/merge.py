"""Concatenate PDFs that punchboard wrote itself, without parsing their content.

The component PDFs come from reportlab (:func:`generator.document.pages.render`):
a classic cross-reference table, one flat page tree, no object streams. Their
objects are copied byte for byte — content streams and images are never
decoded — and only the object numbers in each object's dictionary are shifted.
This is what the combined print-and-play PDF is made of; parsing every page
with a general PDF library took most of an image deck's build.

:func:`merge` returns None for anything it does not recognise, and the caller
falls back to pypdf.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_HEADER = re.compile(rb"(\d+) 0 obj\r?\n")
_REF = re.compile(rb"(\d+) 0 R\b")
_STREAM = re.compile(rb">>\s*stream\r?\n")
_ROOT = re.compile(rb"/Root (\d+) 0 R")
_INFO = re.compile(rb"/Info (\d+) 0 R")
_PAGES = re.compile(rb"/Pages (\d+) 0 R")
_KIDS = re.compile(rb"/Kids\s*\[([^\]]*)\]")
_PARENT = re.compile(rb"/Parent (\d+) 0 R")
_SUBSET = re.compile(rb"(/BaseFont|/FontName)(\s*)/([A-Z]{6})\+")
TAG_SPAN = 26**3  # subset tags a part may use before the next part's begin (reportlab counts up from AAAAAA)


class _Unknown(Exception):
    """Not a PDF of the shape this module copies."""


class _Source:
    """One PDF split into its objects: number → (dictionary part, the rest up to endobj)."""

    def __init__(self, data: bytes):
        start = data.rindex(b"startxref")
        xref = int(data[start + 9:].split()[0])
        if data[xref:xref + 4] != b"xref":
            raise _Unknown
        head = data[xref:start]
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
        ends = sorted(offsets.values()) + [xref]
        following = {offset: ends[i + 1] for i, offset in enumerate(ends[:-1])}
        self.objects: dict[int, tuple[bytes, bytes]] = {}
        for number, offset in offsets.items():
            chunk = data[offset:following[offset]]
            header = _HEADER.match(chunk)
            if header is None or int(header.group(1)) != number:
                raise _Unknown
            body = chunk[header.end():]
            stream = _STREAM.search(body)
            cut = stream.start() + 2 if stream else body.rindex(b"endobj")
            self.objects[number] = (body[:cut], body[cut:])
        catalog = self.objects.get(int(root.group(1)))
        pages = _PAGES.search(catalog[0]) if catalog else None
        if pages is None:
            raise _Unknown
        self.pages_root = int(pages.group(1))
        tree = self.objects.get(self.pages_root)
        kids = _KIDS.search(tree[0]) if tree else None
        if kids is None:
            raise _Unknown
        self.pages = [int(n) for n in _REF.findall(kids.group(1))]
        for page in self.pages:
            page_dict = self.objects.get(page, (b"", b""))[0]
            if b"/Type /Page" not in page_dict or b"/Kids" in page_dict:
                raise _Unknown  # a nested page tree: inherited attributes would need care
        self.skip = {int(root.group(1)), self.pages_root} | ({int(info.group(1))} if info else set())

    def reachable(self) -> list[int]:
        """Objects the pages use (their resources, contents, forms, images, fonts), in number order."""
        seen: set[int] = set()
        todo = list(self.pages)
        while todo:
            number = todo.pop()
            if number in seen or number in self.skip:
                continue
            if number not in self.objects:
                raise _Unknown
            seen.add(number)
            todo.extend(int(n) for n in _REF.findall(self.objects[number][0]))
        return sorted(seen)


def _text(value: str) -> bytes:
    """A PDF text string: literal when ASCII, UTF-16BE with a byte-order mark otherwise."""
    if value.isascii():
        return b"(" + value.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    return b"<FEFF" + value.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def subset_tag(tag: bytes, part: int) -> bytes:
    """A font subset's six-letter tag made unique to its part of the combined PDF.

    Every component PDF names its first subset of a font AAAAAA+; copied side by side,
    a dozen different subsets would share one name, which some print shops' RIPs take
    for one font (and print wrong glyphs). The tag counts on past the earlier parts'.
    """
    value = 0
    for letter in tag:
        value = value * 26 + letter - 65
    value = part * TAG_SPAN + value % TAG_SPAN
    letters = []
    for _ in range(6):
        value, digit = divmod(value, 26)
        letters.append(65 + digit)
    return bytes(reversed(letters))


def merge(parts: Sequence[tuple[bytes, bool]], blank: bytes, title: str, subject: str, duplex: str | None = None,
          print_range: tuple[int, int] | None = None) -> bytes | None:
    """The pages of every ``(pdf, blank_reverses)`` part in order, a blank page after each page of
    parts that ask for it; None when a part is not a PDF this function knows how to copy."""
    try:
        sources = [(_Source(pdf), reverses) for pdf, reverses in parts]
        blank_source = _Source(blank) if any(reverses for _, reverses in parts) else None
    except (_Unknown, ValueError, IndexError):
        return None
    objects: list[bytes] = [b"", b"", b""]  # 1 catalog, 2 page tree, 3 info: filled in below
    kids: list[int] = []

    parts_copied = 0

    def copy(source: _Source) -> dict[int, int]:
        nonlocal parts_copied
        numbers = {old: len(objects) + 1 + i for i, old in enumerate(source.reachable())}
        numbers[source.pages_root] = 2
        part = parts_copied
        parts_copied += 1

        def shift(match: re.Match[bytes]) -> bytes:
            return b"%d 0 R" % numbers[int(match.group(1))]

        def retag(match: re.Match[bytes]) -> bytes:
            return match.group(1) + match.group(2) + b"/" + subset_tag(match.group(3), part) + b"+"

        for old in sorted(numbers):
            if old == source.pages_root:
                continue
            head, rest = source.objects[old]
            objects.append(_SUBSET.sub(retag, _REF.sub(shift, head)) + rest)
        return numbers

    try:
        blank_page = None
        if blank_source is not None:
            blank_numbers = copy(blank_source)
            blank_page = objects[blank_numbers[blank_source.pages[0]] - 1]
        for source, reverses in sources:
            numbers = copy(source)
            for page in source.pages:
                kids.append(numbers[page])
                if reverses and blank_page is not None:
                    objects.append(blank_page)  # its own page object, sharing the blank's content
                    kids.append(len(objects))
    except KeyError:
        return None
    prefs = b"/PrintScaling /None" + (b" /Duplex /" + duplex.encode("ascii") if duplex else b"")
    if print_range is not None:  # the print dialog's default pages, counted from 0
        prefs += b" /PrintPageRange [ %d %d ]" % (print_range[0] - 1, print_range[1] - 1)
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R /ViewerPreferences << " + prefs + b" >> >>\nendobj\n"
    objects[1] = (b"<< /Type /Pages /Count %d /Kids [ " % len(kids)
                  + b" ".join(b"%d 0 R" % k for k in kids) + b" ] >>\nendobj\n")
    objects[2] = (b"<< /Title " + _text(title) + b" /Subject " + _text(subject)
                  + b" /Author (punchboard) /Creator (punchboard) /Producer (punchboard) >>\nendobj\n")
    out = [b"%PDF-1.4\n%\x93\x8c\x8b\x9e punchboard\n"]
    size = len(out[0])
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(size)
        chunk = b"%d 0 obj\n" % number + body
        out.append(chunk)
        size += len(chunk)
    out.append(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.append(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.append(b"trailer\n<< /Size %d /Root 1 0 R /Info 3 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, size))
    return b"".join(out)
