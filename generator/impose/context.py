"""The shared page-writing context every kind renderer receives."""

from __future__ import annotations

from dataclasses import dataclass, field

from punchboard.generator.draw.fingerprint import Request
from punchboard.generator.draw.kept import Store
from punchboard.generator.draw.observe import SideObserver
from punchboard.generator.draw.side import Observe, SideContext, SideFrame, draw_side
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm
from punchboard.spec.model import Component, Game, Layout, Paper, Piece, Side

from .backs import Painter
from .style import SheetStyle


@dataclass
class BuildContext:
    """Game, paper, sheet style and options of one build, plus its warnings.

    ``warn`` collects each distinct message once; the build prints them to stderr.
    With ``preflight`` every side drawn is also checked (generator/preflight/) and
    its findings are warnings too; exports and reprints leave it off.
    """

    game: Game
    paper: Paper
    options: BuildOptions
    style: SheetStyle
    warnings: list[str] = field(default_factory=list)
    preflight: bool = False
    # When a print is recorded: each side's fingerprint as drawn, by (component, piece index, 0 face / 1 back)
    # (generator/prints.py); None: not asked for.
    side_prints: dict[tuple[str, int, int], str] | None = None
    declared_bleeds: dict[str, float] = field(default_factory=dict, repr=False)  # bleed_for, by component id
    # The sides kept from earlier builds, by component id, while the component is drawn (draw/kept.py)
    kept_sides: dict[str, Store] = field(default_factory=dict, repr=False)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def side_context(self, where: str) -> SideContext:
        s = self.style
        return SideContext(self.game.palette, (self.game.folder,), self.warn, where, self.options.proof,
                           (s.proof_trim, s.proof_safe, s.proof_stroke), stamp=self.options.stamp_label,
                           icons=self.game.icons, observe=self.observe)

    @property
    def observe(self) -> Observe | None:
        """The preflight's watcher for each side drawn, when this build runs the preflight."""
        return _preflight if self.preflight else None

    def where(self, component: Component, piece: Piece, noun: str = "card") -> str:
        label = f"'{piece.name}'" if piece.name else f"#{piece.index + 1}"
        return f"{self.game.id} / {component.id} / {noun} {label}"

    def painter(self, component: Component, piece: Piece, side: Side | None, noun: str = "card") -> Painter | None:
        """A painter for one side of a piece, or None when the piece has no such side."""
        if side is None:
            return None
        layout = self.game.layouts[side.layout]
        fields = {**piece.fields, **side.fields}
        side_ctx = self.side_context(self.where(component, piece, noun))
        side_ctx.kept_sides = self.kept_sides.get(component.id)
        found = self.side_prints
        if found is not None:
            key = (component.id, piece.index, 0 if side is piece.face else 1)
            bleed = self.declared_bleeds.get(component.id)
            if bleed is None:
                bleed = self.declared_bleeds[component.id] = self.bleed_for(component)
            side_ctx.fingerprint = Request(bleed, lambda digest: found.__setitem__(key, digest))

        def paint(canvas: Canvas, frame: SideFrame) -> None:
            draw_side(canvas, layout, fields, frame, side_ctx)

        return paint

    def bleed_for(self, component: Component) -> float:
        """--bleed if given, else a print-shop preset's, else the largest bleed a face layout asks for, else the sheet style's."""
        if self.options.bleed_mm is not None:
            return mm(self.options.bleed_mm)
        if self.options.print_shop:
            from .print_shops import load_print_shops

            return load_print_shops().get(self.options.print_shop_preset).bleed
        asked = [
            self.game.layouts[p.face.layout].bleed
            for p in component.pieces
            if p.face is not None and p.face.layout in self.game.layouts
        ]
        asked = [b for b in asked if b is not None]
        return max(asked) if asked else self.style.bleed


def _preflight(layout: Layout, frame: SideFrame) -> SideObserver:
    """The preflight's watcher of one side, loaded when a side is first drawn (a side kept from the last
    build is not checked again, and its findings come with it)."""
    from punchboard.generator.preflight.side import observe

    return observe(layout, frame)
