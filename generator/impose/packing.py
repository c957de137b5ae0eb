"""Deterministic shelf packing of rectangles (tiles, polyomino bounding boxes, sheets) onto pages."""

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
    """Pages of placements filling ``room`` (x, y, width, height) from the top-left.

    Items are turned to lie flat (wider than tall) when ``turn`` and
    ``prefer_flat`` allow and that still fits, or when only turned they fit; then
    sorted tallest first, and placed on shelves ``gap`` apart.
    Raises ValueError naming the first item that fits in no orientation.
    """
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
