"""The shared page-writing context every kind renderer receives."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from punchboard.generator.document.page_content import SlotIdentity
from punchboard.generator.draw.fingerprint import Request
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.observe import SideObserver
from punchboard.generator.draw.reads import side_reads
from punchboard.generator.draw.side import (
    Observe,
    SideContext,
    SideFrame,
    draw_side,
    form_geometry,
    form_key_of,
    picture_elements,
    side_pictures,
)
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.incremental.identity import ByIdentity
from punchboard.incremental.sides import Store, layout_digest
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
    # Pages copied from the last build's file, and pages in all, by component id (document/kept_pages.py)
    pages_copied: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)

    # While a page is drawn to be kept (generator/document/kept_pages.py): every warning given, repeats too
    heard: list[str] | None = field(default=None, repr=False)

    def warn(self, message: str) -> None:
        if self.heard is not None:
            self.heard.append(message)
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
        name = piece.name
        label = f"'{name}'" if name else f"#{piece.index + 1}"
        return f"{self.game.id} / {component.id} / {noun} {label}"

    def painter(self, component: Component, piece: Piece, side: Side | None, noun: str = "card") -> Painter | None:
        """A painter for one side of a piece, or None when the piece has no such side."""
        if side is None:
            return None
        found = self.side_prints
        bleed = None
        if found is not None:
            bleed = self.declared_bleeds.get(component.id)
            if bleed is None:
                bleed = self.declared_bleeds[component.id] = self.bleed_for(component)
        return _SidePainter(self, component, piece, side, noun, found, bleed, self.kept_sides.get(component.id))

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
        return max((b for b in asked if b is not None), default=self.style.bleed)


class _SidePainter:
    """Paints one side of a piece when its page is drawn. What the side needs (its fields, its context,
    the piece's name for warnings) is put together then, not when the deck is imposed: a 20,000-card deck
    holds 40,000 painters until its pages are written."""

    __slots__ = ("ctx", "component", "piece", "side", "noun", "found", "bleed", "kept")

    def __init__(self, ctx: BuildContext, component: Component, piece: Piece, side: Side, noun: str,
                 found: dict[tuple[str, int, int], str] | None, bleed: float | None, kept: Store | None):
        self.ctx, self.component, self.piece, self.side, self.noun = ctx, component, piece, side, noun
        self.found, self.bleed, self.kept = found, bleed, kept

    def __call__(self, canvas: Canvas, frame: SideFrame) -> None:
        ctx, piece, side = self.ctx, self.piece, self.side
        side_ctx = ctx.side_context(ctx.where(self.component, piece, self.noun))
        side_ctx.kept_sides = self.kept
        found = self.found
        if found is not None and self.bleed is not None:
            key = (self.component.id, piece.index, 0 if side is piece.face else 1)
            side_ctx.fingerprint = Request(self.bleed, lambda digest: found.__setitem__(key, digest))
        draw_side(canvas, ctx.game.layouts[side.layout], {**piece.fields, **side.fields}, frame, side_ctx)

    def identity(self, frame: SideFrame) -> SlotIdentity | None:
        """What this side drawn into ``frame`` is, for a kept page (generator/document/kept_pages.py): everything
        :meth:`__call__` draws it from besides the build's shared inputs, and the key of the form it places;
        None when its drawing cannot be kept (a raster picture, a frame clipped to a shape)."""
        clip = frame.clip
        if clip is not None and not isinstance(clip, Rect):
            return None  # a shaped clip is a function, not a value the page's key could hold
        ctx, piece, side = self.ctx, self.piece, self.side
        layout = ctx.game.layouts[side.layout]
        reads = side_reads(layout, piece, side)
        setting, form = self._setting(layout, frame)
        pictures: tuple[str, ...] | None = ()
        if form[1]:  # the layout places pictures
            pictures = side_pictures(layout, {**piece.fields, **side.fields}, (ctx.game.folder,))
            if pictures is None:
                return None
        parts = (setting, reads, pictures, ctx.where(self.component, piece, self.noun), piece.index, side is piece.face)
        # the key of its form (draw/side.py's form_key: fields are read in reads)
        return SlotIdentity(parts, form_key_of(layout, reads, form[0], *form[2:]) if clip is not None else None)

    def _setting(self, layout: Layout, frame: SideFrame) -> tuple[str, tuple[Any, ...]]:
        """A digest of what every side drawn with ``layout`` into ``frame`` by this painter's build shares: the
        layout, the frame, the proof and preflight settings, and how its fingerprint is taken (a deck's sides
        share a few; a page's key holds this digest, not the long text it is made from); and what the key of
        such a side's form takes from them: the frame's geometry, whether the layout places pictures, the proof
        and the stamp."""
        by_layout = _SETTINGS.get(frame, _new_settings)
        key = (layout.name, self.found is not None, self.bleed)
        known = by_layout.get(key)
        if known is not None and known[0] is layout and known[1] is self.ctx:
            return known[2], known[3]
        ctx, options, style = self.ctx, self.ctx.options, self.ctx.style
        how = (layout_digest(layout), repr(frame), ctx.preflight, options.proof, options.stamp_label,
               (style.proof_trim, style.proof_safe, style.proof_stroke), self.found is not None, self.bleed)
        digest = hashlib.sha256(repr(how).encode()).hexdigest()
        geometry = form_geometry(frame) if isinstance(frame.clip, Rect) else ()
        form = (geometry, bool(picture_elements(layout)), options.proof, options.stamp_label)
        by_layout[key] = (layout, ctx, digest, form)
        return digest, form


# by frame, then by (layout name, fingerprinted, bleed): the layout and build a digest was worked out for, the
# digest and what a side's form key takes from them (a long-running watch makes new frames on every save: at most
# 1,024 are remembered)
_SETTINGS: ByIdentity[SideFrame, dict[tuple[str, bool, float | None],
                                      tuple[Layout, BuildContext, str, tuple[Any, ...]]]] = ByIdentity(limit=1024)


def _new_settings(frame: SideFrame) -> dict[tuple[str, bool, float | None], tuple[Layout, BuildContext, str, tuple[Any, ...]]]:
    return {}


def _preflight(layout: Layout, frame: SideFrame) -> SideObserver:
    """The preflight's watcher of one side, loaded when a side is first drawn (a side kept from the last
    build is not checked again, and its findings come with it)."""
    from punchboard.generator.preflight.side import observe

    return observe(layout, frame)
