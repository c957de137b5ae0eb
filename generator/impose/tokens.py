"""Tokens: shaped pieces packed densely (offset rows for round shapes), cut along their outline.

Art is clipped to the outline offset by the bleed (cut back to the token's slot
where neighbours are nearer, as on a squeezed gutterfold sheet); the cut line
follows the outline itself. The bleed every token keeps is measured on the
sheet's geometry, and a build that keeps less than the declared bleed says so
with the figure. Tokens use the same back machinery as cards, so per-token
backs (Steam Court's 1-point power tokens) land behind their fronts in duplex
and gutterfold; tokens without a back leave an empty place on the back page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from punchboard.generator.document.pages import FooterBand, Page
from punchboard.generator.draw import outlines
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.outlines import Outline, token_outline
from punchboard.generator.draw.side import SideFrame
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental.geometry_memo import remembered
from punchboard.spec.model import Component, Game, TokenShape

from . import kept_bleed
from .backs import BLANK, Item, Painter, paginate, print_shop_pages
from .cards import _mm, too_big
from .context import BuildContext
from .die import draw_die_line
from .grid import Sheet, gutterfold_sheet, policy_name, printable_margin
from .kept_bleed import TOLERANCE, least_kept
from .style import SheetStyle

ROUND_SHAPES = ("circle", "gear", "hexagon")
_SOURCES = (__file__, outlines.__file__, kept_bleed.__file__)  # the code a sheet's kept bleed is measured with


def mirrored_shape(shape: TokenShape, mirror_x: bool, mirror_y: bool) -> TokenShape:
    """The outline seen from the back: a custom outline mirrors with the duplex flip."""
    if shape.name != "custom" or not (mirror_x or mirror_y):
        return shape
    points = tuple((1 - x if mirror_x else x, 1 - y if mirror_y else y) for x, y in shape.outline)
    return replace(shape, outline=points)


def outline_for(shape: TokenShape, frame: SideFrame, grow: float = 0.0) -> Outline:
    """The token's cut outline in this frame, or with ``grow`` its bleed edge: the cut outline offset by ``grow``."""
    t = frame.trim
    seen = mirrored_shape(shape, frame.mirror_x, frame.mirror_y)
    return token_outline(seen, t.x, t.y, t.width, t.height).grown(grow)


def art_outline(shape: TokenShape, frame: SideFrame, bleed: float) -> Outline:
    """Where a token's art may reach: its outline offset by the bleed, within the slot's clip rectangle."""
    grown = outline_for(shape, frame, bleed)
    clip = frame.clip
    if isinstance(clip, Rect):
        return grown.within((clip.x, clip.y, clip.width, clip.height))
    return grown


def clipped(painter: Painter | None, shape: TokenShape, bleed: float) -> Painter | None:
    """The painter, with its art clipped to the token outline offset by the bleed."""
    if painter is None:
        return None

    def paint(canvas: Canvas, frame: SideFrame) -> None:
        painter(canvas, replace(frame, clip=art_outline(shape, frame, bleed).add_to))

    return paint


def kept_on(frames: Sequence[SideFrame], shapes: Sequence[TokenShape], bleed: float) -> float | None:
    """The least bleed any token keeps in these frames (drawing order), one shape each, in points.

    Measured once per machine for the same frames, shapes and bleed (punchboard/incremental/geometry_memo.py): a sheet whose
    frames clip to rectangles is told by its numbers alone."""
    if not all(frame.clip is None or isinstance(frame.clip, Rect) for frame in frames):
        return _kept_on(frames, shapes, bleed)
    return remembered("kept_on", (tuple(frames), tuple(shapes), bleed), _SOURCES,
                      lambda: _kept_on(frames, shapes, bleed), lambda found: found is None or type(found) is float)


def _kept_on(frames: Sequence[SideFrame], shapes: Sequence[TokenShape], bleed: float) -> float | None:
    pieces = [(outline_for(shape, frame), art_outline(shape, frame, bleed)) for shape, frame in zip(shapes, frames, strict=True)]
    found = least_kept(pieces)
    return None if found is None else float(found)


