"""One-sided parts of different components packed onto shared sheets when that saves a sheet.

The designer's ``print_group`` puts components on shared sheets by hand; this does it for the rest
without being asked. The one-sided tiles of a game that have no print group (STEAMARK's rides,
stands and starting ground: four part-filled sheets) are shelf-packed together, as one tile
component's are (generator/impose/tiles.py), and become the print group ``shared_tiles`` when that
takes fewer sheets than printing each apart; otherwise each prints on its own as before. Only
tiles of one bleed share (a sheet has one bleed). The decision is made from the packing alone,
before anything is drawn, so it is the same on every build of the same game and options.

Each part still gets its own PDF; the combined print-and-play PDF prints the shared sheets in
their place, and the bill of materials says which parts share them and how to keep them apart.
"""

from __future__ import annotations

from dataclasses import replace

from punchboard.generator.options import BuildOptions

from punchboard.spec.model import Component, Game, Paper

from .context import BuildContext
from .packing import pack
from .style import SheetStyle

SHARED_TILES = "shared_tiles"
AUTO_GROUPS = (SHARED_TILES,)


def _one_sided_tiles(game: Game, options: BuildOptions) -> list[Component]:
    """The printed tiles that print one side under ``options`` and are in no print group."""
    return [c for c in game.printed if c.kind == "tiles" and not c.print_group and c.pieces and c.cell is not None
            and (options.backs == "none" or not c.has_backs)]


def tile_sizes(component: Component) -> list[tuple[float, float]]:
    """The bounding box of each of ``component``'s tiles, in its pieces' order."""
    from .tiles import piece_size, tile_cells

    assert component.cell is not None
    return [piece_size(tile_cells(piece), component.cell) for piece in component.pieces]


def tile_sheets(ctx: BuildContext, members: list[Component]) -> int:
    """Sheets the tiles of ``members`` take shelf-packed together (as generator/impose/tiles.py packs)."""
    from .part_pages import bleed_for, piece_room

    bleed = bleed_for(ctx, members[0])
    room = piece_room(ctx, bleed)
    sizes = [size for member in members for size in tile_sizes(member)]
    try:
        return len(pack(sizes, (room.x, room.y, room.width, room.height), ctx.style.token_gap + 2 * bleed))
    except ValueError:  # a tile larger than the sheet: its component says so when it is drawn alone
        return 10**9


def shared_tile_members(game: Game, options: BuildOptions, paper: Paper, style: SheetStyle) -> tuple[Component, ...]:
    """The one-sided tiles worth sharing sheets: those of the bleed most of them have, when together they
    take fewer sheets than apart (none for print-shop and print-and-cut files, which print each piece apart)."""
    from .part_pages import bleed_for

    if options.print_shop or options.cut:
        return ()
    candidates = _one_sided_tiles(game, options)
    if len(candidates) < 2:
        return ()
    ctx = BuildContext(game, paper, options, style)
    by_bleed: dict[float, list[Component]] = {}
    for component in candidates:
        by_bleed.setdefault(round(bleed_for(ctx, component), 6), []).append(component)
    members = max(by_bleed.values(), key=len)  # the first bleed seen wins a tie: the game's order decides
    if len(members) < 2:
        return ()
    apart = sum(tile_sheets(ctx, [member]) for member in members)
    return tuple(members) if tile_sheets(ctx, members) < apart else ()


def with_shared_sheets(game: Game, options: BuildOptions, paper: Paper, style: SheetStyle) -> Game:
    """``game`` with the one-sided parts that save a sheet together put in an automatic print group."""
    members = {member.id for member in shared_tile_members(game, options, paper, style)}
    if not members:
        return game
    components = tuple(replace(c, print_group=SHARED_TILES) if c.id in members else c for c in game.components)
    return replace(game, components=components)


def keep_apart(members: tuple[Component, ...]) -> str:
    """How to sort the shared sheets' pieces back into their parts, for the bill of materials."""
    parts = ", ".join(f"{member.name} ({len(member.pieces)})" for member in members)
    return f"printed together to save paper; after cutting, sort them back into {parts} by their art"
