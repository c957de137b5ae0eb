"""Pages of the kinds board, tiles and sheet, as :class:`~punchboard.generator.document.pages.Page` objects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from punchboard.generator.document.cover import blank_page
from punchboard.generator.document.pages import FooterBand, Page
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import Observe, SideContext, SideFrame, draw_side
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm
from punchboard.spec.model import PIECE_NOUNS, Component, Game, Paper, Piece, Side

from . import boards, sheets, tiles
from .die import draw_die_line
from .grid import printable_margin, printable_paper
from .part_bleed import bleed_for
from .style import SheetStyle
from .tiles import ClipShape, DrawSide

Warn = Callable[[str], None]
DUPLEX = ("duplex-long", "duplex-short")


class PartsContext(Protocol):
    """What these pages need of the build: gen's :class:`~punchboard.generator.impose.context.BuildContext` fits."""

    game: Game
    paper: Paper
    options: BuildOptions
    style: SheetStyle

    @property
    def observe(self) -> Observe | None: ...

    def warn(self, message: str) -> None: ...

    def where(self, component: Component, piece: Piece, noun: str = "card") -> str: ...


def side_drawer(ctx: PartsContext, component: Component) -> DrawSide:
    """Draw a piece's side with gen's layout renderer (fields: the piece's, then the side's)."""

    def draw(canvas: Canvas, side: Side, piece: Piece, trim: Rect, bleed: float, clip: ClipShape | None, rotation: int) -> None:
        layout = ctx.game.layouts[side.layout]
        where = ctx.where(component, piece, PIECE_NOUNS.get(component.kind, "piece"))
        context = SideContext(ctx.game.palette, (ctx.game.folder,), ctx.warn, where, ctx.options.proof,
                              stamp=ctx.options.stamp_label, icons=ctx.game.icons, observe=ctx.observe)
        shape = None if clip is None else (lambda path, *_frame: clip(path))
        draw_side(canvas, layout, {**piece.fields, **side.fields}, SideFrame(trim, bleed, bleed, shape, rotation), context)

    return draw


def footer_band(ctx: PartsContext) -> FooterBand:
    paper, m = ctx.paper, printable_margin(ctx.paper, ctx.style)
    return FooterBand(Rect(m, m, paper.width - 2 * m, ctx.style.footer_height))


def piece_room(ctx: PartsContext, reach: float) -> Rect:
    """Where the trims of packed tiles and sheets go: what is drawn up to ``reach`` past a trim
    (bleed, fold lines) stays inside the printable margin and clear of the footer."""
    paper, m = ctx.paper, printable_margin(ctx.paper, ctx.style)
    bottom = m + ctx.style.footer_height + max(mm(3), reach)
    edge = m + max(mm(2), reach)
    return Rect(edge, bottom, paper.width - 2 * edge, paper.height - bottom - edge)


def duplex_offset(ctx: PartsContext) -> tuple[float, float]:
    dx, dy = ctx.options.duplex_offset
    return mm(dx), mm(dy)


def _shifted(draw: Callable[[Canvas], None], offset: tuple[float, float]) -> Callable[[Canvas], None]:
    def shifted(canvas: Canvas) -> None:
        canvas.translate(*offset)
        draw(canvas)

    return shifted


# ---------------------------------------------------------------- boards


