"""Split a board larger than the paper into tiles that overlap by a glue strip.

All lengths are PDF points. Board coordinates have their origin at the lower-left
corner of the board's bleed box, y up; the trim box is [bleed, bleed + width] ×
[bleed, bleed + height]. Rows are lettered from the top (A, B, …), columns
numbered from the left (1, 2, …), so A1 is the top-left tile.

Assembly: keep every tile's overlap strip on its right and bottom edges; cut the
tiles that lie to the right of or below a neighbour along their content edge and
lay them on that neighbour's strip, so the same artwork lies on top of itself.
Alignment ticks cross each joint: they continue without a step when the tiles sit
right.

A page is either upright (content in the paper's orientation) or rotated: then
the page is still the paper, portrait, and the tile is drawn turned 90° on it, so
duplex printing and the footer behave as on every other page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from punchboard.plumbing.errors import Problem, SpecError, display_path
from punchboard.plumbing.paths import LAYOUTS
from punchboard.plumbing.units import to_mm
from punchboard.spec.loader.common import Collector, positive_length
from punchboard.spec.model import Paper
from punchboard.spec.yamlsource import load_yaml

SETTINGS_FILE = LAYOUTS / "board_tiling.yaml"
EPSILON = 1e-6

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class TilingSettings:
    overlap: float
    mark_room: float
    label_room: float
    footer_room: float
    ticks_per_edge: int
    tick_overhang: float


@cache
def load_settings() -> TilingSettings:
    doc = load_yaml(SETTINGS_FILE)
    out = Collector()
    data = doc.data or {}
    values = {key: positive_length(doc, (key,), data.get(key), out) for key in ("overlap", "mark_room", "label_room", "footer_room", "tick_overhang")}
    ticks = data.get("ticks_per_edge")
    if not isinstance(ticks, int) or ticks < 1:
        out.add(doc.problem(("ticks_per_edge",), f"ticks_per_edge must be a positive integer, got {ticks!r}"))
    out.raise_if_any()
    return TilingSettings(ticks_per_edge=ticks, **values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Frame:
    """Where a tile's content goes on the page, in the page's own (possibly rotated) frame."""

    width: float  # of the frame: the paper, or the paper turned 90°
    height: float
    rotated: bool


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    region: Rect  # the part of the board this tile shows, board coordinates
    content: Rect  # where that region is drawn, frame coordinates

    @property
    def label(self) -> str:
        return tile_label(self.row, self.col)

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        """A board point to frame coordinates on this tile's page."""
        return x - self.region[0] + self.content[0], y - self.region[1] + self.content[1]


@dataclass(frozen=True)
class TilePlan:
    board_width: float  # trim
    board_height: float
    bleed: float
    overlap: float
    rows: int
    cols: int
    frame: Frame
    tiles: tuple[Tile, ...]

    @property
    def extent(self) -> tuple[float, float]:
        """The board with its bleed: the area the tiles cover together."""
        return self.board_width + 2 * self.bleed, self.board_height + 2 * self.bleed

    @property
    def trim(self) -> Rect:
        b = self.bleed
        return b, b, b + self.board_width, b + self.board_height

    def tile(self, row: int, col: int) -> Tile:
        return self.tiles[row * self.cols + col]


def tile_label(row: int, col: int) -> str:
    letters = ""
    n = row + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{col + 1}"


def _count(extent: float, room: float, overlap: float) -> int | None:
    """Tiles needed along one axis, or None when even one tile cannot advance."""
    if extent <= room + EPSILON:
        return 1
    if room <= overlap:
        return None
    return math.ceil((extent - overlap) / (room - overlap) - EPSILON)


def content_room(paper: Paper, settings: TilingSettings, rotated: bool) -> tuple[float, float, float, float]:
    """The box (x, y, width, height) a tile may fill in the frame."""
    width, height = (paper.height, paper.width) if rotated else (paper.width, paper.height)
    edge = paper.margin + settings.mark_room
    # The footer runs along the paper's bottom edge: the frame's left edge when rotated
    # (see ``frame_to_page``).
    left = edge + (settings.footer_room if rotated else 0.0)
    bottom = edge + (0.0 if rotated else settings.footer_room)
    top = edge + settings.label_room
    return left, bottom, width - left - edge, height - bottom - top


def frame_to_page(frame: Frame, paper_width: float, u: float, v: float) -> tuple[float, float]:
    """A frame point to page coordinates: a rotated frame is turned 90° anticlockwise."""
    return (paper_width - v, u) if frame.rotated else (u, v)


