"""One-sided parts of different components packed onto shared sheets when that saves a sheet.

The designer's ``print_group`` puts components on shared sheets by hand; this does it for the rest
without being asked. The one-sided tiles of a game that are in no print group (STEAMARK's rides,
stands and starting ground: four part-filled sheets) are shelf-packed together, as one tile
component's are (generator/impose/tiles.py), and become the print group ``shared_tiles`` when that
takes fewer sheets than printing each apart; one-sided tokens in no group likewise become
``shared_tokens``, packed as a designer's token group is (generator/impose/groups.py). Otherwise each
prints on its own as before. Only parts of one bleed share (a sheet has one bleed). The decision is
made from the packing alone, before anything is drawn, so it is the same on every build of the same
game and options.

Each part still gets its own PDF; the combined print-and-play PDF prints the shared sheets in
their place, and the bill of materials says which parts share them and how to keep them apart.
"""

from __future__ import annotations

from dataclasses import replace

from punchboard.generator.options import BuildOptions

from punchboard.plumbing.errors import SpecError
from punchboard.spec.model import Component, Game, Paper

from .context import BuildContext
from .packing import pack
from .style import SheetStyle

SHARED_TILES = "shared_tiles"
SHARED_TOKENS = "shared_tokens"
AUTO_GROUPS = (SHARED_TILES, SHARED_TOKENS)
_KINDS = {SHARED_TILES: "tiles", SHARED_TOKENS: "tokens"}


def _one_sided(game: Game, options: BuildOptions, kind: str) -> list[Component]:
    """The printed parts of ``kind`` that print one side under ``options`` and are in no print group."""
    return [c for c in game.printed if c.kind == kind and not c.print_group and c.pieces
            and (kind != "tiles" or c.cell is not None) and (options.backs == "none" or not c.has_backs)]


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


def token_sheets(ctx: BuildContext, members: list[Component]) -> int:
    """Sheets the tokens of ``members`` take: alone, as their component prints them; several, as a
    token print group packs them. Pages are planned, not drawn."""
    from .groups import render_group
    from .kinds import KINDS

    try:
        if len(members) == 1:
            pages = KINDS["tokens"](ctx, ctx.game, members[0], ctx.options)
        else:
            pages = render_group(ctx, SHARED_TOKENS, tuple(members))
    except SpecError:  # a token larger than the sheet: its component says so when it is drawn alone
        return 10**9
    return sum(1 for page in pages if page.role not in ("back", "blank"))


def shared_members(game: Game, options: BuildOptions, paper: Paper, style: SheetStyle, name: str) -> tuple[Component, ...]:
    """The one-sided parts of group ``name``'s kind worth sharing sheets: those of the bleed most of them
    have, when together they take fewer sheets than apart (none for print-shop and print-and-cut files,
    which print each piece apart, nor when a component or print group already has the name)."""
    from .part_pages import bleed_for

    if options.print_shop or options.cut or name in game.print_groups or any(c.id == name for c in game.components):
        return ()
    kind = _KINDS[name]
    candidates = _one_sided(game, options, kind)
    if len(candidates) < 2:
        return ()
    ctx = BuildContext(game, paper, options, style)
    by_bleed: dict[float, list[Component]] = {}
    for component in candidates:
        by_bleed.setdefault(round(bleed_for(ctx, component), 6), []).append(component)
    members = max(by_bleed.values(), key=len)  # the first bleed seen wins a tie: the game's order decides
    if len(members) < 2:
        return ()
    sheets = tile_sheets if kind == "tiles" else token_sheets
    apart = sum(sheets(ctx, [member]) for member in members)
    return tuple(members) if sheets(ctx, members) < apart else ()


def with_shared_sheets(game: Game, options: BuildOptions, paper: Paper, style: SheetStyle) -> Game:
    """``game`` with the one-sided parts that save a sheet together put in an automatic print group."""
    for name in AUTO_GROUPS:
        members = {member.id for member in shared_members(game, options, paper, style, name)}
        if members:
            components = tuple(replace(c, print_group=name) if c.id in members else c for c in game.components)
            game = replace(game, components=components)
    return game


def keep_apart(members: tuple[Component, ...]) -> str:
    """How to sort the shared sheets' pieces back into their parts, for the bill of materials."""
    parts = ", ".join(f"{member.name} ({len(member.pieces)})" for member in members)
    return f"printed together to save paper; after cutting, sort them back into {parts} by their art"
