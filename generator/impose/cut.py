"""Print-and-cut: sheets for a cutting machine that reads registration marks, and each piece's cut outline.

``--cut silhouette``: pieces packed inside Silhouette Studio's print-and-cut area
on the build's paper, with Studio's default "Type 1" registration marks (a filled
square top-left, L marks top-right and bottom-left; ``layouts/cutters.yaml``).
Every front page's ``meta["cuts"]`` holds the cut outline of each piece on it,
in the page's coordinates, for the SVG and DXF files written beside the PDF.

``--cut cricut``: Cricut Design Space's Print Then Cut takes images, at most
6.75 × 9.25 in each, and adds its own registration frame and bleed. Each page
is one such image: pieces at trim size, nothing around them (transparent once
rasterised), so Design Space finds every piece's outline; backs are not part of it.

Cards and banknotes are cut with rounded corners; tokens along their shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from punchboard.generator.document.pages import FooterBand, Page
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.outlines import Outline, polyomino_outline
from punchboard.generator.draw.side import SideFrame
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.errors import SpecError
from punchboard.plumbing.paths import LAYOUTS
from punchboard.plumbing.units import UnitError, parse_length
from punchboard.spec.model import Component, TokenShape
from punchboard.spec.yamlsource import load_yaml

from . import tiles
from .backs import BLANK, Item, paginate
from .context import BuildContext
from .grid import TURN, Sheet
from .packing import Placement
from .tokens import ROUND_SHAPES, clipped, kept_on_sheet, outline_for, pack, pack_turnable, warn_kept_bleed

CUTTERS_FILE = LAYOUTS / "cutters.yaml"
CUTTERS = ("silhouette", "cricut")
CUT_KINDS = {"silhouette": ("deck", "banknotes", "tokens", "tiles"), "cricut": ("deck", "banknotes", "tokens")}


@dataclass(frozen=True)
class CutterSettings:
    corner_radius: float
    gap: float
    inset: float  # silhouette registration marks
    length: float
    thickness: float
    square: float
    clearance: float
    footer_gap: float
    cricut_width: float
    cricut_height: float
    cricut_dpi: int

    def mark_zones(self, width: float, height: float) -> list[Rect]:
        """Where nothing but the marks may be printed on a ``width`` × ``height`` page: the square and
        each L mark's corner square (the area its arms bound), grown by the clearance."""
        s, c = self, self.clearance
        return [
            Rect(s.inset, height - s.inset - s.square, s.square, s.square).inset(-c),
            Rect(width - s.inset - s.length, height - s.inset - s.length, s.length, s.length).inset(-c),
            Rect(s.inset, s.inset, s.length, s.length).inset(-c),
        ]

    def clear_of_marks(self, trims: Sequence[Rect], bleed: float, width: float, height: float) -> list[Rect]:
        """The slots whose art (trim plus bleed) keeps out of every mark zone."""
        zones = self.mark_zones(width, height)
        return [t for t in trims if not any(_overlap(t.inset(-bleed), zone) for zone in zones)]

    @property
    def keep_out(self) -> float:
        """Distance from the paper edge inside which no piece goes (Silhouette)."""
        return self.inset + max(self.square, self.thickness) + self.clearance

    def rooms(self, width: float, height: float) -> list[Rect]:
        """Where pieces' art may lie on a ``width`` × ``height`` Silhouette page: inside the keep-out all
        round; the full width between the marks' outer edges, between the rows of corner zones (the footer
        lies below them); between the columns of corner zones, from above the footer to the marks' top edge."""
        zones, k, s = self.mark_zones(width, height), self.keep_out, self.inset
        low = max(z.top for z in zones if z.y < height / 2)
        high = min(z.y for z in zones if z.y > height / 2)
        left = max(z.right for z in zones if z.x < width / 2)
        right = min(z.x for z in zones if z.x > width / 2)
        return [Rect(k, k, width - 2 * k, height - 2 * k), Rect(s, low, width - 2 * s, high - low),
                Rect(left, k, right - left, height - s - k)]

    def densest(self, width: float, height: float, piece_w: float, piece_h: float, bleed: float,
                offset_rows: bool, turn: bool) -> tuple[list[Rect], bool]:
        """The most ``piece_w`` × ``piece_h`` slots (with ``bleed`` round each, ``gap`` between) clear of
        every mark zone, over each room of :meth:`rooms`, upright and (with ``turn``) turned 90°; the first
        room and upright win ties. Returns the trims and whether they are turned."""
        best: tuple[list[Rect], bool] = ([], False)
        shapes = [(piece_w, piece_h, False)]
        if turn and abs(piece_w - piece_h) > 1e-6:
            shapes.append((piece_h, piece_w, True))
        for room in self.rooms(width, height):
            for w, h, turned in shapes:
                if room.width <= 0 or room.height <= 0:
                    continue
                trims = self.clear_of_marks(pack(room, w, h, bleed, self.gap, offset_rows), bleed, width, height)
                if len(trims) > len(best[0]):
                    best = (trims, turned)
        return best