def plan_tiles(board_width: float, board_height: float, bleed: float, paper: Paper, settings: TilingSettings, overlap: float | None = None) -> TilePlan:
    """The tiling needing fewest pages (upright preferred on a tie)."""
    overlap = settings.overlap if overlap is None else overlap
    extent_w, extent_h = board_width + 2 * bleed, board_height + 2 * bleed
    best: tuple[int, bool, int, int] | None = None
    for rotated in (False, True):
        _, _, room_w, room_h = content_room(paper, settings, rotated)
        cols, rows = _count(extent_w, room_w, overlap), _count(extent_h, room_h, overlap)
        if cols is None or rows is None:
            continue
        if best is None or rows * cols < best[0]:
            best = (rows * cols, rotated, rows, cols)
    if best is None:
        message = f"paper {paper.name} leaves no room for board tiles with a {to_mm(overlap):.1f} mm overlap"
        raise SpecError([Problem(display_path(paper.source), 1, 1, message)])
    _, rotated, rows, cols = best
    left, bottom, room_w, room_h = content_room(paper, settings, rotated)
    frame = Frame(paper.height if rotated else paper.width, paper.width if rotated else paper.height, rotated)
    tile_w = extent_w if cols == 1 else (extent_w + (cols - 1) * overlap) / cols
    tile_h = extent_h if rows == 1 else (extent_h + (rows - 1) * overlap) / rows
    # Centre the content in the room, horizontally; hang it from the label strip.
    x = left + (room_w - tile_w) / 2
    y = bottom + room_h - tile_h
    tiles = []
    for row in range(rows):
        for col in range(cols):
            x0 = col * (tile_w - overlap)
            y1 = extent_h - row * (tile_h - overlap)
            region = (x0, y1 - tile_h, x0 + tile_w, y1)
            tiles.append(Tile(row, col, region, (x, y, x + tile_w, y + tile_h)))
    return TilePlan(board_width, board_height, bleed, overlap if rows * cols > 1 else 0.0, rows, cols, frame, tuple(tiles))


def mirror_plan(plan: TilePlan, flip: str) -> TilePlan:
    """The back side's plan for duplex: each tile's back shows the board's back behind it.

    flip is the page flip of the duplex mode, ``long`` or ``short`` edge. On an
    upright portrait page a long-edge flip mirrors left–right, so the board's back
    is its front turned over about a vertical axis; a short-edge flip mirrors
    top–bottom. On a rotated page the two swap. The back layout is drawn upright in
    the mirrored region, so the assembled back reads correctly.
    """
    horizontal = (flip == "long") != plan.frame.rotated  # mirror along the frame's x axis?
    extent_w, extent_h = plan.extent
    frame = plan.frame
    tiles = []
    for tile in plan.tiles:
        x0, y0, x1, y1 = tile.region
        cx0, cy0, cx1, cy1 = tile.content
        if horizontal:
            region = (extent_w - x1, y0, extent_w - x0, y1)
            content = (frame.width - cx1, cy0, frame.width - cx0, cy1)
        else:
            region = (x0, extent_h - y1, x1, extent_h - y0)
            content = (cx0, frame.height - cy1, cx1, frame.height - cy0)
        tiles.append(Tile(tile.row, tile.col, region, content))
    return TilePlan(plan.board_width, plan.board_height, plan.bleed, plan.overlap, plan.rows, plan.cols, frame, tuple(tiles))


@dataclass(frozen=True)
class Tick:
    """An alignment tick across a joint, board coordinates: a segment from start to end."""

    start: tuple[float, float]
    end: tuple[float, float]


def joint_ticks(plan: TilePlan, settings: TilingSettings) -> tuple[Tick, ...]:
    """Ticks across every joint: perpendicular to it, reaching from the covered tile onto the strip.

    A joint between columns c and c+1 lies at the left content edge of column c+1;
    its ticks run from ``tick_overhang`` left of the joint to the far side of the strip.
    """
    ticks: list[Tick] = []
    n = settings.ticks_per_edge
    for col in range(1, plan.cols):
        joint = plan.tile(0, col).region[0]
        for row in range(plan.rows):
            _, y0, _, y1 = plan.tile(row, col).region
            lo, hi = (y0 + (plan.overlap if row < plan.rows - 1 else 0.0), y1 - (plan.overlap if row > 0 else 0.0))
            for i in range(n):
                y = lo + (hi - lo) * (i + 1) / (n + 1)
                ticks.append(Tick((joint - settings.tick_overhang, y), (joint + plan.overlap, y)))
    for row in range(1, plan.rows):
        joint = plan.tile(row, 0).region[3]
        for col in range(plan.cols):
            x0, _, x1, _ = plan.tile(row, col).region
            lo, hi = (x0 + (plan.overlap if col > 0 else 0.0), x1 - (plan.overlap if col < plan.cols - 1 else 0.0))
            for i in range(n):
                x = lo + (hi - lo) * (i + 1) / (n + 1)
                ticks.append(Tick((x, joint + settings.tick_overhang), (x, joint - plan.overlap)))
    return tuple(ticks)


def clip_segment(tick: Tick, rect: Rect) -> Tick | None:
    """The part of an axis-aligned tick inside a rectangle, if any."""
    (ax, ay), (bx, by) = tick.start, tick.end
    x0, y0, x1, y1 = rect
    lo_x, hi_x = max(min(ax, bx), x0), min(max(ax, bx), x1)
    lo_y, hi_y = max(min(ay, by), y0), min(max(ay, by), y1)
    if lo_x > hi_x + EPSILON or lo_y > hi_y + EPSILON:
        return None
    if ay == by:
        return Tick((lo_x, ay), (hi_x, ay)) if hi_x - lo_x > EPSILON else None
    return Tick((ax, lo_y), (ax, hi_y)) if hi_y - lo_y > EPSILON else None
