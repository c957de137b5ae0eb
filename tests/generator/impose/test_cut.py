"""Print-and-cut read back: Steam Court's gear tokens and a poker deck, for Silhouette and Cricut.

The cut files are read back (SVG paths, DXF polylines) and compared with where the PDF
prints each piece: a card's side is a form placed at its trim corner; a token's art is
clipped to its outline grown by the bleed. Registration marks are measured on the page.
"""

from __future__ import annotations

import math
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader

from punchboard.plumbing.paths import COMPONENTS
from tests.conftest import run_cli
from tests.pdf_content import Point, page_level

MM = 72 / 25.4
TOL_MM = 0.1
POKER = (63.5, 88.9)
TOKEN = 28.0  # Steam Court gear token
BLEED = 3.0
GAME = """\
id: cutdemo
title: Cut demo
players: {min: 1, max: 4}
palette: {brass: "#b8893a", brass_light: "#e2c27d", copper: "#a4532b", steel: "#59636b", steel_light: "#c9ced1",
          soot: "#231f1c", paper: "#f3e9d2", royal: "#6b1f2a", renegade: "#24475e"}
components: [deck.yaml, gear_tokens.yaml]
"""
DECK = """\
id: deck
kind: deck
size: poker
layout: base/card
fields: [value]
cards:
  - range: {field: value, from: 1, to: 6}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cut") / "cutdemo"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME)
    (folder / "deck.yaml").write_text(DECK)
    shutil.copy(COMPONENTS / "steam_court" / "gear_tokens.yaml", folder / "gear_tokens.yaml")
    return folder


def build(game: Path, out: Path, cutter: str) -> Path:
    result = run_cli("build", str(game), "--out", str(out), "--quiet", "--backs", "none", "--cut", cutter)
    assert result.returncode == 0, result.stderr
    return out / "cutdemo"


def svg_rings(path: Path) -> tuple[tuple[float, float], list[list[Point]]]:
    """Page size and every path's rings, in mm, y from the top."""
    root = ET.parse(path).getroot()
    assert root.get("width", "").endswith("mm")
    size = (float(root.get("width", "0")[:-2]), float(root.get("height", "0")[:-2]))
    rings = []
    for element in root.iter("{http://www.w3.org/2000/svg}path"):
        for part in re.findall(r"M([^Z]*)Z", element.get("d", "")):
            numbers = [float(v) for v in re.findall(r"-?[\d.]+", part)]
            rings.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return size, rings


def dxf_rings(path: Path, page_mm: tuple[float, float] | None = None) -> list[list[Point]]:
    """Every closed polyline's vertices on layer CUT, in mm, y up; the file is DXF R2000 or later in
    millimetres, and its layer PAGE holds the page frame (``page_mm``) so an import lines up."""
    import ezdxf

    doc = ezdxf.readfile(path)
    assert doc.dxfversion >= "AC1015"  # R2000 or later: readers honour its units
    assert doc.header["$INSUNITS"] == 4 and doc.header["$MEASUREMENT"] == 1  # millimetres
    space = doc.modelspace()
    if page_mm is not None:
        frames = [list(p.get_points("xy")) for p in space.query('LWPOLYLINE[layer=="PAGE"]')]
        assert len(frames) == 1
        xs, ys = [x for x, _ in frames[0]], [y for _, y in frames[0]]
        assert (min(xs), min(ys)) == (0, 0) and (max(xs), max(ys)) == pytest.approx(page_mm, abs=0.001)
    rings = []
    for polyline in space.query('LWPOLYLINE[layer=="CUT"]'):
        assert polyline.closed
        rings.append([(x, y) for x, y in polyline.get_points("xy")])
    return rings


def bbox(points: list[Point]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def distance_to_ring(point: Point, ring: list[Point]) -> float:
    best = math.inf
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1], strict=True):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((point[0] - ax) * dx + (point[1] - ay) * dy) / (dx * dx + dy * dy or 1)))
        best = min(best, math.hypot(point[0] - ax - t * dx, point[1] - ay - t * dy))
    return best


