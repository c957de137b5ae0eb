"""Decks and banknotes: rectangular pieces n-up with crop marks, in every back mode."""

from __future__ import annotations

from punchboard.generator.document.pages import Page
from punchboard.generator.options import BuildOptions

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.units import to_mm
from punchboard.spec.fit import size_location
from punchboard.spec.model import Component, Game

from .backs import Item, paginate, print_shop_pages
from .context import BuildContext
from .grid import Sheet, grid_sheet, gutterfold_sheet, plan_grid


def too_big(ctx: BuildContext, component: Component, width: float, height: float) -> SpecError:
    return SpecError([
        Problem(
            *size_location(component),
            f"{component.name}: a {to_mm(width):.1f} × {to_mm(height):.1f} mm piece does not fit on "
            f"{ctx.paper.name} inside its {to_mm(ctx.paper.margin):.0f} mm margin; choose a larger --paper",
        )
    ])


def card_sheet(ctx: BuildContext, component: Component, width: float, height: float, bleed: float) -> Sheet:
    """The sheet for rectangular pieces under the build's back mode and packing."""
    options = ctx.options
    sheet: Sheet | None = None
    if options.backs == "gutterfold" and component.has_backs:
        sheet = gutterfold_sheet(ctx.paper, width, height, bleed, ctx.style)
        if sheet is None:
            ctx.warn(f"{ctx.game.id} / {component.id}: a front and its back do not fit one above the other on "
                     f"{ctx.paper.name} landscape; printed duplex-long instead of gutterfold")
    if sheet is None:
        grid = plan_grid(ctx.paper, width, height, bleed, options.packing != "touching", ctx.style)
        sheet = grid_sheet(grid) if grid else None
    if sheet is None:
        raise too_big(ctx, component, width, height)
    return sheet


def render_cards(ctx: BuildContext, game: Game, component: Component, options: BuildOptions) -> list[Page]:
    noun = "banknote" if component.kind == "banknotes" else "card"
    assert component.size is not None  # the loader requires a size for decks and banknotes
    width, height = component.size.width, component.size.height
    items = [
        Item(ctx.painter(component, p, p.face, noun) or (lambda c, f: None), ctx.painter(component, p, p.back, noun), p.name)
        for p in component.pieces
    ]
    bleed = ctx.bleed_for(component)
    if options.print_shop:
        return print_shop_pages(items, width, height, bleed, component.name)
    sheet = card_sheet(ctx, component, width, height, bleed)
    mode = options.backs if options.backs != "gutterfold" or sheet.back_slots else "duplex-long"
    return paginate(items, sheet, mode, ctx.style, component.name, options.duplex_offset)
