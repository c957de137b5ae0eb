"""``safe_zone``: text and key art that reach outside the safe zone, where a slightly off cut trims them.

Text is measured by its lines as drawn, not its box. Key art is an icon (but
not the ``frame`` icon, a border meant to run along the edge), or a picture that stays inside the trim (a picture reaching past the trim on any
edge is a background meant to bleed; one whose edge lies on the trim is art drawn to the edge, which ``trim_edge`` judges).
"""

from __future__ import annotations

from collections.abc import Iterator

from punchboard.generator.draw.geometry import Rect

from punchboard.spec.icons import ELEMENT_ONLY_ICONS

from .seen import Finding, SideSeen, angle, bounds, millimetres, placement, raster
from .trim_edge import TOLERANCE as TRIM_TOLERANCE

TOLERANCE = 0.05  # points
EDGE = TRIM_TOLERANCE  # a picture this near the trim on any edge is drawn to it: not key art
BORDERS = ELEMENT_ONLY_ICONS  # the frame icon is a border drawn along the edge, not key art


def _reach(inner: Rect, rect: Rect) -> float:
    """How far ``rect`` pokes out of ``inner`` at its worst edge (points; ≤ 0 when inside)."""
    return max(inner.x - rect.x, rect.right - inner.right, inner.y - rect.y, rect.top - inner.top)


def _shown(side: SideSeen, drawn_rect: Rect) -> Rect | None:
    """The part of ``drawn_rect`` inside the bleed (what is cut off the sheet cannot be cut badly)."""
    clip = side.frame.bleed_rect
    x, y = max(clip.x, drawn_rect.x), max(clip.y, drawn_rect.y)
    right, top = min(clip.right, drawn_rect.right), min(clip.top, drawn_rect.top)
    return Rect(x, y, right - x, top - y) if right > x and top > y else None


def check(side: SideSeen) -> Iterator[Finding]:
    trim, safe, margin = side.frame.trim, side.safe, side.layout.safe
    for drawn in side.drawn:
        kind = drawn.element.type
        if kind == "text":
            lines = side.ink(drawn)
            area, what = (lines, "text") if lines is not None and lines.width > 0 else (None, "")
        elif kind == "icon" and str(drawn.element.props.get("icon", "")).strip().lower() not in BORDERS:
            area, what = bounds(drawn.rect, angle(drawn), drawn.rect.center), "icon"
        elif kind == "image" and drawn.picture is not None:
            picture = raster(drawn.picture)
            spot = placement(drawn, picture) if picture is not None else None
            placed = drawn.rect if spot is None or spot.clip else Rect(spot.x, spot.y, spot.width, spot.height)
            area, what = bounds(placed, angle(drawn), drawn.rect.center), "picture"
            if _reach(trim, area) >= -EDGE:
                continue  # a background running into the bleed, or art drawn to the trim (trim_edge judges that)
        else:
            continue
        if area is None:
            continue
        area = _shown(side, area)
        if area is None or _reach(safe, area) <= TOLERANCE:
            continue
        past = _reach(trim, area)
        if past > TOLERANCE:
            where = f"runs {millimetres(past)} past the trim into the bleed"
        else:
            where = f"comes within {millimetres(max(0.0, margin - _reach(safe, area)))} of the trim"
        yield drawn.element, "safe_zone", (
            f"{what} of element '{drawn.element.id}' {where}, inside the {millimetres(margin)} safe margin: "
            "a cut slightly off may trim it"
        )