def check_dxf_matches_svg(svg: Path, page_height_mm: float) -> None:
    size, rings = svg_rings(svg)
    frame = ET.parse(svg).getroot().find(".//{http://www.w3.org/2000/svg}rect[@id='page-frame']")
    assert frame is not None  # the page's frame: an import placed by its extents still lines up
    assert (float(frame.get("x", "1")), float(frame.get("y", "1"))) == (0, 0)
    assert (float(frame.get("width", "0")), float(frame.get("height", "0"))) == pytest.approx(size, abs=0.001)
    dxf = dxf_rings(svg.with_suffix(".dxf"), size)
    assert len(dxf) == len(rings)
    for a, b in zip(rings, dxf, strict=True):
        assert len(a) == len(b)
        for (x, y), (u, v) in zip(a, b, strict=True):
            assert abs(x - u) < 0.002 and abs(page_height_mm - y - v) < 0.002


def test_silhouette_sheets_carry_studio_marks_and_cut_files_that_follow_the_pieces(game: Path, tmp_path: Path) -> None:
    folder = build(game, tmp_path / "out", "silhouette")
    inset, length, thickness, square = 10.0, 20.0, 0.5, 5.0  # layouts/cutters.yaml: Studio's defaults
    for component, pieces, per_page in (("deck", 6, 6), ("gear_tokens", 24, None)):  # six poker cards turned on Letter
        reader = PdfReader(folder / f"{component}.pdf")
        svgs = sorted(folder.glob(f"{component}-silhouette-*.svg"))
        assert len(svgs) == len(reader.pages)  # --backs none: every page is a front page
        total = 0
        for page, svg in zip(reader.pages, svgs, strict=True):
            level = page_level(page)
            w, h = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
            # registration marks: the square top-left, an L top-right and bottom-left, outer edges `inset` in
            assert any(abs(x / MM - inset) < 0.05 and abs(y / MM - inset) < 0.05 and abs(rw / MM - square) < 0.05
                       and abs(rh / MM - square) < 0.05 for x, y, rw, rh in level.fills)
            arms = [tuple(v / MM for v in s) for s in level.marks(thickness * MM)]
            half = thickness / 2
            top_right = [a for a in arms if min(a[0], a[2]) > w / 2 and max(a[1], a[3]) < h / 2]
            bottom_left = [a for a in arms if max(a[0], a[2]) < w / 2 and min(a[1], a[3]) > h / 2]
            assert len(top_right) == 2 and len(bottom_left) == 2
            for x0, y0, x1, y1 in top_right + bottom_left:  # projecting caps add half the thickness at each end
                assert abs(math.hypot(x1 - x0, y1 - y0) + thickness - length) < 0.05
            assert abs(max(max(a[0], a[2]) for a in top_right) + half - (w - inset)) < 0.05
            assert abs(min(min(a[1], a[3]) for a in top_right) - half - inset) < 0.05
            assert abs(min(min(a[0], a[2]) for a in bottom_left) - half - inset) < 0.05
            assert abs(max(max(a[1], a[3]) for a in bottom_left) + half - (h - inset)) < 0.05
            size, rings = svg_rings(svg)
            assert size == pytest.approx((w, h), abs=0.01)
            clearance = 2.0  # layouts/cutters.yaml: nothing this close to a mark, nor inside an L's corner square
            zones = [(inset, inset, inset + square, inset + square), (w - inset - length, inset, w - inset, inset + length),
                     (inset, h - inset - length, inset + length, h - inset)]  # mm, y down
            for ring in rings:  # every cut path inside the marks' frame and clear of each mark's zone
                x0, y0, x1, y1 = bbox(ring)
                assert x0 > inset and y0 > inset and x1 < w - inset and y1 < h - inset
                for zx0, zy0, zx1, zy1 in zones:
                    assert x1 <= zx0 - clearance or x0 >= zx1 + clearance or y1 <= zy0 - clearance or y0 >= zy1 + clearance
            if component == "deck":
                origins = [(x / MM, y / MM) for x, y in level.forms]  # a corner of each card's trim (turned or not)
                assert len(origins) == len(rings) == per_page  # the deck's six cards on one sheet
                for ring in rings:
                    x0, y0, x1, y1 = bbox(ring)
                    assert sorted((x1 - x0, y1 - y0)) == pytest.approx(sorted(POKER), abs=TOL_MM)
                    corners = ((x0, y0), (x0, y1), (x1, y0), (x1, y1))
                    assert sum(min(math.dist(o, c) for c in corners) < TOL_MM for o in origins) == 1
                    # rounded corners: the ring leaves the trim's corner point 1/8 in round
                    assert min(math.hypot(x - x0, y - y0) for x, y in ring) == pytest.approx(3.175 * (math.sqrt(2) - 1), abs=TOL_MM)
            else:
                clips = [[(x / MM, y / MM) for x, y in clip] for clip in level.clips]
                clips = [c for c in clips if len(c) > 20]  # the gear outlines (not the page's rectangles)
                assert len(clips) == len(rings)
                for ring in rings:  # each clip is the cut outline offset by the bleed: every point BLEED from the cut
                    x0, y0, x1, y1 = bbox(ring)
                    match = min(clips, key=lambda c: math.dist(bbox(c)[:2], (x0 - BLEED, y0 - BLEED)))
                    assert all(abs(distance_to_ring(p, ring) - BLEED) < TOL_MM for p in match)
            check_dxf_matches_svg(svg, h)
            total += len(rings)
        assert total == pieces


