"""Tabletop Simulator export: deck sheets and saved-object JSON, boards as tiles, tokens in bags.

Decks and banknotes become ``DeckCustom`` objects. Their distinct cards go on
face sheets of at most 10 × 7 slots and 4096 px a side (RGB PNG); the last
slot of every sheet holds the hidden-card face (the common back, or a "?" card
when backs differ). Components whose cards have different backs get back
sheets laid out like the face sheets (``UniqueBack``). Card images are
rasterised from the PDF drawing (see :mod:`punchboard.generator.export.images`) at trim size.

Boards and sheets become ``Custom_Tile`` boxes with front and back images;
tokens and tiles become one object per piece in a ``Bag`` per component:
``Custom_Tile`` (box, hex, circle, rounded) when the shape has a tile type or
the piece has a back, else ``Custom_Token`` cut along the PNG's transparency.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image
from punchboard.generator.document.pages import Page
from punchboard.generator.draw.reads import reuse_key
from punchboard.generator.impose.context import BuildContext
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental.file_digest import file_digest
from punchboard.incremental.image_records import TTS_BACKS, TTS_RECORD
from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.paths import game_output
from punchboard.spec.model import Component, Game, Piece

from .images import (
    DrawnPages,
    PieceSides,
    export_context,
    piece_key,
    piece_sides,
    piece_stem,
)
from .kept_images import KeptPngs, PixelsMemo

MAX_COLS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
CARDS_PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot is the hidden face
CARD_DPI = 300  # cards are scaled down from this to fit a sheet
PIECE_DPI = 300
DECK_KINDS = ("deck", "banknotes")
POKER_WIDTH, POKER_HEIGHT = 180.0, 252.0  # a scale-1 TTS card is poker-shaped
TILE_TYPES = {"square": 0, "hexagon": 1, "circle": 2, "gear": 2, "rounded": 3, "custom": 0}
TOKEN_SHAPES_WITHOUT_TILE = ("gear", "custom")
SPACING = 4.0  # TTS units between objects laid out side by side


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    card_width: int  # pixels
    card_height: int

    @property
    def slots(self) -> int:
        return self.cols * self.rows

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.card_width, self.rows * self.card_height


@dataclass(frozen=True)
class Design:
    """A distinct piece (same face and back) and every piece that looks like it."""

    sides: PieceSides
    pieces: tuple[Piece, ...]


def distinct(sides: Sequence[PieceSides]) -> list[Design]:
    groups: dict[tuple[object, ...], list[PieceSides]] = {}
    for entry in sides:
        groups.setdefault(piece_key(entry.piece), []).append(entry)
    return [Design(group[0], tuple(e.piece for e in group)) for group in groups.values()]


def choose_grid(slots: int, width: float, height: float, dpi: float = CARD_DPI) -> Grid:
    """The smallest grid of ≤ 10 × 7 with ``slots`` places (squarest sheet on ties), and the
    largest card pixel size up to ``dpi`` that keeps the sheet within 4096 px a side."""
    if not 1 <= slots <= MAX_COLS * MAX_ROWS:
        raise ValueError(f"a TTS sheet holds 1 to {MAX_COLS * MAX_ROWS} slots, not {slots}")
    options = [(c, r) for c in range(1, MAX_COLS + 1) for r in range(1, MAX_ROWS + 1) if c * r >= slots]
    cols, rows = min(options, key=lambda cr: (cr[0] * cr[1], abs(math.log(cr[0] * width / (cr[1] * height)))))
    card_width = min(round(width * dpi / 72), MAX_SIDE // cols, math.floor(MAX_SIDE // rows * width / height))
    card_height = min(round(card_width * height / width), MAX_SIDE // rows)
    return Grid(cols, rows, max(1, card_width), max(1, card_height))


def guid(*parts: object) -> str:
    return hashlib.sha1("/".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:6]


def transform(x: float = 0.0, z: float = 0.0, scale_x: float = 1.0, scale_z: float = 1.0, face_down: bool = False) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": round(scale_x, 4), "scaleY": 1.0, "scaleZ": round(scale_z, 4)}


def question_card(width: float, height: float, title: str) -> Page:
    """The hidden face for decks whose backs differ (and the back of cards that have none)."""

    def draw(canvas: Canvas) -> None:
        canvas.setFillColor("#3b3b3b")
        canvas.rect(0, 0, width, height, stroke=0, fill=1)
        canvas.setFillColor("#f3f3f3")
        size = min(width, height) * 0.6
        canvas.setFont("Vera-Bold", size)
        canvas.drawCentredString(width / 2, height / 2 - size * 0.36, "?")
        canvas.setFont("Vera", max(5.0, width / 16))
        canvas.drawCentredString(width / 2, height * 0.1, title)

    return Page(width, height, draw)


class Urls:
    """file:///absolute/path by default, or ``base_url`` + the file name for hosted images."""

    def __init__(self, folder: Path, base_url: str | None):
        self.folder = folder
        self.base_url = base_url.rstrip("/") if base_url else None

    def __call__(self, path: Path) -> str:
        if self.base_url:
            return f"{self.base_url}/{path.relative_to(self.folder).as_posix()}"
        return path.resolve().as_uri()