@lru_cache(maxsize=2)
def load_cutters(path: Path = CUTTERS_FILE) -> CutterSettings:
    doc = load_yaml(path)
    data = doc.data

    def length(*keys: str) -> float:
        node = data
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        try:
            return parse_length(node)
        except UnitError as exc:
            raise SpecError([doc.problem(keys, f"{keys[-1]}: {exc}")]) from None

    dpi = data.get("cricut", {}).get("dpi") if isinstance(data.get("cricut"), dict) else None
    if not isinstance(dpi, int) or not 72 <= dpi <= 1200:
        raise SpecError([doc.problem(("cricut", "dpi"), f"dpi: expected a whole number 72–1200, got {dpi!r}")])
    return CutterSettings(
        corner_radius=length("card_corner_radius"),
        gap=length("gap"),
        inset=length("silhouette", "inset"),
        length=length("silhouette", "length"),
        thickness=length("silhouette", "thickness"),
        square=length("silhouette", "square"),
        clearance=length("silhouette", "clearance"),
        footer_gap=length("silhouette", "footer_gap"),
        cricut_width=length("cricut", "max_width"),
        cricut_height=length("cricut", "max_height"),
        cricut_dpi=dpi,
    )


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def turnable(component: Component) -> bool:
    """Cards and banknotes may lie turned 90° on a cut sheet (their rounded-rectangle cut is the
    slot's); shaped tokens stay upright, so their outlines need no turning."""
    return component.kind in ("deck", "banknotes")


def cut_outline(component: Component, trim: Rect, settings: CutterSettings, frame: SideFrame | None = None) -> Outline:
    """Where the blade goes around a piece whose trim is ``trim``."""
    if component.kind == "tokens":
        shape = component.shape or TokenShape("circle")
        return outline_for(shape, frame or SideFrame(trim, 0.0, 0.0))
    radius = min(settings.corner_radius, trim.width / 2, trim.height / 2)
    return Outline("rounded", (trim.x, trim.y, trim.width, trim.height), radius)


def draw_registration_marks(canvas: Canvas, width: float, height: float, settings: CutterSettings) -> None:
    """Silhouette "Type 1" marks: the outer edge of each mark ``inset`` from the paper edges."""
    s = settings
    t = s.thickness
    canvas.saveState()
    canvas.setFillColor("#000000")
    canvas.setStrokeColor("#000000")
    canvas.rect(s.inset, height - s.inset - s.square, s.square, s.square, stroke=0, fill=1)
    canvas.setLineWidth(t)
    canvas.setLineCap(2)  # projecting caps: each arm is exactly ``length`` long to the mark's outer edge
    right, top = width - s.inset - t / 2, height - s.inset - t / 2
    canvas.line(width - s.inset - s.length + t / 2, top, right, top)
    canvas.line(right, top, right, height - s.inset - s.length + t / 2)
    left, bottom = s.inset + t / 2, s.inset + t / 2
    canvas.line(left, bottom, s.inset + s.length - t / 2, bottom)
    canvas.line(left, bottom, left, s.inset + s.length - t / 2)
    canvas.restoreState()


