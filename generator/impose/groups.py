"""Print groups: the decks (or banknotes) of one group imposed together on shared sheets.

A physical deck split over several component files (Knights vs STEAMBOTs' Territory, Knights,
Trophy, SteamBot, Trap and Special cards share one back and one Deck) prints as one run of
cards: the members' pieces in the game's order, so a part-filled sheet is filled by the next
member's cards. The loader checked the members share a kind, a trim size and a bleed
(punchboard/spec/loader/print_groups.py); a member without backs leaves its slots' reverse
blank. Each back page still mirrors its fronts page slot by slot, so every back registers
behind its own card.
"""

from __future__ import annotations

from dataclasses import replace

from punchboard.generator.document.pages import Page

from punchboard.spec.model import Component

from .backs import Item, paginate
from .cards import card_sheet
from .context import BuildContext


def group_title(name: str) -> str:
    return f"{name.replace('_', ' ').capitalize()} (print group)"


def render_group(ctx: BuildContext, name: str, members: tuple[Component, ...]) -> list[Page]:
    """The pages of a print group's shared sheets under the build's back mode and bleed policy."""
    first = members[0]
    assert first.size is not None  # decks and banknotes have a size
    noun = "banknote" if first.kind == "banknotes" else "card"
    pieces = tuple(piece for member in members for piece in member.pieces)
    merged = replace(first, id=name, name=group_title(name), pieces=pieces)
    items = [
        Item(ctx.painter(member, p, p.face, noun) or (lambda c, f: None), ctx.painter(member, p, p.back, noun), p.name)
        for member in members
        for p in member.pieces
    ]
    width, height = first.size.width, first.size.height
    sheet = card_sheet(ctx, merged, width, height, ctx.bleed_for(merged))
    options = ctx.options
    mode = options.backs if options.backs != "gutterfold" or sheet.back_slots else "duplex-long"
    return paginate(items, sheet, mode, ctx.style, merged.name, options.duplex_offset)
