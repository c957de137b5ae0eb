"""Per-piece PNG images, rasterised from the same PDF drawing the print files use.

Every piece side becomes a one-piece PDF page (page = trim + bleed, drawn by
the kind's own painter; decks, banknotes and tokens go through their kind's
print-shop pages), and pypdfium2 rasterises that page at an exact pixel size.
Nothing is drawn twice, so a PNG matches the PDF. Shaped pieces (tokens,
tiles) are rendered with an alpha channel: transparent outside their outline
grown by the bleed; rectangular pieces are opaque RGB.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image
from punchboard.generator.document.merge import page_digests
from punchboard.generator.document.pages import Page, render
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.reads import fields_read
from punchboard.generator.draw.side import SideFrame
from punchboard.generator.impose.backs import Painter
from punchboard.generator.impose.context import BuildContext
from punchboard.generator.impose.kinds import KINDS
from punchboard.generator.impose.part_pages import side_drawer
from punchboard.generator.impose.style import load_style
from punchboard.generator.impose.tiles import grown_cells_clip, piece_size
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental import image_records
from punchboard.incremental.image_records import component_record
from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.paths import game_output
from punchboard.plumbing.pool import ordered_map
from punchboard.plumbing.units import to_mm
from punchboard.spec.loader import load_paper
from punchboard.spec.model import Component, Game, Piece, Side

from . import kept_images
from .kept_images import KeptPngs

PRINT_SHOP_KINDS = ("deck", "banknotes", "tokens")
SHAPED_KINDS = ("tokens", "tiles")
DEFAULT_DPI = 300
DEFAULT_BLEED_IN = 0.125


@dataclass(frozen=True)
class PieceSides:
    """One piece as single-piece pages: its front, and its back when it has one."""

    piece: Piece
    front: Page
    back: Page | None
    alpha: bool  # shaped piece: transparent outside its outline


def side_key(piece: Piece, side: Side | None, game: Game | None = None) -> tuple[object, ...] | None:
    """What decides how a side looks: its layout and the fields it is drawn with.

    Given the game, only the fields the side's layout reads count, so a common back
    drawn for cards with different names is one side.
    """
    if side is None:
        return None
    fields = {**piece.fields, **side.fields}
    layout = game.layouts.get(side.layout) if game is not None else None
    read = fields_read(layout) if layout is not None else None
    if read is not None:
        fields = {k: v for k, v in fields.items() if k in read}
    return (side.layout, tuple(sorted((k, repr(v)) for k, v in fields.items())))


def piece_key(piece: Piece) -> tuple[object, ...]:
    return (side_key(piece, piece.face), side_key(piece, piece.back), piece.cells)


def slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def piece_stem(piece: Piece, position: int) -> str:
    """``003-the-duke``: 1-based position in the component, then the name when there is one."""
    name = slug(piece.name)
    return f"{position:03d}-{name}" if name else f"{position:03d}"


def export_context(game: Game, bleed: float, quiet: bool = True) -> BuildContext:
    options = BuildOptions(print_shop=True, bleed_mm=to_mm(bleed), quiet=quiet)
    return BuildContext(game, load_paper(options.paper), options, load_style())


def _page(width: float, height: float, bleed: float, paint: Painter | None, clip: object | None = None) -> Page:
    trim = Rect(bleed, bleed, width, height)
    box = Rect(0, 0, width + 2 * bleed, height + 2 * bleed)
    frame = SideFrame(trim, bleed, bleed, clip if clip is not None else box)  # type: ignore[arg-type]

    def draw(canvas: Canvas) -> None:
        if paint is not None:
            paint(canvas, frame)

    return Page(box.width, box.height, draw, trim_box=trim, bleed_box=box)


def _tile_page(ctx: BuildContext, component: Component, piece: Piece, side: Side | None, bleed: float) -> Page:
    assert component.cell is not None  # the loader requires a cell size for tiles
    cells = piece.cells
    width, height = piece_size(cells, component.cell)
    draw = side_drawer(ctx, component)
    clip = grown_cells_clip(cells, component.cell, bleed)

    def paint(canvas: Canvas, frame: SideFrame) -> None:
        if side is not None:
            canvas.translate(bleed, bleed)
            draw(canvas, side, piece, Rect(0, 0, width, height), bleed, clip, 0)

    return _page(width, height, bleed, paint)


def piece_sides(ctx: BuildContext, component: Component) -> list[PieceSides]:
    """Single-piece pages for every piece of ``component`` at the context's bleed."""
    bleed = ctx.bleed_for(component)
    pieces = component.pieces
    alpha = component.kind in SHAPED_KINDS
    if component.kind in PRINT_SHOP_KINDS:
        pages = KINDS[component.kind](ctx, ctx.game, component, replace(ctx.options, print_shop=True))
        pages = [replace(page, overlay=None) for page in pages]  # a print shop's die line is not part of the art
        paired = len(pages) == 2 * len(pieces)
        result = []
        for n, piece in enumerate(pieces):
            front = pages[2 * n] if paired else pages[n]
            back = pages[2 * n + 1] if paired and piece.back is not None else None
            result.append(PieceSides(piece, front, back, alpha))
        return result
    if component.kind == "tiles":
        return [
            PieceSides(p, _tile_page(ctx, component, p, p.face, bleed),
                       _tile_page(ctx, component, p, p.back, bleed) if p.back else None, alpha)
            for p in pieces
        ]
    assert component.size is not None  # boards and sheets have a size
    width, height = component.size.width, component.size.height
    noun = component.kind
    return [
        PieceSides(
            p,
            _page(width, height, bleed, ctx.painter(component, p, p.face, noun)),
            _page(width, height, bleed, ctx.painter(component, p, p.back, noun)) if p.back else None,
            alpha,
        )
        for p in pieces
    ]


