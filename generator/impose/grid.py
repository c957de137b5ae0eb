"""Automatic n-up: how many pieces of a size fit on a paper, with bleed, marks and footer.

Works for any rectangular piece (card, banknote, token box, tile). Everything
stays inside the printable area: the paper's margin or the sheet style's
``unprintable`` margin, whichever is wider. How bleed is kept is the *bleed
policy* (``layouts/sheet.yaml`` ``bleed_policy``, or ``--bleed-policy``):

- ``gutter``: every piece keeps its full bleed on all four edges, with a gutter of
  twice the bleed between neighbours; fewer pieces may fit a page.
- ``shared``: pieces touch on shared cut lines (one cut separates two pieces);
  the outer edges keep as much of the bleed as fits, inner edges have none.
- ``squeeze``: the most pieces a page holds, with bleed, gaps and marks shrunk
  in proportion to fit (two cuts a fraction of a millimetre apart).
- ``auto``: per component, whichever of ``gutter``, ``shared`` and the per-axis mix (``gutter`` along
  an axis when it fits as many pieces along it as ``shared``) prints the component on the fewest
  sheets, of those the one that keeps the most bleed, then the one that holds the most (six poker
  cards: ``gutter``, 6-up; sixty: shared cut lines, 9-up on Letter).

Whatever the policy, :attr:`Sheet.bleed` records the effective bleed, so the
caller can warn when it is less than the layout declares.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from punchboard.generator.document.pages import FooterBand
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import SideFrame

from punchboard.spec.model import Paper

from .style import BLEED_POLICIES, SheetStyle

POLICIES = BLEED_POLICIES
TURN = 90  # a turned slot holds its piece turned a quarter anticlockwise: the piece's top points left
LEGACY_POLICIES = {"spaced": "squeeze", "touching": "shared"}  # the older --packing names


def policy_name(name: str | None, style: SheetStyle) -> str:
    """The bleed policy a build asked for (None: the sheet style's)."""
    name = style.bleed_policy if name is None else name
    return LEGACY_POLICIES.get(name, name)


@dataclass(frozen=True)
class AxisFit:
    count: int
    trim: float
    start: float  # low edge of the first trim
    gap: float  # between neighbouring trims
    bleed: float  # art past the outer cuts (and past inner cuts too when spaced)
    mark_offset: float
    mark_length: float
    spaced: bool = True  # neighbours apart, each with its own bleed; False: they share cut lines

    def edges(self, index: int) -> tuple[float, float]:
        low = self.start + index * (self.trim + self.gap)
        return low, low + self.trim

    @property
    def low(self) -> float:
        return self.start - self.bleed

    @property
    def high(self) -> float:
        return self.start + self.count * self.trim + (self.count - 1) * self.gap + self.bleed

    def inner_bleed(self) -> float:
        """Own art past a cut between neighbours (none when they share cut lines)."""
        if self.count < 2:
            return self.bleed
        return min(self.bleed, self.gap / 2) if self.spaced else 0.0


def fit_axis(lo: float, length: float, trim: float, bleed: float, spaced: bool, style: SheetStyle, keep_bleed: bool = False, cap: int | None = None) -> AxisFit | None:
    """Most pieces of ``trim`` along an axis of ``length`` starting at ``lo``; None if not even one.

    ``spaced``: neighbours are two bleeds apart; else they touch. ``keep_bleed``
    (the gutter policy): never shrink the bleed, fit fewer pieces instead.
    Otherwise the count comes first and the bleed gives way, outer bleed before marks.
    """
    mark_default = style.mark_offset + style.mark_length
    mark_min = min(style.mark_min_length, mark_default)
    gap_default = 2 * bleed if spaced else 0.0
    if keep_bleed:
        count = math.floor((length - 2 * (bleed + mark_min) + gap_default) / (trim + gap_default) + 1e-9)
    else:
        count = math.floor((length - 2 * mark_min) / trim + 1e-9)
    if cap is not None:
        count = min(count, cap)  # no room for pieces that do not exist: give it to the bleed
    if count < 1:
        return None
    spare = length - count * trim
    if spaced:
        desired = (count - 1) * gap_default + 2 * (bleed + mark_default)
        if spare >= desired:
            k = 1.0
        else:
            flexible = desired - 2 * mark_min
            k = max(0.0, (spare - 2 * mark_min) / flexible) if flexible > 0 else 0.0
        if keep_bleed:
            gap, outer = gap_default, bleed
            band = min(mark_default, (spare - (count - 1) * gap) / 2 - bleed)
        else:
            gap, outer = k * gap_default, k * bleed
            band = mark_min + k * (mark_default - mark_min)
    else:
        gap = 0.0
        side = spare / 2
        outer = max(0.0, min(bleed, side - mark_min))
        band = max(0.0, min(mark_default, side - outer))
    offset = mark_band_offset(band, style)
    used = count * trim + (count - 1) * gap
    return AxisFit(count, trim, lo + (length - used) / 2, gap, outer, offset, band - offset, spaced)


def mark_band_offset(band: float, style: SheetStyle) -> float:
    """The gap before a crop mark in a band of ``band`` (gap plus mark): the band shrinks gap and mark
    in proportion, but the mark keeps ``crop_marks.min_length`` (the gap gives way first)."""
    mark_default = style.mark_offset + style.mark_length
    if not mark_default:
        return 0.0
    offset = band * style.mark_offset / mark_default
    floor = min(style.mark_min_length, style.mark_length, band)
    return min(offset, band - floor)


def fit_policy(lo: float, length: float, trim: float, bleed: float, policy: str, style: SheetStyle, cap: int | None = None) -> AxisFit | None:
    """One axis under a bleed policy; ``auto`` keeps the gutter on this axis when it costs no pieces."""
    if policy == "gutter":
        return fit_axis(lo, length, trim, bleed, True, style, keep_bleed=True, cap=cap)
    if policy == "squeeze":
        return fit_axis(lo, length, trim, bleed, True, style, cap=cap)
    shared = fit_axis(lo, length, trim, bleed, False, style, cap=cap)
    if policy == "shared":
        return shared
    gutter = fit_axis(lo, length, trim, bleed, True, style, keep_bleed=True, cap=cap)
    return gutter if gutter is not None and (shared is None or gutter.count >= shared.count) else shared


@dataclass(frozen=True)
class Slot:
    """One place for a piece on a sheet, in reading order (row 0 at the top)."""

    row: int
    col: int
    frame: SideFrame


@dataclass(frozen=True)
class Grid:
    """A rows × cols grid of pieces on one paper, with its footer band.

    ``turned``: every slot holds its piece turned 90° anticlockwise (a portrait card in a
    landscape slot); ``x`` and ``y`` then fit the piece's height across and its width down.
    """

    paper: Paper
    x: AxisFit
    y: AxisFit
    footer: FooterBand
    turned: bool = False

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
        left = bx if col == 0 or self.x.spaced else 0.0
        right = bx if col == self.cols - 1 or self.x.spaced else 0.0
        bottom = by if row == self.rows - 1 or self.y.spaced else 0.0
        top = by if row == 0 or self.y.spaced else 0.0
        clip = Rect(trim.x - left, trim.y - bottom, trim.width + left + right, trim.height + bottom + top)
        return SideFrame(trim, bx, by, clip, rotation=TURN if self.turned else 0)

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


def printable_margin(paper: Paper, style: SheetStyle) -> float:
    """How far from the paper edge sheets of pieces keep art, marks and footer."""
    return max(paper.margin, style.unprintable)


def printable_paper(paper: Paper, style: SheetStyle) -> Paper:
    """The paper with its margin widened to the printable margin: what every sheet of pieces
    (cards, tokens, tiles, sheets, board tiles) and the calibration page lay out inside."""
    margin = printable_margin(paper, style)
    return paper if margin == paper.margin else replace(paper, margin=margin)


def plan_grid(paper: Paper, width: float, height: float, bleed: float, policy: str, style: SheetStyle, pieces: int | None = None,
              turn: bool = True) -> Grid | None:
    """The grid for pieces of ``width`` × ``height`` under a bleed ``policy`` (see the module doc):
    the most pieces a sheet, upright or (with ``turn``) every slot turned 90°; upright when they tie.
    The footer goes along the bottom or, when that loses pieces, up the right-hand side.
    With ``pieces`` known, room for more than that many counts for nothing against more bleed."""
    wanted = pieces if pieces is not None else 10**9
    # auto: the full gutter, the per-axis mix and shared cut lines all compete, on sheets, then bleed
    tried = ("gutter", "auto", "shared") if policy == "auto" else (policy,)
    candidates = [g for name in tried for g in _grids(paper, width, height, bleed, name, style, pieces)]
    if turn and abs(width - height) > 1e-6:
        candidates += [replace(g, turned=True) for name in tried for g in _grids(paper, height, width, bleed, name, style, pieces)]
    if not candidates:
        return None
    if policy == "auto":
        return max(candidates, key=lambda g: (-math.ceil(wanted / g.per_page), kept_bleed(g), min(g.per_page, wanted), not g.turned,
                                              not g.footer.vertical))
    return max(candidates, key=lambda g: (min(g.per_page, wanted), not g.turned, kept_bleed(g), not g.footer.vertical))


def kept_bleed(grid: Grid) -> float:
    """The least bleed any piece of ``grid`` keeps on any edge (0 where pieces share cut lines)."""
    return min(grid.x.inner_bleed(), grid.y.inner_bleed(), grid.x.bleed, grid.y.bleed)


def _grids(paper: Paper, width: float, height: float, bleed: float, policy: str, style: SheetStyle, pieces: int | None) -> list[Grid]:
    """The footer-along-the-bottom and footer-up-the-side grids of slots ``width`` × ``height``."""
    m, f = printable_margin(paper, style), style.footer_height
    candidates: list[Grid] = []
    bottom_x = fit_policy(m, paper.width - 2 * m, width, bleed, policy, style, pieces)
    bottom_y = fit_policy(m + f, paper.height - 2 * m - f, height, bleed, policy, style, pieces)
    if bottom_x and bottom_y:
        band = FooterBand(Rect(m, m, paper.width - 2 * m, f))
        candidates.append(Grid(paper, bottom_x, bottom_y, band))
    side_x = fit_policy(m, paper.width - 2 * m - f, width, bleed, policy, style, pieces)
    side_y = fit_policy(m, paper.height - 2 * m, height, bleed, policy, style, pieces)
    if side_x and side_y:
        band = FooterBand(Rect(paper.width - m - f, m, f, paper.height - 2 * m), vertical=True)
        candidates.append(Grid(paper, side_x, side_y, band))
    return candidates


@dataclass(frozen=True)
class Sheet:
    """Everything a page of pieces needs: where fronts go, where same-page backs go
    (gutterfold), the cuts that get crop marks, fold lines and the footer band.

    ``bleed_x``/``bleed_y`` are the effective bleed a piece gets on its
    left/right and top/bottom edges (the least over all edges); ``shared``
    sheets have pieces touching on shared cut lines.
    """

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
    bleed_x: float | None = None
    bleed_y: float | None = None
    shared: bool = False
    outer_bleed: tuple[float, float] | None = None  # on the outer edges: left/right, top/bottom
    turned: bool = False  # every piece lies turned 90° in its slot (its frames' rotation says which way)

    @property
    def per_page(self) -> int:
        return len(self.slots)

    def frames(self, used: int) -> tuple[SideFrame, ...]:
        """The first ``used`` slots; on a shared sheet a piece whose neighbour slot stays
        empty gets its full bleed on that edge (nothing else is printed there)."""
        frames = self.slots[:used]
        if not self.shared or used >= self.per_page or not self.cols:
            return frames
        out = []
        for index, frame in enumerate(frames):
            row, col = divmod(index, self.cols)
            clip = frame.clip
            if not isinstance(clip, Rect):
                out.append(frame)
                continue
            full = frame.bleed_rect
            right = full.right if col == self.cols - 1 or index + 1 >= used else clip.right
            bottom = full.y if row == self.rows - 1 or index + self.cols >= used else clip.y
            out.append(replace(frame, clip=Rect(clip.x, bottom, right - clip.x, clip.top - bottom)))
        return tuple(out)

    def used(self, used: int) -> Sheet:
        """This sheet with cuts, art box and marks for its first ``used`` slots only."""
        if used >= self.per_page or self.art_box is None:
            return self
        frames = self.frames(used)
        backs = self.back_slots[:used] if self.back_slots else ()
        boxes = [f.clip if isinstance(f.clip, Rect) else f.bleed_rect for f in (*frames, *backs)]
        art = Rect(min(b.x for b in boxes), min(b.y for b in boxes), 0, 0)
        art = Rect(art.x, art.y, max(b.right for b in boxes) - art.x, max(b.top for b in boxes) - art.y)
        trims = [f.trim for f in (*frames, *backs)]
        xs = {round(v, 6) for t in trims for v in (t.x, t.right)}
        ys = {round(v, 6) for t in trims for v in (t.y, t.top)}
        return replace(self, cuts_x=tuple(x for x in self.cuts_x if round(x, 6) in xs),
                       cuts_y=tuple(y for y in self.cuts_y if round(y, 6) in ys), art_box=art,
                       folds_y=tuple(y for y in self.folds_y if art.y < y < art.top))


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
        bleed_x=min(grid.x.bleed, grid.x.inner_bleed()),
        bleed_y=min(grid.y.bleed, grid.y.inner_bleed()),
        shared=not (grid.x.spaced and grid.y.spaced),
        outer_bleed=(grid.x.bleed, grid.y.bleed),
        turned=grid.turned,
    )


