"""Every sheet of pieces — cards, tokens, tiles, sheets, board tiles — and the duplex calibration
page keeps art, marks and footer inside the unprintable margin (layouts/sheet.yaml, or
--unprintable), and "too big" errors quote that margin. Measured from the PDFs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
from punchboard.generator.impose.style import load_style
from pypdf import PdfReader

from tests.conftest import ROOT, run_cli
from tests.pdf_content import page_level

MM = 72 / 25.4
FIXTURE = ROOT / "tests" / "fixtures" / "parts"
CHITS = """\
id: chits
kind: tokens
shape: circle
size: 24mm
layout: parts/tile
back: {layout: parts/tile_back}
fields: [terrain]
tokens:
  - {terrain: Chit, count: 40}
"""
CARDS = """\
id: cards
kind: deck
size: poker
layout: base/card
cards:
  - {name: One, count: 4}
"""


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "parts"
    shutil.copytree(FIXTURE, game)
    (game / "chits.yaml").write_text(CHITS, encoding="utf-8")
    (game / "cards.yaml").write_text(CARDS, encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("  - dice.yaml", "  - dice.yaml\n  - chits.yaml\n  - cards.yaml"), encoding="utf-8")
    return game


def _extent(objects: list[dict[str, float]]) -> tuple[float, float, float, float]:
    return (min(o["x0"] for o in objects), min(o["top"] for o in objects),
            max(o["x1"] for o in objects), max(o["bottom"] for o in objects))


@pytest.mark.parametrize("unprintable", [None, "12"])
def test_every_sheet_of_pieces_stays_inside_the_unprintable_margin(tmp_path: Path, unprintable: str | None) -> None:
    game, out = _game(tmp_path), tmp_path / "out"
    flags = ["--unprintable", unprintable] if unprintable else []
    result = run_cli("build", str(game), "--out", str(out), "--quiet", *flags)
    assert result.returncode == 0, result.stderr
    margin = float(unprintable) * MM if unprintable else load_style().unprintable  # default: layouts/sheet.yaml, 4.23 mm
    folder = out / "parts_fixture"
    checked: set[str] = set()
    for pdf in sorted(folder.glob("*.pdf")):
        if pdf.name.endswith("print-and-play.pdf"):
            continue
        with pdfplumber.open(pdf) as doc:
            reader = PdfReader(pdf)
            for number, page in enumerate(doc.pages):
                if pdf.name == "big_board.pdf":
                    # a tile is the whole board drawn under a clip (pdfplumber reports clipped glyphs
                    # too): measure the clip, the marks and the footer
                    level = page_level(reader.pages[number])
                    boxes = [(min(x for x, _ in c), min(y for _, y in c), max(x for x, _ in c), max(y for _, y in c)) for c in level.clips]
                    boxes += [(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)) for _, x0, y0, x1, y1 in level.strokes]
                    objects = [{"x0": b[0], "top": b[1], "x1": b[2], "bottom": b[3]} for b in boxes]
                else:
                    objects = [*page.chars, *page.rects, *page.lines, *page.curves, *page.images]
                if not objects:
                    continue
                x0, top, x1, bottom = _extent(objects)
                where = f"{pdf.name} page {number + 1}: drawn from x {x0 / MM:.2f} to {x1 / MM:.2f} mm, y {top / MM:.2f} to {bottom / MM:.2f} mm"
                assert x0 >= margin - 0.3 and top >= margin - 0.3, where
                assert x1 <= page.width - margin + 0.3 and bottom <= page.height - margin + 0.3, where
                checked.add(pdf.name)
    assert {"chits.pdf", "ground.pdf", "rides.pdf", "reference.pdf", "big_board.pdf", "score_track.pdf",
            "cards.pdf", "duplex-calibration.pdf"} <= checked, checked


def test_too_big_quotes_the_unprintable_margin(tmp_path: Path) -> None:
    game = _game(tmp_path)
    chits = game / "chits.yaml"
    chits.write_text(chits.read_text(encoding="utf-8").replace("size: 24mm", "size: 120mm"), encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text[:text.index("components:")] + "components: [chits.yaml]\n", encoding="utf-8")
    # a 120 mm token fits a Letter page inside 4.23 mm, not inside 50 mm
    assert run_cli("check", str(game)).returncode == 0
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--unprintable", "50")
    assert result.returncode == 2, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith(f"{game / 'chits.yaml'}:"), line
    assert "a 120.0 × 120.0 mm piece does not fit on US Letter inside its 50 mm unprintable margin" in line, line
    assert "smaller --unprintable (the paper's own margin is 4.23 mm)" in line, line
    assert "Traceback" not in result.stderr