def pixel_size(width: float, height: float, dpi: float) -> tuple[int, int]:
    """Pixels for a page of ``width`` × ``height`` points at ``dpi``."""
    return max(1, round(width * dpi / 72)), max(1, round(height * dpi / 72))


def rasterise(pdf: bytes, sizes: Sequence[tuple[int, int]], alpha: bool = False,
              pages: Sequence[int] | None = None) -> Iterator[Image.Image]:
    """Each page of ``pdf`` rendered to exactly the given pixel size (RGB on white, or RGBA on clear);
    with ``pages``, those pages only (counted from 0), one size each."""
    document = pdfium.PdfDocument(pdf)
    try:
        for index, (width, height) in zip(pages if pages is not None else range(len(sizes)), sizes, strict=True):
            page = document[index]
            fmt = pdfium_c.FPDFBitmap_BGRA if alpha else pdfium_c.FPDFBitmap_BGR
            bitmap = pdfium.PdfBitmap.new_native(width, height, fmt, rev_byteorder=True)
            pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0x00FFFFFF if alpha else 0xFFFFFFFF)  # ARGB
            # An explicit size maps the page box onto exactly these pixels (page.render rounds up).
            flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER  # RGB(A) order, as the bitmap declares
            pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, flags)
            image = bitmap.to_pil().copy()
            bitmap.close()
            page.close()
            yield image
    finally:
        document.close()


class DrawnPages:
    """Single-piece pages drawn into one in-memory PDF, each with its drawing key (kept_images.drawing_key: the
    page's bytes and everything it draws with, its pixel size, the renderer and the encoder), so that only the
    pages whose key is not already held need rendering (:meth:`rasterised`)."""

    def __init__(self, pages: Sequence[Page], sizes: Sequence[tuple[int, int]], alpha: bool, title: str,
                 dpi: float | None):
        self.sizes, self.alpha = sizes, alpha
        self.pdf = render(pages, title, load_style()) if pages else b""
        drawn: Sequence[str | None] = (page_digests(self.pdf) if pages else None) or [None] * len(pages)
        self.keys = [kept_images.drawing_key(page, size, alpha, dpi) for page, size in zip(drawn, sizes, strict=True)]

    def rasterised(self, numbers: Sequence[int]) -> Iterator[Image.Image]:
        """The pages ``numbers`` (counted from 0), rendered at their sizes."""
        if not numbers:
            return iter(())
        return rasterise(self.pdf, [self.sizes[n] for n in numbers], self.alpha, numbers)


def render_pages(pages: Sequence[Page], sizes: Sequence[tuple[int, int]], alpha: bool, title: str = "") -> Iterator[Image.Image]:
    """Rasterise single-piece pages through one in-memory PDF."""
    if not pages:
        return iter(())
    return rasterise(render(pages, title, load_style()), sizes, alpha)


@dataclass(frozen=True)
class ExportedImage:
    path: Path
    piece: Piece
    side: str  # front | back
    count: int  # pieces this image stands for (1 unless --unique)


def image_components(game: Game) -> list[Component]:
    return [c for c in game.printed if c.pieces]


RUNS_PER_JOB = 4  # runs of images per worker, so that components of unequal sizes even out
MIN_RUN = 8  # images a run makes at least: each run draws its own in-memory PDF


def export_images(game: Game, out_dir: Path, dpi: float = DEFAULT_DPI, bleed: float = DEFAULT_BLEED_IN * 72,
                  unique: bool = False, jobs: int = 1, warn: Callable[[str], None] | None = None,
                  lang: str | None = None) -> list[ExportedImage]:
    """PNG per piece face and back under ``out_dir/<game>/images/<component>/`` (``out_dir/<game>/<lang>/…`` for a
    ``lang``); with ``jobs`` > 1 they are made in that many processes, in runs that split a large component too
    (the files are the same for any ``jobs``). ``warn`` hears what drawing them said (text that does not fit, …),
    each once, in order."""
    components = image_components(game)
    home = game_output(out_dir, game.id, lang)
    state = (export_context(game, bleed), home, dpi, unique, components)
    runs = _runs(state, jobs)
    written: list[ExportedImage] = []
    heard: dict[str, None] = {}
    records: dict[int, image_records.Kept] = {}
    for (index, _, _), (made, said, record) in zip(runs, ordered_map(_run_images, state, runs, jobs), strict=True):
        pieces = components[index].pieces
        written.extend(ExportedImage(path, pieces[n], side, count) for path, n, side, count in made)
        heard.update(dict.fromkeys(said))
        records.setdefault(index, {}).update(record)
    for index, record in records.items():
        if record:
            image_records.write(_record(home, components[index]), record)
    if warn is not None:
        for message in heard:
            warn(message)
    if written:
        write_bytes(home / "images" / "manifest.json", manifest(game, written, home / "images", dpi, bleed))
    return written


