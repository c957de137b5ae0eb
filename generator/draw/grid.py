"""A grid element: rows × cols of square or hex cells, each drawn from a small layout with its own fields.

:func:`cells` is the geometry (each cell's row and col from 1, its centre, its bounding rectangle and its outline,
the whole grid centred in its box); the caller (draw/side.py) draws each cell's outline (the grid's fill and
stroke, as a polygon or rect element) and then each of its ``cell`` elements in the cell's bounding rectangle,
with the piece's fields, the cell's ``{row}`` and ``{col}`` and the fields of its row in the grid's CSV.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from punchboard.spec.model import Element, frozen_map

from .geometry import Rect
from .repeat import PAINT, DrawChild

SQRT3 = math.sqrt(3.0)


class Cell(NamedTuple):
    """One cell of a grid: where it is in the grid (from 1) and on the page."""

    row: int
    col: int
    centre: tuple[float, float]
    bounds: Rect
    outline: tuple[tuple[float, float], ...]  # corners, clockwise from the top (pointy) or the right (flat)


def _hex(centre: tuple[float, float], radius: float, pointy: bool) -> tuple[tuple[float, float], ...]:
    cx, cy = centre
    angles = (90, 30, -30, -90, -150, 150) if pointy else (0, -60, -120, 180, 120, 60)
    return tuple((cx + radius * math.cos(math.radians(a)), cy + radius * math.sin(math.radians(a))) for a in angles)


def cells(box: Rect, props: Mapping[str, Any]) -> list[Cell]:
    """Every cell of the grid ``props`` describes, row by row, centred in ``box``."""
    rows, cols = int(props["rows"]), int(props["cols"])
    size = props.get("cell_size")
    if props.get("shape", "square") != "hex":
        side = float(size) if size else min(box.width / cols, box.height / rows)
        x0, top0 = box.x + (box.width - cols * side) / 2, box.top - (box.height - rows * side) / 2
        found = []
        for row in range(1, rows + 1):
            for col in range(1, cols + 1):
                rect = Rect(x0 + (col - 1) * side, top0 - row * side, side, side)
                corners = ((rect.x, rect.top), (rect.right, rect.top), (rect.right, rect.y), (rect.x, rect.y))
                found.append(Cell(row, col, rect.center, rect, corners))
        return found
    pointy = props.get("orientation", "pointy") != "flat"
    return _hex_cells(box, rows, cols, float(size) if size else None, pointy)


def _hex_cells(box: Rect, rows: int, cols: int, across: float | None, pointy: bool) -> list[Cell]:
    """Hexes ``across`` their flat sides apart (None: the largest that fit); pointy: every 2nd row shifted right by
    half a hex; flat: every 2nd column shifted down by half a hex."""
    if pointy:  # width across (flat to flat), height 2R, rows 1.5R apart
        fit = min(box.width / (cols + (0.5 if rows > 1 else 0.0)), box.height * SQRT3 / (2 + 1.5 * (rows - 1)))
        flat = across or fit
        radius = flat / SQRT3
        width, height = cols * flat + (flat / 2 if rows > 1 else 0.0), 2 * radius + 1.5 * radius * (rows - 1)
    else:  # height across (flat to flat), width 2R, columns 1.5R apart
        fit = min(box.height / (rows + (0.5 if cols > 1 else 0.0)), box.width * SQRT3 / (2 + 1.5 * (cols - 1)))
        flat = across or fit
        radius = flat / SQRT3
        width, height = 2 * radius + 1.5 * radius * (cols - 1), rows * flat + (flat / 2 if cols > 1 else 0.0)
    x0, top0 = box.x + (box.width - width) / 2, box.top - (box.height - height) / 2
    found = []
    for row in range(1, rows + 1):
        for col in range(1, cols + 1):
            if pointy:
                cx = x0 + flat / 2 + (col - 1) * flat + (flat / 2 if row % 2 == 0 else 0.0)
                cy = top0 - radius - (row - 1) * 1.5 * radius
                bounds = Rect(cx - flat / 2, cy - radius, flat, 2 * radius)
            else:
                cx = x0 + radius + (col - 1) * 1.5 * radius
                cy = top0 - flat / 2 - (row - 1) * flat - (flat / 2 if col % 2 == 0 else 0.0)
                bounds = Rect(cx - radius, cy - flat / 2, 2 * radius, flat)
            found.append(Cell(row, col, (cx, cy), bounds, _hex((cx, cy), radius, pointy)))
    return found


def outline_element(element: Element, cell: Cell) -> Element | None:
    """The cell's outline as an element of its own (a polygon whose points are measured from the cell's bounding
    box, top-left, downwards), painted with the grid's fill and stroke; None when the grid paints none."""
    paint = {key: element.props[key] for key in PAINT if key in element.props}
    if "fill" not in paint and "stroke" not in paint:
        return None
    box = cell.bounds
    points = tuple((px - box.x, box.top - py) for px, py in cell.outline)
    return Element("polygon", f"{element.id}.cell", frozen_map({**paint, "points": points}), element.source)


def draw(element: Element, box: Rect, fields: Mapping[str, Any], child: DrawChild) -> None:
    """Draw the grid ``element`` (its props as written) placed in ``box``: each cell's outline, then its elements."""
    props = element.props
    table: Mapping[tuple[int, int], tuple[Mapping[str, str], Mapping[str, str]]] = props.get("csv_cells") or {}
    items = [item for item in props.get("cell", ()) if isinstance(item, Element)]
    for cell in cells(box, props):
        found = table.get((cell.row, cell.col))
        own = {**fields, **(found[0] if found else {}), "row": cell.row, "col": cell.col}
        shape = outline_element(element, cell)
        if shape is not None:
            child(shape, cell.bounds, own)
        for item in items:
            child(item, cell.bounds, own)
