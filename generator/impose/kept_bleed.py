"""The bleed each piece on a sheet really keeps, measured on the sheet's own geometry.

A piece's art reaches its *art outline* (its cut outline offset by the bleed, cut
back to its slot where neighbours are near); art drawn later on the page covers
what it overlaps. The bleed a piece keeps is the least distance from its cut
outline to the edge of its art still showing — 0 when a neighbour's art reaches
over its cut line. Builds compare it with the declared bleed and say so, with the
figure, when a piece keeps less.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.outlines import Outline
from punchboard.generator.draw.side import SideFrame

MEASURE_SEGMENTS = 360  # chords per circle when measuring: within 0.002 mm of the true curve for pieces up to 60 mm
TOLERANCE = 0.005 * 72 / 25.4  # 0.005 mm: figures closer than this to the declared bleed count as kept


def kept_bleed(pieces: Sequence[tuple[Outline, Outline]]) -> list[float]:
    """For each (cut outline, art outline) in drawing order, the bleed it keeps in points."""
    from shapely import STRtree, unary_union  # loads numpy: only when measuring
    cuts = [cut.shape(MEASURE_SEGMENTS) for cut, _ in pieces]
    arts = [art.shape(MEASURE_SEGMENTS) for _, art in pieces]
    tree = STRtree(arts)
    kept = []
    for index, (cut, art) in enumerate(zip(cuts, arts, strict=True)):
        later = [arts[j] for j in sorted(int(j) for j in tree.query(art)) if j > index]
        visible = art.difference(unary_union(later)) if later else art
        if cut.difference(visible).area > 1e-6:
            kept.append(0.0)  # a neighbour's art reaches over this piece's cut line
        else:
            kept.append(float(visible.boundary.distance(cut.boundary)))
    return kept


def least_kept(pieces: Sequence[tuple[Outline, Outline]]) -> float | None:
    """The least bleed any of the pieces keeps (None for no pieces)."""
    kept = kept_bleed(pieces)
    return min(kept) if kept else None


def rect_bleed(frames: Sequence[SideFrame]) -> tuple[float, float]:
    """(left/right, top/bottom): the least bleed rectangular pieces keep on each axis, in points.

    Each piece's art reaches its clip rectangle, cut back where a neighbour's clip reaches
    towards it (neighbours' art never overlaps a piece's own trim on a planned sheet).
    """
    bx = by = math.inf
    clips = [(f.trim, f.clip if isinstance(f.clip, Rect) else f.bleed_rect) for f in frames]
    for trim, clip in clips:
        left, right = trim.x - clip.x, clip.right - trim.right
        bottom, top = trim.y - clip.y, clip.top - trim.top
        for other_trim, other in clips:
            if other_trim is trim:
                continue
            if other.y < trim.top and other.top > trim.y:  # beside it
                if other.right <= trim.x + 1e-6:
                    left = min(left, max(0.0, trim.x - other.right))
                elif other.x >= trim.right - 1e-6:
                    right = min(right, max(0.0, other.x - trim.right))
            if other.x < trim.right and other.right > trim.x:  # above or below it
                if other.top <= trim.y + 1e-6:
                    bottom = min(bottom, max(0.0, trim.y - other.top))
                elif other.y >= trim.top - 1e-6:
                    top = min(top, max(0.0, other.y - trim.top))
        bx, by = min(bx, left, right), min(by, bottom, top)
    return bx, by