def test_cricut_images_fit_print_then_cut_and_their_outlines_follow_the_pieces(game: Path, tmp_path: Path) -> None:
    folder = build(game, tmp_path / "out", "cricut")
    for component, pieces in (("deck", 6), ("gear_tokens", 24)):
        reader = PdfReader(folder / f"{component}.pdf")
        pngs = sorted(folder.glob(f"{component}-cricut-*.png"))
        assert len(pngs) == len(reader.pages) and pngs
        total = 0
        for page, png in zip(reader.pages, pngs, strict=True):
            image = Image.open(png)
            w_in, h_in = image.width / 300, image.height / 300
            assert w_in <= 6.75 + 1e-9 and h_in <= 9.25 + 1e-9  # Print Then Cut's largest image
            assert image.mode == "RGBA"
            size, rings = svg_rings(png.with_suffix(".svg"))
            assert size == pytest.approx((w_in * 25.4, h_in * 25.4), abs=0.1)
            level = page_level(page)
            clips = [[(x / MM, y / MM) for x, y in clip] for clip in level.clips if len(clip) > 4]
            assert len(clips) == len(rings)
            for ring in rings:
                match = min(clips, key=lambda c: math.dist(bbox(c)[:2], bbox(ring)[:2]))
                assert all(distance_to_ring(p, ring) < TOL_MM for p in match)  # the art stops on the cut line
                x0, y0, x1, y1 = bbox(ring)
                px = 300 / 25.4
                inside = image.getpixel((round((x0 + x1) / 2 * px), round((y0 + y1) / 2 * px)))
                outside = image.getpixel((round((x0 - 1.2) * px), round((y0 + y1) / 2 * px)))
                assert inside[3] == 255 and outside[3] == 0  # opaque piece, clear around it: Design Space's cut
            check_dxf_matches_svg(png.with_suffix(".svg"), size[1])
            total += len(rings)
        assert total == pieces


TILES = """\
id: tiles
kind: tiles
cell: 20mm
layout: base/card
fields: [value]
tiles:
  - {value: 1, cells: ["XX", "X."], count: 3}
  - {value: 2, cells: ["XXX"]}
"""