def kept_on_sheet(sheet: Sheet, shape: TokenShape, bleed: float) -> float | None:
    """The least bleed any token keeps on a full sheet (fronts and same-page backs), in points."""
    frames = (*sheet.slots, *(sheet.back_slots or ()))
    return kept_on(frames, [shape] * len(frames), bleed)


def warn_kept_bleed(ctx: BuildContext, where: str, kept: float | None, declared: float, how: str, hint: str = "") -> None:
    """Say so, with the measured figure, when tokens keep less than the declared bleed around their outlines."""
    if kept is None or kept >= declared - TOLERANCE:
        return
    ctx.warn(f"{where}: tokens keep {_mm(kept)} mm of the declared {_mm(declared)} mm bleed around their cut outlines "
             f"(measured; {how}){hint}")


def pack(room: Rect, width: float, height: float, bleed: float, gap: float, offset_rows: bool) -> list[Rect]:
    """Trim rects of as many tokens as fit in ``room``, in reading order, centred.

    With ``offset_rows`` every other row shifts by half a pitch and rows close
    up to √3/2 of the pitch (hexagonal packing of round tokens) when that fits more.
    """
    cell_w, cell_h = width + 2 * bleed + gap, height + 2 * bleed + gap

    def layout(row_pitch: float, shift: float) -> list[tuple[float, float]]:
        centres = []
        rows = max(0, math.floor((room.height - (cell_h - gap)) / row_pitch + 1e-9) + 1) if room.height >= cell_h - gap else 0
        for r in range(rows):
            dx = shift if r % 2 else 0.0
            cols = math.floor((room.width - dx + gap) / cell_w + 1e-9)
            for c in range(cols):
                centres.append((dx + c * cell_w + (cell_w - gap) / 2, r * row_pitch + (cell_h - gap) / 2))
        return centres

    best = layout(cell_h, 0.0)
    if offset_rows:
        dense = layout(cell_h * math.sqrt(3) / 2, cell_w / 2)
        if len(dense) > len(best):
            best = dense
    if not best:
        return []
    half_w, half_h = (cell_w - gap) / 2, (cell_h - gap) / 2
    used_w = max(x for x, _ in best) + half_w
    used_h = max(y for _, y in best) + half_h
    x0 = room.x + (room.width - used_w) / 2
    top = room.top - (room.height - used_h) / 2
    return [Rect(x0 + x - width / 2, top - y - height / 2, width, height) for x, y in best]


def pack_turnable(room: Rect, width: float, height: float, bleed: float, gap: float, offset_rows: bool, turn: bool) -> tuple[list[Rect], bool]:
    """:func:`pack`, and with ``turn`` the same pieces turned 90° (slots ``height`` × ``width``);
    the one that holds more, upright when they tie. Returns the trims and whether they are turned."""
    upright = pack(room, width, height, bleed, gap, offset_rows)
    if turn and abs(width - height) > 1e-6:
        turned = pack(room, height, width, bleed, gap, offset_rows)
        if len(turned) > len(upright):
            return turned, True
    return upright, False


