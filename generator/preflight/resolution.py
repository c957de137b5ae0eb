"""``low_dpi``: a raster picture printed below 300 dots per inch at the size it is placed (below 150: blurry)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from .seen import Finding, SideSeen, millimetres, placement, raster

SHARP = 300.0  # what print shops ask for
BLURRY = 150.0  # below this, softness shows at arm's length


def check(side: SideSeen) -> Iterator[Finding]:
    for drawn in side.drawn:
        picture = raster(drawn.picture)
        if picture is None or drawn.picture is None:
            continue
        spot = placement(drawn, picture)
        if spot.width <= 0 or spot.height <= 0:
            continue
        dpi = min(picture.width / (spot.width / 72), picture.height / (spot.height / 72))
        if dpi >= SHARP - 0.5:
            continue
        wanted = f"{math.ceil(spot.width / 72 * SHARP)} × {math.ceil(spot.height / 72 * SHARP)} px"
        how = (f"below {BLURRY:g} dpi it prints visibly blurry" if dpi < BLURRY
               else f"below the {SHARP:g} dpi print shops ask for")
        yield drawn.element, "low_dpi", (
            f"image '{drawn.picture.name}' of element '{drawn.element.id}' prints at {dpi:.0f} dpi "
            f"({picture.width} × {picture.height} px over {millimetres(spot.width)} × {millimetres(spot.height)}): "
            f"{how}; {wanted} would make {SHARP:g} dpi"
        )
