"""Tokens read back from real PDFs: dense packing, cut outlines, per-token backs mirrored behind their fronts."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.impose.tokens import pack

from punchboard.cli import main

MM = 72 / 25.4
TOL = 0.1 * MM

GAME = """\
id: chits
title: Chits
players: {min: 1, max: 2}
components: [tokens.yaml]
"""
TOKENS = """\
id: tokens
kind: tokens
shape: SHAPE
size: 25mm
layout: face
back: none
fields: [label]
tokens:
  - range: {field: label, from: 1, to: 20}
  - {label: 21, back: {layout: back}}
  - {label: 22, back: {layout: back}}
"""
FACE = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#dddddd"}
  - {id: label, type: text, x: 0, y: 40%, width: 100%, height: 20%, text: "F{label}", font: Vera-Bold, size: 9pt, align: center}
"""
BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#444444"}
  - {id: label, type: text, x: 0, y: 40%, width: 100%, height: 20%, text: "B{label}", font: Vera-Bold, size: 9pt, align: center, color: "#ffffff"}
"""


def build(root: Path, shape: str, *flags: str) -> Path:
    folder = root / "chits"
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "tokens.yaml").write_text(TOKENS.replace("SHAPE", shape))
    (folder / "layouts" / "face.yaml").write_text(FACE)
    (folder / "layouts" / "back.yaml").write_text(BACK)
    assert main(["build", str(folder), "--out", str(root / "out"), "--quiet", *flags]) == 0
    return root / "out" / "chits" / "tokens.pdf"


def centres(page: pdfplumber.page.Page, prefix: str) -> dict[str, tuple[float, float]]:
    return {
        w["text"][1:]: ((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2)
        for w in page.extract_words()
        if re.fullmatch(prefix + r"\d+", w["text"])
    }


def test_offset_rows_pack_more_round_tokens_than_a_square_grid() -> None:
    room = Rect(0, 0, 200 * MM, 270 * MM)
    square = pack(room, 25 * MM, 25 * MM, 3 * MM, 1.5 * MM, offset_rows=False)
    dense = pack(room, 25 * MM, 25 * MM, 3 * MM, 1.5 * MM, offset_rows=True)
    assert len(dense) > len(square)
    for a in dense:  # bleeds never overlap: centres at least one pitch apart
        for b in dense:
            if a is not b:
                d = ((a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2) ** 0.5
                assert d >= (25 + 6) * MM - 1e-6
        assert room.contains(a.inset(-3 * MM))


@pytest.mark.parametrize("shape", ["circle", "gear", "hexagon", "square"])
def test_each_token_gets_a_cut_outline_around_its_art(tmp_path: Path, shape: str) -> None:
    pdf = build(tmp_path, shape, "--paper", "a4", "--backs", "none")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        fronts = centres(page, "F")
        assert len(fronts) == 22
        cuts = [c for c in page.curves + page.rects if abs(c.get("linewidth", 0) - 0.4) < 0.01]
        assert len(cuts) == 22
        for x, y in fronts.values():  # every label sits centred in its own cut outline, 25 mm across
            outline = next(c for c in cuts if c["x0"] <= x <= c["x1"] and c["top"] <= y <= c["bottom"])
            assert (outline["x0"] + outline["x1"]) / 2 == pytest.approx(x, abs=TOL)
            assert outline["x1"] - outline["x0"] == pytest.approx(25 * MM, abs=1 * MM)


def test_per_token_backs_land_behind_their_fronts_and_others_leave_gaps(tmp_path: Path) -> None:
    pdf = build(tmp_path, "circle", "--paper", "letter", "--backs", "duplex-long")
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 2
        fronts, backs = centres(doc.pages[0], "F"), centres(doc.pages[1], "B")
        assert set(backs) == {"21", "22"}  # tokens without a back leave their place empty
        width = doc.pages[0].width
        for label, (bx, by) in backs.items():
            fx, fy = fronts[label]
            assert bx == pytest.approx(width - fx, abs=TOL) and by == pytest.approx(fy, abs=TOL)


def test_gutterfold_tokens_carry_their_turned_backs_on_the_same_page(tmp_path: Path) -> None:
    pdf = build(tmp_path, "gear", "--paper", "a4", "--backs", "gutterfold")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        assert page.width > page.height
        turned = "".join(c["text"] for c in page.chars if c["matrix"][0] < 0)
        assert sorted(turned) == sorted("B21B22")  # only the two tokens with a back
