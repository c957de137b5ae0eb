"""``thin_stroke``: lines and outlines thinner than 0.25 pt, which printers thin further or drop."""

from __future__ import annotations

from collections.abc import Iterator

from punchboard.generator.draw.side import colour

from punchboard.plumbing.units import to_mm

from .seen import Finding, SideSeen

THINNEST = 0.25  # points
DEFAULT_WIDTH = {"icon": 0.8}  # draw/side.py's defaults: 0.5 pt, icons' outlines 0.8 pt


def check(side: SideSeen) -> Iterator[Finding]:
    for drawn in side.drawn:
        props = drawn.element.props
        kind = drawn.element.type
        stroked = colour(props.get("stroke"), drawn.palette) is not None
        if kind == "line":
            stroked = stroked or colour(props.get("color", "#000000"), drawn.palette) is not None
        if not stroked or kind in ("text", "image") or props.get("opacity") == 0:
            continue
        width = float(props.get("stroke_width", DEFAULT_WIDTH.get(kind, 0.5)))
        if width >= THINNEST - 1e-9:
            continue
        what = "line" if kind == "line" else "outline"
        yield drawn.element, "thin_stroke", (
            f"{what} of element '{drawn.element.id}' is {width:g} pt ({to_mm(width):.2f} mm) wide: "
            f"below {THINNEST:g} pt it may print broken or not at all"
        )
