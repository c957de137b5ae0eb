"""The bleed measurement (impose/kept_bleed.py) on hand-computed layouts (issue #38 item 6: 12 of 15 hand-made
mutants of the rectangle check survived the build-level tests).

Every rectangle case is also checked mirrored left-to-right, mirrored top-to-bottom and transposed (x and y
swapped, so the expected pair swaps too): each figure is then worked out once and checked on all four edges.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.outlines import Outline
from punchboard.generator.draw.side import SideFrame
from punchboard.generator.impose.kept_bleed import (
    MEASURE_SEGMENTS,
    TOLERANCE,
    kept_bleed,
    least_kept,
    rect_bleed,
)

Box = tuple[float, float, float, float]  # x, y, width, height
EPS = 1e-9  # a float-sized slip, as positions worked out by different sums have


def frame(trim: Box, left: float, right: float, bottom: float, top: float) -> SideFrame:
    """A side whose art reaches ``left``/``right``/``bottom``/``top`` past its trim (its clip rectangle)."""
    x, y, w, h = trim
    clip = Rect(x - left, y - bottom, w + left + right, h + bottom + top)
    return SideFrame(Rect(x, y, w, h), max(left, right), max(bottom, top), clip)


def _mirror_x(r: Rect) -> Rect:
    return Rect(-r.x - r.width, r.y, r.width, r.height)


def _mirror_y(r: Rect) -> Rect:
    return Rect(r.x, -r.y - r.height, r.width, r.height)


def _transpose(r: Rect) -> Rect:
    return Rect(r.y, r.x, r.height, r.width)


def _moved(frames: list[SideFrame], move: Callable[[Rect], Rect], swap: bool) -> list[SideFrame]:
    out = []
    for f in frames:
        clip = move(f.clip) if isinstance(f.clip, Rect) else f.clip
        bx, by = (f.bleed_y, f.bleed_x) if swap else (f.bleed_x, f.bleed_y)
        out.append(SideFrame(move(f.trim), bx, by, clip))
    return out


def assert_rect_bleed(frames: list[SideFrame], expected: tuple[float, float]) -> None:
    """rect_bleed gives ``expected`` for ``frames`` and for them mirrored both ways and transposed."""
    assert rect_bleed(frames) == expected
    assert rect_bleed(_moved(frames, _mirror_x, False)) == expected
    assert rect_bleed(_moved(frames, _mirror_y, False)) == expected
    assert rect_bleed(_moved(frames, _transpose, True)) == (expected[1], expected[0])


A = (0.0, 0.0, 50.0, 80.0)


@pytest.mark.parametrize(("sides", "expected"), [
    ((2.0, 5.0, 3.0, 6.0), (2.0, 3.0)),  # left and bottom the least
    ((5.0, 2.0, 6.0, 3.0), (2.0, 3.0)),  # right and top
    ((1.5, 1.5, 0.5, 4.0), (1.5, 0.5)),
    ((0.0, 3.0, 3.0, 0.0), (0.0, 0.0)),  # a shared cut line on the left and the top
])
def test_a_lone_piece_keeps_its_clip(sides: tuple[float, float, float, float], expected: tuple[float, float]) -> None:
    assert_rect_bleed([frame((10.0, 20.0, 50.0, 80.0), *sides)], expected)


def test_a_piece_without_a_clip_rectangle_keeps_its_bleed_rectangle() -> None:
    alone = SideFrame(Rect(10.0, 20.0, 50.0, 80.0), 2.0, 5.0, None)
    assert rect_bleed([alone]) == (2.0, 5.0)
    assert rect_bleed([]) == (float("inf"), float("inf"))


def test_neighbours_closer_than_two_bleeds_cut_each_other_back() -> None:
    # B's trim 4 from A's: B's art starts 1 past A's cut, and A's art ends 1 before B's
    pair = [frame(A, 3, 3, 3, 3), frame((54.0, 0.0, 50.0, 80.0), 3, 3, 3, 3)]
    assert_rect_bleed(pair, (1.0, 3.0))
    far = [frame(A, 3, 3, 3, 3), frame((60.0, 0.0, 50.0, 80.0), 3, 3, 3, 3)]  # 10 apart: both keep 3
    assert_rect_bleed(far, (3.0, 3.0))


def test_a_neighbours_art_on_the_cut_line_leaves_none() -> None:
    # B touches A's cut line with no bleed of its own there, and A's art reaches 3 under it
    assert_rect_bleed([frame(A, 3, 3, 3, 3), frame((50.0, 0.0, 50.0, 80.0), 0, 3, 3, 3)], (0.0, 3.0))


def test_a_float_slip_over_the_cut_line_counts_as_touching() -> None:
    # B's art starts a rounding error inside A's trim: A keeps nothing on that side, not its 3
    slip = [frame(A, 3, 3, 3, 3), frame((50.0, 0.0, 50.0, 80.0), EPS, 3, 3, 3)]
    assert_rect_bleed(slip, (0.0, 3.0))
    # and A's art ends a rounding error past B's trim: B keeps nothing there either
    both = [frame(A, 3, EPS, 3, 3), frame((50.0, 0.0, 50.0, 80.0), 3, 3, 3, 3)]
    assert_rect_bleed(both, (0.0, 3.0))


def test_a_diagonal_neighbour_cuts_nothing_back() -> None:
    # C's art starts 1 right of A's cut and exactly at A's top: beside neither A's side nor above it
    diagonal = [frame(A, 3, 3, 3, 3), frame((54.0, 83.0, 50.0, 80.0), 3, 3, 3, 3)]
    assert_rect_bleed(diagonal, (3.0, 3.0))


def test_a_row_of_three_keeps_the_least_of_every_gap() -> None:
    # gaps 5 (A–B: 2 each side) and 4 (B–C: 1 each side)
    row = [frame(A, 3, 3, 3, 3), frame((55.0, 0.0, 50.0, 80.0), 3, 3, 3, 3), frame((109.0, 0.0, 50.0, 80.0), 3, 3, 3, 3)]
    assert_rect_bleed(row, (1.0, 3.0))
    assert_rect_bleed(row[:2], (2.0, 3.0))


# --- any outline, measured with shapely (tokens, cut shapes) ---------------------------------------------

def square(x: float, y: float, size: float) -> Outline:
    ring = ((x, y), (x + size, y), (x + size, y + size), (x, y + size))
    return Outline("polygon", (x, y, size, size), rings=(ring,))


def piece(x: float, y: float, size: float = 10.0, bleed: float = 3.0) -> tuple[Outline, Outline]:
    """A square cut outline and its art: the square ``bleed`` bigger on every side (sharp corners)."""
    return square(x, y, size), square(x - bleed, y - bleed, size + 2 * bleed)


def test_a_lone_piece_keeps_its_whole_bleed() -> None:
    assert kept_bleed([piece(0, 0)]) == [pytest.approx(3.0, abs=1e-9)]
    assert least_kept([piece(0, 0, bleed=1.25)]) == pytest.approx(1.25, abs=1e-9)
    assert least_kept([]) is None


def test_art_drawn_later_covers_what_it_overlaps() -> None:
    # B's art (from x = 11) is drawn after A's, whose art ends at 13: A keeps 1, B all of its 3
    assert kept_bleed([piece(0, 0), piece(14, 0)]) == [pytest.approx(1.0, abs=1e-9), pytest.approx(3.0, abs=1e-9)]
    # drawn the other way round, B is covered on its left: 14 − 13 = 1
    assert kept_bleed([piece(14, 0), piece(0, 0)]) == [pytest.approx(1.0, abs=1e-9), pytest.approx(3.0, abs=1e-9)]
    assert least_kept([piece(0, 0), piece(14, 0), piece(0, 30)]) == pytest.approx(1.0, abs=1e-9)
    assert least_kept([piece(0, 0), piece(0, 30)]) == pytest.approx(3.0, abs=1e-9)


def test_art_over_a_cut_line_keeps_nothing() -> None:
    # B's art starts at x = 9, over A's cut line at 10
    assert kept_bleed([piece(0, 0), piece(12, 0)]) == [0.0, pytest.approx(3.0, abs=1e-9)]
    assert least_kept([piece(0, 0), piece(12, 0)]) == 0.0


def test_a_circle_is_measured_within_a_thousandth_of_a_millimetre() -> None:
    cut, art = Outline("ellipse", (0.0, 0.0, 60.0, 60.0)), Outline("ellipse", (-3.0, -3.0, 66.0, 66.0))
    assert MEASURE_SEGMENTS >= 360
    assert kept_bleed([(cut, art)])[0] == pytest.approx(3.0, abs=0.002 * 72 / 25.4)


def test_the_tolerance_is_five_thousandths_of_a_millimetre() -> None:
    assert TOLERANCE == pytest.approx(0.005 * 72 / 25.4, rel=1e-12)