def board_pages(ctx: PartsContext, component: Component) -> list[Page]:
    bleed = bleed_for(ctx, component)
    backs = ctx.options.backs
    plan, jobs = boards.board_jobs(component, bleed, printable_paper(ctx.paper, ctx.style), backs)  # tiles clear the unprintable margin
    draw = side_drawer(ctx, component)
    paper = ctx.paper
    band = footer_band(ctx)
    pages: list[Page] = []
    if len(plan.tiles) > 1:
        note = boards.two_sided_note(component, backs)
        pages.append(
            Page(paper.width, paper.height, lambda c: boards.draw_assembly_map(c, paper, component, plan, note), component.name, "assembly map", band, role="other")
        )
        if backs in DUPLEX and any(is_back for _, _, is_back in jobs):
            pages.append(blank_page(paper.width, paper.height))  # the map's reverse: tile fronts stay on fronts
    for job, tile, is_back in jobs:
        def paint(canvas: Canvas, job: boards.BoardJob = job, tile: boards.Tile = tile) -> None:
            boards.draw_tile(canvas, paper, job, tile, draw)

        if is_back:
            flip_x = backs == "duplex-long"
            pages.append(Page(paper.width, paper.height, _shifted(paint, duplex_offset(ctx)), component.name, f"{tile.label} back", band.mirrored(paper.width, paper.height, flip_x, not flip_x), role="back"))
        else:
            pages.append(Page(paper.width, paper.height, paint, component.name, f"{tile.label} {job.side_name}", band, role="front"))
    return pages


# ---------------------------------------------------------------- tiles and sheets


def _packed_pages(ctx: PartsContext, component: Component, layouts: list[list[object]], paint_page: Callable[..., None], legend: str) -> list[Page]:
    paper = ctx.paper
    band = footer_band(ctx)
    backs = ctx.options.backs
    has_backs = component.has_backs and backs != "none"
    flip = "short" if backs == "duplex-short" else "long"
    flip_x = flip == "long"
    fronts: list[Page] = []
    back_pages: list[Page] = []
    for placements in layouts:
        def front(c: Canvas, p: list[object] = placements) -> None:
            paint_page(c, p, None)

        def reverse(c: Canvas, p: list[object] = placements) -> None:
            paint_page(c, p, flip)

        fronts.append(Page(paper.width, paper.height, front, component.name, legend, band, role="front"))
        if has_backs:
            back = Page(
                paper.width,
                paper.height,
                _shifted(reverse, duplex_offset(ctx)),
                component.name,
                f"backs ({'duplex, ' + flip + '-edge flip' if backs in DUPLEX else 'print on the reverse, ' + flip + '-edge flip'})",
                band.mirrored(paper.width, paper.height, flip_x, not flip_x),
                role="back",
            )
            back_pages.append(back)
    if has_backs and backs in DUPLEX:
        return [page for pair in zip(fronts, back_pages, strict=True) for page in pair]
    return fronts + back_pages


def tile_pages(ctx: PartsContext, component: Component) -> list[Page]:
    bleed = bleed_for(ctx, component)
    layouts = tiles.pack_tiles(component, ctx.paper, piece_room(ctx, bleed), bleed, ctx.style.token_gap, printable_margin(ctx.paper, ctx.style))
    draw = side_drawer(ctx, component)

    def paint(canvas: Canvas, placements: list[object], flip: str | None) -> None:
        tiles.draw_tiles_page(canvas, ctx.paper, component, placements, bleed, draw, flip)  # type: ignore[arg-type]

    return _packed_pages(ctx, component, layouts, paint, "solid line: cut")  # type: ignore[arg-type]


def sheet_pages(ctx: PartsContext, component: Component) -> list[Page]:
    bleed = bleed_for(ctx, component)
    full_page = sheets.is_full_page(component, ctx.paper)
    reach = max(bleed, sheets.FOLD_OVERHANG) if component.fold != "none" else bleed
    layouts = sheets.pack_sheets(component, ctx.paper, piece_room(ctx, reach), bleed, ctx.style.token_gap, printable_margin(ctx.paper, ctx.style))
    draw = side_drawer(ctx, component)

    def paint(canvas: Canvas, placements: list[object], flip: str | None) -> None:
        sheets.draw_sheets_page(canvas, ctx.paper, component, placements, bleed, draw, flip)  # type: ignore[arg-type]

    legend = sheets.FOLD_LEGEND if component.fold != "none" else ("" if full_page else "solid line: cut")
    pages = _packed_pages(ctx, component, layouts, paint, legend)  # type: ignore[arg-type]
    if full_page:
        for page in pages:
            page.footer = None  # the sheet is the whole paper: nothing may print over it
    return pages


