"""Geometry of board tiling, cut outlines and packing (the PDF read-back tests live in test_generator_components.py)."""

from __future__ import annotations

import math

import pytest
from punchboard.generator.draw.outlines import (
    gear,
    polyomino_outline,
    polyomino_rings,
    regular_hexagon,
    ring_area,
    token_outline,
)
from punchboard.generator.impose.board_tiling import (
    clip_segment,
    content_room,
    frame_to_page,
    joint_ticks,
    load_settings,
    mirror_plan,
    plan_tiles,
    tile_label,
)
from punchboard.generator.impose.packing import pack

from punchboard.plumbing.units import mm, to_mm
from punchboard.spec.loader import load_paper
from punchboard.spec.model import TokenShape

TOLERANCE_MM = 0.2


def covered_span(starts_ends: list[tuple[float, float]]) -> float:
    lo = min(s for s, _ in starts_ends)
    hi = max(e for _, e in starts_ends)
    return hi - lo


@pytest.mark.parametrize("paper_name", ["letter", "a4", "a3", "tabloid"])
def test_playmat_tiles_cover_the_board_with_the_overlap(paper_name: str) -> None:
    settings = load_settings()
    paper = load_paper(paper_name)
    plan = plan_tiles(mm(480), mm(320), mm(3), paper, settings)
    extent_w, extent_h = plan.extent
    assert plan.rows * plan.cols == len(plan.tiles) > 1
    for tile in plan.tiles:
        x0, y0, x1, y1 = tile.region
        cx0, cy0, cx1, cy1 = tile.content
        assert (x1 - x0, y1 - y0) == pytest.approx((cx1 - cx0, cy1 - cy0))
        left, bottom, room_w, room_h = content_room(paper, settings, plan.frame.rotated)
        assert cx0 >= left - 1e-6 and cy0 >= bottom - 1e-6
        assert cx1 <= left + room_w + 1e-6 and cy1 <= bottom + room_h + 1e-6
        if tile.col + 1 < plan.cols:
            right = plan.tile(tile.row, tile.col + 1)
            assert to_mm(x1 - right.region[0]) == pytest.approx(12, abs=1e-6)
        if tile.row + 1 < plan.rows:
            below = plan.tile(tile.row + 1, tile.col)
            assert to_mm(below.region[3] - y0) == pytest.approx(12, abs=1e-6)
    # Assembled: the tiles' own widths minus the overlaps give the board with its bleed.
    widths = [t.region[2] - t.region[0] for t in plan.tiles if t.row == 0]
    heights = [t.region[3] - t.region[1] for t in plan.tiles if t.col == 0]
    assembled_w = sum(widths) - (plan.cols - 1) * plan.overlap - 2 * plan.bleed
    assembled_h = sum(heights) - (plan.rows - 1) * plan.overlap - 2 * plan.bleed
    assert abs(to_mm(assembled_w) - 480) < TOLERANCE_MM
    assert abs(to_mm(assembled_h) - 320) < TOLERANCE_MM
    assert covered_span([(t.region[0], t.region[2]) for t in plan.tiles]) == pytest.approx(extent_w)
    assert covered_span([(t.region[1], t.region[3]) for t in plan.tiles]) == pytest.approx(extent_h)


def test_orientation_needing_fewest_pages_is_chosen() -> None:
    plan = plan_tiles(mm(480), mm(320), mm(3), load_paper("letter"), load_settings())
    # Upright letter needs 3 × 2 tiles; turned, 2 × 2.
    assert (plan.rows, plan.cols, plan.frame.rotated) == (2, 2, True)
    assert [t.label for t in plan.tiles] == ["A1", "A2", "B1", "B2"]


def test_a_board_that_fits_prints_on_one_sheet() -> None:
    plan = plan_tiles(mm(180), mm(120), mm(3), load_paper("letter"), load_settings())
    assert len(plan.tiles) == 1 and plan.overlap == 0
    assert plan.tiles[0].region == pytest.approx((0, 0, mm(186), mm(126)))


def test_overlap_can_be_overridden() -> None:
    plan = plan_tiles(mm(480), mm(320), mm(3), load_paper("letter"), load_settings(), overlap=mm(15))
    a1, a2 = plan.tile(0, 0), plan.tile(0, 1)
    assert to_mm(a1.region[2] - a2.region[0]) == pytest.approx(15)


def test_tile_labels_letter_rows_number_columns() -> None:
    assert [tile_label(0, 0), tile_label(1, 2), tile_label(25, 0), tile_label(26, 3)] == ["A1", "B3", "Z1", "AA4"]


def test_rotated_frame_maps_to_a_portrait_page() -> None:
    paper = load_paper("letter")
    plan = plan_tiles(mm(480), mm(320), mm(3), paper, load_settings())
    for tile in plan.tiles:
        for u, v in ((tile.content[0], tile.content[1]), (tile.content[2], tile.content[3])):
            x, y = frame_to_page(plan.frame, paper.width, u, v)
            assert paper.margin <= x <= paper.width - paper.margin
            assert paper.margin <= y <= paper.height - paper.margin


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("paper_name", ["letter", "a3"])
def test_duplex_backs_sit_behind_their_fronts(flip: str, paper_name: str) -> None:
    paper = load_paper(paper_name)
    plan = plan_tiles(mm(480), mm(320), mm(3), paper, load_settings())
    back = mirror_plan(plan, flip)
    extent_w, extent_h = plan.extent
    for front_tile, back_tile in zip(plan.tiles, back.tiles, strict=True):
        # A point of the front tile, through the paper, lands on the back page here:
        u, v = front_tile.content[0] + 5, front_tile.content[1] + 7
        x, y = frame_to_page(plan.frame, paper.width, u, v)
        back_x, back_y = (paper.width - x, y) if flip == "long" else (x, paper.height - y)
        # … and the back tile must show the board's back at the mirrored board point there.
        bu, bv = (back_y, paper.width - back_x) if plan.frame.rotated else (back_x, back_y)
        assert back_tile.content[0] <= bu <= back_tile.content[2]
        assert back_tile.content[1] <= bv <= back_tile.content[3]
        board_x, board_y = u - front_tile.content[0] + front_tile.region[0], v - front_tile.content[1] + front_tile.region[1]
        back_board = (bu - back_tile.content[0] + back_tile.region[0], bv - back_tile.content[1] + back_tile.region[1])
        turned_over_vertical = (extent_w - board_x, board_y)
        turned_over_horizontal = (board_x, extent_h - board_y)
        expected = turned_over_vertical if (flip == "long") != plan.frame.rotated else turned_over_horizontal
        assert back_board == pytest.approx(expected)


