"""Automatic n-up: how many pieces of a size fit on a paper, with bleed, marks and footer.

Works for any rectangular piece (card, banknote, token box, tile). The count is
maximised first (inside the paper's printable margin, leaving room for the
shortest allowed crop marks); the spare space then grows bleed, gaps and marks
towards the sheet style's defaults, all in proportion. On a tight paper (poker
on Letter: 2.7 mm spare vertically) the outer bleed and marks shrink rather
than lose a row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from punchboard.generator.document.pages import FooterBand
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import SideFrame

from punchboard.spec.model import Paper

from .style import SheetStyle


@dataclass(frozen=True)
class AxisFit:
    count: int
    trim: float
    start: float  # low edge of the first trim
    gap: float  # between neighbouring trims
    bleed: float  # art past each cut (outer edges; inner edges too when spaced)
    mark_offset: float
    mark_length: float

    def edges(self, index: int) -> tuple[float, float]:
        low = self.start + index * (self.trim + self.gap)
        return low, low + self.trim

    @property
    def low(self) -> float:
        return self.start - self.bleed

    @property
    def high(self) -> float:
        return self.start + self.count * self.trim + (self.count - 1) * self.gap + self.bleed


def fit_axis(lo: float, length: float, trim: float, bleed: float, spaced: bool, style: SheetStyle) -> AxisFit | None:
    """Most pieces of ``trim`` along an axis of ``length`` starting at ``lo``; None if not even one."""
    mark_default = style.mark_offset + style.mark_length
    mark_min = min(style.mark_min_length, mark_default)
    count = math.floor((length - 2 * mark_min) / trim + 1e-9)
    if count < 1:
        return None
    gap_default = 2 * bleed if spaced else 0.0
    spare = length - count * trim
    desired = (count - 1) * gap_default + 2 * (bleed + mark_default)
    if spare >= desired:
        k = 1.0
    else:
        flexible = desired - 2 * mark_min
        k = max(0.0, (spare - 2 * mark_min) / flexible) if flexible > 0 else 0.0
    gap = k * gap_default
    band = mark_min + k * (mark_default - mark_min)
    offset = band * style.mark_offset / mark_default if mark_default else 0.0
    used = count * trim + (count - 1) * gap
    return AxisFit(count, trim, lo + (length - used) / 2, gap, k * bleed, offset, band - offset)


@dataclass(frozen=True)
class Slot:
    """One place for a piece on a sheet, in reading order (row 0 at the top)."""

    row: int
    col: int
    frame: SideFrame


@dataclass(frozen=True)
class Grid:
    """A rows × cols grid of pieces on one paper, with its footer band."""

    paper: Paper
    x: AxisFit
    y: AxisFit
    footer: FooterBand
    spaced: bool

    @property
    def cols(self) -> int:
        return self.x.count

    @property
    def rows(self) -> int:
        return self.y.count

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def trim(self, row: int, col: int) -> Rect:
        x0, x1 = self.x.edges(col)
        # rows count from the top; PDF y grows upwards
        y0, y1 = self.y.edges(self.rows - 1 - row)
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def frame(self, row: int, col: int) -> SideFrame:
        trim = self.trim(row, col)
        bx, by = self.x.bleed, self.y.bleed
        if self.spaced:
            clip = trim.inset(-bx, -by)
        else:
            left = bx if col == 0 else 0.0
            right = bx if col == self.cols - 1 else 0.0
            bottom = by if row == self.rows - 1 else 0.0
            top = by if row == 0 else 0.0
            clip = Rect(trim.x - left, trim.y - bottom, trim.width + left + right, trim.height + bottom + top)
        return SideFrame(trim, bx, by, clip)

    def slots(self) -> list[Slot]:
        return [Slot(r, c, self.frame(r, c)) for r in range(self.rows) for c in range(self.cols)]

    @property
    def art_box(self) -> Rect:
        """The outer edge of all bleed: nothing else may be drawn inside it."""
        return Rect(self.x.low, self.y.low, self.x.high - self.x.low, self.y.high - self.y.low)

    def cut_positions(self) -> tuple[list[float], list[float]]:
        xs = sorted({round(v, 6) for c in range(self.cols) for v in self.x.edges(c)})
        ys = sorted({round(v, 6) for r in range(self.rows) for v in self.y.edges(r)})
        return xs, ys


def plan_grid(paper: Paper, width: float, height: float, bleed: float, spaced: bool, style: SheetStyle) -> Grid | None:
    """The grid holding the most pieces of ``width`` × ``height``; the footer goes along the bottom
    or, when that loses pieces, up the right-hand side."""
    m, f = paper.margin, style.footer_height
    candidates: list[Grid] = []
    bottom_x = fit_axis(m, paper.width - 2 * m, width, bleed, spaced, style)
    bottom_y = fit_axis(m + f, paper.height - 2 * m - f, height, bleed, spaced, style)
    if bottom_x and bottom_y:
        band = FooterBand(Rect(m, m, paper.width - 2 * m, f))
        candidates.append(Grid(paper, bottom_x, bottom_y, band, spaced))
    side_x = fit_axis(m, paper.width - 2 * m - f, width, bleed, spaced, style)
    side_y = fit_axis(m, paper.height - 2 * m, height, bleed, spaced, style)
    if side_x and side_y:
        band = FooterBand(Rect(paper.width - m - f, m, f, paper.height - 2 * m), vertical=True)
        candidates.append(Grid(paper, side_x, side_y, band, spaced))
    if not candidates:
        return None
    return max(candidates, key=lambda g: (g.per_page, not g.footer.vertical))


@dataclass(frozen=True)
class Sheet:
    """Everything a page of pieces needs: where fronts go, where same-page backs go
    (gutterfold), the cuts that get crop marks, fold lines and the footer band."""

    width: float
    height: float
    slots: tuple[SideFrame, ...]
    footer: FooterBand
    back_slots: tuple[SideFrame, ...] | None = None
    cuts_x: tuple[float, ...] = ()
    cuts_y: tuple[float, ...] = ()
    art_box: Rect | None = None
    marks_x: tuple[float, float] = (0.0, 0.0)  # offset, length of marks left and right of the art
    marks_y: tuple[float, float] = (0.0, 0.0)  # offset, length of marks above and below
    folds_y: tuple[float, ...] = ()
    rows: int = 0
    cols: int = 0

    @property
    def per_page(self) -> int:
        return len(self.slots)


def grid_sheet(grid: Grid) -> Sheet:
    xs, ys = grid.cut_positions()
    return Sheet(
        grid.paper.width,
        grid.paper.height,
        tuple(slot.frame for slot in grid.slots()),
        grid.footer,
        cuts_x=tuple(xs),
        cuts_y=tuple(ys),
        art_box=grid.art_box,
        marks_x=(grid.x.mark_offset, grid.x.mark_length),
        marks_y=(grid.y.mark_offset, grid.y.mark_length),
        rows=grid.rows,
        cols=grid.cols,
    )


def landscape(paper: Paper) -> Paper:
    if paper.width >= paper.height:
        return paper
    return Paper(paper.name, paper.height, paper.width, paper.margin, paper.source)


def gutterfold_sheet(paper: Paper, width: float, height: float, bleed: float, style: SheetStyle) -> Sheet | None:
    """Landscape sheet: fronts above a horizontal fold, their backs below it turned 180°.

    Each front and its back are spaced by twice the bleed with the fold between;
    fold it, glue it, then cut on the crop marks. Several front/back strips stack
    when the paper is tall enough.
    """
    page = landscape(paper)
    m, f = page.margin, style.footer_height
    x = fit_axis(m, page.width - 2 * m, width, bleed, True, style)
    pair = 2 * height + 2 * bleed
    y = fit_axis(m + f, page.height - 2 * m - f, pair, bleed, True, style)
    if x is None or y is None:
        return None
    fronts: list[SideFrame] = []
    backs: list[SideFrame] = []
    folds: list[float] = []
    cuts_y: set[float] = set()
    for strip in range(y.count):
        low, high = y.edges(y.count - 1 - strip)
        fold = (low + high) / 2
        folds.append(fold)
        front_y, back_y = high - height, low
        cuts_y.update({round(front_y, 6), round(high, 6), round(back_y, 6), round(back_y + height, 6)})
        for col in range(x.count):
            x0, _ = x.edges(col)
            front = Rect(x0, front_y, width, height)
            back = Rect(x0, back_y, width, height)
            fronts.append(SideFrame(front, x.bleed, bleed, front.inset(-x.bleed, -bleed)))
            backs.append(SideFrame(back, x.bleed, bleed, back.inset(-x.bleed, -bleed), rotation=180))
    cuts_x = sorted({round(v, 6) for c in range(x.count) for v in x.edges(c)})
    art = Rect(x.low, y.low, x.high - x.low, y.high - y.low)
    return Sheet(
        page.width,
        page.height,
        tuple(fronts),
        FooterBand(Rect(m, m, page.width - 2 * m, f)),
        back_slots=tuple(backs),
        cuts_x=tuple(cuts_x),
        cuts_y=tuple(sorted(cuts_y)),
        art_box=art,
        marks_x=(x.mark_offset, x.mark_length),
        marks_y=(y.mark_offset, y.mark_length),
        folds_y=tuple(folds),
        rows=y.count,
        cols=x.count,
    )