def test_silhouette_cuts_polyomino_tiles_along_their_cells(tmp_path: Path) -> None:
    game = tmp_path / "cutdemo"
    game.mkdir()
    (game / "tiles.yaml").write_text(TILES)
    (game / "game.yaml").write_text(GAME.replace("[deck.yaml, gear_tokens.yaml]", "[tiles.yaml]"))
    folder = build(game, tmp_path / "out", "silhouette")
    svgs = sorted(folder.glob("tiles-silhouette-*.svg"))
    assert len(svgs) == 1
    _, rings = svg_rings(svgs[0])
    assert sorted(len(r) for r in rings) == [4, 6, 6, 6]  # three L-trominoes and a straight one
    for ring in rings:  # edges fall on whole cells
        x0, y0, x1, y1 = bbox(ring)
        assert all(abs((x - x0) / 20 - round((x - x0) / 20)) < 0.005 and abs((y - y0) / 20 - round((y - y0) / 20)) < 0.005 for x, y in ring)
        assert sorted((round(x1 - x0, 2), round(y1 - y0, 2))) in ([40.0, 40.0], [20.0, 60.0])
    level = page_level(PdfReader(folder / "tiles.pdf").pages[0])
    clips = [[(x / MM, y / MM) for x, y in clip] for clip in level.clips if len(clip) >= 4]
    for ring in rings:  # the art is clipped to the tile grown by its bleed: every clip corner is 3 mm out
        match = min(clips, key=lambda c: math.dist(bbox(c)[:2], (bbox(ring)[0] - BLEED, bbox(ring)[1] - BLEED)))
        assert all(BLEED - TOL_MM <= distance_to_ring(p, ring) <= BLEED * math.sqrt(2) + TOL_MM for p in match)
    check_dxf_matches_svg(svgs[0], float(PdfReader(folder / "tiles.pdf").pages[0].mediabox.height) / MM)


def mark_zones(width: float, height: float) -> list[Any]:
    """Studio's Type 1 marks (layouts/cutters.yaml: inset 10, length 20, square 5 mm) and the 2 mm clearance
    around them: the square, and each L mark's corner square, where the sensor looks (points, y up)."""
    import shapely

    inset, length, square, clearance = 10 * MM, 20 * MM, 5 * MM, 2 * MM
    boxes = [
        shapely.box(inset, height - inset - square, inset + square, height - inset),
        shapely.box(width - inset - length, height - inset - length, width - inset, height - inset),
        shapely.box(inset, inset, inset + length, inset + length),
    ]
    return [b.buffer(clearance, join_style="mitre") for b in boxes]


def test_nothing_is_printed_near_the_registration_marks(tmp_path: Path) -> None:
    """Every front page of a Silhouette build (cards, tokens, tiles): no art clip, no placed side,
    no fill but the marks and no glyph within the marks' clearance zones; the footer's text starts
    6 mm (layouts/cutters.yaml footer_gap) right of the bottom-left mark."""
    import shapely

    from tests.pdf_geometry import page_geometry

    result = run_cli("build", "steamark", "--out", str(tmp_path), "--quiet", "--cut", "silhouette")
    assert result.returncode == 0, result.stderr
    checked = 0
    for name in ("bonus_cards", "visitors", "ground_tiles", "starting_ground", "dirt_tokens"):
        pdf = tmp_path / "steamark" / f"{name}.pdf"
        with pdfplumber.open(pdf) as doc:
            for page, plumbed in zip(PdfReader(pdf).pages, doc.pages, strict=True):
                width, height = float(page.mediabox.width), float(page.mediabox.height)
                geometry = page_geometry(page)
                square = shapely.box(10 * MM, height - 15 * MM, 15 * MM, height - 10 * MM)
                if not any(area.symmetric_difference(square).area < 1 for _, area in geometry.fills):
                    continue  # a back page: no marks on it
                zones = mark_zones(width, height)
                marks = [area for _, area in geometry.fills if any(zone.contains(area) for zone in zones)]
                assert len(marks) == 1  # the filled square; the L marks are strokes
                drawn = [a for a in (*geometry.clips, *geometry.forms) if a.area < 0.9 * width * height]
                drawn += [area for _, area in geometry.fills if area not in marks and area.area < 0.9 * width * height]
                assert drawn, name
                for area in drawn:
                    assert not any(area.intersects(zone) for zone in zones), (name, [round(v / MM, 1) for v in area.bounds])
                glyphs = [shapely.box(c["x0"], height - c["bottom"], c["x1"], height - c["top"]) for c in plumbed.chars]
                assert glyphs
                for glyph in glyphs:
                    assert not any(glyph.intersects(zone) for zone in zones), name
                footer = [g for g in glyphs if g.bounds[1] < 30 * MM]
                assert footer and min(g.bounds[0] for g in footer) >= (30 + 6) * MM - 0.01
                checked += 1
    assert checked >= 5