def _gutterfold(ctx: BuildContext, component: Component, bleed: float) -> Sheet | None:
    """A gutterfold sheet under the build's bleed policy, with the bleed the tokens keep on it checked;
    None (and a warning) when a front and its back do not fit one above the other."""
    assert component.size is not None and component.shape is not None
    paper, style = ctx.paper, ctx.style
    width, height = component.size.width, component.size.height
    policy = policy_name(ctx.options.packing, style)
    sheet = gutterfold_sheet(paper, width, height, bleed, style, policy, turn=False)  # shaped outlines stay upright
    where = f"{ctx.game.id} / {component.id}"
    if sheet is None:
        ctx.warn(f"{where}: a front and its back do not fit one above the other on {paper.name} landscape under "
                 f"bleed policy {policy}; printed duplex-long instead of gutterfold")
        return None
    kept = kept_on_sheet(sheet, component.shape, bleed)
    gutter = gutterfold_sheet(paper, width, height, bleed, style, "gutter", turn=False) if policy != "gutter" else sheet
    if policy == "auto" and kept is not None and kept < bleed - TOLERANCE and gutter is not None:
        pieces = len(component.pieces)
        if math.ceil(pieces / gutter.per_page) <= math.ceil(pieces / sheet.per_page):  # the full bleed costs no page
            sheet, kept = gutter, kept_on_sheet(gutter, component.shape, bleed)
    if kept is not None and kept < bleed - TOLERANCE:
        hint = ""
        if policy != "gutter":
            if gutter is None:
                hint = (f"; with the full bleed a front and its back do not fit on {paper.name} landscape: "
                        "--backs duplex-long keeps it")
            else:
                full = kept_on_sheet(gutter, component.shape, bleed)
                hint = f"; --bleed-policy gutter keeps {_mm(full or 0.0)} mm, {gutter.per_page}-up"
        warn_kept_bleed(ctx, where, kept, bleed, f"gutterfold, {sheet.per_page}-up on {paper.name}, bleed policy {policy}", hint)
    return replace(sheet, cuts_x=(), cuts_y=())  # cut along the outlines instead


def token_sheet(ctx: BuildContext, component: Component, bleed: float) -> Sheet:
    assert component.size is not None and component.shape is not None
    paper, style = ctx.paper, ctx.style
    width, height = component.size.width, component.size.height
    if ctx.options.backs == "gutterfold" and component.has_backs:
        folded = _gutterfold(ctx, component, bleed)
        if folded is not None:
            return folded
    m, f = printable_margin(paper, style), style.footer_height
    room = Rect(m, m + f, paper.width - 2 * m, paper.height - 2 * m - f).inset(style.cut_stroke)
    trims = pack(room, width, height, bleed, style.token_gap, component.shape.name in ROUND_SHAPES)
    if not trims:
        raise too_big(ctx, component, width, height)
    frames = tuple(SideFrame(t, bleed, bleed, t.inset(-bleed)) for t in trims)
    sheet = Sheet(paper.width, paper.height, frames, FooterBand(Rect(m, m, paper.width - 2 * m, f)))
    warn_kept_bleed(ctx, f"{ctx.game.id} / {component.id}", kept_on_sheet(sheet, component.shape, bleed), bleed,
                    f"{sheet.per_page}-up on {paper.name}")
    return sheet


def cut_lines(shape: TokenShape, style: SheetStyle):  # type: ignore[no-untyped-def]
    def decorate(canvas: Canvas, sheet: Sheet, used: Sequence[int]) -> None:
        canvas.saveState()
        canvas.setStrokeColor(style.cut_color)
        canvas.setLineWidth(style.cut_stroke)
        for index in used:
            path = canvas.beginPath()
            outline_for(shape, sheet.slots[index]).add_to(path)
            canvas.drawPath(path, stroke=1, fill=0)
        canvas.restoreState()

    return decorate


def render_tokens(ctx: BuildContext, game: Game, component: Component, options: BuildOptions) -> list[Page]:
    assert component.size is not None
    shape = component.shape or TokenShape("circle")
    bleed = ctx.bleed_for(component)
    items = []
    for piece in component.pieces:
        front = clipped(ctx.painter(component, piece, piece.face, "token"), shape, bleed)
        back = clipped(ctx.painter(component, piece, piece.back, "token"), shape, bleed)
        items.append(Item(front or BLANK, back, piece.name))
    if options.print_shop:
        def die(canvas: Canvas, frame: SideFrame) -> None:
            if shape.name != "square":
                draw_die_line(canvas, outline_for(shape, frame).add_to)

        return print_shop_pages(items, component.size.width, component.size.height, bleed, component.name, die)
    sheet = token_sheet(ctx, component, bleed)
    mode = options.backs if options.backs != "gutterfold" or sheet.back_slots else "duplex-long"
    return paginate(
        items, sheet, mode, ctx.style, component.name, options.duplex_offset,
        decorate=cut_lines(shape, ctx.style), front_legend="fronts: cut along the solid outlines",
    )
