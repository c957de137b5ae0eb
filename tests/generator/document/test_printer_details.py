"""Small things a printer notices, read back from real builds: the duplex viewer preference,
plurals on the cover, a marked 6 and 9, and long lines on the bill of materials kept on the page."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from tests.conftest import run_cli

MM = 72 / 25.4
GAME = """\
id: small
title: Small
players: {min: 1, max: 2}
components: [deck.yaml, board.yaml, bag.yaml]
"""
BAG = """\
id: bag
kind: supply
name: Bag
items:
  - {name: "A very long supply name that goes on and on", count: 1, notes: "with notes long enough to run past the right edge of any paper unless the line is wrapped properly"}
"""
DECK = """\
id: deck
kind: deck
name: "Numbers, a deck whose name is long enough that its bill-of-materials line would not fit one line"
size: poker
layout: face
fields: [value]
cards:
  - {value: 6}
  - {value: 9}
  - {value: 8}
"""
BOARD = """\
id: board
kind: board
size: {width: 100mm, height: 80mm}
layout: face
fields: [value]
boards:
  - {value: 1}
"""
FACE = """\
elements:
  - {id: value, type: text, x: 10%, y: 10%, width: 80%, height: 20mm, text: "{value}", font: Vera-Bold, size: 30pt, align: center}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("details") / "small"
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "deck.yaml").write_text(DECK)
    (folder / "board.yaml").write_text(BOARD)
    (folder / "bag.yaml").write_text(BAG)
    (folder / "layouts" / "face.yaml").write_text(FACE)
    return folder


@pytest.mark.parametrize(("backs", "preference"), [("duplex-long", "/DuplexFlipLongEdge"), ("duplex-short", "/DuplexFlipShortEdge"),
                                                   ("gutterfold", "/Simplex"), ("none", "/Simplex")])
def test_pdfs_ask_the_print_dialog_for_the_duplex_mode_of_backs(game: Path, tmp_path: Path, backs: str, preference: str) -> None:
    """A PDF with back pages asks for its flip; a one-sided one never asks for duplex (reprinted from
    its own file, one sheet would land on the back of another); the combined PDF asks for what its
    cover says: the double-sided pages duplex, as the dialog's default range when one-sided pages follow."""
    (game / "deck2.yaml").write_text(DECK.replace("id: deck", "id: deck2").replace("layout: face", "layout: face\nback: {layout: face}"))
    (game / "game.yaml").write_text(GAME.replace("[deck.yaml", "[deck.yaml, deck2.yaml"))
    try:
        result = run_cli("build", str(game), "--out", str(tmp_path), "--quiet", "--backs", backs)
    finally:
        (game / "game.yaml").write_text(GAME)
        (game / "deck2.yaml").unlink()
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "small"
    for name, asked in (("deck", "/Simplex"), ("board", "/Simplex"), ("deck2", preference), ("small-print-and-play", preference)):
        preferences = PdfReader(folder / f"{name}.pdf").trailer["/Root"]["/ViewerPreferences"]
        assert preferences["/Duplex"] == asked and preferences["/PrintScaling"] == "/None", name
    combined = PdfReader(folder / "small-print-and-play.pdf")
    preferences = combined.trailer["/Root"]["/ViewerPreferences"]
    cover = " ".join(combined.pages[0].extract_text().split())
    duplex = re.search(r"Print pages (\d+)[–-](\d+) duplex", cover)
    single = re.search(r"Print (?:page|pages) (\d+)(?:[–-](\d+))? single-sided", cover)
    if backs.startswith("duplex"):
        assert duplex is not None and single is not None, cover
        first, last = int(duplex.group(1)), int(duplex.group(2))
        assert [int(v) for v in preferences["/PrintPageRange"]] == [first - 1, last - 1]  # counted from 0
        assert int(single.group(1)) == last + 1
    else:
        assert duplex is None and "/PrintPageRange" not in preferences


