"""Print groups: the decks, banknotes or tokens of one group imposed together on shared sheets.

A physical deck split over several component files (Knights vs STEAMBOTs' Territory, Knights,
Trophy, SteamBot, Trap and Special cards share one back and one Deck) prints as one run of
cards: the members' pieces in the game's order, so a part-filled sheet is filled by the next
member's cards. The loader checked the members share a kind and a bleed, and decks and
banknotes one trim size (punchboard/spec/loader/print_groups.py); a member without backs leaves
its slots' reverse blank. Each back page still mirrors its fronts page slot by slot, so every
back registers behind its own card.

Tokens of a group may differ in size and shape (STEAMARK's dirt tokens, turn counter and
turn-order tokens: three part-filled sheets make one): their boxes are shelf-packed together,
tallest first, and each is clipped and cut along its own outline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from punchboard.generator.document.pages import FooterBand, Page
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import SideFrame
from reportlab.pdfgen.canvas import Canvas

from punchboard.spec.model import PIECE_NOUNS, Component, TokenShape

from .backs import BLANK, Item, paginate
from .cards import card_sheet, too_big
from .context import BuildContext
from .grid import Sheet, printable_margin
from .merged import group_title, merged_component
from .packing import Placement, pack
from .tokens import clipped, kept_on, outline_for, warn_kept_bleed


def render_group(ctx: BuildContext, name: str, members: tuple[Component, ...]) -> list[Page]:
    """The pages of a print group's shared sheets under the build's back mode and bleed policy."""
    first = members[0]
    if first.kind == "tokens":
        return _token_pages(ctx, name, members)
    if first.kind == "tiles":
        return _tile_pages(ctx, name, members)
    assert first.size is not None  # decks and banknotes have a size
    noun = PIECE_NOUNS[first.kind]
    merged = merged_component(name, members)
    items = [
        Item(ctx.painter(member, p, p.face, noun) or BLANK, ctx.painter(member, p, p.back, noun), p.name)
        for member in members
        for p in member.pieces
    ]
    width, height = first.size.width, first.size.height
    sheet = card_sheet(ctx, merged, width, height, ctx.bleed_for(merged))
    options = ctx.options
    mode = options.backs if options.backs != "gutterfold" or sheet.back_slots else "duplex-long"
    return paginate(items, sheet, mode, ctx.style, merged.name, options.duplex_offset)


def _tile_pages(ctx: BuildContext, name: str, members: tuple[Component, ...]) -> list[Page]:
    """The one-sided tiles of several components shelf-packed together (generator/impose/shared_sheets.py),
    each drawn and outlined as its own component's tiles are."""
    from .part_pages import _packed_pages, bleed_for, piece_room, side_drawer
    from .tiles import draw_tiles_page, piece_size, tile_cells

    bleed = bleed_for(ctx, members[0])  # shared_sheets.py chose members of one bleed
    room = piece_room(ctx, bleed)
    pieces = [(member, index) for member in members for index in range(len(member.pieces))]
    sizes = [piece_size(tile_cells(piece), member.cell or 0.0) for member in members for piece in member.pieces]
    layouts = pack(sizes, (room.x, room.y, room.width, room.height), ctx.style.token_gap + 2 * bleed)
    draws = {member.id: side_drawer(ctx, member) for member in members}

    def paint(canvas: Canvas, placements: list[Placement], flip: str | None) -> None:
        for member in members:  # each member's tiles with its own cell size and layouts
            own = [replace(p, item=pieces[p.item][1]) for p in placements if pieces[p.item][0] is member]
            if own:
                draw_tiles_page(canvas, ctx.paper, member, own, bleed, draws[member.id], flip)

    merged = merged_component(name, members)
    return _packed_pages(ctx, merged, layouts, paint, "solid line: cut")  # type: ignore[arg-type]


def _token_pages(ctx: BuildContext, name: str, members: tuple[Component, ...]) -> list[Page]:
    paper, style, options = ctx.paper, ctx.style, ctx.options
    bleed = ctx.bleed_for(members[0])  # the loader checked the members declare one bleed
    m, f = printable_margin(paper, style), style.footer_height
    room = Rect(m, m + f, paper.width - 2 * m, paper.height - 2 * m - f).inset(style.cut_stroke + bleed)
    pieces = [(member, piece) for member in members for piece in member.pieces]
    sizes = []
    for member, _ in pieces:
        assert member.size is not None  # tokens have a size
        sizes.append((member.size.width, member.size.height))
    try:
        layout = pack(sizes, (room.x, room.y, room.width, room.height), style.token_gap + 2 * bleed, turn=False)
    except ValueError:
        big = max(members, key=lambda c: c.size.width * c.size.height if c.size else 0.0)
        assert big.size is not None
        raise too_big(ctx, big, big.size.width, big.size.height) from None
    footer = FooterBand(Rect(m, m, paper.width - 2 * m, f))
    title = group_title(name)
    if options.backs == "gutterfold" and any(member.has_backs for member in members):
        ctx.warn(f"{ctx.game.id} / {name}: the shared token sheets of print group '{name}' are not folded; "
                 "backs printed duplex-long instead of gutterfold")
    out: list[Page] = []
    for placements in layout:
        chosen = [pieces[p.item] for p in placements]
        shapes = [member.shape or TokenShape("circle") for member, _ in chosen]
        frames = tuple(SideFrame(Rect(p.x, p.y, p.width, p.height), bleed, bleed, Rect(p.x, p.y, p.width, p.height).inset(-bleed))
                       for p in placements)
        items = []
        for (member, piece), shape in zip(chosen, shapes, strict=True):
            front = clipped(ctx.painter(member, piece, piece.face, "token"), shape, bleed)
            back = clipped(ctx.painter(member, piece, piece.back, "token"), shape, bleed)
            items.append(Item(front or BLANK, back, piece.name))

        def cut_lines(canvas: Canvas, sheet: Sheet, used: Sequence[int], shapes: list[TokenShape] = shapes) -> None:
            canvas.saveState()
            canvas.setStrokeColor(style.cut_color)
            canvas.setLineWidth(style.cut_stroke)
            for index in used:
                path = canvas.beginPath()
                outline_for(shapes[index], sheet.slots[index]).add_to(path)
                canvas.drawPath(path, stroke=1, fill=0)
            canvas.restoreState()

        sheet = Sheet(paper.width, paper.height, frames, footer)
        warn_kept_bleed(ctx, f"{ctx.game.id} / {name}", kept_on(frames, shapes, bleed), bleed,
                        f"print group '{name}' on {paper.name}")
        mode = "duplex-long" if options.backs == "gutterfold" else options.backs  # shared token sheets are not folded
        out += paginate(items, sheet, mode, style, title, options.duplex_offset, decorate=cut_lines,
                        front_legend="fronts: cut along the solid outlines")
    if mode == "separate":  # every back page after all the fronts, as for any component
        backs = [page for page in out if page.role == "back"]
        for number, page in enumerate(backs, start=1):  # each sheet was paginated alone: number them here
            page.legend = page.legend.replace("backs of page 1 of", f"backs of page {number} of", 1)
        out = [page for page in out if page.role != "back"] + backs
    return out