def _items(ctx: BuildContext, component: Component, bleed: float, backs: bool) -> list[Item]:
    noun = {"deck": "card", "banknotes": "banknote"}.get(component.kind, "token")
    shape = component.shape or TokenShape("circle")
    items = []
    for piece in component.pieces:
        front = ctx.painter(component, piece, piece.face, noun)
        back = ctx.painter(component, piece, piece.back, noun) if backs else None
        if component.kind == "tokens":
            front, back = clipped(front, shape, bleed), clipped(back, shape, bleed)
        items.append(Item(front or BLANK, back, piece.name))
    return items


def _with_cuts(pages: Sequence[Page], component: Component, settings: CutterSettings) -> list[Page]:
    for page in pages:
        if page.role == "front":
            page.meta["cuts"] = [cut_outline(component, trim, settings) for trim in page.meta.get("slots", [])]
    return list(pages)


def silhouette_pages(ctx: BuildContext, component: Component) -> list[Page]:
    """Pieces inside Studio's print-and-cut area, registration marks on every front page."""
    assert component.size is not None
    settings = load_cutters()
    paper, style, options = ctx.paper, ctx.style, ctx.options
    width, height = component.size.width, component.size.height
    bleed = ctx.bleed_for(component)
    round_tokens = component.kind == "tokens" and (component.shape or TokenShape("circle")).name in ROUND_SHAPES
    trims, turned = settings.densest(paper.width, paper.height, width, height, bleed, round_tokens, turnable(component))
    if not trims:
        from .cards import too_big

        raise too_big(ctx, component, width, height, settings.keep_out)
    turn = TURN if turned else 0
    frames = tuple(SideFrame(t, bleed, bleed, t.inset(-bleed), rotation=turn) for t in trims)
    sheet = Sheet(paper.width, paper.height, frames, _footer(ctx, settings), turned=turned)
    if component.kind == "tokens":
        shape = component.shape or TokenShape("circle")
        warn_kept_bleed(ctx, f"{ctx.game.id} / {component.id}", kept_on_sheet(sheet, shape, bleed), bleed,
                        f"{sheet.per_page}-up on {paper.name} for Silhouette")
    mode = options.backs if options.backs != "gutterfold" else "duplex-long"
    if options.backs == "gutterfold" and component.has_backs:
        ctx.warn(f"{ctx.game.id} / {component.id}: print-and-cut sheets are not folded; backs printed duplex-long instead of gutterfold")

    def marks(canvas: Canvas, sheet: Sheet, used: Sequence[int]) -> None:
        draw_registration_marks(canvas, sheet.width, sheet.height, settings)

    pages = paginate(_items(ctx, component, bleed, options.backs != "none"), sheet, mode, style, component.name,
                     options.duplex_offset, decorate=marks,
                     front_legend="print at 100 %, then cut with Silhouette Studio: open the .dxf beside this PDF")
    return _with_cuts(pages, component, settings)


def cricut_pages(ctx: BuildContext, component: Component) -> list[Page]:
    """Images no larger than Print Then Cut takes: pieces at trim size on nothing."""
    assert component.size is not None
    settings = load_cutters()
    width, height = component.size.width, component.size.height
    page_w, page_h = settings.cricut_width, settings.cricut_height
    room = Rect(0, 0, page_w, page_h).inset(settings.gap / 2)
    shape = component.shape or TokenShape("circle")
    round_tokens = component.kind == "tokens" and shape.name in ROUND_SHAPES
    trims, turned = pack_turnable(room, width, height, 0.0, settings.gap, round_tokens, turnable(component))
    if not trims:
        from .cards import too_big

        raise too_big(ctx, component, width, height)
    if component.has_backs:
        ctx.warn(f"{ctx.game.id} / {component.id}: Print Then Cut prints one side; the backs are left out of the Cricut images")
    items = _items(ctx, component, 0.0, backs=False)
    pages: list[Page] = []
    for start in range(0, len(items), len(trims)):
        chunk = items[start : start + len(trims)]
        frames = [SideFrame(t, 0.0, 0.0, cut_outline(component, t, settings).add_to, rotation=TURN if turned else 0)
                  for t in trims[: len(chunk)]]

        def draw(canvas: Canvas, chunk: list[Item] = chunk, frames: list[SideFrame] = frames) -> None:
            for item, frame in zip(chunk, frames, strict=True):
                item.front(canvas, frame)

        page = Page(page_w, page_h, draw, component.name, "", None, role="front",
                    meta={"slots": [f.trim for f in frames]})
        pages.append(page)
    return _with_cuts(pages, component, settings)