def landscape(paper: Paper) -> Paper:
    if paper.width >= paper.height:
        return paper
    return Paper(paper.name, paper.height, paper.width, paper.margin, paper.source)


def gutterfold_sheet(paper: Paper, width: float, height: float, bleed: float, style: SheetStyle, policy: str = "squeeze",
                     turn: bool = True) -> Sheet | None:
    """Landscape sheet: fronts above a horizontal fold, their backs below it turned 180°.

    Each front and its back are spaced by twice the bleed with the fold between;
    fold it, glue it, then cut on the crop marks. Several front/back strips stack
    when the paper is tall enough. With ``turn`` the pieces may lie turned 90° instead
    (fronts and backs alike turned a quarter anticlockwise, the fold along the piece's
    long edge) when that holds more; upright when they tie.
    """
    upright = _gutterfold(paper, width, height, bleed, style, policy, False)
    if not turn or abs(width - height) <= 1e-6:
        return upright
    turned = _gutterfold(paper, height, width, bleed, style, policy, True)
    if turned is not None and (upright is None or turned.per_page > upright.per_page):
        return turned
    return upright


def _gutterfold(paper: Paper, width: float, height: float, bleed: float, style: SheetStyle, policy: str, turned: bool) -> Sheet | None:
    """The gutterfold sheet for slots ``width`` × ``height`` (a turned piece's slot has them swapped)."""
    front_turn = TURN if turned else 0
    back_turn = (180 - front_turn) % 360  # the fold mirrors top and bottom: the back is the front turned by 180° less its own turn
    page = landscape(paper)
    m, f = printable_margin(page, style), style.footer_height
    keep = policy in ("gutter", "auto")  # auto: the gutter across too, unless squeezing fits more (below)
    x = fit_axis(m, page.width - 2 * m, width, bleed, True, style, keep)
    if policy == "auto":
        squeezed = fit_axis(m, page.width - 2 * m, width, bleed, True, style)
        if x is None or (squeezed is not None and squeezed.count > x.count):
            x = squeezed
    pair = 2 * height + 2 * bleed
    y = fit_axis(m + f, page.height - 2 * m - f, pair, bleed, True, style, policy in ("gutter", "auto"))
    if y is None and policy == "auto":
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
            fronts.append(SideFrame(front, x.bleed, bleed, front.inset(-x.bleed, -bleed), rotation=front_turn))
            backs.append(SideFrame(back, x.bleed, bleed, back.inset(-x.bleed, -bleed), rotation=back_turn))
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
        bleed_x=min(x.bleed, x.inner_bleed()),
        bleed_y=min(y.bleed, y.inner_bleed()),
        turned=turned,
    )
