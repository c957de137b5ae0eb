"""Decks and banknotes: rectangular pieces n-up with crop marks, in every back mode."""

from __future__ import annotations

from punchboard.generator.document.pages import Page
from punchboard.generator.options import BuildOptions

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.units import to_mm
from punchboard.spec.fit import size_location
from punchboard.spec.model import PIECE_NOUNS, Component, Game

from .backs import BLANK, Item, paginate, print_shop_pages
from .context import BuildContext
from .grid import Sheet, grid_sheet, gutterfold_sheet, plan_grid, policy_name, printable_margin
from .kept_bleed import rect_bleed


def too_big(ctx: BuildContext, component: Component, width: float, height: float, margin: float | None = None) -> SpecError:
    """The piece does not fit the paper inside ``margin`` (default: the printable margin, see
    :func:`~.grid.printable_margin`, which --unprintable sets)."""
    margin = printable_margin(ctx.paper, ctx.style) if margin is None else margin
    hint = "choose a larger --paper"
    paper = ctx.paper
    if margin > paper.margin and width <= paper.width - 2 * paper.margin and height <= paper.height - 2 * paper.margin:
        hint += f" or a smaller --unprintable (the paper's own margin is {_mm(paper.margin)} mm)"
    return SpecError([
        Problem(
            *size_location(component),
            f"{component.name}: a {to_mm(width):.1f} × {to_mm(height):.1f} mm piece does not fit on "
            f"{ctx.paper.name} inside its {_mm(margin)} mm unprintable margin; {hint}",
        )
    ])


def card_sheet(ctx: BuildContext, component: Component, width: float, height: float, bleed: float) -> Sheet:
    """The sheet for rectangular pieces under the build's back mode and bleed policy."""
    options = ctx.options
    policy = policy_name(options.packing, ctx.style)
    sheet: Sheet | None = None
    if options.backs == "gutterfold" and component.has_backs:
        sheet = gutterfold_sheet(ctx.paper, width, height, bleed, ctx.style, policy)
        if sheet is None:
            ctx.warn(f"{ctx.game.id} / {component.id}: a front and its back do not fit one above the other on "
                     f"{ctx.paper.name} landscape; printed duplex-long instead of gutterfold")
    if sheet is None:
        grid = plan_grid(ctx.paper, width, height, bleed, policy, ctx.style, len(component.pieces))
        sheet = grid_sheet(grid) if grid else None
    if sheet is None:
        raise too_big(ctx, component, width, height)
    warn_short_bleed(ctx, component, sheet, bleed, policy, width, height)
    return sheet


def _mm(points: float) -> str:
    return f"{to_mm(points):.2f}".rstrip("0").rstrip(".")


def noted(options: BuildOptions, policy: str) -> bool:
    """Whether bleed a sheet gives up is a note (bleed_notes.py) rather than a warning: the ``auto`` policy
    chose it and no ``--bleed`` on the command line asked for more."""
    return policy == "auto" and options.bleed_mm is None


def warn_short_bleed(ctx: BuildContext, component: Component, sheet: Sheet, declared: float, policy: str, width: float, height: float) -> None:
    """Say so, with the figures, when a piece gets less bleed on some edge than its layout declares, under a
    policy the user named or below a ``--bleed`` they gave (what ``auto`` chose is a note: bleed_notes.py)."""
    bx = declared if sheet.bleed_x is None else sheet.bleed_x
    by = declared if sheet.bleed_y is None else sheet.bleed_y
    folded = sheet.back_slots is not None
    if folded:  # what the gutterfold sheet's clips leave, fronts and backs, measured
        bx, by = rect_bleed((*sheet.slots, *(sheet.back_slots or ())))
    if len(component.pieces) == 1 and sheet.outer_bleed is not None:
        bx, by = sheet.outer_bleed  # a lone piece has no neighbour: its bleed runs into the empty slots
    tolerance = 0.005 * 72 / 25.4  # 0.005 mm
    if min(bx, by) >= declared - tolerance or noted(ctx.options, policy):
        return  # auto's choice is a note in the BOM, the cover and --verbose (bleed_notes.py)
    hint = ""
    if policy != "gutter" and folded:
        folded_gutter = gutterfold_sheet(ctx.paper, width, height, declared, ctx.style, "gutter")
        if folded_gutter is None:
            hint = (f"; with the full bleed a front and its back do not fit one above the other on {ctx.paper.name} "
                    "landscape: --backs duplex-long keeps it")
        else:
            gx, gy = rect_bleed((*folded_gutter.slots, *(folded_gutter.back_slots or ())))
            hint = f"; --bleed-policy gutter keeps {_mm(min(gx, gy))} mm, {folded_gutter.per_page}-up"
    elif policy != "gutter":
        gutter = plan_grid(ctx.paper, width, height, declared, "gutter", ctx.style)
        if gutter is not None:
            hint = f"; --bleed-policy gutter keeps the full bleed, {gutter.per_page}-up"
    shared = [axis for axis, b, n in (("left/right", bx, sheet.cols), ("top/bottom", by, sheet.rows)) if b == 0 and n > 1]
    why = f": cards share cut lines {' and '.join(shared)}" if shared and len(component.pieces) > 1 else ""
    outer = ""
    if sheet.shared and sheet.outer_bleed is not None and min(sheet.outer_bleed) < declared - tolerance and len(component.pieces) > 1:
        ox, oy = sheet.outer_bleed
        outer = f" ({_mm(ox)} mm left/right, {_mm(oy)} mm top/bottom on the sheet's outer edges)"
    ctx.warn(
        f"{ctx.game.id} / {component.id}: bleed {_mm(bx)} mm left/right, {_mm(by)} mm top/bottom{outer} of the declared "
        f"{_mm(declared)} mm ({sheet.per_page}-up{' turned 90°' if sheet.turned else ''} on {ctx.paper.name}, bleed policy {policy}{why}){hint}"
    )


def render_cards(ctx: BuildContext, game: Game, component: Component, options: BuildOptions) -> list[Page]:
    noun = PIECE_NOUNS[component.kind]
    assert component.size is not None  # the loader requires a size for decks and banknotes
    width, height = component.size.width, component.size.height
    items = [
        Item(ctx.painter(component, p, p.face, noun) or BLANK, ctx.painter(component, p, p.back, noun), p.name)
        for p in component.pieces
    ]
    bleed = ctx.bleed_for(component)
    if options.print_shop:
        return print_shop_pages(items, width, height, bleed, component.name)
    sheet = card_sheet(ctx, component, width, height, bleed)
    mode = options.backs if options.backs != "gutterfold" or sheet.back_slots else "duplex-long"
    return paginate(items, sheet, mode, ctx.style, component.name, options.duplex_offset)