def placed_outline(cells: tuple[tuple[int, int], ...], cell: float, placement: Placement) -> Outline:
    """A polyomino's cut outline where the packer put it (turned 90° anticlockwise if turned)."""
    local = polyomino_outline(cells, cell, 0, 0)
    if placement.turned:
        def move(u: float, v: float) -> tuple[float, float]:
            return placement.x + placement.width - v, placement.y + u
    else:
        def move(u: float, v: float) -> tuple[float, float]:
            return placement.x + u, placement.y + v
    rings = tuple(tuple(move(u, v) for u, v in ring) for ring in local.rings)
    return Outline("polygon", (placement.x, placement.y, placement.width, placement.height), rings=rings)


def silhouette_tile_pages(ctx: BuildContext, component: Component) -> list[Page]:
    """Polyomino tiles inside Studio's print-and-cut area, registration marks on every front page."""
    from .part_pages import _packed_pages, bleed_for, side_drawer

    assert component.cell is not None
    settings = load_cutters()
    paper = ctx.paper
    bleed = bleed_for(ctx, component)
    k = settings.keep_out + bleed
    # Shelf-packed tiles keep out of the marks' corner zones whole: the room stops short of them
    # across (between the L marks' columns) or down (between their rows), whichever takes fewer pages.
    corner = max(zone.top for zone in settings.mark_zones(paper.width, paper.height)[2:]) + bleed
    rooms = (Rect(corner, k, paper.width - 2 * corner, paper.height - 2 * k),
             Rect(k, corner, paper.width - 2 * k, paper.height - 2 * corner))
    layouts = min((tiles.pack_tiles(component, paper, room, bleed, settings.gap) for room in rooms), key=len)
    draw = side_drawer(ctx, component)

    def paint(canvas: Canvas, placements: list[Placement], flip: str | None) -> None:
        tiles.draw_tiles_page(canvas, paper, component, placements, bleed, draw, flip, cut_lines=False)
        if flip is None:
            draw_registration_marks(canvas, paper.width, paper.height, settings)

    pages = _packed_pages(ctx, component, layouts, paint, "print at 100 %, then cut with Silhouette Studio: open the .dxf beside this PDF")  # type: ignore[arg-type]
    band = _footer(ctx, settings)
    fronts = [page for page in pages if page.role == "front"]
    for page in pages:
        flip_x = ctx.options.backs != "duplex-short"
        page.footer = band if page.role == "front" else band.mirrored(paper.width, paper.height, flip_x, not flip_x)
    for page, placements in zip(fronts, layouts, strict=True):
        page.meta["cuts"] = [placed_outline(tiles.tile_cells(component.pieces[p.item]), component.cell, p) for p in placements]
    return pages


def _footer(ctx: BuildContext, settings: CutterSettings) -> FooterBand:
    """The footer runs right of the bottom-left mark, inside the paper margin."""
    paper, k = ctx.paper, settings.keep_out
    left = settings.inset + settings.length + settings.footer_gap
    height = min(ctx.style.footer_height, k - settings.clearance - paper.margin)
    return FooterBand(Rect(left, paper.margin, paper.width - paper.margin - left, height))


def cuttable(kind: str, cutter: str) -> bool:
    """Whether ``cutter`` gets a cut layout and cut files for pieces of this kind."""
    return kind in CUT_KINDS.get(cutter, ())


def cut_pages(ctx: BuildContext, component: Component, cutter: str) -> list[Page]:
    if component.kind == "tiles":
        return silhouette_tile_pages(ctx, component)
    return silhouette_pages(ctx, component) if cutter == "silhouette" else cricut_pages(ctx, component)


def cut_file_stem(component_id: str, number: int, cutter: str) -> str:
    return f"{component_id}-{cutter}-{number:02d}"

