"""The n-up arithmetic of impose/grid.py on hand-computed cases (issue #38 item 6: ``auto``'s keep-the-gutter rule
and the outer bleed of a touching grid survived hand-made mutants).

A sheet style with round figures (a crop mark 6 after a gap of 2, at least 3 long; a footer 10 high, no
unprintable margin) keeps every figure below workable by hand; each test says how its figures come about.
The last test builds a deck with shared cut lines and reads the art clips back from the PDF.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import replace
from pathlib import Path

import pytest
from punchboard.generator.document.pages import FooterBand
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.impose.grid import (
    AxisFit,
    Grid,
    fit_axis,
    fit_policy,
    grid_sheet,
    gutterfold_sheet,
    kept_bleed,
    landscape,
    mark_band_offset,
    plan_grid,
    policy_name,
    printable_margin,
    printable_paper,
)
from punchboard.generator.impose.style import load_style
from pypdf import PdfReader

from punchboard.cli import main
from punchboard.spec.loader import load_paper
from punchboard.spec.model import Paper
from tests.pdf_geometry import MM, page_geometry

STYLE = replace(load_style(), mark_offset=2.0, mark_length=6.0, mark_min_length=3.0, footer_height=10.0, unprintable=0.0)
PAPER = Paper("test", 300.0, 200.0, 10.0, Path("test.yaml"))


def axis(fit: AxisFit | None) -> tuple[float, ...]:
    assert fit is not None
    return (fit.count, fit.trim, fit.start, fit.gap, fit.bleed, fit.mark_offset, fit.mark_length, fit.spaced)


def same(got: tuple[float, ...], expected: tuple[float, ...]) -> None:
    assert len(got) == len(expected) and all(g == pytest.approx(e, abs=1e-9) for g, e in zip(got, expected, strict=True)), got


def test_gutter_keeps_the_full_bleed_and_fits_fewer() -> None:
    # (100 − 2·(3 + 3) + 6) / (20 + 6) = 3.6: 3 pieces, gaps of 6; spare 40: marks at full length;
    # used 3·20 + 2·6 = 72, centred: start 10 + 14
    same(axis(fit_axis(10, 100, 20, 3, True, STYLE, keep_bleed=True)), (3, 20, 24, 6, 3, 2, 6, True))
    # one more gap's room (length 126): (126 − 12 + 6) / 26 = 4.6 → 4, band min(8, (46 − 18) / 2 − 3 = 11)
    # (used 4·20 + 3·6 = 98, centred: start 14)
    same(axis(fit_axis(0, 126, 20, 3, True, STYLE, keep_bleed=True)), (4, 20, 14, 6, 3, 2, 6, True))
    # tight (length 86): 3 pieces, spare 26 − 12 = 14 over two sides less the bleed: band min(8, 7 − 3 = 4)
    same(axis(fit_axis(0, 86, 20, 3, True, STYLE, keep_bleed=True)), (3, 20, 7, 6, 3, 1.0, 3.0, True))
    # one piece (37 − 12 + 6 = 31 ≥ 26): spare 17, band min(8, 17 / 2 − 3 = 5.5), split 2 : 6
    same(axis(fit_axis(0, 37, 20, 3, True, STYLE, keep_bleed=True)), (1, 20, 8.5, 6, 3, 1.375, 4.125, True))
    assert fit_axis(0, 31, 20, 3, True, STYLE, keep_bleed=True) is None  # (31 − 12 + 6) / 26 < 1


def test_squeeze_shrinks_gaps_bleed_and_marks_in_proportion() -> None:
    # (100 − 6) / 20 = 4.7: 4 pieces, spare 20 of a desired 3·6 + 2·(3 + 8) = 40; k = (20 − 6) / (40 − 6)
    k = 14 / 34
    gap, band = 6 * k, 3 + 5 * k
    used = 80 + 3 * gap
    same(axis(fit_axis(10, 100, 20, 3, True, STYLE)), (4, 20, 10 + (100 - used) / 2, gap, 3 * k, band / 4, band * 3 / 4, True))
    # with room to spare (3 pieces capped, spare 40 ≥ 2·6 + 22 = 34): k = 1
    same(axis(fit_axis(0, 100, 20, 3, True, STYLE, cap=3)), (3, 20, 14, 6, 3, 2, 6, True))
    # no room past the marks' least length: k = 0 (length 86: 4 pieces, spare 6 = 2·3)
    same(axis(fit_axis(0, 86, 20, 3, True, STYLE)), (4, 20, 3, 0, 0, 0, 3, True))


def test_shared_cut_lines_give_the_outer_bleed_what_is_left() -> None:
    # 4 pieces touch (94 / 20 = 4.7), 10 each side: bleed 3, band min(8, 10 − 3 = 7) split 2 : 6 → 1.75 + 5.25
    same(axis(fit_axis(0, 100, 20, 3, False, STYLE)), (4, 20, 10, 0, 3, 1.75, 5.25, False))
    # 8 to spare, 4 each side: bleed 4 − 3 = 1, band 3: the mark keeps its least length 3, the gap gives way
    same(axis(fit_axis(0, 88, 20, 3, False, STYLE)), (4, 20, 4, 0, 1, 0, 3, False))
    # 6 to spare: no bleed at all, the mark 3
    same(axis(fit_axis(0, 86, 20, 3, False, STYLE)), (4, 20, 3, 0, 0, 0, 3, False))
    # capped at 2 pieces: 30 each side, the full bleed and marks
    same(axis(fit_axis(5, 100, 20, 3, False, STYLE, cap=2)), (2, 20, 35, 0, 3, 2, 6, False))
    assert fit_axis(0, 25, 20, 3, False, STYLE) is None  # (25 − 6) / 20 < 1
    assert fit_axis(0, 100, 20, 3, False, STYLE, cap=0) is None


def test_a_mark_band_keeps_the_marks_least_length() -> None:
    assert mark_band_offset(8, STYLE) == 2  # full band: 2 + 6
    assert mark_band_offset(6, STYLE) == 1.5  # in proportion, the mark 4.5 ≥ 3
    assert mark_band_offset(4, STYLE) == 1  # in proportion 1 : 3 = the mark 3 exactly
    assert mark_band_offset(3.5, STYLE) == 0.5  # in proportion the mark would be 2.625: it keeps 3
    assert mark_band_offset(2, STYLE) == 0  # less than the least mark: all mark
    assert mark_band_offset(5, replace(STYLE, mark_offset=0.0, mark_length=0.0)) == 0.0


def test_axis_edges_ends_and_inner_bleed() -> None:
    spaced = AxisFit(3, 20, 10, 6, 3, 2, 6)
    assert [spaced.edges(i) for i in range(3)] == [(10, 30), (36, 56), (62, 82)]
    assert (spaced.low, spaced.high) == (7, 85)
    assert spaced.inner_bleed() == 3
    assert AxisFit(3, 20, 10, 4, 3, 2, 6).inner_bleed() == 2  # a narrow gap: half of it
    assert AxisFit(3, 20, 10, 0, 3, 2, 6, spaced=False).inner_bleed() == 0
    assert AxisFit(1, 20, 10, 0, 3, 2, 6, spaced=False).inner_bleed() == 3  # no neighbour
    assert AxisFit(2, 20, 10, 0, 3, 2, 6, spaced=False).inner_bleed() == 0


def test_auto_keeps_the_gutter_on_an_axis_only_when_it_costs_no_piece() -> None:
    # 120 long, pieces 30: shared fits (120 − 6) / 30 = 3.8 → 3, gutter (120 − 12 + 6) / 36 = 3.17 → 3: gutter
    chosen = fit_policy(0, 120, 30, 3, "auto", STYLE)
    assert chosen is not None and chosen.spaced and chosen.count == 3 and chosen.bleed == 3
    # 110 long: shared 3, gutter 104 / 36 = 2.9 → 2: shared cut lines
    chosen = fit_policy(0, 110, 30, 3, "auto", STYLE)
    assert chosen is not None and not chosen.spaced and chosen.count == 3
    # capped at 2 pieces: both fit 2, so the gutter
    chosen = fit_policy(0, 110, 30, 3, "auto", STYLE, cap=2)
    assert chosen is not None and chosen.spaced and chosen.count == 2
    # too short for a gutter (40: 34 / 36 < 1) but not for one piece touching nothing: shared
    chosen = fit_policy(0, 40, 30, 3, "auto", STYLE)
    assert chosen is not None and not chosen.spaced and chosen.count == 1
    assert fit_policy(0, 30, 30, 3, "auto", STYLE) is None


@pytest.mark.parametrize(("policy", "expected"), [
    ("gutter", (3, 20, 24, 6, 3, 2, 6, True)),
    ("shared", (4, 20, 20, 0, 3, 1.75, 5.25, False)),
    ("squeeze", (4, 20, 10 + (20 - 18 * 14 / 34) / 2, 6 * 14 / 34, 3 * 14 / 34, (3 + 5 * 14 / 34) / 4,
                 (3 + 5 * 14 / 34) * 3 / 4, True)),
])
def test_each_policy_is_its_fit(policy: str, expected: tuple[float, ...]) -> None:
    same(axis(fit_policy(10, 100, 20, 3, policy, STYLE)), expected)


def test_policy_names_and_the_printable_margin() -> None:
    assert policy_name(None, STYLE) == STYLE.bleed_policy
    assert policy_name("touching", STYLE) == "shared" and policy_name("spaced", STYLE) == "squeeze"
    assert policy_name("gutter", STYLE) == "gutter"
    wide = replace(STYLE, unprintable=12.0)
    assert printable_margin(PAPER, STYLE) == 10 and printable_margin(PAPER, wide) == 12
    assert printable_paper(PAPER, STYLE) is PAPER and printable_paper(PAPER, wide).margin == 12
    tall = Paper("tall", 200.0, 300.0, 10.0, Path("t.yaml"))
    assert landscape(PAPER) is PAPER and (landscape(tall).width, landscape(tall).height) == (300, 200)


# x: 3 pieces of 20 touching from 10; y: 2 rows of 30 from 5, a gutter of 6 between them
X = AxisFit(3, 20, 10, 0, 3, 1, 5, spaced=False)
Y = AxisFit(2, 30, 5, 6, 3, 2, 4, spaced=True)
GRID = Grid(PAPER, X, Y, FooterBand(Rect(10, 10, 280, 10)))


def test_a_touching_rows_frames_keep_bleed_on_the_outer_edges_only() -> None:
    assert (GRID.rows, GRID.cols, GRID.per_page) == (2, 3, 6)
    clips = {(r, c): GRID.frame(r, c).clip for r in range(2) for c in range(3)}
    # row 0 is the top row: its trims are y.edges(1) = 41..71; row 1 y.edges(0) = 5..35; y spaced: bleed all round
    assert clips[0, 0] == Rect(7, 38, 23, 36)  # left bleed 3, right none
    assert clips[0, 1] == Rect(30, 38, 20, 36)  # inner: none left or right
    assert clips[0, 2] == Rect(50, 38, 23, 36)  # right bleed 3
    assert clips[1, 0] == Rect(7, 2, 23, 36)
    assert GRID.trim(1, 2) == Rect(50, 5, 20, 30)
    frame = GRID.frame(1, 1)
    assert (frame.trim, frame.bleed_x, frame.bleed_y, frame.rotation) == (Rect(30, 5, 20, 30), 3, 3, 0)
    assert replace(GRID, turned=True).frame(0, 0).rotation == 90
    assert [(s.row, s.col) for s in GRID.slots()] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]


def test_a_touching_column_keeps_bleed_at_its_top_and_bottom_only() -> None:
    grid = Grid(PAPER, replace(X, count=1), replace(Y, count=3, gap=0, spaced=False), GRID.footer)
    clips = [grid.frame(r, 0).clip for r in range(3)]
    # rows from the top: trims 65..95, 35..65, 5..35
    assert clips == [Rect(7, 65, 26, 33), Rect(7, 35, 26, 30), Rect(7, 2, 26, 33)]


def test_a_grids_sheet_art_box_cuts_and_bleed() -> None:
    assert GRID.art_box == Rect(7, 2, 66, 72)  # x 10 − 3 .. 70 + 3; y 5 − 3 .. 71 + 3
    assert GRID.cut_positions() == ([10, 30, 50, 70], [5, 35, 41, 71])
    sheet = grid_sheet(GRID)
    assert (sheet.width, sheet.height, sheet.rows, sheet.cols, sheet.per_page) == (300, 200, 2, 3, 6)
    assert (sheet.bleed_x, sheet.bleed_y, sheet.outer_bleed, sheet.shared, sheet.turned) == (0, 3, (3, 3), True, False)
    assert (sheet.marks_x, sheet.marks_y) == ((1, 5), (2, 4))
    assert sheet.cuts_x == (10, 30, 50, 70) and sheet.cuts_y == (5, 35, 41, 71) and sheet.art_box == GRID.art_box
    assert [f.clip for f in sheet.slots] == [GRID.frame(r, c).clip for r in range(2) for c in range(3)]
    spaced = grid_sheet(replace(GRID, x=replace(X, gap=4, spaced=True), turned=True))
    assert (spaced.bleed_x, spaced.shared, spaced.turned) == (2, False, True)  # half the gap of 4
    assert kept_bleed(GRID) == 0 and kept_bleed(replace(GRID, x=replace(X, gap=4, spaced=True))) == 2


# both axes touching: 3 columns of 20 from 10, 2 rows of 30 from 5
SHARED = grid_sheet(Grid(PAPER, X, replace(Y, gap=0, spaced=False), GRID.footer))


def test_a_part_sheet_gives_a_piece_its_bleed_where_no_neighbour_is_printed() -> None:
    full = SHARED.frames(6)
    assert full == SHARED.slots
    two = SHARED.frames(2)  # the top row's first two: nothing below them, nothing right of the second
    assert [f.clip for f in two] == [Rect(7, 32, 23, 36), Rect(30, 32, 23, 36)]
    four = SHARED.frames(4)  # the top row and the first of the bottom row
    assert [f.clip for f in four] == [Rect(7, 35, 23, 33), Rect(30, 32, 20, 36), Rect(50, 32, 23, 36), Rect(7, 2, 26, 33)]
    apart = grid_sheet(replace(GRID, x=replace(X, gap=6, spaced=True)))
    assert apart.frames(2) == apart.slots[:2]  # pieces apart on both axes already keep their bleed


def test_a_part_sheet_keeps_only_its_own_cuts_and_art() -> None:
    part = SHARED.used(2)
    assert part.art_box == Rect(7, 32, 46, 36)
    assert part.cuts_x == (10, 30, 50) and part.cuts_y == (35, 65)
    assert SHARED.used(6) is SHARED and SHARED.used(9) is SHARED


def test_gutterfold_fronts_above_the_fold_backs_below() -> None:
    # across: (280 − 6) / 40 = 6.85 → 6 pieces, spare 40 of 5·6 + 22 = 52: k = 34 / 46
    # down, from 20 over 170: pairs of 2·30 + 6 = 66, (170 − 6) / 66 → 2 strips, spare 38 ≥ 6 + 22: k = 1, start 36
    sheet = gutterfold_sheet(PAPER, 40, 30, 3, STYLE, "squeeze", turn=False)
    assert sheet is not None and (sheet.rows, sheet.cols, sheet.per_page) == (2, 6, 12)
    k = 34 / 46
    x0 = 10 + (280 - 240 - 5 * 6 * k) / 2
    assert sheet.folds_y == (141, 69)
    assert sheet.cuts_y == (36, 66, 72, 102, 108, 138, 144, 174)
    assert sheet.slots[0].trim.x == pytest.approx(x0) and sheet.slots[0].trim.y == 144 and sheet.slots[6].trim.y == 72
    assert sheet.back_slots is not None and sheet.back_slots[0].trim.y == 108 and sheet.back_slots[6].trim.y == 36
    assert (sheet.slots[0].rotation, sheet.back_slots[0].rotation) == (0, 180)
    assert sheet.slots[0].bleed_x == pytest.approx(3 * k) and sheet.slots[0].bleed_y == 3
    assert sheet.slots[0].clip == sheet.slots[0].trim.inset(-3 * k, -3)
    assert sheet.bleed_x == pytest.approx(3 * k) and sheet.bleed_y == 3
    assert sheet.art_box is not None and sheet.art_box.y == 33 and sheet.art_box.top == 177
    assert sheet.art_box.x == pytest.approx(x0 - 3 * k) and sheet.art_box.right == pytest.approx(x0 + 240 + 30 * k + 3 * k)
    assert sheet.footer.rect == Rect(10, 10, 280, 10)


def test_gutterfold_turns_its_pieces_when_that_holds_more() -> None:
    # 30 wide, 40 high: upright, pairs of 86 fit once down 170; turned (40 across, pairs of 66) twice
    upright = gutterfold_sheet(PAPER, 30, 40, 3, STYLE, "squeeze", turn=False)
    turned = gutterfold_sheet(PAPER, 30, 40, 3, STYLE, "squeeze")
    assert upright is not None and turned is not None and turned.turned and not upright.turned
    assert turned.per_page > upright.per_page
    assert (turned.slots[0].rotation, turned.back_slots[0].rotation) == (90, 90)  # type: ignore[index]
    square = gutterfold_sheet(PAPER, 30, 30, 3, STYLE, "squeeze")
    assert square is not None and not square.turned


def test_gutter_gutterfold_keeps_the_bleed_across() -> None:
    sheet = gutterfold_sheet(PAPER, 40, 30, 3, STYLE, "gutter", turn=False)
    # (280 − 12 + 6) / 46 = 5.96 → 5 across with gaps of 6
    assert sheet is not None and sheet.cols == 5 and sheet.bleed_x == 3
    auto = gutterfold_sheet(PAPER, 40, 30, 3, STYLE, "auto", turn=False)
    assert auto is not None and auto.cols == 6  # auto squeezes a sixth in
    assert gutterfold_sheet(PAPER, 400, 30, 3, STYLE, "squeeze") is None


def test_plan_grid_takes_the_most_pieces_then_upright_then_bleed() -> None:
    # squeeze, 60 × 40 pieces on 300 × 200 less margins: footer along the bottom, across 280: 4, spare 40 of a
    # desired 3·6 + 2·(3 + 8) = 40 (k = 1); down 170: 4, spare 10 (k = 4/34). Footer up the side, across 270: 4,
    # spare 30 (k = 24/34); down 180: 4, spare 20 (k = 14/34): the same 16 pieces, more bleed: the side
    # turned (40 across, 60 down): at most 6 × 2 = 12 < 16
    grid = plan_grid(PAPER, 60, 40, 3, "squeeze", STYLE)
    assert grid is not None and (grid.cols, grid.rows, grid.turned, grid.footer.vertical) == (4, 4, False, True)
    assert kept_bleed(grid) == pytest.approx(3 * 14 / 34)
    assert grid.x.start == pytest.approx(10 + (270 - 240 - 3 * 6 * 24 / 34) / 2)
    assert grid.footer.rect == Rect(280, 10, 10, 180)
    # 40 × 60 pieces: upright 6 × 2 = 12, turned 4 × 4 = 16
    turned = plan_grid(PAPER, 40, 60, 3, "squeeze", STYLE)
    assert turned is not None and turned.turned and turned.per_page == 16
    assert plan_grid(PAPER, 40, 60, 3, "squeeze", STYLE, turn=False).turned is False  # type: ignore[union-attr]
    assert plan_grid(PAPER, 400, 60, 3, "squeeze", STYLE) is None


def test_plan_grid_auto_keeps_the_gutter_for_a_few_pieces() -> None:
    for pieces, gutter in ((4, True), (9, True), (16, False)):
        grid = plan_grid(PAPER, 60, 40, 3, "auto", STYLE, pieces)
        assert grid is not None
        assert (grid.x.spaced and grid.y.spaced and kept_bleed(grid) == 3) is gutter, pieces
        assert math.ceil(pieces / grid.per_page) == math.ceil(pieces / 16)


def test_a_shared_deck_keeps_its_outer_bleed_in_the_pdf(tmp_path: Path) -> None:
    """A full sheet of 60 × 70 mm cards with shared cut lines on Letter (room for the whole bleed outside):
    each card's art clip, read back, reaches 3 mm past the sheet's outer cut lines and stops at the shared ones."""
    style, letter = load_style(), load_paper("letter")
    grid = plan_grid(printable_paper(letter, style), 60 * MM, 70 * MM, 3 * MM, "shared", style)
    assert grid is not None and grid.x.bleed == grid.y.bleed == pytest.approx(3 * MM)  # the premise: room for it
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: tiny\ntitle: Tiny\nplayers: {min: 2, max: 4}\ncomponents: [deck.yaml]\n")
    (folder / "deck.yaml").write_text("id: deck\nkind: deck\nsize: {width: 60mm, height: 70mm}\nlayout: base/card\n"
                                      f"fields: [n]\ncards:\n  - range: {{field: n, from: 1, to: {grid.per_page}}}\n")
    args = ["build", str(folder), "--out", str(tmp_path / "out"), "--quiet", "--bleed-policy", "shared", "--paper", "letter"]
    assert main(args) == 0
    (pdf,) = (tmp_path / "out" / "tiny").glob("deck*.pdf")
    clips = [c.bounds for c in page_geometry(PdfReader(pdf).pages[0]).clips if c.area > 50 * 50 * MM * MM]
    clips = sorted({(round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3)) for x0, y0, x1, y1 in clips})
    assert len(clips) == grid.per_page
    xs = sorted({c[0] for c in clips}) + [max(c[2] for c in clips)]
    ys = sorted({c[1] for c in clips}) + [max(c[3] for c in clips)]
    widths = [round((b - a) / MM, 2) for a, b in zip(xs, xs[1:], strict=False)]
    heights = [round((b - a) / MM, 2) for a, b in zip(ys, ys[1:], strict=False)]
    assert widths == [63.0] + [60.0] * (grid.cols - 2) + [63.0]  # 3 mm + 60 mm, 60 mm …, 60 mm + 3 mm
    assert heights == [73.0] + [70.0] * (grid.rows - 2) + [73.0]


def test_plan_grid_takes_the_footer_along_the_bottom_when_it_keeps_more_bleed() -> None:
    # 50 × 60 upright: footer along the bottom, across 280: 5 (274 / 50), spare 30 of 4·6 + 22 = 46: k = 24/40;
    # down 170 from 20: 2, spare 50 ≥ 6 + 22: k = 1. Up the side, across 270: 5, spare 20: k = 14/40. Both 10-up:
    # the bottom keeps 3·0.6 = 1.8 against 1.05
    grid = plan_grid(PAPER, 50, 60, 3, "squeeze", STYLE, turn=False)
    assert grid is not None and (grid.cols, grid.rows, grid.footer.vertical) == (5, 2, False)
    assert grid.footer.rect == Rect(10, 10, 280, 10)
    assert kept_bleed(grid) == pytest.approx(1.8)
    assert grid.x.start == pytest.approx(10 + (30 - 4 * 3.6) / 2) and grid.y.start == pytest.approx(20 + (170 - 126) / 2)


def test_plan_grid_with_few_pieces_does_not_turn_for_room_it_cannot_use() -> None:
    # turned (60 × 50 slots) 12 fit a sheet against 10 upright; with 10 pieces both print on one sheet: upright
    assert plan_grid(PAPER, 50, 60, 3, "squeeze", STYLE).turned is True  # type: ignore[union-attr]
    grid = plan_grid(PAPER, 50, 60, 3, "squeeze", STYLE, pieces=10)
    assert grid is not None and not grid.turned and grid.per_page == 10 and not grid.footer.vertical


SQUARE = Paper("square", 300.0, 300.0, 10.0, Path("square.yaml"))


@pytest.mark.parametrize("policy", ["auto", "squeeze", "gutter", "shared"])
def test_plan_grid_ties_go_upright_with_the_footer_along_the_bottom(policy: str) -> None:
    # on a square paper a grid turned with the footer up the side is the upright one with it along the bottom,
    # transposed (and the other way round): every figure ties
    grid = plan_grid(SQUARE, 50, 60, 3, policy, STYLE)
    assert grid is not None and not grid.turned, policy
    square = plan_grid(SQUARE, 50, 50, 3, policy, STYLE)  # and square pieces: bottom and side tie
    assert square is not None and not square.footer.vertical and not square.turned, policy


def test_a_part_sheet_keeps_cuts_at_positions_that_are_not_round() -> None:
    x = replace(X, start=10.12345678)
    y = replace(Y, start=5.87654321, gap=0, spaced=False)
    part = grid_sheet(Grid(PAPER, x, y, GRID.footer)).used(2)
    assert part.cuts_x == (10.123457, 30.123457, 50.123457)
    assert part.cuts_y == (35.876543, 65.876543)


def test_gutterfold_stays_upright_when_that_holds_more() -> None:
    # 40 × 30 upright: 6 across, 2 strips (12); turned, 30 across: 9, but pairs of 86 only once down (9)
    sheet = gutterfold_sheet(PAPER, 40, 30, 3, STYLE, "squeeze")
    assert sheet is not None and not sheet.turned and sheet.per_page == 12


def test_auto_gutterfold_squeezes_what_the_gutter_cannot_fit() -> None:
    # a piece 270 wide: the gutter needs 270 + 12 ≤ 280 − 6 … (280 − 12 + 6) / 276 < 1; squeezed 274 / 270 ≥ 1
    assert gutterfold_sheet(PAPER, 270, 30, 3, STYLE, "gutter", turn=False) is None
    wide = gutterfold_sheet(PAPER, 270, 30, 3, STYLE, "auto", turn=False)
    assert wide is not None and wide.cols == 1 and wide.rows == 2
    # pieces 78 high: pairs of 162 keep no gutter down 170 ((170 − 12 + 6) / 168 < 1); squeezed (164 / 162) one strip
    assert gutterfold_sheet(PAPER, 40, 78, 3, STYLE, "gutter", turn=False) is None
    tall = gutterfold_sheet(PAPER, 40, 78, 3, STYLE, "auto", turn=False)
    assert tall is not None and tall.rows == 1 and tall.cols == 6  # across, auto squeezes a sixth in (as above)
    assert tall.bleed_y == pytest.approx(3 * 2 / 16)  # spare 8 of a desired 22: k = (8 − 6) / (22 − 6)
    assert tall.folds_y == (pytest.approx(20 + 170 / 2),)


def test_auto_gutterfold_keeps_the_gutter_across_when_it_costs_no_piece() -> None:
    # pieces 83 wide: the gutter fits (280 − 12 + 6) / 89 → 3, squeezing 274 / 83 → 3 as well, but with the bleed
    # shrunk to k = (31 − 6) / (34 − 6) of it: auto keeps the gutter (it squeezed: the x fit was never the gutter's)
    auto = gutterfold_sheet(PAPER, 83, 30, 3, STYLE, "auto", turn=False)
    squeeze = gutterfold_sheet(PAPER, 83, 30, 3, STYLE, "squeeze", turn=False)
    assert auto is not None and squeeze is not None and auto.cols == squeeze.cols == 3
    assert auto.bleed_x == 3 and squeeze.bleed_x == pytest.approx(3 * 25 / 28)


def test_marks_whose_least_length_is_nearly_their_whole_still_share_the_spare() -> None:
    # least mark 7.8 of a band of 8, no bleed, one piece of 20 in 35.8: spare 15.8 of a desired 16, and only
    # 16 − 15.6 = 0.4 of it gives: k = (15.8 − 15.6) / 0.4 = 0.5, band 7.8 + 0.5 · 0.2 = 7.9, gap 7.9 − 6 = 1.9
    tight = replace(STYLE, mark_min_length=7.8)
    same(axis(fit_axis(0, 35.8, 20, 0, True, tight)), (1, 20, 7.9, 0, 0, 1.9, 6.0, True))


def test_sheets_and_grids_are_values() -> None:
    for value, name in ((GRID, "turned"), (X, "count"), (grid_sheet(GRID), "rows"), (GRID.slots()[0], "row")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, 1)


def test_a_sheets_bleed_is_the_least_of_outer_and_inner() -> None:
    narrow = grid_sheet(replace(GRID, y=replace(Y, gap=4)))  # rows 4 apart: 2 each side of the gap, 3 outside
    assert (narrow.bleed_x, narrow.bleed_y, narrow.outer_bleed) == (0, 2, (3, 3))
