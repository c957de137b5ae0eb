"""Where each layout element sits on a studio picture, for the workbench's outlines, selection and dragging.

A box is placed as the drawing places it (``generator/draw/side.py``: the element's reference box, then its x, y,
width and height), on the page the picture was rasterised from, and given as fractions of the picture (left, top,
width, height) so the page can scale it to any size it shows the picture at. Lengths go out in millimetres.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.side import SideFrame, box_of, place
from punchboard.plumbing.units import POINTS_PER
from punchboard.spec.model import Element, Layout

from .edits import LENGTH_KEYS, TEXT_KEYS
from .pictures import Picture
from .provenance import Origins

MM = POINTS_PER["mm"]


def _fractions(rect: Rect, width: float, height: float) -> list[float]:
    return [round(rect.x / width, 7), round((height - rect.top) / height, 7),
            round(rect.width / width, 7), round(rect.height / height, 7)]  # to 0.0001 mm: a snap lands exactly


def _element_view(element: Element, frame: SideFrame, layout: Layout, page: tuple[float, float],
                  marks: Mapping[str, str], origins: Origins) -> dict[str, Any] | None:
    """One element's box, editable values and where each comes from (``from``, provenance.py); None when its place
    depends on a card field."""
    try:
        ref = box_of(element, frame, layout)
        rect = place(element, ref) if element.type not in ("line", "polygon") else ref
    except (TypeError, ValueError):  # a length bound to a card field: placed per piece
        return None
    values: dict[str, Any] = {}
    offsets = {"x": rect.x - ref.x, "y": ref.top - rect.top, "width": rect.width, "height": rect.height}
    for key in LENGTH_KEYS:
        if key in element.props:
            values[key] = round(offsets[key] / MM, 4)
    for key in TEXT_KEYS:
        if isinstance(element.props.get(key), str):
            values[key] = element.props[key]
    sources = origins.of(layout, element, (*LENGTH_KEYS, *TEXT_KEYS), marks)
    for key, origin in sources.items():
        if origin["kind"] == "default":
            values[key] = origin["value"]
    return {
        "id": element.id, "type": element.type, "source": element.source,
        "box": _fractions(rect, *page), "ref": [round(ref.width / MM, 5), round(ref.height / MM, 5)],
        "values": values, "from": {key: origin for key, origin in sources.items() if key in values},
    }


def element_boxes(layout: Layout, picture: Picture, marks: Mapping[str, str], origins: Origins) -> dict[str, Any]:
    """``elements`` (each element's box on ``picture``) and ``lines`` (trim, safe and bleed boxes), or nothing when
    the picture's trim is unknown; ``marks`` say where the piece's fields are written, ``origins`` where the
    layout's values are (one per rebuild)."""
    if picture.trim is None or not picture.page[0] or not picture.page[1]:
        return {}
    width, height = picture.page
    x, top, w, h = picture.trim
    trim = Rect(x, height - top - h, w, h)
    frame = SideFrame(trim, x, top, Rect(0, 0, width, height))
    elements = [view for element in layout.elements
                if (view := _element_view(element, frame, layout, picture.page, marks, origins)) is not None]
    return {
        "elements": elements,
        "lines": {"trim": _fractions(trim, width, height), "safe": _fractions(trim.inset(layout.safe), width, height),
                  "bleed": [0, 0, 1, 1]},
        "size_mm": [round(width / MM, 5), round(height / MM, 5)],
    }