ImagesState = tuple[BuildContext, Path, float, bool, list[Component]]  # the game's output folder is the Path
Run = tuple[int, int, int | None]  # a component's index, then the first and the end of a run of its images (None: all)


def _runs(state: ImagesState, jobs: int) -> list[Run]:
    """With one job, each component whole; with more, each component in runs of about an equal share of all
    the images, so that one large deck keeps every worker busy."""
    components = state[4]
    if jobs <= 1:
        return [(index, 0, None) for index in range(len(components))]
    warnings = state[0].warnings
    heard = len(warnings)
    sizes = [len(_work(state, index)[0]) for index in range(len(components))]
    del warnings[heard:]  # imposing them to count was not drawing them: each run says what its drawing says
    run = max(MIN_RUN, -(-sum(sizes) // (jobs * RUNS_PER_JOB)))
    return [(index, start, min(start + run, size)) for index, size in enumerate(sizes) for start in range(0, size, run)]


Work = list[tuple[Page, str, int, tuple[object, ...]]]  # (page, file name, piece index, its --unique key) per image


def _work(state: ImagesState, index: int) -> tuple[Work, dict[tuple[object, ...], int]]:
    """The images of the ``index``-th component, and how many pieces each stands for (1 unless --unique)."""
    ctx, _home, _dpi, unique, components = state
    component, game = components[index], ctx.game
    sides = piece_sides(ctx, component)
    # With --unique, fronts and backs are counted apart: a deck of 40 faces and one common back
    # gives 40 front images and one back image standing for 40 cards.
    counts: dict[tuple[object, ...], int] = {}
    work: Work = []
    for position, entry in enumerate(sides, start=1):
        stem = piece_stem(entry.piece, position)
        for side_name, page, side in (("front", entry.front, entry.piece.face), ("back", entry.back, entry.piece.back)):
            if page is None:
                continue
            key = (side_name, side_key(entry.piece, side, game), entry.piece.cells) if unique else (position, side_name)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] == 1:
                work.append((page, f"{stem}-{side_name}.png", entry.piece.index, key))
    return work, counts


def _run_images(state: ImagesState, run: Run) -> tuple[list[tuple[Path, int, str, int]], list[str], image_records.Kept]:
    """Write one run of a component's images; (path, piece position, side, count) of each, the warnings
    drawing them gave, and what was written (generator/export/kept_images.py; picklable, for --jobs). An image
    whose pixels are the ones its file was written from is left as it is."""
    ctx, home, dpi, _unique, components = state
    index, start, stop = run
    component, game = components[index], ctx.game
    folder = home / "images" / component.id
    before = len(ctx.warnings)
    work, counts = _work(state, index)
    work = work[start:stop]
    if not work:
        return [], [], {}
    pages = [page for page, _, _, _ in work]
    sizes = [pixel_size(page.width, page.height, dpi) for page in pages]
    alpha = component.kind in SHAPED_KINDS
    pngs = KeptPngs(_record(home, component))
    drawn = DrawnPages(pages, sizes, alpha, game.title, dpi)
    paths = [folder / name for _, name, _, _ in work]
    todo = [n for n, (path, key) in enumerate(zip(paths, drawn.keys, strict=True)) if not pngs.current(path, key)]
    for n, image in zip(todo, drawn.rasterised(todo), strict=True):
        pngs.write(paths[n], image, dpi, drawn.keys[n])
    made = [(path, piece, name.rsplit("-", 1)[1].removesuffix(".png"), counts[key])
            for path, (_, name, piece, key) in zip(paths, work, strict=True)]
    return made, ctx.warnings[before:], pngs.written


def _record(home: Path, component: Component) -> Path:
    """Where the images of ``component`` written by the last export into the game's folder ``home`` are recorded
    (punchboard/incremental/image_records.py)."""
    return component_record(home / "images", component.id)


def manifest(game: Game, images: Sequence[ExportedImage], root: Path, dpi: float, bleed: float) -> bytes:
    """Which file is which piece and side, and how many to print of it."""
    rows = [
        {"file": image.path.relative_to(root).as_posix(), "component": image.piece.component,
         "name": image.piece.name, "side": image.side, "count": image.count}
        for image in images
    ]
    data = {"game": game.id, "dpi": dpi, "bleed_mm": round(to_mm(bleed), 3), "images": rows}
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
