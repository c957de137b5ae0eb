"""A repeat element: its child drawn N times, along a line or around the edge of its box (a score track).

The geometry is here (:func:`line_cells`, :func:`edge_cells`: the rectangle of each item, in order); the child is
drawn by the caller (draw/side.py) as an element of its own in each cell, with the item's fields ``{index}`` (1, 2,
…) and ``{number}`` (first, first + step, …), so text fitting, icons, pictures and the preflight treat every item as
the element it is. The repeat's own fill and stroke draw each cell as a rectangle first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from punchboard.spec.model import Element, frozen_map
from punchboard.spec.repeats import bound_count, problem

from .geometry import Rect

DrawChild = Callable[[Element, Rect, Mapping[str, Any]], None]  # an element drawn in a cell with the cell's fields
PAINT = ("fill", "stroke", "stroke_width", "dash", "opacity")
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")  # clockwise


def line_cells(box: Rect, count: int, props: Mapping[str, Any]) -> list[Rect]:
    """``count`` items in a row (``direction``) in ``box``: ``spacing`` apart, or fitted ``gap`` apart and closer
    when the row would not fit, the row placed by ``align`` (``valign`` for a column)."""
    across_x = props.get("direction", "right") in ("right", "left")
    length, across = (box.width, box.height) if across_x else (box.height, box.width)
    size = float(props.get("cell_size") or across)
    spacing = props.get("spacing")
    step = float(spacing) if spacing is not None else size + float(props.get("gap", 0.0))
    if spacing is None and count > 1 and (count - 1) * step + size > length:
        step = max(0.0, (length - size) / (count - 1))
    total = (count - 1) * step + size if count else 0.0
    where = props.get("align", "left") if across_x else {"top": "left", "middle": "center", "bottom": "right"}.get(
        props.get("valign", "top"), "left")
    offset = {"center": (length - total) / 2, "right": length - total}.get(where, 0.0)
    backwards = props.get("direction", "right") in ("left", "up")
    cells = []
    for index in range(count):
        along = offset + (total - size - index * step if backwards else index * step)  # from the box's left or top
        if across_x:
            cells.append(Rect(box.x + along, box.y, size, box.height))
        else:
            cells.append(Rect(box.x, box.top - along - size, box.width, size))
    return cells


def _shares(count: int, lengths: list[float]) -> list[int]:
    """``count`` cells shared among edges of ``lengths`` in proportion (largest remainder, ties to the earlier)."""
    total = sum(lengths) or 1.0
    exact = [count * length / total for length in lengths]
    shares = [int(value) for value in exact]
    order = sorted(range(len(lengths)), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in order[: count - sum(shares)]:
        shares[i] += 1
    return shares


def edge_cells(box: Rect, count: int, props: Mapping[str, Any]) -> list[Rect]:
    """``count`` cells around the edge of ``box``, clockwise from the ``start`` corner: a square cell in each corner
    (the track's depth, ``cell_size``) and the rest shared among the four sides in proportion to their lengths."""
    width, height = box.width, box.height
    depth = float(props.get("cell_size") or 2 * (width + height) / (count + 4))
    depth = min(depth, width / 2, height / 2)
    x, y, right, top = box.x, box.y, box.right, box.top
    corners = [Rect(x, top - depth, depth, depth), Rect(right - depth, top - depth, depth, depth),
               Rect(right - depth, y, depth, depth), Rect(x, y, depth, depth)]
    across, down = width - 2 * depth, height - 2 * depth
    shares = _shares(max(0, count - 4), [across, down, across, down])

    def side(edge: int, k: int) -> list[Rect]:
        if k == 0:
            return []
        if edge == 0:  # top, left to right
            return [Rect(x + depth + m * across / k, top - depth, across / k, depth) for m in range(k)]
        if edge == 1:  # right, downwards
            return [Rect(right - depth, top - depth - (m + 1) * down / k, depth, down / k) for m in range(k)]
        if edge == 2:  # bottom, right to left
            return [Rect(right - depth - (m + 1) * across / k, y, across / k, depth) for m in range(k)]
        return [Rect(x, y + depth + m * down / k, depth, down / k) for m in range(k)]  # left, upwards

    first = CORNERS.index(props.get("start", "top-left"))
    cells: list[Rect] = []
    for turn in range(4):
        edge = (first + turn) % 4
        cells.append(corners[edge])
        cells.extend(side(edge, shares[edge]))
    return cells[:count]


def item_fields(fields: Mapping[str, Any], index: int, props: Mapping[str, Any]) -> dict[str, Any]:
    """The fields an item's child is drawn with: the piece's, and its ``index`` (from 1) and ``number``."""
    number = props.get("first", 1) + index * props.get("step", 1)
    return {**fields, "index": index + 1, "number": number}


def draw(element: Element, box: Rect, fields: Mapping[str, Any], child: DrawChild, warn: Callable[[str], None]) -> None:
    """Draw the repeat ``element`` (its props as written) placed in ``box``: its cells (fill, stroke), then its child
    in each; a count a field makes bad (check reports it) draws nothing and warns."""
    props = element.props
    count = bound_count(props.get("count", 0), fields)
    if count is None:
        warn(f"count of '{element.id}': {problem(str(props.get('count')))}; nothing drawn")
        return
    cells = (edge_cells if props.get("along") == "edge" else line_cells)(box, count, props)
    paint = {key: props[key] for key in PAINT if key in props}
    shape = Element("rect", f"{element.id}.cell", frozen_map(paint), element.source) if paint else None
    item = props.get("child")
    for index, cell in enumerate(cells):
        own = item_fields(fields, index, props)
        if shape is not None:
            child(shape, cell, own)
        if isinstance(item, Element):
            child(item, cell, own)
