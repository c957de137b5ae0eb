"""What the ``auto`` bleed policy gave up, said once as a note (BOM, cover, ``--verbose``), not as a warning.

``auto`` picks per component the sheet that prints it on the fewest sheets and, of those, keeps the
most bleed (generator/impose/grid.py). Where that sheet still has cards sharing cut lines, or keeps
less bleed on the sheet's outer edges, the build does not warn on every run: the bill of materials,
the cover and ``build --verbose`` say it in one line per component, with what the full bleed would
cost. Bleed reduced under a policy the user named (``--bleed-policy shared``) or below a ``--bleed``
given on the command line stays a warning (generator/impose/cards.py).
"""

from __future__ import annotations

import math

from punchboard.generator.options import BuildOptions

from punchboard.plumbing.units import to_mm
from punchboard.spec.model import PIECE_NOUNS, Component, Game

from .cards import card_sheet, noted
from .context import BuildContext
from .grid import Sheet, plan_grid, policy_name
from .kept_bleed import rect_bleed
from .merged import merged_component
from .paper_use import build_style

TOLERANCE = 0.005 * 72 / 25.4  # 0.005 mm
NOTED_KINDS = ("deck", "banknotes")


def _mm(points: float) -> str:
    return f"{to_mm(points):.2f}".rstrip("0").rstrip(".")


def sheet_note(ctx: BuildContext, component: Component, sheet: Sheet, declared: float) -> str | None:
    """One line on what ``sheet`` gives up of the ``declared`` bleed and what keeping it would cost;
    None when every piece keeps it all."""
    assert component.size is not None  # decks and banknotes have a size
    pieces = len(component.pieces)
    if sheet.back_slots is not None:
        bx, by = rect_bleed((*sheet.slots, *sheet.back_slots))
    else:
        bx = declared if sheet.bleed_x is None else sheet.bleed_x
        by = declared if sheet.bleed_y is None else sheet.bleed_y
    if pieces == 1 and sheet.outer_bleed is not None:
        bx, by = sheet.outer_bleed
    if min(bx, by) >= declared - TOLERANCE:
        return None
    noun = PIECE_NOUNS.get(component.kind, "piece") + "s"
    shared = [axis for axis, b, n in (("left/right", bx, sheet.cols), ("top/bottom", by, sheet.rows)) if b == 0 and n > 1]
    how = f"{noun} share cut lines {' and '.join(shared)}" if shared and pieces > 1 else f"bleed {_mm(bx)} mm left/right, {_mm(by)} mm top/bottom"
    if sheet.shared and sheet.outer_bleed is not None and min(sheet.outer_bleed) < declared - TOLERANCE:
        how += f", {_mm(sheet.outer_bleed[0])} mm left/right and {_mm(sheet.outer_bleed[1])} mm top/bottom bleed on the sheet's outer edges"
    sheets = math.ceil(pieces / sheet.per_page)
    turned = " turned 90°" if sheet.turned else ""
    line = f"{component.name}: {sheet.per_page}-up{turned} on {ctx.paper.name}, {how}"
    gutter = plan_grid(ctx.paper, component.size.width, component.size.height, declared, "gutter", ctx.style, pieces)
    if gutter is not None and sheet.back_slots is None:
        more = math.ceil(pieces / gutter.per_page)
        line += f"; the full {_mm(declared)} mm bleed takes {gutter.per_page}-up, {more} sheets instead of {sheets} (--bleed-policy gutter)"
    return line


def bleed_notes(game: Game, options: BuildOptions) -> dict[str, str]:
    """The ``auto`` policy's note for each deck, banknote set and print group of a build with ``options``
    that gives up bleed, by component id or group name (none for print-shop and print-and-cut files)."""
    from punchboard.spec.loader import load_paper

    style = build_style(options)
    if options.print_shop or options.cut or not noted(options, policy_name(options.packing, style)):
        return {}
    ctx = BuildContext(game, load_paper(options.paper), options, style)
    out: dict[str, str] = {}
    grouped = game.print_groups
    parts: list[tuple[str, Component]] = [(c.id, c) for c in game.printed if c.kind in NOTED_KINDS and not c.print_group]
    parts += [(name, merged_component(name, members)) for name, members in grouped.items() if members[0].kind in NOTED_KINDS]
    for key, component in parts:
        if not component.pieces or component.size is None:
            continue
        declared = ctx.bleed_for(component)
        note = sheet_note(ctx, component, card_sheet(ctx, component, component.size.width, component.size.height, declared), declared)
        if note is not None:
            out[key] = note
    return out