@dataclass
class DeckSheets:
    """The images of one deck component and its CustomDeck entries (key → entry)."""

    custom_deck: dict[str, dict[str, Any]]
    card_ids: dict[tuple[object, ...], int]  # piece key → CardID
    files: list[Path]


def _back_key(ctx: BuildContext, design: Design) -> tuple[object, ...]:
    """What decides how a design's back looks (equal keys draw equal pixels)."""
    piece, side = design.sides.piece, design.sides.piece.back
    if design.sides.back is None or side is None:
        return ("?",)
    return (side.layout, reuse_key(ctx.game.layouts[side.layout], {**piece.fields, **side.fields}))


class _Cards:
    """One sheet's worth of card images, drawn through a PDF of just those cards, each with its drawing key
    (kept_images.drawing_key); rendered only when asked for (the first, a deck's hidden face or common back, once)."""

    def __init__(self, pages: Sequence[Page], size: tuple[int, int], title: str):
        self.drawn = DrawnPages(pages, [size] * len(pages), False, title, None)
        self.keys = self.drawn.keys
        self._first: Image.Image | None = None

    def image(self, number: int) -> Image.Image:
        """One card's image (the first is kept once rendered: a deck's hidden face or common back)."""
        if number == 0 and self._first is not None:
            return self._first
        found = next(iter(self.drawn.rasterised([number])))
        if number == 0:
            self._first = found
        return found

    def images(self) -> Iterator[Image.Image]:
        """Every card's image, in order, one alive at a time (all of them through one rasterising pass)."""
        return iter(self.drawn.rasterised(list(range(len(self.keys)))))


def _sheet_key(grid: Grid, cards: Sequence[str | None], hidden: str | None) -> str | None:
    """The drawing key of a sheet: its grid and the drawing keys of its cards and hidden face, with the code that
    lays sheets out (None when a card has no key: the sheet is rendered)."""
    if hidden is None or None in cards:
        return None
    text = f"{_sheet_code()}:{grid}:{hidden}:{','.join(cards)}"  # type: ignore[arg-type]
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def _sheet_code() -> str:
    return file_digest(Path(__file__)) or "missing"


def deck_sheets(ctx: BuildContext, component: Component, folder: Path, urls: Urls, pngs: KeptPngs,
                backs_seen: PixelsMemo | None = None) -> DeckSheets:
    """Face sheets (and back sheets when backs differ), one sheet in memory at a time; ``pngs`` writes them, and a
    sheet whose file holds what the same cards drew last time is not rendered again. ``backs_seen`` remembers the
    pixels of each back by its drawing, so deciding whether a deck's backs differ renders only backs it has not seen."""
    assert component.size is not None  # decks and banknotes have a size
    width, height = component.size.width, component.size.height
    designs = distinct(piece_sides(ctx, component))
    chunks = [designs[i : i + CARDS_PER_SHEET] for i in range(0, len(designs), CARDS_PER_SHEET)]
    grids = [choose_grid(len(chunk) + 1, width, height) for chunk in chunks]
    card_w = min(g.card_width for g in grids)
    card_h = min(g.card_height for g in grids)
    grids = [Grid(g.cols, g.rows, card_w, card_h) for g in grids]
    size, title = (card_w, card_h), ctx.game.title
    seen = backs_seen if backs_seen is not None else PixelsMemo(None)
    question_page = question_card(width, height, component.name)
    question = _Cards([question_page], size, title)

    def back_pages(chunk: Sequence[Design]) -> list[Page]:
        return [d.sides.back or question_page for d in chunk]

    # Backs are compared as pixels (a back layout usually ignores most of the card's fields);
    # backs drawn from the same layout and the same fields they read are equal without looking.
    back_keys: list[list[str | None]] = []  # each sheet's backs' drawing keys (their PDFs are not held: drawn again)
    if len({_back_key(ctx, d) for d in designs}) == 1:
        unique_back = False
        single_back = _Cards(back_pages(designs[:1]), size, title)
    else:
        digests: set[str] = set()
        for chunk in chunks:
            cards = _Cards(back_pages(chunk), size, title)
            back_keys.append(cards.keys)
            digests.update(seen.digests(cards.keys, cards.drawn.rasterised))
            if len(back_keys) == 1:
                single_back = cards
        unique_back = len(digests) > 1
    hidden, hidden_key = (question, question.keys[0]) if unique_back else (single_back, single_back.keys[0])
    files: list[Path] = []
    custom_deck: dict[str, dict[str, Any]] = {}
    card_ids: dict[tuple[object, ...], int] = {}
    back_file = None
    if not unique_back:
        back_file = folder / f"{component.id}-back.png"
        if not pngs.current(back_file, single_back.keys[0]):
            pngs.write(back_file, single_back.image(0), key=single_back.keys[0])
        files.append(back_file)
    for number, (chunk, grid) in enumerate(zip(chunks, grids, strict=True), start=1):
        fronts = _Cards([d.sides.front for d in chunk], size, title)
        face_file = folder / f"{component.id}-faces-{number}.png"
        face_key = _sheet_key(grid, fronts.keys, hidden_key)
        if not pngs.current(face_file, face_key):
            face_sheet = _sheet(grid, fronts.images(), hidden.image(0))
            pngs.write(face_file, face_sheet, key=face_key)
            del face_sheet
        files.append(face_file)
        if unique_back:
            sheet_back_file = folder / f"{component.id}-backs-{number}.png"
            back_key = _sheet_key(grid, back_keys[number - 1], question.keys[0])
            if not pngs.current(sheet_back_file, back_key):
                these = single_back if number == 1 else _Cards(back_pages(chunk), size, title)
                back_sheet = _sheet(grid, these.images(), question.image(0))
                pngs.write(sheet_back_file, back_sheet, key=back_key)
                del back_sheet
            files.append(sheet_back_file)
        else:
            assert back_file is not None
            sheet_back_file = back_file
        custom_deck[str(number)] = {
            "FaceURL": urls(face_file), "BackURL": urls(sheet_back_file),
            "NumWidth": grid.cols, "NumHeight": grid.rows,
            "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0,
        }
        for slot, design in enumerate(chunk):
            card_ids[piece_key(design.sides.piece)] = number * 100 + slot
    return DeckSheets(custom_deck, card_ids, files)


