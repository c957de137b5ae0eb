"""Kept pages: a one-card edit writes the sheet that card is on, and copies the deck's other sheets.

A component's PDF is written by reportlab object by object, each object numbered
in the order the document met it: a page's side forms and the page itself while
it is drawn, its content stream when the page is written out. What a page's
objects say apart from those numbers (a form's and a content stream's operators,
which name the forms and fonts they use) depends only on what the page shows and
on the state of its document before it: the side forms named so far (reportlab
names them in order, ``PBSide12``) and every TrueType font's subsets (fixed
before the first page, draw/kept.py's ``fix_fonts``, but for a character beyond
them, given its code at its first use). So after a build the objects each
page added are remembered (where they lie in the PDF, which objects they refer
to, what drawing the page did besides: the forms it named, the warnings it gave,
the kept sides it used, the print fingerprints it took), in ``<component>.pages``
beside the component's kept sides (the record: punchboard/incremental/page_records.py).

The next build, before drawing a page, asks what the page shows
(:class:`~.page_content.PageContent`: its sides, sheet, footer) and the state of
its own document: its pages, side forms and fonts. When both agree with the page
the last build wrote at that place, and each side form the page places is the one
it placed then (or, for a form it added, still unknown), the page is not drawn:
its objects enter the document as copies of the old file's bytes, every reference
in their dictionaries renumbered to the number the same object has in this
document (a card added on the last sheet moves every later number), and what
drawing it did besides is done again. Pages drawn for real are remembered for
the next build in their turn. The bytes are those drawing every page gives: a
reference to an object this document does not hold raises :class:`SpliceFailed`,
and the component is written again with every page drawn.

A page is kept only when drawing it changed nothing of the document but its own
side forms and itself: a page whose text gave a font new characters, or that
drew an image, is drawn each time (and so is any page after it whose document
then differs).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from punchboard.generator.draw.kept import fix_fonts
from punchboard.generator.draw.pdf_canvas import state_of
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFObject
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental import page_records
from punchboard.incremental.page_records import Record
from punchboard.incremental.sides import FontSet
from punchboard.plumbing.file_window import FileWindow

from .kept_runs import lies_at
from .page_content import PageContent, SpliceFailed
from .pages import Page
from .pdf_encoding import PdfWriter
from .references import references, renumbered

_AUTO = re.compile(r"R\d+")  # reportlab's name for an object registered without one (a content stream, the page tree)
_HEAD_READ = 4096  # enough of an object to hold its dictionary



class Voice(Protocol):
    """Where a build's warnings go (the build context): ``heard`` collects every warning given while it is a list."""

    warnings: list[str]
    heard: list[str] | None
    side_prints: dict[tuple[str, int, int], str] | None  # each side's print fingerprint, when taken while drawing

    def warn(self, message: str) -> None: ...


class Sides(Protocol):
    """The component's kept sides (punchboard/incremental/side_store.py)."""

    drawn: int
    replayed: int
    fonts: FontSet | None  # the component's fonts, fixed in the document before its first page (draw/kept.py)

    def new_keys(self) -> int: ...
    def keys_from(self, start: int) -> list[str]: ...
    def carry(self, keys: Sequence[str]) -> None: ...
    def restart(self) -> None: ...


def font_state(doc: Any) -> str:
    """A digest of what the document's fonts hold: their names in it, and each TrueType font's subsets (the
    codes its text was given so far)."""
    parts: list[Any] = [sorted(doc.fontMapping.items())]
    for name in sorted(pdfmetrics._fonts):
        states = getattr(pdfmetrics._fonts[name], "state", None)
        state = states.get(doc) if states is not None else None
        if state is not None:
            parts.append((name, state.internalName, state.nextCode, state.frozen, state.subsets))
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _dictionary(body: bytes) -> tuple[bytes, bytes]:
    """An object's body split where its stream begins: the dictionary (where its references are), and the rest."""
    cut = body.find(b"stream\n")
    return (body[:cut], body[cut:]) if cut >= 0 else (body, b"")


