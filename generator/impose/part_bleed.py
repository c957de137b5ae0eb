"""The bleed a tile, sheet or board is printed with, in its own small module: the print fingerprints
ask for it on every recorded build, and importing the whole page maker (``part_pages``) for it cost 5 ms."""

from __future__ import annotations

from typing import Protocol

from punchboard.generator.options import BuildOptions

from punchboard.plumbing.units import mm
from punchboard.spec.model import Component, Game

from .style import SheetStyle


class BleedContext(Protocol):
    game: Game
    options: BuildOptions
    style: SheetStyle


def bleed_for(ctx: BleedContext, component: Component) -> float:
    if ctx.options.bleed_mm is not None:
        return mm(ctx.options.bleed_mm)
    if ctx.options.print_shop:
        from .print_shops import load_print_shops

        return load_print_shops().get(ctx.options.print_shop_preset).bleed
    faces = [p.face.layout for p in component.pieces if p.face is not None]
    layout = ctx.game.layouts.get(faces[0]) if faces else None
    return layout.bleed if layout is not None and layout.bleed is not None else ctx.style.bleed
