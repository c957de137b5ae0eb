"""Deterministic packing of rectangles (tiles, polyomino bounding boxes, sheets) onto pages.

Shelves first: items tallest first, left to right, in rows from the top. When that takes more
than one page, rectpack's MaxRects (best short side fit, turning items when ``turn`` allows) packs
the same items again, and the fewer pages win (STEAMARK's 18 rides: two Letter pages on shelves,
one with MaxRects). Both are deterministic: the same sizes give the same placements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

EPSILON = 1e-6


@dataclass(frozen=True)
class Placement:
    item: int  # index into the packed sizes
    x: float  # lower-left corner of the placed (possibly turned) box, page coordinates
    y: float
    width: float  # as placed: width and height swap when turned
    height: float
    turned: bool  # turned 90° anticlockwise


def _fits(width: float, height: float, room_w: float, room_h: float) -> bool:
    return width <= room_w + EPSILON and height <= room_h + EPSILON


def pack(
    sizes: Sequence[tuple[float, float]], room: tuple[float, float, float, float], gap: float, turn: bool = True, prefer_flat: bool = True
) -> list[list[Placement]]:
    """Pages of placements filling ``room`` (x, y, width, height) from the top-left, ``gap`` apart:
    shelves (:func:`shelf_pack`), or MaxRects (:func:`maxrects_pack`) when that takes fewer pages.
    Raises ValueError naming the first item that fits in no orientation."""
    shelves = shelf_pack(sizes, room, gap, turn, prefer_flat)
    if len(shelves) > 1:
        dense = maxrects_pack(sizes, room, gap, turn)
        if len(dense) < len(shelves):
            return dense
    return shelves


UNIT = 1000  # rectpack packs whole numbers: thousandths of a point


def maxrects_pack(sizes: Sequence[tuple[float, float]], room: tuple[float, float, float, float], gap: float, turn: bool) -> list[list[Placement]]:
    """Pages of placements by rectpack's MaxRects (best short side fit), biggest items first; each
    page's placements in reading order (top to bottom, left to right). Every item must fit the room."""
    from rectpack import SORT_AREA, MaxRectsBssf, PackingBin, PackingMode, newPacker

    rx, ry, rw, rh = room
    packer = newPacker(mode=PackingMode.Offline, bin_algo=PackingBin.BFF, pack_algo=MaxRectsBssf, sort_algo=SORT_AREA, rotation=turn)
    for index, (w, h) in enumerate(sizes):  # each item with a gap's room on two sides; the room grows by one gap
        packer.add_rect(round((w + gap) * UNIT), round((h + gap) * UNIT), rid=index)
    packer.add_bin(round((rw + gap) * UNIT), round((rh + gap) * UNIT), count=len(sizes))
    packer.pack()
    pages: list[list[Placement]] = []
    for bin_ in packer:
        page = []
        for rect in bin_:
            w, h = sizes[rect.rid]
            turned = rect.width != round((w + gap) * UNIT)
            placed_w, placed_h = (h, w) if turned else (w, h)
            # rectpack's y grows up from the bin's bottom, the gap above and right of each item: mirror it so
            # pages fill from the top, as shelves do
            page.append(Placement(rect.rid, rx + rect.x / UNIT, ry + rh - rect.y / UNIT - placed_h, placed_w, placed_h, turned))
        pages.append(sorted(page, key=lambda p: (-round(p.y + p.height, 3), round(p.x, 3))))
    if sum(len(page) for page in pages) != len(sizes):
        return [[]] * (len(sizes) + 1)  # not everything placed: never chosen over the shelves
    return pages


def shelf_pack(
    sizes: Sequence[tuple[float, float]], room: tuple[float, float, float, float], gap: float, turn: bool = True, prefer_flat: bool = True
) -> list[list[Placement]]:
    """Shelves: items turned to lie flat (wider than tall) when ``turn`` and ``prefer_flat``
    allow and that still fits, or when only turned they fit; then sorted tallest first, and
    placed left to right on shelves ``gap`` apart, from the top of ``room``."""
    rx, ry, rw, rh = room
    oriented: list[tuple[float, float, bool, int]] = []
    for index, (w, h) in enumerate(sizes):
        flat = turn and prefer_flat and h > w + EPSILON and _fits(h, w, rw, rh)
        if _fits(w, h, rw, rh) or flat:
            oriented.append((h, w, True, index) if flat else (w, h, False, index))
        elif turn and _fits(h, w, rw, rh):
            oriented.append((h, w, True, index))
        else:
            raise ValueError(f"item {index} ({w:.1f} × {h:.1f} pt) does not fit in {rw:.1f} × {rh:.1f} pt")
    order = sorted(oriented, key=lambda o: (-round(o[1], 3), -round(o[0], 3), o[3]))
    pages: list[list[Placement]] = []
    page: list[Placement] = []
    cursor_x, shelf_top, shelf_height = 0.0, 0.0, 0.0
    for w, h, turned, index in order:
        if page and cursor_x + w > rw + EPSILON:
            shelf_top += shelf_height + gap
            cursor_x, shelf_height = 0.0, 0.0
        if page and shelf_top + h > rh + EPSILON:
            pages.append(page)
            page, cursor_x, shelf_top, shelf_height = [], 0.0, 0.0, 0.0
        page.append(Placement(index, rx + cursor_x, ry + rh - shelf_top - h, w, h, turned))
        cursor_x += w + gap
        shelf_height = max(shelf_height, h)
    if page:
        pages.append(page)
    return pages
