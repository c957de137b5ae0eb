"""Boards, tiles, sheets and the bill of materials, built from YAML through the CLI and read back from the PDFs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
import yaml

from punchboard.cli import main
from punchboard.plumbing.paths import COMPONENTS
from punchboard.plumbing.units import mm, to_mm
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "parts"
STEAM_COURT = COMPONENTS / "steam_court"
TOLERANCE_MM = 0.2
CROP_STROKE, TICK_STROKE, CUT_STROKE, FOLD_STROKE = 0.3, 0.45, 0.4, 0.5


def build(target: str, out: Path, *extra: str) -> Path:
    assert main(["build", target, "--out", str(out), "--quiet", *extra]) == 0
    return out


@pytest.fixture(scope="module")
def steam_court(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Steam Court's own playmats.yaml and layouts, in a game folder holding only them (the decks are slow to build)."""
    folder = tmp_path_factory.mktemp("sc_game")
    game = yaml.safe_load((STEAM_COURT / "game.yaml").read_text(encoding="utf-8"))
    game.update(components=["playmats.yaml"], box=[])
    game.pop("setup", None)
    (folder / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
    shutil.copy(STEAM_COURT / "playmats.yaml", folder / "playmats.yaml")
    return build(str(folder), tmp_path_factory.mktemp("sc"), "--paper", "letter") / "steam_court"


@pytest.fixture(scope="module")
def fixture_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(str(FIXTURE), tmp_path_factory.mktemp("parts"), "--paper", "letter") / "parts_fixture"


def _black(colour: object) -> bool:
    return colour in ((0.0, 0.0, 0.0), (0,), [0], 0, (0.0,))


def _width(obj: dict) -> float:
    return round(float(obj["linewidth"]), 3)


class TilePage:
    """One tile page in frame coordinates (u along the board's width, v up the board).

    The label is the black bold text above the topmost cut line.
    """

    def __init__(self, page: pdfplumber.page.Page):
        self.page = page
        bold = [c for c in page.chars if "Bold" in c["fontname"]]
        self.rotated = any(c["matrix"][1] != 0 for c in bold)  # text turned 90°: the frame is turned
        top = self.cuts()[3]
        # pdfplumber keeps clipped-away art text, so also ask for the label's pure black (the art's inks differ).
        labels = [c for c in bold if self._uv(c["matrix"][4], c["matrix"][5])[1] > top + 1 and _black(c["non_stroking_color"])]
        ordered = sorted(labels, key=lambda c: self._uv(c["matrix"][4], c["matrix"][5])[0])
        self.label = "".join(c["text"] for c in ordered)
        self.label_uv = self._uv(ordered[0]["matrix"][4], ordered[0]["matrix"][5]) if ordered else (0.0, 0.0)

    def _uv(self, x: float, y_pdf: float) -> tuple[float, float]:
        return (y_pdf, self.page.width - x) if self.rotated else (x, y_pdf)

    def segments(self, width: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        out = []
        for line in self.page.lines:
            if _width(line) != width or not _black(line["stroking_color"]):
                continue
            (x0, t0), (x1, t1) = line["pts"][0], line["pts"][-1]
            out.append((self._uv(x0, self.page.height - t0), self._uv(x1, self.page.height - t1)))
        return out

    def horizontal(self, width: float) -> list[tuple[float, float, float]]:
        """(v, u_low, u_high) of frame-horizontal segments."""
        return [(a[1], min(a[0], b[0]), max(a[0], b[0])) for a, b in self.segments(width) if abs(a[1] - b[1]) < 1e-3]

    def vertical(self, width: float) -> list[tuple[float, float, float]]:
        """(u, v_low, v_high) of frame-vertical segments."""
        return [(a[0], min(a[1], b[1]), max(a[1], b[1])) for a, b in self.segments(width) if abs(a[0] - b[0]) < 1e-3]

    def cuts(self) -> tuple[float, float, float, float]:
        """left, bottom, right, top cut positions from the crop marks."""
        us = [u for u, _, _ in self.vertical(CROP_STROKE)]
        vs = [v for v, _, _ in self.horizontal(CROP_STROKE)]
        return min(us), min(vs), max(us), max(vs)


def tile_pages(pdf_path: Path) -> dict[str, list[TilePage]]:
    pages: dict[str, list[TilePage]] = {}
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            if any(_width(ln) == CROP_STROKE for ln in page.lines):
                tile = TilePage(page)
                pages.setdefault(tile.label, []).append(tile)
    return pages


def test_steam_court_playmats_print_both_sides_tiled(steam_court: Path) -> None:
    path = steam_court / "playmats.pdf"
    with pdfplumber.open(path) as pdf:
        texts = ["".join(c["text"] for c in page.chars) for page in pdf.pages]  # drawing order: rotated text stays whole
        assert "assembly map" in texts[0]
        n_pages = len(pdf.pages)
    tiles = tile_pages(path)
    assert sorted(tiles) == ["A1", "A2", "B1", "B2"]
    # Two playmats, every tile front and back.
    assert all(len(pages) == 4 for pages in tiles.values())
    assert n_pages == 1 + 1 + 16  # map, its blank reverse (duplex), 2 boards × 4 tiles × 2 sides
    # Fronts show the Quarter spaces, backs the Clock Climbing track (each is clipped to its tile, drawn whole).
    assert [("1stQuarter" in t) for t in texts[2:]] == [True, False] * 8
    assert [("ClockClimbing" in t) for t in texts[2:]] == [False, True] * 8


def _assembled(tiles: dict[str, list[TilePage]], copy: int = 0) -> tuple[float, float, float, float]:
    """(width, height, horizontal overlap, vertical overlap) in mm, measured from the marks alone."""
    a1, a2, b1 = tiles["A1"][copy * 2], tiles["A2"][copy * 2], tiles["B1"][copy * 2]
    # Column joint: ticks run along u; on A2 (laid on top) a tick spans exactly the strip.
    a2_ticks = [t for t in a2.horizontal(TICK_STROKE) if t[1] < a2.cuts()[0] + 1]
    a1_ticks = [t for t in a1.horizontal(TICK_STROKE)]
    overlap_u = a2_ticks[0][2] - a2_ticks[0][1]
    offset_u = max(t[2] for t in a1_ticks) - a2_ticks[0][2]  # both ticks end at A1's far strip edge
    width = a2.cuts()[2] + offset_u - a1.cuts()[0]
    # The ticks stay in line across the joint: same v on both tiles.
    assert sorted(round(t[0], 2) for t in a2_ticks) == sorted(round(t[0], 2) for t in a1_ticks if t[2] > a1.cuts()[2] - overlap_u - 1)
    # Row joint: ticks run along v; B1 (laid on top) shows exactly the strip.
    b1_ticks = [t for t in b1.vertical(TICK_STROKE) if t[2] > b1.cuts()[3] - 1]
    a1_vticks = a1.vertical(TICK_STROKE)
    overlap_v = b1_ticks[0][2] - b1_ticks[0][1]
    offset_v = min(t[1] for t in a1_vticks) - b1_ticks[0][1]
    height = a1.cuts()[3] - (b1.cuts()[1] + offset_v)
    return to_mm(width), to_mm(height), to_mm(overlap_u), to_mm(overlap_v)


def test_playmat_assembles_to_its_size_with_12mm_overlap(steam_court: Path) -> None:
    tiles = tile_pages(steam_court / "playmats.pdf")
    width, height, overlap_u, overlap_v = _assembled(tiles)
    assert abs(overlap_u - 12) < TOLERANCE_MM and abs(overlap_v - 12) < TOLERANCE_MM
    assert abs(width - 480) < TOLERANCE_MM, width
    assert abs(height - 320) < TOLERANCE_MM, height


def test_tile_labels_sit_above_the_top_left_of_each_tile(steam_court: Path) -> None:
    tiles = tile_pages(steam_court / "playmats.pdf")
    for label, pages in tiles.items():
        for tile in pages:
            left, _, right, top = tile.cuts()
            u, v = tile.label_uv
            bleed = mm(3) if label.endswith("1") else 0.0
            assert left - bleed - 0.5 <= u <= left + 0.5, (label, u, left)
            assert top < v < top + mm(7), (label, v, top)
            assert u < right


def test_tiled_board_back_lines_up_behind_its_front(fixture_game: Path) -> None:
    """400 × 300 mm two-sided board, duplex long edge: each front page's back follows it, mirrored."""
    with pdfplumber.open(fixture_game / "big_board.pdf") as pdf:
        pages = pdf.pages
        assert len(pages) == 1 + 1 + 8
        for front, back in zip(pages[2::2], pages[3::2], strict=True):
            assert "front" in (front.extract_text() or "") and "back" in (back.extract_text() or "")
            fills = {tuple(round(v, 3) for v in r["non_stroking_color"]) for r in front.rects if r["non_stroking_color"]}
            back_fills = {tuple(round(v, 3) for v in r["non_stroking_color"]) for r in back.rects if r["non_stroking_color"]}
            sand, teal = (0.937, 0.89, 0.769), (0.141, 0.278, 0.369)
            assert sand in fills and teal not in fills
            assert teal in back_fills and sand not in back_fills
            # The crop marks of the back are the front's, mirrored about the page's long axis.
            front_marks = sorted(round(front.width - (ln["x0"] + ln["x1"]) / 2, 1) for ln in front.lines if _width(ln) == CROP_STROKE)
            back_marks = sorted(round((ln["x0"] + ln["x1"]) / 2, 1) for ln in back.lines if _width(ln) == CROP_STROKE)
            assert front_marks == back_marks


def test_a_board_that_fits_prints_on_one_sheet(fixture_game: Path) -> None:
    with pdfplumber.open(fixture_game / "score_track.pdf") as pdf:
        assert len(pdf.pages) == 1
        text = pdf.pages[0].extract_text() or ""
        assert "Score" in text and "assembly" not in text
        assert all(str(n) in text for n in range(10))
    tiles = tile_pages(fixture_game / "score_track.pdf")
    (tile,) = tiles["A1"]
    left, bottom, right, top = tile.cuts()
    assert abs(to_mm(right - left) - 180) < TOLERANCE_MM and abs(to_mm(top - bottom) - 60) < TOLERANCE_MM


def _cut_outlines(page: pdfplumber.page.Page) -> list[list[tuple[float, float]]]:
    shapes = [o for o in page.curves + page.rects if _width(o) == CUT_STROKE]
    return [[(x, page.height - t) for x, t in o["pts"]] for o in shapes]


def test_polyomino_cut_outlines_follow_the_cells_on_the_grid(fixture_game: Path) -> None:
    cell = mm(25)
    with pdfplumber.open(fixture_game / "rides.pdf") as pdf:
        outlines = _cut_outlines(pdf.pages[0])
    assert len(outlines) == 4  # Swing, Carousel, Coaster, Wheel
    areas = []
    for points in outlines:
        x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
        for x, y in points:
            assert abs((x - x0) / cell - round((x - x0) / cell)) < 0.01
            assert abs((y - y0) / cell - round((y - y0) / cell)) < 0.01
        ring = list(dict.fromkeys((round((x - x0) / cell), round((y - y0) / cell)) for x, y in points))
        areas.append(abs(sum(ring[i][0] * ring[(i + 1) % len(ring)][1] - ring[(i + 1) % len(ring)][0] * ring[i][1] for i in range(len(ring)))) / 2)
    assert sorted(areas) == [1, 2, 3, 3]
    assert any(len(dict.fromkeys(points)) >= 6 for points in outlines)  # the L-shaped Coaster


def test_square_tiles_with_backs_mirror_for_duplex(fixture_game: Path) -> None:
    with pdfplumber.open(fixture_game / "ground.pdf") as pdf:
        front, back = pdf.pages
        fronts = sorted((round(r["x0"], 1), round(r["top"], 1)) for r in front.rects if _width(r) == CUT_STROKE)
        assert len(fronts) == 5
        words = [w for w in back.extract_words() if w["text"] == "Ground" and w["top"] < back.height - mm(20)]
        assert len(words) == 5
        front_words = [w for w in front.extract_words() if w["text"] in ("Meadow", "Rock")]
        mirrored = sorted(round(front.width - (w["x0"] + w["x1"]) / 2) for w in front_words)
        assert sorted(round((w["x0"] + w["x1"]) / 2) for w in words) == mirrored
        assert abs(to_mm(fronts[1][0] - fronts[0][0]) - 30) > 0  # tiles are spaced, not stacked


def test_tent_outside_half_is_upside_down_above_a_dashed_fold(fixture_game: Path) -> None:
    with pdfplumber.open(fixture_game / "tents.pdf") as pdf:
        page = pdf.pages[0]
        (cut,) = [r for r in page.rects if _width(r) == CUT_STROKE]
        assert abs(to_mm(cut["width"]) - 150) < TOLERANCE_MM and abs(to_mm(cut["height"]) - 200) < TOLERANCE_MM
        folds = [ln for ln in page.lines if _width(ln) == FOLD_STROKE and ln.get("dash")]
        assert len(folds) == 1
        fold_top = folds[0]["top"]
        assert abs(fold_top - (cut["top"] + cut["bottom"]) / 2) < 0.5
        assert folds[0]["x0"] < cut["x0"] and folds[0]["x1"] > cut["x1"]  # marked past the cut
        outside = [c for c in page.chars if c["text"] == "O"]
        inside = [c for c in page.chars if c["text"] == "N" and c["matrix"][0] > 0]
        assert outside and all(c["matrix"][0] < 0 for c in outside)  # turned 180°
        assert all(c["top"] < fold_top for c in outside)
        assert inside and all(c["top"] > fold_top for c in inside)
        assert "dashed line: fold" in (page.extract_text() or "")


def test_reference_sheets_are_cut_rectangles(fixture_game: Path) -> None:
    with pdfplumber.open(fixture_game / "reference.pdf") as pdf:
        cuts = [r for page in pdf.pages for r in page.rects if _width(r) == CUT_STROKE]
    assert len(cuts) == 2
    assert all(sorted((round(to_mm(r["width"])), round(to_mm(r["height"])))) == [100, 140] for r in cuts)


def test_bill_of_materials_page_and_json_count_sheets(fixture_game: Path) -> None:
    bom = json.loads((fixture_game / "bom.json").read_text(encoding="utf-8"))
    by_id = {c["id"]: c for c in bom["components"]}
    assert by_id["big_board"]["pages"] == 10 and by_id["big_board"]["sheets"] == 5
    assert by_id["score_track"]["sheets"] == 1 and by_id["rides"]["sheets"] == 1
    assert bom["total_sheets"] == sum(c["sheets"] for c in bom["components"])
    assert [s["name"] for s in bom["supplies"]] == ["six-sided die", "cloth bag"]
    with pdfplumber.open(fixture_game / "parts_fixture-print-and-play.pdf") as pdf:
        text = pdf.pages[1].extract_text() or ""
    assert "bill of materials" in text
    assert "Big board (board, two-sided)" in text and "cloth bag" in text


def test_separate_backs_print_the_back_board_as_its_own_tiles(tmp_path: Path) -> None:
    out = build(str(FIXTURE), tmp_path, "--paper", "letter", "--backs", "separate") / "parts_fixture"
    with pdfplumber.open(out / "big_board.pdf") as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
    assert len(texts) == 1 + 8
    assert [("back" in t) for t in texts[1:]] == [False] * 4 + [True] * 4


def test_board_build_is_deterministic(tmp_path: Path) -> None:
    first = build(str(FIXTURE), tmp_path / "one") / "parts_fixture"
    second = build(str(FIXTURE), tmp_path / "two") / "parts_fixture"
    for name in ("big_board.pdf", "rides.pdf", "tents.pdf"):
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_outside_without_fold_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game"
    game.mkdir()
    for item in FIXTURE.iterdir():
        target = game / item.name
        if item.is_dir():  # a copy: a layouts/ folder that links out of the game is refused
            shutil.copytree(item, target)
        else:
            target.write_text(item.read_text(encoding="utf-8"), encoding="utf-8")
    tents = game / "tents.yaml"
    tents.write_text(tents.read_text(encoding="utf-8").replace("fold: half-horizontal", "fold: none"), encoding="utf-8")
    assert main(["check", str(game)]) == 2
    err = capsys.readouterr().err
    assert "tents.yaml:7:1: outside needs a folded sheet" in err
