"""The combined PDF's largest part is copied as it lies (merge._Verbatim): the document is the one the
object-by-object copy makes, page for page and object for object, only numbered differently."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from punchboard.generator.document import merge
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject, StreamObject

from tests.generator.document.test_merge_kept import WORDS, _pdf

_TAG = re.compile(r"^/[A-Z]{6}\+")


def _resolved(value: Any, key: str = "") -> Any:
    """An object with every reference followed (a page's /Parent left out), streams as their raw bytes and
    subset tags cut off: what a page draws, whatever the objects' numbers and the parts' tags."""
    if isinstance(value, IndirectObject):
        value = value.get_object()
    if isinstance(value, StreamObject):
        return ("stream", _resolved(DictionaryObject(value), key), value._data)
    if isinstance(value, DictionaryObject):
        return tuple(sorted((k, _resolved(v, k)) for k, v in value.items() if k != "/Parent"))
    if isinstance(value, ArrayObject):
        return tuple(_resolved(v) for v in value)
    if isinstance(value, NameObject) and key in ("/BaseFont", "/FontName"):
        return _TAG.sub("/", str(value))
    return repr(value)


def _document(data: bytes) -> tuple[Any, ...]:
    """The document ``data`` holds, once its cross-reference table is known to point at each object exactly."""
    xref = int(data[data.rindex(b"startxref") + 9:].split()[0])
    lines = data[xref:data.index(b"trailer", xref)].split(b"\n")
    assert lines[0] == b"xref" and lines[1].split()[0] == b"0"
    for number, line in enumerate(lines[3:3 + int(lines[1].split()[1]) - 1], start=1):
        offset, _, kind = line.split()
        assert kind == b"n" and data.startswith(b"%d 0 obj\n" % number, int(offset)), number
    reader = PdfReader(BytesIO(data), strict=True)
    root = reader.trailer["/Root"]
    return (_resolved(root["/ViewerPreferences"]), _resolved(reader.trailer["/Info"]),
            tuple(_resolved(page) for page in reader.pages))


def _subsets(data: bytes) -> list[str]:
    reader = PdfReader(BytesIO(data), strict=True)
    names = []
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        if isinstance(obj, DictionaryObject) and obj.get("/Type") == "/FontDescriptor":
            names.append(str(obj["/FontName"]))
    return names


def _merged(parts: list[tuple[bytes | Path, bool]], blank: bytes) -> bytes:
    out = BytesIO()
    assert merge.merge_to(out, parts, blank, "Ünïcode title", "print and play", "DuplexFlipLongEdge", (1, 3))
    return out.getvalue()


def _copied_object_by_object(parts: list[tuple[bytes | Path, bool]], blank: bytes,
                             monkeypatch: pytest.MonkeyPatch) -> bytes:
    def refuse(handle: object) -> None:
        raise merge._Unknown

    with monkeypatch.context() as patch:
        patch.setattr(merge, "_Verbatim", refuse)
        return _merged(parts, blank)


content = st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5), st.integers(1, 6), st.booleans())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=st.lists(st.tuples(content, st.booleans(), st.booleans()), min_size=1, max_size=4))
def test_the_part_copied_whole_gives_the_document_the_object_by_object_copy_gives(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
        drawn: list[tuple[tuple[list[str], int, bool], bool, bool]]):
    folder = tmp_path_factory.mktemp("parts")
    parts: list[tuple[bytes | Path, bool]] = []
    for n, ((words, pages, compressed), as_file, reverses) in enumerate(drawn):
        pdf = _pdf(words, pages, compressed)
        if as_file:
            (folder / f"part{n}.pdf").write_bytes(pdf)
        parts.append((folder / f"part{n}.pdf" if as_file else pdf, reverses))
    blank = _pdf(["."], 1)
    whole = _merged(parts, blank)
    by_object = _copied_object_by_object(parts, blank, monkeypatch)
    assert whole != by_object
    assert _document(whole) == _document(by_object)
    names = _subsets(whole)
    assert sorted(names) == sorted(_subsets(by_object))  # every subset named as its part names it
    # the largest part's objects are in the file as that part holds them, in one piece up to its catalog
    sizes = [len(pdf) if isinstance(pdf, bytes) else pdf.stat().st_size for pdf, _ in parts]
    largest = parts[sizes.index(max(sizes))][0]
    data = largest if isinstance(largest, bytes) else largest.read_bytes()
    first = data.index(b"\n1 0 obj\n") + 1
    catalog = int(re.search(rb"/Root (\d+) 0 R", data[data.rindex(b"trailer"):]).group(1))  # type: ignore[union-attr]
    assert data[first:data.index(b"\n%d 0 obj\n" % catalog) + 1] in whole


def test_a_part_it_does_not_know_how_to_copy_whole_is_copied_object_by_object(monkeypatch: pytest.MonkeyPatch):
    """A catalog that refers to more than the pages and the viewer preferences (an outline here) could hold
    what the combined PDF must not keep: such a part is renumbered like the others, the document the same."""
    big = _pdf(WORDS, 5)
    trailer = big.rindex(b"trailer")
    catalog = int(re.search(rb"/Root (\d+) 0 R", big[trailer:]).group(1))  # type: ignore[union-attr]
    head = b"%d 0 obj\n<<\n" % catalog
    assert head in big
    outlined = big.replace(head, head + b"/Outlines 1 0 R ", 1)  # same object, a longer dictionary
    with pytest.raises(merge._Unknown):
        merge._Verbatim(BytesIO(_fixed_offsets(outlined)))
    parts: list[tuple[bytes | Path, bool]] = [(_pdf(["gear"], 1), False), (_fixed_offsets(outlined), True)]
    blank = _pdf(["."], 1)
    assert _merged(parts, blank) == _copied_object_by_object(parts, blank, monkeypatch)


def _fixed_offsets(pdf: bytes) -> bytes:
    """``pdf`` with its cross-reference table written again for where its objects now lie."""
    body = pdf[:pdf.rindex(b"xref\n")]
    found = {int(m.group(1)): m.start() + 1 for m in re.finditer(rb"\n(\d+) 0 obj\n", body)}
    count = max(found) + 1
    trailer = pdf[pdf.rindex(b"trailer"):pdf.rindex(b"startxref")]
    table = b"xref\n0 %d\n0000000000 65535 f \n" % count + b"".join(b"%010d 00000 n \n" % found[n] for n in range(1, count))
    return body + table + trailer + b"startxref\n%d\n%%%%EOF\n" % len(body)