def _sheet(grid: Grid, cards: Iterable[Image.Image], hidden: Image.Image) -> Image.Image:
    sheet = Image.new("RGB", grid.size, "white")
    for slot, card in enumerate(cards):  # pasted as they are rendered: one card image alive at a time
        sheet.paste(card, ((slot % grid.cols) * grid.card_width, (slot // grid.cols) * grid.card_height))
    last = grid.slots - 1
    sheet.paste(hidden, ((last % grid.cols) * grid.card_width, (last // grid.cols) * grid.card_height))
    return sheet


def card_name(piece: Piece, component: Component) -> str:
    return piece.name or f"{component.name} {piece.index + 1}"


def deck_objects(game: Game, component: Component, sheets: DeckSheets, x: float) -> list[dict[str, Any]]:
    """One DeckCustom per copy of the component (a lone card is a Card object)."""
    assert component.size is not None
    scale_x, scale_z = component.size.width / POKER_WIDTH, component.size.height / POKER_HEIGHT
    copies = sorted({p.copy for p in component.pieces})
    objects = []
    for n, copy in enumerate(copies):
        pieces = [p for p in component.pieces if p.copy == copy]
        place = transform(x + n * SPACING, 0.0, scale_x, scale_z, face_down=True)
        cards: list[dict[str, Any]] = []
        for piece in pieces:
            card_id = sheets.card_ids[piece_key(piece)]
            key = str(card_id // 100)
            cards.append({
                "Name": "Card", "GUID": guid(game.id, component.id, piece.index), "Nickname": card_name(piece, component),
                "CardID": card_id, "CustomDeck": {key: sheets.custom_deck[key]}, "Transform": place,
            })
        nickname = component.name if len(copies) == 1 else f"{component.name} ({n + 1} of {len(copies)})"
        if len(cards) == 1:
            objects.append(cards[0])
            continue
        used = sorted({str(c["CardID"] // 100) for c in cards}, key=int)
        objects.append({
            "Name": "DeckCustom", "GUID": guid(game.id, component.id, "deck", copy), "Nickname": nickname,
            "Transform": place, "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": {key: sheets.custom_deck[key] for key in used}, "ContainedObjects": cards,
        })
    return objects


def _piece_dpi(width: float, height: float) -> float:
    return min(PIECE_DPI, MAX_SIDE * 72 / max(width, height))


def piece_objects(ctx: BuildContext, game: Game, component: Component, folder: Path, urls: Urls, x: float,
                  pngs: KeptPngs) -> tuple[list[dict[str, Any]], list[Path]]:
    """Boards and sheets as Custom_Tile; tokens and tiles as one object per piece in a Bag (``pngs`` writes
    their images)."""
    designs = distinct(piece_sides(ctx, component))
    shaped = component.kind in ("tokens", "tiles")
    jobs: list[tuple[Page, Path]] = []
    for position, design in enumerate(designs, start=1):
        stem = f"{component.id}-{piece_stem(design.sides.piece, position)}"
        jobs.append((design.sides.front, folder / f"{stem}-front.png"))
        if design.sides.back is not None:
            jobs.append((design.sides.back, folder / f"{stem}-back.png"))
    sizes = []
    for page, _ in jobs:
        dpi = _piece_dpi(page.width, page.height)
        sizes.append((max(1, round(page.width * dpi / 72)), max(1, round(page.height * dpi / 72))))
    drawn = DrawnPages([p for p, _ in jobs], sizes, shaped, game.title, None)
    todo = [n for n, (_, path) in enumerate(jobs) if not pngs.current(path, drawn.keys[n])]
    for n, image in zip(todo, drawn.rasterised(todo), strict=True):  # an image drawn as last time is not rendered
        pngs.write(jobs[n][1], image, key=drawn.keys[n])
    files = [path for _, path in jobs]
    url_of = {id(page): urls(path) for page, path in jobs}

    objects = []
    for n, design in enumerate(designs):
        front = url_of[id(design.sides.front)]
        back = url_of[id(design.sides.back)] if design.sides.back is not None else ""
        width_in = design.sides.front.width / 72
        for piece in design.pieces:
            objects.append(_piece_object(game, component, piece, front, back, width_in, x + n * SPACING))
    if component.kind in ("board", "sheet"):
        return objects, files
    bag = {"Name": "Bag", "GUID": guid(game.id, component.id, "bag"), "Nickname": component.name,
           "Transform": transform(x), "ContainedObjects": objects}
    return [bag], files


def _piece_object(game: Game, component: Component, piece: Piece, front: str, back: str, width_in: float, x: float) -> dict[str, Any]:
    shape = component.shape.name if component.shape is not None else "square"
    scale = round(width_in / 2, 4)  # a scale-1 custom tile is about two inches across
    name = card_name(piece, component)
    common = {"GUID": guid(game.id, component.id, piece.index), "Nickname": name, "Transform": transform(x, 0.0, scale, scale)}
    single_cell = len(piece.cells) == 1
    token_like = component.kind == "tokens" and shape in TOKEN_SHAPES_WITHOUT_TILE
    if not back and (token_like or (component.kind == "tiles" and not single_cell)):
        return {"Name": "Custom_Token", **common, "CustomImage": {
            "ImageURL": front, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
            "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}}}
    tile_type = TILE_TYPES.get(shape, 0) if component.kind == "tokens" else 0
    return {"Name": "Custom_Tile", **common, "CustomImage": {
        "ImageURL": front, "ImageSecondaryURL": back or front, "ImageScalar": 1.0, "WidthScale": 0.0,
        "CustomTile": {"Type": tile_type, "Thickness": 0.2 if component.kind != "board" else 0.1,
                       "Stackable": component.kind in ("tokens", "tiles"), "Stretch": True}}}


def saved_object(name: str, objects: list[dict[str, Any]]) -> bytes:
    data = {"SaveName": name, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def export_tts(game: Game, out_dir: Path, base_url: str | None = None, warn: Callable[[str], None] | None = None,
               lang: str | None = None) -> list[Path]:
    """Images and saved-object JSON under ``out_dir/<game>/tts/`` (``out_dir/<game>/<lang>/tts/`` for a ``lang``):
    one JSON per component and one for the game. ``warn`` hears what drawing them said (text that does not fit, …),
    each once, in order."""
    folder = game_output(out_dir, game.id, lang) / "tts"
    urls = Urls(folder, base_url)
    ctx = export_context(game, 0.0)
    written = _export_tts(ctx, game, folder, urls)
    if warn is not None:
        for message in dict.fromkeys(ctx.warnings):
            warn(message)
    return written


def _export_tts(ctx: BuildContext, game: Game, folder: Path, urls: Urls) -> list[Path]:
    pngs = KeptPngs(folder / TTS_RECORD)  # an image whose pixels are unchanged is not written again (kept_images.py)
    backs_seen = PixelsMemo(folder / TTS_BACKS)
    written: list[Path] = []
    everything: list[dict[str, Any]] = []
    x = 0.0
    for component in game.printed:
        if not component.pieces:
            continue
        if component.kind in DECK_KINDS:
            sheets = deck_sheets(ctx, component, folder, urls, pngs, backs_seen)
            objects, files = deck_objects(game, component, sheets, x), sheets.files
        else:
            objects, files = piece_objects(ctx, game, component, folder, urls, x, pngs)
        path = folder / f"{component.id}.json"
        write_bytes(path, saved_object(f"{game.title} — {component.name}", objects))
        written += files + [path]
        everything += objects
        x += SPACING * max(1, len(objects))
    path = folder / f"{game.id}.json"
    write_bytes(path, saved_object(game.title, everything))
    written.append(path)
    pngs.save()
    backs_seen.save()
    return written