def test_cover_plurals_marked_indices_and_a_bill_of_materials_inside_the_page(game: Path, tmp_path: Path) -> None:
    result = run_cli("build", str(game), "--out", str(tmp_path), "--quiet", "--backs", "none")
    assert result.returncode == 0, result.stderr
    combined = tmp_path / "small" / "small-print-and-play.pdf"
    with pdfplumber.open(combined) as doc:
        cover = " ".join(doc.pages[0].extract_text().split())
        assert "1 board — 1 page" in cover and "3 cards — 1 page" in cover
        assert "1 boards" not in cover and "1 pages" not in cover
        margin = 4.23 * MM  # layouts/paper/letter.yaml margin (1/6 in)
        for page in doc.pages[:2]:  # cover and bill of materials: long lines wrap inside the margins
            assert page.chars
            for c in page.chars:
                assert margin - 0.5 <= c["x0"] and c["x1"] <= page.width - margin + 0.5, c["text"]
        bom = " ".join(doc.pages[1].extract_text().split())
        assert "properly" in bom and "one line" in bom  # wrapped, not cut off
    with pdfplumber.open(tmp_path / "small" / "deck.pdf") as doc:
        page = doc.pages[0]
        for digit, marked in (("6", True), ("9", True), ("8", False)):
            glyph = next(c for c in page.chars if c["text"] == digit and c["size"] > 20)
            under = [r for r in page.rects if r["fill"] and glyph["bottom"] - 8 < r["top"] < glyph["bottom"] + 6
                     and r["x0"] >= glyph["x0"] - 1 and r["x1"] <= glyph["x1"] + 1]
            assert bool(under) == marked, digit


def test_index_mark_false_leaves_a_6_and_a_9_plain(game: Path, tmp_path: Path) -> None:
    import shutil

    plain = tmp_path / "small"
    shutil.copytree(game, plain)
    (plain / "layouts" / "face.yaml").write_text(FACE.replace("align: center}", "align: center, index_mark: false}"))
    result = run_cli("build", str(plain), "--out", str(tmp_path / "out"), "--quiet", "--backs", "none")
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(tmp_path / "out" / "small" / "deck.pdf") as doc:
        page = doc.pages[0]
        for digit in ("6", "9", "8"):
            glyph = next(c for c in page.chars if c["text"] == digit and c["size"] > 20)
            under = [r for r in page.rects if r["fill"] and glyph["bottom"] - 8 < r["top"] < glyph["bottom"] + 6
                     and r["x0"] >= glyph["x0"] - 1 and r["x1"] <= glyph["x1"] + 1]
            assert not under, digit
    (plain / "layouts" / "face.yaml").write_text(FACE.replace("align: center}", "align: center, index_mark: 'no'}"))
    result = run_cli("check", str(plain))
    assert result.returncode == 2 and "face.yaml:2:" in result.stderr and "index_mark" in result.stderr


def test_the_cover_band_stays_inside_the_printable_area(game: Path, tmp_path: Path) -> None:
    """The title band used to run edge to edge, where home printers print nothing (layouts/sheet.yaml
    unprintable, 4.23 mm since print round 3); every fill on the cover now keeps inside that margin."""
    from punchboard.generator.impose.style import load_style

    from tests.pdf_geometry import page_geometry

    margin = load_style().unprintable
    assert abs(margin - 4.23 * MM) < 0.01  # the default the README states

    result = run_cli("build", str(game), "--out", str(tmp_path), "--quiet", "--backs", "none")
    assert result.returncode == 0, result.stderr
    cover = PdfReader(tmp_path / "small" / "small-print-and-play.pdf").pages[0]
    width, height = float(cover.mediabox.width), float(cover.mediabox.height)
    fills = [area for _, area in page_geometry(cover).fills if not area.is_empty]
    assert any(area.bounds[2] - area.bounds[0] > width * 0.8 for area in fills)  # the band is there
    for area in fills:
        x0, y0, x1, y1 = area.bounds
        assert x0 >= margin - 0.01 and y0 >= margin - 0.01 and x1 <= width - margin + 0.01 and y1 <= height - margin + 0.01
