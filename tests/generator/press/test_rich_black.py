"""``--rich-black``: a large black area prints as layouts/press.yaml's rich black (60/40/40/100), while 8 pt black text
and a thin black rule stay 100 % K; the coverage check sees the 240 % (issue #43, generator/press/rich_black.py).
Read back by rendering the press file to CMYK with Ghostscript (tests/generator/press/pdfx_check.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from punchboard.generator.press.coverage import page_coverage

from tests.build_helpers import build
from tests.generator.press.pdfx_check import problems, render_cmyk

RICH = np.array([153, 102, 102, 255])  # 60/40/40/100 % as 8-bit ink
GAME = "id: blacks\ntitle: Blacks\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = "id: cards\nkind: deck\nsize: poker\nlayout: blacks/card\nback: none\ncards:\n  - {name: Night}\n"
LAYOUT = """\
bleed: 3mm
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: night, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 40%, fill: "#000000"}
  - {id: rule, type: rect, box: safe, x: 0, y: 47%, width: 100%, height: 0.2mm, fill: "#000000"}
  - {id: small, type: text, box: safe, x: 0, y: 52%, width: 100%, height: 12%, text: "Eight point black text here", font: Vera,
     size: 8pt, align: left, color: "#000000"}
  - {id: title, type: text, box: safe, x: 0, y: 70%, width: 100%, height: 20%, text: "TITLE", font: Vera-Bold, size: 24pt,
     align: left, color: "#000000"}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    folder = tmp_path_factory.mktemp("blacks")
    (folder / "layouts" / "blacks").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("layouts/blacks/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    out = folder / "out"
    return out / "blacks" / "press" / "cards.pdf", build(folder, out, "--shop", "drivethrucards", "--rich-black")


def _band(pixels: np.ndarray, top: float, bottom: float) -> np.ndarray:
    height, width = pixels.shape[:2]
    return pixels[int(height * top):int(height * bottom), int(width * 0.02):int(width * 0.98)].reshape(-1, 4).astype(int)


def test_the_large_black_area_is_rich_and_small_text_is_k_only(built: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    path, run = built
    assert run.returncode == 0, run.stderr
    assert problems(path) == []  # still a PDF/X-1a file
    pixels = render_cmyk(path, 1, 150)
    night = _band(pixels, 0.05, 0.35)
    assert np.abs(night - RICH).max() <= 3  # every pixel of the big area: 60/40/40/100
    for top, bottom, what in ((0.45, 0.50, "rule"), (0.50, 0.66, "8 pt text")):
        band = _band(pixels, top, bottom)
        inked = band[band[:, 3] == 255]
        assert len(inked) > 20, what
        assert inked[:, :3].max() == 0, what  # one plate: no cyan, magenta or yellow under the black
    title = _band(pixels, 0.68, 0.92)
    inked = title[title[:, 3] == 255]
    assert len(inked) > 200 and np.abs(inked - RICH).max() <= 3  # 24 pt is over text_below (12 pt): rich


def test_the_coverage_check_sees_the_rich_black(built: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    coverage = page_coverage(built[0], 36)
    assert len(coverage) == 1 and 238 <= coverage[0] <= 242  # 60 + 40 + 40 + 100 = 240 %, under the 300 % limit
    assert "total ink coverage" not in built[1].stderr
