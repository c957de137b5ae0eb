"""Prints: what each build drew, piece by piece, remembered as numbered records.

A piece's fingerprint is a digest of its drawing, not of its YAML, so an edit
that draws the same thing — a comment, a reordered key, a field no layout
shows — changes nothing. Fingerprints are versioned (:data:`FINGERPRINTS`, the
``version`` of a record; records without one are version 1):

- version 2, cards, banknotes and tokens: taken from the build's own drawing of
  each side (generator/draw/fingerprint.py): the operators each element drew in
  the side's own frame, with the names reportlab numbers in order of use written
  out, at the component's declared bleed. No side is drawn a second time for it,
  except a side the build did not draw upright as a form (a turned slot, a shaped
  token, a back with ``--backs none``) and every side of a ``--stamp`` build, which
  needs its print number before drawing: those are drawn alone on a scratch canvas,
  which gives the same digest.
- version 1 (and version 2 for tiles, sheets and boards): each side drawn alone on
  a fresh canvas (trim at the origin, with the component's bleed, no stamp, no proof
  guides) and its page operators, the images it places (named by their content) and
  the font files it uses hashed. A build compared with a version-1 print takes the
  version-1 fingerprints for that comparison, so older prints stay usable.

Records live beside the outputs as ``OUT/<game>/prints/0001.json`` …, each with
its number, a UTC date, the render options and every piece's face and back
fingerprint: either whole (``pieces``) or, so that prints do not grow by a whole
deck per edit, as what changed since the print before it (``based_on`` and
``changes``: runs of that print's pieces kept as they were, ``{"same": [from, to]}``,
between the rows that differ). A record is whole when there is no print before
it, when the changes are not much smaller than the whole, and every
:data:`CHAIN_LIMIT` prints, so a print is read from at most that many files. Fingerprints are memoised in ``prints/.drawn``: per component
under the build cache's component fingerprint, and per side drawn alone under a
digest of everything it is drawn from, so an unchanged rebuild neither draws nor
loads the renderers.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.reads import fields_read

from punchboard.incremental.file_digest import stamp
from punchboard.incremental.print_memos import (
    LAST_FILE,
    LAST_VERSION,
    MEMO_FILE,
    MEMO_VERSION,
    OLD_MEMO_FILE,
    read_marshal,
    write_marshal,
)
from punchboard.plumbing.atomicio import write_text
from punchboard.spec.binding import bind
from punchboard.spec.images import side_image
from punchboard.spec.model import PRINTED_KINDS, Component, Game, Paper, Piece, Side
from punchboard.spec.repeats import input_files

from .digests import RENDER_OPTIONS, build_digest, component_fingerprint
from .jobs import jobs_for, ordered_map
from .languages import siblings
from .options import BuildOptions

if TYPE_CHECKING:  # the renderers load only when a side has to be drawn
    from punchboard.generator.impose.context import BuildContext
    from punchboard.generator.impose.style import SheetStyle

PRINTS_DIR = "prints"
FINGERPRINTS = 2  # the version of the fingerprints a build records (see the module's docstring)
_RECORD = re.compile(r"^(\d{4,})\.json$")
_CARD_KINDS = ("deck", "banknotes", "tokens")


class PrintError(Exception):
    """A print asked for that does not exist (the CLI reports it and exits 2)."""


class PiecePrint(NamedTuple):
    """One physical piece as printed: where it sits in the game and the digests of its two sides (a named
    tuple: a large deck's records make thousands, three times on every build)."""

    component: str
    name: str
    entry: int
    index: int  # type: ignore[assignment]  # a field named like tuple.index (mypy refuses the shadowing)
    copy: int
    face: str
    back: str  # "" when the piece has no back


@dataclass(frozen=True)
class PrintRecord:
    number: int
    date: str
    options: dict[str, object]
    pieces: tuple[PiecePrint, ...]
    version: int = FINGERPRINTS  # of the fingerprints; records written before versions were kept are 1
    depth: int = 0  # how many records written as changes lead back to a whole one (0: this one is whole)

    def to_json(self) -> str:
        """The record as ``json.dumps(..., indent=1, ensure_ascii=False)`` writes it, the piece rows put together
        by :data:`_ROW` (json's indenting encoder is pure Python: a 2,000-card print took 20 ms)."""
        data = {"number": self.number, "version": self.version, "date": self.date, "options": self.options, "pieces": []}
        text = json.dumps(data, indent=1, ensure_ascii=False)
        rows = _grouped(self.pieces)
        if not rows:
            return text + "\n"
        assert text.endswith(_NO_PIECES)
        quote = _quote
        body = ",\n".join(_ROW.format(quote(r["component"]), quote(r["name"]), r["entry"], r["index"], r["copy"],
                                       r["count"], quote(r["face"]), quote(r["back"])) for r in rows)
        return text[: -len(_NO_PIECES)] + '"pieces": [\n' + body + "\n ]\n}\n"


_NO_PIECES = '"pieces": []\n}'
_ROW = ('  {{\n   "component": {},\n   "name": {},\n   "entry": {},\n   "index": {},\n   "copy": {},\n'
        '   "count": {},\n   "face": {},\n   "back": {}\n  }}')
_quote = json.encoder.encode_basestring  # what ensure_ascii=False writes a string as


def _grouped(pieces: Sequence[PiecePrint]) -> list[dict[str, Any]]:
    """Consecutive copies of one entry drawn alike share a row with a count."""
    rows: list[dict[str, Any]] = []
    for piece in pieces:
        last = rows[-1] if rows else None
        if (
            last is not None
            and (last["component"], last["name"], last["entry"], last["copy"], last["face"], last["back"])
            == (piece.component, piece.name, piece.entry, piece.copy, piece.face, piece.back)
            and last["index"] + last["count"] == piece.index  # type: ignore[operator]
        ):
            last["count"] += 1  # type: ignore[operator]
            continue
        rows.append({
            "component": piece.component, "name": piece.name, "entry": piece.entry, "index": piece.index,
            "copy": piece.copy, "count": 1, "face": piece.face, "back": piece.back,
        })
    return rows


def _expanded(rows: Iterable[dict[str, object]]) -> tuple[PiecePrint, ...]:
    pieces = []
    for row in rows:
        for k in range(int(row.get("count", 1))):  # type: ignore[call-overload]
            pieces.append(PiecePrint(
                str(row["component"]), str(row.get("name", "")), int(row.get("entry", 0)),  # type: ignore[call-overload]
                int(row["index"]) + k, int(row.get("copy", 0)), str(row["face"]), str(row.get("back", "")),  # type: ignore[call-overload]
            ))
    return tuple(pieces)


# ---------------------------------------------------------------- the record on disk


def prints_folder(folder: Path) -> Path:
    return folder / PRINTS_DIR


def numbers(folder: Path) -> list[int]:
    """The print numbers recorded for the game whose outputs are in ``folder``, ascending."""
    found = []
    directory = prints_folder(folder)
    if directory.is_dir():
        for path in directory.iterdir():
            match = _RECORD.match(path.name)
            if match:
                found.append(int(match.group(1)))
    return sorted(found)


def load(folder: Path, number: int) -> PrintRecord:
    path = prints_folder(folder) / f"{number:04d}.json"
    read = _read_last(folder, number, path)
    if read is not None:
        return read
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        based_on = data.get("based_on")
        if based_on is None:
            pieces, depth = _expanded(data["pieces"]), 0
        else:
            base = _base(folder, number, based_on, path)
            pieces, depth = _applied(base.pieces, data["changes"]), base.depth + 1
        record = PrintRecord(int(data["number"]), str(data["date"]), dict(data.get("options", {})), pieces,
                             int(data.get("version", 1)), depth)
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise PrintError(f"{path}: cannot read print {number} ({type(exc).__name__}: {exc})") from None
    if record.version not in (1, FINGERPRINTS):
        raise PrintError(f"{path}: print {number} has fingerprints of version {record.version}, which this punchboard "
                         f"cannot compare (it reads versions 1 and {FINGERPRINTS}); build with the punchboard that "
                         "recorded it, or record a new print with `punchboard build`")
    return record


def resolve(folder: Path, game_id: str, wanted: str) -> PrintRecord:
    """The print ``wanted`` names: ``last`` or a number."""
    known = numbers(folder)
    where = prints_folder(folder)
    if not known:
        raise PrintError(
            f"--changed-since {wanted}: no print of {game_id} is recorded in {where} yet; "
            f"run `punchboard build` once without --changed-since to record print 1"
        )
    if wanted == "last":
        return load(folder, known[-1])
    number = int(wanted)
    if number not in known:
        listed = ", ".join(str(n) for n in known)
        raise PrintError(f"--changed-since {wanted}: {game_id} has no print {number} in {where}; recorded prints: {listed}")
    return load(folder, number)


def save(folder: Path, record: PrintRecord) -> Path:
    """Write ``record`` as print ``record.number``: as its changes since the print before it when that is
    much smaller than the whole record (see the module's docstring)."""
    path = prints_folder(folder) / f"{record.number:04d}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    earlier = [n for n in numbers(folder) if n < record.number]
    text = None
    if earlier:
        try:
            base = load(folder, earlier[-1])
        except PrintError:  # an unreadable print before it: this one is written whole
            base = None
        if base is not None and base.depth + 1 < CHAIN_LIMIT and base.version == record.version:
            text = _changes_json(record, base)
            record = PrintRecord(record.number, record.date, record.options, record.pieces, record.version,
                                 base.depth + 1 if text is not None else 0)
    write_text(path, text if text is not None else record.to_json())
    _keep_last(folder, record, path)
    return path


CHAIN_LIMIT = 40  # a record is whole at least every CHAIN_LIMIT prints


def _base(folder: Path, number: int, based_on: object, path: Path) -> PrintRecord:
    """The print a record written as changes is based on (an earlier one, so reading cannot go round in a circle)."""
    if not isinstance(based_on, int) or isinstance(based_on, bool) or not 0 < based_on < number:
        raise ValueError(f"'based_on' must name an earlier print, not {based_on!r}")
    try:
        return load(folder, based_on)
    except PrintError as exc:
        raise ValueError(f"it is written as its changes since print {based_on}, which cannot be read: {exc}") from None


def _changes_json(record: PrintRecord, base: PrintRecord) -> str | None:
    """``record`` as its changes since ``base``; None when the changes are not much smaller than the whole."""
    changes: list[dict[str, object]] = []
    new_rows = 0
    matcher = difflib.SequenceMatcher(None, base.pieces, record.pieces, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            changes.append({"same": [i1, i2]})
        elif j2 > j1:
            rows = _grouped(record.pieces[j1:j2])
            new_rows += len(rows)
            changes.extend(rows)
    if new_rows * 2 > max(len(_grouped(record.pieces)), 1):
        return None
    data = {"number": record.number, "version": record.version, "date": record.date, "options": record.options,
            "based_on": base.number, "changes": changes}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _applied(base: tuple[PiecePrint, ...], changes: list[dict[str, Any]]) -> tuple[PiecePrint, ...]:
    """The pieces ``changes`` (as :func:`_changes_json` writes them) make of ``base``'s."""
    pieces: list[PiecePrint] = []
    for change in changes:
        if "same" in change:
            start, end = change["same"]
            if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(base)):
                raise ValueError(f"'same': [{start!r}, {end!r}] is not a run of the {len(base)} pieces it is based on")
            pieces.extend(base[start:end])
        else:
            pieces.extend(_expanded([change]))
    return tuple(pieces)


def _keep_last(folder: Path, record: PrintRecord, path: Path) -> None:
    """Keep the last record written, as marshal beside the JSON and stamped with its file (incremental/print_memos.py):
    the next build compares with it without parsing the JSON (a 2,000-card deck's record is 550 KB). Another stamp
    (the JSON edited or replaced) and the JSON is read."""
    now = stamp(path)
    if now is None:
        return
    options = json.loads(json.dumps(record.options))  # as the JSON gives them back (a tuple is a list there)
    data = (now, record.number, record.date, options, tuple(p[:] for p in record.pieces), record.version, record.depth)
    write_marshal(prints_folder(folder) / LAST_FILE, "last print", LAST_VERSION, data)  # not when marshal refuses an
    # option: the JSON is read next time


def _read_last(folder: Path, number: int, path: Path) -> PrintRecord | None:
    try:
        kept = read_marshal(prints_folder(folder) / LAST_FILE, "last print", LAST_VERSION)
        if kept is None:
            return None
        at, kept_number, date, options, pieces, version, depth = kept
        if kept_number != number or tuple(at) != stamp(path):
            return None
        return PrintRecord(kept_number, date, dict(options), tuple(map(PiecePrint._make, pieces)), version, depth)
    except (OSError, EOFError, ValueError, TypeError):
        return None


def new_record(number: int, options: dict[str, object], pieces: tuple[PiecePrint, ...]) -> PrintRecord:
    date = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    return PrintRecord(number, date, options, pieces)


def render_options(options: BuildOptions) -> dict[str, object]:
    values = asdict(options)
    return {name: values[name] for name in RENDER_OPTIONS if name in values and name != "stamp_label"}


# ---------------------------------------------------------------- fingerprints


def _rect_clip(rect: Rect):  # type: ignore[no-untyped-def]
    def add(path: object, *_frame: object) -> None:
        path.rect(rect.x, rect.y, rect.width, rect.height)  # type: ignore[attr-defined]

    return add


Panel = tuple[Side, Rect, Rect, int]  # side, trim, clip, rotation in the piece's own frame


class _Files:
    """Digests of files by path, each file read once per build."""

    def __init__(self) -> None:
        self.known: dict[Path, str] = {}

    def digest(self, path: Path) -> str:
        found = self.known.get(path)
        if found is None:
            try:
                found = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                found = "<missing>"
            self.known[path] = found
        return found


def _drawing_digest(ctx: BuildContext, piece: Piece, bleed: float, parts: Sequence[Panel], files: _Files) -> str:
    """Version 1: draw ``parts`` alone on a fresh canvas and hash what was drawn.

    The digest covers the page's drawing operators (text as shown, shapes,
    colours, clips, images by their content-derived names) and, for every font
    the drawing uses, the font file itself. A fresh canvas per side keeps font
    numbering and subset encoding independent of anything drawn before.
    """
    from punchboard.generator.draw.pdf_canvas import PunchCanvas
    from punchboard.generator.draw.side import SideContext, SideFrame, draw_side
    from reportlab.pdfbase import pdfmetrics

    canvas = PunchCanvas(BytesIO(), page_compression=0)
    context = SideContext(ctx.game.palette, (ctx.game.folder,))
    for side, trim, clip, rotation in parts:
        layout = ctx.game.layouts[side.layout]
        frame = SideFrame(trim, bleed, bleed, _rect_clip(clip), rotation)
        draw_side(canvas, layout, {**piece.fields, **side.fields}, frame, context)
    sha = hashlib.sha256("\n".join(canvas._code).encode("utf-8"))
    for name, internal in sorted(canvas._doc.fontMapping.items()):
        font = pdfmetrics.getFont(name)
        source = getattr(getattr(font, "face", None), "filename", None)
        sha.update(f"\n{internal}={name}:{files.digest(Path(source)) if source else ''}".encode())
    return sha.hexdigest()


def _drawn_digest(ctx: BuildContext, piece: Piece, bleed: float, part: Panel, scratch: object) -> str:
    """Version 2 of a card-like side the build did not fingerprint: drawn alone, upright, as the build
    draws a side (a form, trim at the origin), on ``scratch``, a canvas of this run's."""
    from punchboard.generator.draw.fingerprint import Request
    from punchboard.generator.draw.side import SideContext, SideFrame, draw_side

    side, trim, clip, _rotation = part
    found: list[str] = []
    context = SideContext(ctx.game.palette, (ctx.game.folder,), icons=ctx.game.icons, fingerprint=Request(bleed, found.append))
    layout = ctx.game.layouts[side.layout]
    draw_side(scratch, layout, {**piece.fields, **side.fields}, SideFrame(trim, bleed, bleed, clip), context)  # type: ignore[arg-type]
    return found[0]


def display_names(component: Component) -> dict[int, str]:
    """How a designer tells the pieces apart, by piece index: the ``name``, with the first other
    field value added when several entries share it ("1 · Steam"); without a name the first two
    field values ("Steam 3"); else the entry number."""
    entries: dict[str, set[int]] = {}
    for piece in component.pieces:
        entries.setdefault(piece.name, set()).add(piece.entry)
    labels = {}
    for piece in component.pieces:
        if piece.name and len(entries[piece.name]) == 1:  # a name no other entry has: the label (no values needed)
            labels[piece.index] = piece.name
            continue
        values = [str(piece.fields[f]) for f in component.fields if piece.fields.get(f) not in (None, "")]
        if piece.name:
            others = [v for v in values if v != piece.name]
            labels[piece.index] = f"{piece.name} · {others[0]}" if others else piece.name
        else:
            labels[piece.index] = " ".join(values[:2]) if values else f"#{piece.entry + 1}"
    return labels


def side_bleed(ctx: BuildContext, component: Component) -> float:
    from punchboard.generator.impose.part_bleed import bleed_for as part_bleed_for

    return ctx.bleed_for(component) if component.kind in _CARD_KINDS else part_bleed_for(ctx, component)


def _size(component: Component, piece: Piece) -> tuple[float, float]:
    if component.kind == "tiles" and component.cell is not None:
        from punchboard.generator.impose.tiles import piece_size

        return piece_size(piece.cells, component.cell)
    assert component.size is not None
    return component.size.width, component.size.height


def _side_parts(component: Component, piece: Piece, width: float, height: float, bleed: float) -> tuple[list[Panel], list[Panel]]:
    whole = Rect(0, 0, width, height)
    grown = whole.inset(-bleed)
    faces: list[Panel] = []
    if component.kind == "sheet" and piece.face is not None:
        from punchboard.generator.impose.sheets import panels

        faces = [(p.side, p.trim, p.clip, p.rotation) for p in panels(component, piece, width, height, bleed)]
    elif piece.face is not None:
        faces = [(piece.face, whole, grown, 0)]
    backs: list[Panel] = [(piece.back, whole, grown, 0)] if piece.back is not None else []
    return faces, backs


def _inputs_key(ctx: BuildContext, shared: str, piece: Piece, size: tuple[float, float], bleed: float,
                parts: Sequence[Panel], files: _Files, version: int = FINGERPRINTS) -> str:
    """Everything a side's drawing is made from (a memo key only: the fingerprint is the drawing)."""
    sha = hashlib.sha256(f"{shared}:{version}".encode())
    sha.update(repr((size, bleed)).encode())
    for side, trim, clip, rotation in parts:
        layout = ctx.game.layouts[side.layout]
        fields = {**piece.fields, **side.fields}
        read = fields_read(layout)  # drawing reads a piece's fields only through these
        shown = fields if read is None else {k: v for k, v in fields.items() if k in read}
        sha.update(repr((side.layout, sorted(shown.items(), key=repr), trim, clip, rotation)).encode())
        for path in (*layout.chain, *sorted(layout.fonts.values())):
            sha.update(files.digest(path).encode())
        for element in layout.elements:
            if element.type == "image" and "src" in element.props:
                found = side_image(bind(element.props["src"], fields).strip(), layout, (ctx.game.folder,))
                sha.update(files.digest(found).encode() if found is not None else b"<none>")
        for path in input_files(layout, fields, ctx.game.folder):  # a repeat's or grid's CSV and pictures
            sha.update(files.digest(path).encode())
    return sha.hexdigest()


@dataclass
class _Memo:
    game: str = ""  # the key of the whole game's drawings when it was taken
    components: dict[str, tuple[str, tuple[PiecePrint, ...], dict[str, str]]] | None = None  # id → (key, prints, sides)


def _load_memo(path: Path) -> _Memo:
    """The memo the last build kept (``marshal``: plain tuples and strings, a large deck's quick to read); an
    empty one when it is missing, damaged, or written by another punchboard or Python."""
    try:
        kept = read_marshal(path, "print memo", MEMO_VERSION)
        if kept is None:
            return _Memo()
        game, entries = kept
        components = {str(cid): (str(key), tuple(map(PiecePrint._make, pieces)), dict(sides))
                      for cid, (key, pieces, sides) in entries.items()}
        return _Memo(str(game), components)
    except (OSError, ValueError, EOFError, TypeError, AttributeError):
        return _Memo()


@dataclass
class Fingerprints:
    """Every printed piece's drawing digests, and the memo to keep for the next build."""

    pieces: tuple[PiecePrint, ...]
    game: str
    components: dict[str, tuple[str, tuple[PiecePrint, ...], dict[str, str]]]
    changed: bool
    version: int = FINGERPRINTS

    def save_memo(self, folder: Path) -> None:
        """Written after the build's outputs, so a build killed early leaves its outputs' order of writes alone."""
        if self.changed and self.version == FINGERPRINTS:
            path = prints_folder(folder) / MEMO_FILE
            path.parent.mkdir(parents=True, exist_ok=True)
            entries = {cid: (key, tuple(map(tuple, pieces)), sides) for cid, (key, pieces, sides) in self.components.items()}
            write_marshal(path, "print memo", MEMO_VERSION, (self.game, entries))
            (path.parent / OLD_MEMO_FILE).unlink(missing_ok=True)


Drawn = dict[tuple[str, int, int], str]  # the build's own fingerprints: (component, piece index, 0 face / 1 back) → digest


def fingerprint_game(game: Game, options: BuildOptions, paper: Paper, style: SheetStyle, folder: Path,
                     drawn: Drawn | None = None, version: int = FINGERPRINTS) -> Fingerprints:
    """Every printed piece's (face, back) drawing digests (``options`` without a stamp).

    ``drawn``: the fingerprints the build took while drawing (version 2); a side missing
    from it is drawn alone. When no component's inputs changed since the digests were
    last taken they are reused whole; otherwise a component whose inputs are the same is
    reused, and a side drawn alone before from the same inputs is not drawn again.
    ``version`` 1 gives the fingerprints older prints recorded (no memo: taken afresh).
    """
    for leftover in prints_folder(folder).glob(".*.part"):  # from a build that was killed mid-write
        leftover.unlink(missing_ok=True)
    legacy = version != FINGERPRINTS
    memo = _Memo() if options.force or legacy else _load_memo(prints_folder(folder) / MEMO_FILE)
    components = [c for c in game.printed if c.kind in PRINTED_KINDS]
    shared = build_digest(game, options)
    keys = {c.id: component_fingerprint(game, c, shared) for c in components}
    key = hashlib.sha256("".join(f"{c.id}:{keys[c.id]}\n" for c in components).encode()).hexdigest()
    known: dict[str, tuple[str, tuple[PiecePrint, ...], dict[str, str]]] = dict(memo.components or {})
    for sibling in [] if legacy else siblings(folder, options):  # a --lang build: what the game's others took
        for cid, theirs in (_load_memo(prints_folder(sibling) / MEMO_FILE).components or {}).items():
            if cid in keys and theirs[0] == keys[cid] and (cid not in known or known[cid][0] != keys[cid]):
                known[cid] = theirs
    if memo.game == key and all(c.id in known for c in components):
        return Fingerprints(tuple(p for c in components for p in known[c.id][1]), key, known, False)

    from punchboard.generator.impose.context import BuildContext

    ctx = BuildContext(game, paper, options, style)
    drawn = {} if legacy or drawn is None else drawn
    kept: dict[str, tuple[str, tuple[PiecePrint, ...], dict[str, str]]] = {}
    todo: list[int] = []
    for n, component in enumerate(components):
        entry = known.get(component.id)
        if entry is not None and entry[0] == keys[component.id]:
            kept[component.id] = entry
        else:
            todo.append(n)
    # Sides the build fingerprinted cost nothing more; the others are drawn alone. With --jobs the pieces
    # left to draw are shared out in runs over the processes; a digest depends on its side's drawing alone,
    # so the records are the same for any split (a side recurring in two runs is drawn twice).
    alone = sum(len(components[n].pieces) for n in todo if not _all_drawn(components[n], drawn))
    jobs = jobs_for(options.jobs, options.jobs_auto, alone)
    runs = [(n, start, min(start + size, len(c.pieces)))
            for n in todo
            for c in [components[n]]
            for size in [max(MIN_RUN, -(-len(c.pieces) // max(1, jobs)))]
            for start in range(0, len(c.pieces), size)]
    state = (ctx, shared, {cid: entry[2] for cid, entry in known.items()}, components, drawn, version)
    made: dict[str, tuple[list[PiecePrint], dict[str, str]]] = {}
    for (n, _start, _stop), (run_pieces, run_sides) in zip(runs, ordered_map(_fingerprint_run, state, runs, jobs),
                                                           strict=True):
        pieces, sides = made.setdefault(components[n].id, ([], {}))
        pieces.extend(run_pieces)
        sides.update(run_sides)
    for cid, (pieces, sides) in made.items():
        kept[cid] = (keys[cid], tuple(pieces), sides)
    ordered = {c.id: kept[c.id] for c in components}
    return Fingerprints(tuple(p for entry in ordered.values() for p in entry[1]), key, ordered, True, version)


def _all_drawn(component: Component, drawn: Drawn) -> bool:
    return all((component.id, p.index, k) in drawn
               for p in component.pieces for k, side in enumerate((p.face, p.back)) if side is not None)


MIN_RUN = 32  # pieces: fewer are not worth a process


def _fingerprint_run(state: tuple[BuildContext, str, dict[str, dict[str, str]], list[Component], Drawn, int],
                     run: tuple[int, int, int]) -> tuple[list[PiecePrint], dict[str, str]]:
    """The prints of one component's pieces ``start:stop``, and the digest of every side drawn alone by its inputs."""
    ctx, shared, known_sides, components, drawn, version = state
    index, start, stop = run
    component = components[index]
    known = known_sides.get(component.id, {})
    files = _Files()
    used: dict[str, str] = {}
    pieces: list[PiecePrint] = []
    bleed = side_bleed(ctx, component)
    names = display_names(component)
    card_like = component.kind in _CARD_KINDS and version == FINGERPRINTS
    scratch = None
    for piece in component.pieces[start:stop]:
        if card_like:  # the build took both sides' fingerprints as it drew them (most often): nothing to work out
            face = drawn.get((component.id, piece.index, 0)) if piece.face is not None else ""
            back = drawn.get((component.id, piece.index, 1)) if piece.back is not None else ""
            if face is not None and back is not None:
                pieces.append(PiecePrint(component.id, names[piece.index], piece.entry, piece.index, piece.copy, face, back))
                continue
        width, height = _size(component, piece)
        digests = []
        for k, parts in enumerate(_side_parts(component, piece, width, height, bleed)):
            if not parts:
                digests.append("")
                continue
            found = drawn.get((component.id, piece.index, k)) if card_like else None
            if found is None:
                side_key = _inputs_key(ctx, shared, piece, (width, height), bleed, parts, files, version)
                found = used.get(side_key) or known.get(side_key)
                if found is None and card_like:
                    if scratch is None:
                        from punchboard.generator.draw.pdf_canvas import PunchCanvas

                        scratch = PunchCanvas(BytesIO(), page_compression=0)
                    found = _drawn_digest(ctx, piece, bleed, parts[0], scratch)
                elif found is None:
                    found = _drawing_digest(ctx, piece, bleed, parts, files)
                used[side_key] = found
            digests.append(found)
        pieces.append(PiecePrint(component.id, names[piece.index], piece.entry, piece.index, piece.copy,
                                 digests[0], digests[1]))
    return pieces, used