# ---------------------------------------------------------------- print shop


def _rect_clip(rect: Rect) -> ClipShape:
    def add(path: object) -> None:
        path.rect(rect.x, rect.y, rect.width, rect.height)  # type: ignore[attr-defined]

    return add


def print_shop_part_pages(ctx: PartsContext, component: Component) -> list[Page]:
    """One page per side of every board, tile and sheet at full size (boards unsplit): the page is
    trim + bleed, TrimBox and BleedBox set, no marks; a polyomino tile carries its CutContour die line."""
    bleed = bleed_for(ctx, component)
    draw = side_drawer(ctx, component)
    pages: list[Page] = []
    for piece in component.pieces:
        cells: tuple[tiles.Cell, ...] = ()
        if component.kind == "tiles":
            assert component.cell is not None
            cells = tiles.tile_cells(piece)
            width, height = tiles.piece_size(cells, component.cell)
        else:
            assert component.size is not None
            width, height = component.size.width, component.size.height
        shaped = bool(cells) and len(cells) * component.cell ** 2 < width * height - 1e-6  # type: ignore[operator]
        trim, page_box = Rect(bleed, bleed, width, height), Rect(0, 0, width + 2 * bleed, height + 2 * bleed)
        sides = [("front", piece.face)]
        if component.has_backs:
            sides.append(("back", piece.back))
        for role, side in sides:
            def paint(canvas: Canvas, side: Side | None = side, role: str = role, piece: Piece = piece,
                      cells: tuple[tiles.Cell, ...] = cells, width: float = width, height: float = height,
                      shaped: bool = shaped) -> None:
                canvas.translate(bleed, bleed)
                seen = tiles.mirrored_cells(cells) if role == "back" and cells else cells
                local = Rect(0, 0, width, height)
                if side is not None and component.kind == "sheet":
                    for panel in sheets.panels(component, piece, width, height, bleed) if role == "front" else []:
                        draw(canvas, panel.side, piece, panel.trim, bleed, _rect_clip(panel.clip), panel.rotation)
                    if role == "back":
                        draw(canvas, side, piece, local, bleed, _rect_clip(local.inset(-bleed)), 0)
                elif side is not None:
                    clip = tiles.grown_cells_clip(seen, component.cell, bleed) if shaped else _rect_clip(local.inset(-bleed))  # type: ignore[arg-type]
                    draw(canvas, side, piece, local, bleed, clip, 0)

            def die_line(canvas: Canvas, role: str = role, cells: tuple[tiles.Cell, ...] = cells) -> None:
                canvas.translate(bleed, bleed)
                seen = tiles.mirrored_cells(cells) if role == "back" else cells
                draw_die_line(canvas, tiles.polyomino_outline(seen, component.cell, 0, 0).add_to)  # type: ignore[arg-type]

            has_die = shaped and (side is not None or role == "front")
            pages.append(Page(page_box.width, page_box.height, paint, component.name, "", None,
                              trim_box=trim, bleed_box=page_box, role=role, overlay=die_line if has_die else None))
    return pages


# ---------------------------------------------------------------- kind registry entries


def render_board(ctx: PartsContext, game: Game, component: Component, options: BuildOptions) -> list[Page]:
    return print_shop_part_pages(ctx, component) if options.print_shop else board_pages(ctx, component)


def render_tiles(ctx: PartsContext, game: Game, component: Component, options: BuildOptions) -> list[Page]:
    return print_shop_part_pages(ctx, component) if options.print_shop else tile_pages(ctx, component)


def render_sheet(ctx: PartsContext, game: Game, component: Component, options: BuildOptions) -> list[Page]:
    return print_shop_part_pages(ctx, component) if options.print_shop else sheet_pages(ctx, component)
