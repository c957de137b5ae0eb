"""How much paper a component needs at the very least: its *area bound*.

The pieces of a component cover a total area (a card's or tile's trim, a token's own outline);
no imposition prints them on fewer sheets than that area divided by the printable area of one
sheet (the paper inside the unprintable margin). Backs that need paper of their own — on their
own sheets (``separate``) or beside their fronts (``gutterfold``) — count twice; duplex backs
print on the reverse and cost nothing. The bill of materials sets each component's sheets, and
the game's, against this bound (generator/document/bom_page.py).
"""

from __future__ import annotations

import math
from dataclasses import replace

from punchboard.generator.draw.outlines import ring_area, token_outline
from punchboard.generator.options import BuildOptions

from punchboard.plumbing.units import mm
from punchboard.spec.model import Component, Paper, TokenShape

from .grid import printable_margin
from .style import SheetStyle, load_style

BACKS_BESIDE = ("separate", "gutterfold")  # back modes whose backs take paper of their own


def piece_area(component: Component, index: int) -> float:
    """The area one piece covers, in pt²: its trim (tiles: their cells; tokens: their outline)."""
    piece = component.pieces[index]
    if component.kind == "tiles" and component.cell is not None:
        return len(piece.cells) * component.cell**2
    if component.size is None:
        return 0.0
    width, height = component.size.width, component.size.height
    if component.kind == "tokens":
        outline = token_outline(component.shape or TokenShape("circle"), 0.0, 0.0, width, height)
        return sum(abs(ring_area(ring)) for ring in outline.points())
    return width * height


def printable_area(paper: Paper, style: SheetStyle) -> float:
    """One sheet's paper inside the printable margin, in pt²."""
    m = printable_margin(paper, style)
    return max(0.0, paper.width - 2 * m) * max(0.0, paper.height - 2 * m)


def build_style(options: BuildOptions) -> SheetStyle:
    """The sheet style a build with ``options`` lays out with (``--unprintable`` applied)."""
    style = load_style()
    return style if options.unprintable_mm is None else replace(style, unprintable=mm(options.unprintable_mm))


def area_bound(component: Component, paper: Paper, style: SheetStyle, backs: str) -> float:
    """The least number of sheets the component's pieces could fit, by area alone (a fraction)."""
    sides = 2 if component.has_backs and backs in BACKS_BESIDE else 1
    if component.kind == "tiles" and component.cell is not None:
        area = sum(piece_area(component, index) for index in range(len(component.pieces)))
    else:  # every piece covers the same area: work it out once (a token's outline is many points), add it up as before
        one = piece_area(component, 0) if component.pieces else 0.0
        area = sum(one for _ in component.pieces)
    room = printable_area(paper, style)
    return sides * area / room if room > 0 else math.inf


def least_sheets(bound: float) -> int:
    """Whole sheets the bound asks for (a bound of 9.02 needs 10 sheets; allow for rounding)."""
    return math.ceil(bound - 1e-9)