class _Old:
    """The PDF the last build wrote, read for the objects copied from it."""

    def __init__(self, handle: BinaryIO):
        self.handle = handle
        self.window = FileWindow(handle)  # the objects copied are read in the order they lie in it

    def body(self, number: int, offset: int, length: int) -> bytes:
        """What follows ``N 0 obj`` up to ``endobj`` (as reportlab returns it for the object to be wrapped)."""
        try:
            data, at = self.window.at(offset, length)
        except ValueError as exc:
            raise SpliceFailed(f"object {number} is not where it was") from exc
        if not lies_at(data, at, number, length):
            raise SpliceFailed(f"object {number} is not where it was")
        return data[at + len(b"%d 0 obj\n" % number):at + length - 7]


class _Copy(PDFObject):  # type: ignore[misc]
    """An object written as the last build wrote it, what it refers to renumbered to this document's numbers (by
    its page, :class:`_CopiedPage`); a page's content stream refers to nothing."""

    def __init__(self, old: _Old, number: int, offset: int, length: int, page: _CopiedPage | None = None):
        self.old, self.number, self.offset, self.length, self.page = old, number, offset, length, page

    def format(self, document: Any) -> bytes:
        body = self.old.body(self.number, self.offset, self.length)
        return body if self.page is None else self.page.renumbered(body, self.page.mapping(document))


class _CopiedPage(_Copy):
    """A page written as the last build wrote it. Formatting it refers to the page tree and numbers its content
    stream, as formatting a drawn page does; the numbers its objects (its forms and itself) refer to are the
    ones the same objects have in this document."""

    def __init__(self, old: _Old, record: Record, contents: _Copy):
        _, _, first, names, places, _, parent, refs = record[:8]
        super().__init__(old, first + len(names) - 1, *places[-1])
        self.page, self.first, self.names, self.contents = self, first, names, contents
        self.parent, self.refs = parent, tuple(tuple(ref) for ref in refs)
        self._mapping: dict[int, int] | None = None
        self._unchanged: bool | None = None

    def mapping(self, document: Any) -> dict[int, int]:
        """Each number its forms refer to in the last build's file → that object's number in this document."""
        if self._mapping is None:
            numbers = document.idToObjectNumberAndVersion
            found = {self.first + n: numbers[name][0] for n, name in enumerate(self.names)}
            for name, number in self.refs:
                now = numbers.get(name)
                if now is None:
                    raise SpliceFailed(f"{name} is not in this document")
                found[number] = now[0]
            self._mapping = found
        return self._mapping

    def unchanged(self, document: Any) -> bool:
        """Every number its forms refer to is the same in this document (so are their bytes)."""
        if self._unchanged is None:
            self._unchanged = all(old == new for old, new in self.mapping(document).items())
        return self._unchanged

    def format(self, document: Any) -> bytes:
        numbers = document.idToObjectNumberAndVersion
        mapping = dict(self.mapping(document))
        mapping[self.parent] = numbers[document.Reference(document.Pages).name][0]
        mapping[self.contents.number] = numbers[document.Reference(self.contents).name][0]
        return self.renumbered(self.old.body(self.number, self.offset, self.length), mapping)

    @staticmethod
    def renumbered(body: bytes, mapping: dict[int, int]) -> bytes:
        """``body`` with every reference in its dictionary renumbered (a stream's data is left alone)."""
        if all(old == new for old, new in mapping.items()):
            return body
        head, rest = _dictionary(body)
        try:
            return renumbered(head, references(head), mapping) + rest
        except KeyError as exc:
            raise SpliceFailed(f"object {exc.args[0]} is not known") from None


class _Drawn:
    """A page drawn in this build, to be remembered once the file is written."""

    __slots__ = ("key", "before", "first", "names", "slots", "new_forms", "warnings", "sides", "taken", "form_prints",
                 "faces", "page_name")

    def __init__(self, key: str, before: tuple[Any, ...], first: int, names: list[str], slots: tuple[str | None, ...],
                 new_forms: tuple[tuple[str, str, tuple[str, ...]], ...], warnings: tuple[str, ...], sides: tuple[str, ...],
                 taken: tuple[Any, ...], form_prints: tuple[Any, ...], faces: tuple[str, ...]):
        self.key, self.before, self.first, self.names = key, before, first, names
        self.slots, self.new_forms, self.warnings, self.sides = slots, new_forms, warnings, sides
        self.taken, self.form_prints, self.faces = taken, form_prints, faces
        self.page_name = names[-1]


