"""Where each layout element sits on a studio picture, for the workbench's outlines, selection and dragging.

A box is placed as the drawing places it (``generator/draw/side.py``: the element's reference box, then its x, y,
width and height), on the page the picture was rasterised from, and given as fractions of the picture (left, top,
width, height) so the page can scale it to any size it shows the picture at. Lengths go out in millimetres.
"""

from __future__ import annotations

from typing import Any

from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import SideFrame, box_of, place
from punchboard.plumbing.units import POINTS_PER
from punchboard.spec.model import Element, Layout

from .edits import LENGTH_KEYS, TEXT_KEYS
from .pictures import Picture

MM = POINTS_PER["mm"]


def _fractions(rect: Rect, width: float, height: float) -> list[float]:
    return [round(rect.x / width, 5), round((height - rect.top) / height, 5),
            round(rect.width / width, 5), round(rect.height / height, 5)]


def _element_view(element: Element, frame: SideFrame, layout: Layout, page: tuple[float, float]) -> dict[str, Any] | None:
    """One element's box and editable values; None when its place depends on a card field."""
    try:
        ref = box_of(element, frame, layout)
        rect = place(element, ref) if element.type not in ("line", "polygon") else ref
    except (TypeError, ValueError):  # a length bound to a card field: placed per piece
        return None
    values: dict[str, Any] = {}
    offsets = {"x": rect.x - ref.x, "y": ref.top - rect.top, "width": rect.width, "height": rect.height}
    for key in LENGTH_KEYS:
        if key in element.props:
            values[key] = round(offsets[key] / MM, 2)
    for key in TEXT_KEYS:
        if isinstance(element.props.get(key), str):
            values[key] = element.props[key]
    return {
        "id": element.id, "type": element.type, "source": element.source,
        "box": _fractions(rect, *page), "ref": [round(ref.width / MM, 3), round(ref.height / MM, 3)],
        "values": values,
    }


def element_boxes(layout: Layout, picture: Picture) -> dict[str, Any]:
    """``elements`` (each element's box on ``picture``) and ``lines`` (trim, safe and bleed boxes), or nothing when
    the picture's trim is unknown."""
    if picture.trim is None or not picture.page[0] or not picture.page[1]:
        return {}
    width, height = picture.page
    x, top, w, h = picture.trim
    trim = Rect(x, height - top - h, w, h)
    frame = SideFrame(trim, x, top, Rect(0, 0, width, height))
    elements = [view for element in layout.elements
                if (view := _element_view(element, frame, layout, picture.page)) is not None]
    return {
        "elements": elements,
        "lines": {"trim": _fractions(trim, width, height), "safe": _fractions(trim.inset(layout.safe), width, height),
                  "bleed": [0, 0, 1, 1]},
        "size_mm": [round(width / MM, 3), round(height / MM, 3)],
    }