def test_joint_ticks_cross_each_joint_onto_both_tiles() -> None:
    settings = load_settings()
    plan = plan_tiles(mm(480), mm(320), mm(3), load_paper("letter"), settings)
    ticks = joint_ticks(plan, settings)
    joints = (plan.rows * (plan.cols - 1) + plan.cols * (plan.rows - 1)) * settings.ticks_per_edge
    assert len(ticks) == joints
    for tick in ticks:
        pieces = [clip_segment(tick, t.region) for t in plan.tiles]
        seen_on = [p for p in pieces if p is not None]
        assert len(seen_on) >= 2  # the covered tile and the one laid over the strip


def test_clip_segment() -> None:
    from punchboard.generator.impose.board_tiling import Tick

    tick = Tick((0.0, 5.0), (10.0, 5.0))
    assert clip_segment(tick, (4.0, 0.0, 20.0, 20.0)) == Tick((4.0, 5.0), (10.0, 5.0))
    assert clip_segment(tick, (11.0, 0.0, 20.0, 20.0)) is None


# ---------------------------------------------------------------- outlines


def test_polyomino_l_shape_is_one_ring_without_collinear_points() -> None:
    rings = polyomino_rings([(0, 0), (1, 0), (2, 0), (2, 1)])  # an L of three cells and a foot
    assert len(rings) == 1
    assert len(rings[0]) == 6
    assert ring_area(rings[0]) == 4


def test_polyomino_ring_with_hole() -> None:
    donut = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    rings = polyomino_rings(donut)
    assert sorted(ring_area(r) for r in rings) == [-1, 9]


def test_polyomino_outline_is_scaled_to_the_cell() -> None:
    outline = polyomino_outline([(0, 0), (0, 1)], mm(20), 100.0, 50.0)
    (ring,) = outline.rings
    xs, ys = {p[0] for p in ring}, {p[1] for p in ring}
    assert xs == {100.0, 100.0 + mm(40)} and ys == {50.0, 50.0 + mm(20)}


def test_gear_has_teeth_on_the_outer_radius() -> None:
    outline = gear(0, 0, 100, 100, teeth=12)
    (ring,) = outline.rings
    assert len(ring) == 48
    radii = sorted({round(math.dist(p, (50, 50)), 6) for p in ring})
    assert radii == [41.0, 50.0]


def test_hexagon_is_regular_and_inside_its_box() -> None:
    (ring,) = regular_hexagon(0, 0, 60, 60).rings
    sides = {round(math.dist(ring[i], ring[(i + 1) % 6]), 6) for i in range(6)}
    assert len(sides) == 1
    assert all(0 <= x <= 60 and 0 <= y <= 60 for x, y in ring)


def test_custom_outline_uses_fractions_from_the_top_left() -> None:
    shape = TokenShape("custom", outline=((0.5, 0.0), (1.0, 1.0), (0.0, 1.0)))
    (ring,) = token_outline(shape, 10, 20, 40, 30).rings
    assert ring == ((30.0, 50.0), (50.0, 20.0), (10.0, 20.0))


def test_circle_points_lie_on_the_circle() -> None:
    outline = token_outline(TokenShape("circle"), 0, 0, 20, 20)
    assert all(math.dist(p, (10, 10)) == pytest.approx(10) for p in outline.points()[0])


# ---------------------------------------------------------------- packing


def test_pack_fills_pages_without_overlap_and_turns_tall_pieces() -> None:
    sizes = [(30.0, 60.0)] * 7 + [(60.0, 30.0)] * 3
    pages = pack(sizes, (10.0, 10.0, 130.0, 100.0), gap=5.0)
    placed = [p for page in pages for p in page]
    assert sorted(p.item for p in placed) == list(range(10))
    for page in pages:
        for i, a in enumerate(page):
            assert 10 <= a.x and a.x + a.width <= 140 + 1e-6 and 10 <= a.y and a.y + a.height <= 110 + 1e-6
            for b in page[i + 1 :]:
                separated = a.x + a.width + 5 <= b.x + 1e-6 or b.x + b.width + 5 <= a.x + 1e-6 or a.y + a.height + 5 <= b.y + 1e-6 or b.y + b.height + 5 <= a.y + 1e-6
                assert separated
    assert all(p.turned == (sizes[p.item][1] > sizes[p.item][0]) for p in placed)
    assert pages == pack(sizes, (10.0, 10.0, 130.0, 100.0), gap=5.0)


def test_pack_rejects_a_piece_larger_than_the_room() -> None:
    with pytest.raises(ValueError, match="item 1"):
        pack([(10.0, 10.0), (500.0, 10.0)], (0.0, 0.0, 100.0, 100.0), gap=1.0)