def _verbatim(obj: Any, number: int, document: Any) -> tuple[_Old, int, int] | None:
    """Where ``obj``, to be written as object ``number``, lies in the old file when its bytes there are its bytes
    here (kept_runs.py): a copy under its old number whose references are all unchanged."""
    kind = type(obj)
    if kind is _Copy:
        if obj.number != number or (obj.page is not None and not obj.page.unchanged(document)):
            return None
        return obj.old, obj.offset, obj.length
    if kind is not _CopiedPage or obj.number != number:
        return None
    numbers = document.idToObjectNumberAndVersion  # registered as formatting the page registers them:
    parent = numbers[document.Reference(document.Pages).name][0]  # the page tree, then the content stream
    contents = numbers[document.Reference(obj.contents).name][0]
    if parent != obj.parent or contents != obj.contents.number or not obj.unchanged(document):
        return None
    return obj.old, obj.offset, obj.length


def _last(found: dict[Any, Any], since: int) -> tuple[tuple[Any, Any], ...]:
    """The entries put in ``found`` since it held ``since`` (entries are put, never put again with another value)."""
    return tuple(islice(reversed(found.items()), len(found) - since))[::-1]


class KeptPages:
    """One component's kept pages: read from ``path`` when the build begins, written there when its PDF is."""

    def __init__(self, path: Path, pdf: Path, salt: str, voice: Voice, sides: Sides, read: bool = True):
        self.path, self.pdf, self.salt, self.voice, self.sides = path, pdf, salt, voice, sides
        self.read = read
        self._old: _Old | None = None
        self._records: list[Record] = []
        self.pages_copied = 0  # in the document as written

    # ---------------------------------------------------------------- a document

    def begin(self, canvas: Canvas, document: tuple[Any, ...]) -> None:
        """A document is begun on ``canvas``: ``document`` is what all its pages share (title, style, page count…)."""
        taking = self.voice.side_prints is not None
        self._doc_key = page_records.document_key(self.salt, taking, document)
        self._canvas = canvas
        writer = canvas._doc.writer
        assert isinstance(writer, PdfWriter)  # a document written by punchboard's writer (pages.py)
        writer.verbatim = _verbatim  # copies written a run at a time
        fix_fonts(canvas._doc, self.sides.fonts)  # before any page: the same fonts whatever the pages hold
        self._fonts = font_state(canvas._doc)
        self.pages_copied = 0
        # per page: as drawn, as copied (its record and page), or None (not to keep)
        self._written: list[_Drawn | tuple[Record, _CopiedPage] | None] = []
        # the page being drawn: its key and content, the state before it, and how many objects, kept sides, print
        # fingerprints and form fingerprints there were before it
        self._live: tuple[str | None, PageContent | None, tuple[Any, ...], int, int, int, int] | None = None
        self._undo = (len(self.voice.warnings), self.sides.drawn, self.sides.replayed)
        if self.read and self._old is None:
            self._load()

    def _load(self) -> None:
        records = page_records.read(self.path, self.pdf, self._doc_key)
        if records is None:
            return
        try:
            self._old = _Old(self.pdf.open("rb"))
        except OSError:
            return
        self._records = records

    def _state(self, canvas: Canvas) -> tuple[Any, ...]:
        doc = canvas._doc
        state = state_of(canvas)
        return (doc.pageCounter, len(state.forms), self._fonts, tuple(sorted(state.faces_used)))

    def copied(self, canvas: Canvas, page: Page, number: int) -> bool:
        """Page ``number`` (from 1) is copied from the last build's file when it can be: True when it was."""
        content = page.content() if page.content is not None and page.overlay is None else None
        key = None
        if content is not None:
            key = hashlib.sha256(repr((
                self._doc_key, number, page.width, page.height, page.trim_box, page.bleed_box, page.footer, page.legend,
                page.component, page.role, content.parts)).encode()).hexdigest()
        before = self._state(canvas)
        record = self._records[number - 1] if number <= len(self._records) else None
        if content is not None and key is not None and record is not None and self._old is not None and record[0] == key \
                and tuple(record[1]) == before and self._forms_agree(canvas, content, record) \
                and self._objects_agree(canvas, record):
            self._copy(canvas, content, record)
            return True
        taken = self.voice.side_prints
        self._live = (key, content, before, canvas._doc.objectcounter, self.sides.new_keys(),
                      len(taken) if taken is not None else 0, len(state_of(canvas).form_prints))
        self.voice.heard = []
        return False

    @staticmethod
    def _forms_agree(canvas: Canvas, content: PageContent, record: Record) -> bool:
        """Each form the page places is the one it placed when written, or one it added then and unknown now."""
        slots, new = record[8], {name for name, _, _ in record[9]}
        if len(slots) != len(content.forms):
            return False
        forms = state_of(canvas).forms
        for form, name in zip(content.forms, slots, strict=True):
            if form is None:
                if name is not None:
                    return False
                continue
            now = forms.get(form)
            if now != (None if name in new else name):
                return False
        return True

    @staticmethod
    def _objects_agree(canvas: Canvas, record: Record) -> bool:
        """The objects the page added are not in the document yet, and those it refers to are. Side forms are
        named in order and agree with the state before the page; the run forms of fixed elements are named
        by content (draw/fixed_forms.py): another page may have drawn one first this time, or not drawn one
        this page refers to."""
        known = canvas._doc.idToObject
        return not any(name in known for name in record[3][:-1]) and all(name in known for name, _ in record[7])

    def _copy(self, canvas: Canvas, content: PageContent, record: Record) -> None:
        (_, _, first, names, places, contents, _, _, slots, new_forms, warnings, sides, taken, form_prints,
         faces) = record
        old = self._old
        assert old is not None
        doc = canvas._doc
        page = _CopiedPage(old, record, _Copy(old, *contents))
        # registered as doc.Reference registers a new named object, without its checks for objects it knows (none
        # of them is: _objects_agree)
        to_object, to_number, to_name = doc.idToObject, doc.idToObjectNumberAndVersion, doc.numberToId
        counter = doc.objectcounter
        for index, name in enumerate(names[:-1]):
            counter += 1
            offset, size = places[index]
            copy = _Copy(old, first + index, offset, size, page)
            copy.__InternalName__ = name
            to_number[name] = (counter, 0)
            to_name[counter] = name
            to_object[name] = copy
        doc.objectcounter = counter
        doc.addPage(page)
        canvas._pageNumber += 1
        state = state_of(canvas)
        forms, said = state.forms, state.form_warnings
        for name, where, heard in new_forms:
            said[name] = (where, list(heard))
        for form, name in zip(content.forms, slots, strict=True):
            if form is not None:
                forms.setdefault(form, name)
        prints = state.form_prints
        for (name, bleed), digest in form_prints:
            prints[(name, bleed)] = digest
        state.faces_used.update(faces)
        for message in warnings:
            self.voice.warn(message)
        if self.voice.side_prints is not None:
            for piece, digest in taken:
                self.voice.side_prints[tuple(piece)] = digest  # type: ignore[index]
        self.sides.carry(sides)
        self.sides.replayed += len(sides)
        self.pages_copied += 1
        self._written.append((record, page))

    def drawn(self, canvas: Canvas, number: int) -> None:
        """Page ``number`` was drawn: remember what drawing it did, if it can be copied next time."""
        assert self._live is not None
        key, content, before, first, sides_from, taken_from, prints_from = self._live
        self._live = None
        heard, self.voice.heard = self.voice.heard or [], None
        doc = canvas._doc
        names = [doc.numberToId[n] for n in range(first + 1, doc.objectcounter + 1)]
        fonts = font_state(doc)
        changed_fonts, self._fonts = fonts != self._fonts, fonts
        keep = (key is not None and content is not None and not changed_fonts and bool(names)
                and names[-1] == f"Page{doc.pageCounter - 1}"
                and all(name.startswith("FormXob.") for name in names[:-1]))
        if not keep:
            self._written.append(None)
            return
        assert key is not None and content is not None
        state = state_of(canvas)
        forms = state.forms
        slots = tuple(forms.get(form) if form is not None else None for form in content.forms)
        if any(name is None for name, form in zip(slots, content.forms, strict=True) if form is not None):
            self._written.append(None)
            return
        said = state.form_warnings
        new_forms = []
        for name in names[:-1]:
            form = name[len("FormXob."):]
            where, messages = said.get(form, ("", []))
            new_forms.append((form, where, tuple(messages)))
        taken = self.voice.side_prints
        self._written.append(_Drawn(key, before, first + 1, names, slots, tuple(new_forms), tuple(heard),
                                    tuple(self.sides.keys_from(sides_from)),
                                    _last(taken, taken_from) if taken is not None else (),
                                    _last(state.form_prints, prints_from), tuple(sorted(state.faces_used))))

    def _close_old(self) -> None:
        if self._old is not None:
            self._old.handle.close()
            self._old = None

    def start_over(self) -> None:
        """The document is written again from the start, every page drawn (see :class:`SpliceFailed`)."""
        self._close_old()
        self._records = []
        warnings, drawn, replayed = self._undo
        del self.voice.warnings[warnings:]
        self.voice.heard = None
        self.sides.restart()  # the sides are put again as the pages are drawn, and counted as a build drawing them would
        self.sides.drawn, self.sides.replayed = drawn, replayed
        self.read = False

    def close(self) -> None:
        """The document is written, or failed: let go of the old file (before the new one is renamed over it)."""
        self._close_old()

    # ---------------------------------------------------------------- after the file is in place

    def written(self) -> None:
        """The PDF is in place: remember its pages for the next build."""
        pdf = self.pdf
        doc = self._canvas._doc
        numbers, to_name, offsets = doc.idToObjectNumberAndVersion, doc.numberToId, doc.idToOffset
        ends = sorted(offsets.values())
        try:
            with pdf.open("rb") as handle:
                size = handle.seek(0, 2)
                handle.seek(max(0, size - 1024))
                tail = handle.read()
                ends.append(int(tail[tail.rindex(b"startxref") + 9:].split()[0]))
                following = {offset: ends[n + 1] for n, offset in enumerate(ends[:-1])}

                def place(name: str) -> tuple[int, int]:
                    at = offsets[name]
                    return at, following[at] - at

                parent = numbers[doc.Pages.__InternalName__][0]
                records: list[Record | None] = []
                for page in self._written:
                    if page is None or not isinstance(page, _Drawn):
                        records.append(self._moved(*page, place, numbers, parent) if page is not None else None)
                        continue
                    contents = doc.idToObject[page.page_name].Contents.__InternalName__
                    own = {page.first + n for n in range(len(page.names))} | {numbers[contents][0], parent}
                    refs: set[int] = set()
                    for name in page.names:
                        at, length = place(name)
                        handle.seek(at)
                        head = _dictionary(handle.read(min(length, _HEAD_READ)))[0]
                        refs.update(n for n in (int(head[a:b]) for a, b in references(head)) if n not in own)
                    named = tuple(sorted((to_name[n], n) for n in refs))
                    if any(_AUTO.fullmatch(name) for name, _ in named):
                        records.append(None)  # it refers to an object known only by its number
                        continue
                    records.append((page.key, page.before, page.first, page.names, tuple(place(n) for n in page.names),
                                    (numbers[contents][0], *place(contents)), parent, named, page.slots, page.new_forms,
                                    page.warnings, page.sides, page.taken, page.form_prints, page.faces))
        except (OSError, ValueError, KeyError):
            return
        page_records.write(self.path, pdf, self._doc_key, records)

    @staticmethod
    def _moved(record: Record, page: _CopiedPage, place: Any, numbers: dict[str, tuple[int, int]], parent: int) -> Record:
        """A copied page's record, with the numbers its objects have in the new file and where they lie."""
        names, contents = record[3], page.contents.__InternalName__
        refs = tuple((name, numbers[name][0]) for name, _ in record[7])
        return (*record[:2], numbers[names[0]][0], names, tuple(place(n) for n in names),
                (numbers[contents][0], *place(contents)), parent, refs, *record[8:])
