"""Which pieces each page of a component's PDF shows, and where: the press preflight names them.

The component is imposed again as ``build`` imposed it (its kind's renderer, the print shop's page order), with a
context whose painters draw nothing but note the piece and the slot they were given; each page is then "drawn" on
a scratch canvas. No side is drawn, so this costs what imposing costs. A cut build's pages and parts sharing a sheet
with other components (``with_shared_sheets``) are not mapped: their findings name the page only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from io import BytesIO
from typing import Any

from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import SideFrame
from punchboard.generator.impose.backs import BLANK
from punchboard.generator.impose.context import BuildContext
from punchboard.generator.options import BuildOptions

from punchboard.spec.model import Component, Game, Piece, Side

Placed = tuple[str, Rect]  # a piece's name as warnings give it ("card 'Leaf'") and its slot (bleed included), points


@dataclass
class _Pages:
    current: list[Placed] = field(default_factory=list)


class _Noting:
    """A painter that draws nothing and notes its piece and slot on the page being drawn."""

    def __init__(self, pages: _Pages, name: str):
        self.pages, self.name = pages, name

    def __call__(self, canvas: Any, frame: SideFrame) -> None:
        self.pages.current.append((self.name, frame.bleed_rect))

    def identity(self, frame: SideFrame) -> Any:
        return BLANK.identity(frame)


@dataclass
class _NamingContext(BuildContext):
    """A build context whose side painters note what they would draw (see :class:`_Noting`)."""

    noted: _Pages = field(default_factory=_Pages)

    def painter(self, component: Component, piece: Piece, side: Side | None, noun: str = "card") -> Any:
        if side is None:
            return None
        return _Noting(self.noted, self.where(component, piece, noun).split(" / ", 2)[-1])


def page_pieces(game: Game, options: BuildOptions) -> dict[str, list[list[Placed]]]:
    """For each component PDF the build writes (``<id>.pdf``): each page's pieces and slots, in page order."""
    from punchboard.generator.impose.kinds import KINDS
    from punchboard.generator.impose.print_shops import in_order, load_print_shops
    from punchboard.generator.impose.style import load_style
    from reportlab.pdfgen.canvas import Canvas

    from punchboard.spec.loader import load_paper

    if options.cut:
        return {}
    ctx = _NamingContext(game, load_paper(options.paper), replace(options, stamp=False, proof=False), load_style())
    shared = set() if options.print_shop else _shared(game, options, ctx)
    found: dict[str, list[list[Placed]]] = {}
    for component in game.printed:
        if component.id in shared or component.kind not in KINDS:
            continue
        pages = KINDS[component.kind](ctx, game, component, ctx.options)
        if options.print_shop:
            pages = in_order(pages, load_print_shops().get(options.print_shop_preset))
        canvas = Canvas(BytesIO(), pagesize=(72, 72))
        mapped = []
        for page in pages:
            ctx.noted.current = []
            page.draw(canvas)
            mapped.append(ctx.noted.current)
        found[f"{component.id}.pdf"] = mapped
    return found


def _shared(game: Game, options: BuildOptions, ctx: BuildContext) -> set[str]:
    """The components a sheet build puts on sheets shared with others (left unmapped)."""
    from punchboard.generator.impose.shared_sheets import with_shared_sheets

    shared = with_shared_sheets(game, options, ctx.paper, ctx.style)
    before = {c.id: c for c in game.printed}
    return {c.id for c in shared.printed if before.get(c.id) is not c} | {c for c in before if c not in {s.id for s in shared.printed}}


def named(placed: list[Placed], heavy: Any, page_height: float, dpi: float) -> list[str]:
    """The pieces of one page whose slot holds a pixel of ``heavy`` (a boolean array, rows from the page's top, at
    ``dpi``); every piece of the page when none does (a slot drawn turned, art beyond its slot)."""
    import numpy as np

    rows, cols = np.nonzero(heavy)
    xs, ys = (cols + 0.5) * 72 / dpi, page_height - (rows + 0.5) * 72 / dpi
    hit = [name for name, r in placed if bool(np.any((xs >= r.x) & (xs <= r.x + r.width) & (ys >= r.y) & (ys <= r.y + r.height)))]
    return list(dict.fromkeys(hit or [name for name, _ in placed]))
