"""Small things a printer notices, read back from real builds: the duplex viewer preference,
plurals on the cover, a marked 6 and 9, and long lines on the bill of materials kept on the page."""

from __future__ import annotations

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
    result = run_cli("build", str(game), "--out", str(tmp_path), "--quiet", "--backs", backs)
    assert result.returncode == 0, result.stderr
    for pdf in (tmp_path / "small" / "deck.pdf", tmp_path / "small" / "small-print-and-play.pdf"):
        preferences = PdfReader(pdf).trailer["/Root"]["/ViewerPreferences"]
        assert preferences["/Duplex"] == preference and preferences["/PrintScaling"] == "/None"


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
