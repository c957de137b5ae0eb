"""Crop marks never shorter than the sheet style's ``crop_marks.min_length``, measured on every bundled sheet.

The five bundled games are built as a user builds them (default Letter, and ``--paper a4``), and every
crop mark (a stroke of ``crop_marks.stroke`` drawn at page level) is read back from each component PDF.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from punchboard.generator.impose.style import load_style
from pypdf import PdfReader

from tests.conftest import run_cli
from tests.pdf_content import page_level

MM = 72 / 25.4
GAMES = ("astonishing", "belpunk", "knights_vs_steambots", "steam_court", "steamark")


def mark_lengths(pdf: Path, stroke: float) -> list[float]:
    """The length in mm of every page-level segment stroked ``stroke`` wide, over all pages."""
    out = []
    for page in PdfReader(pdf).pages:
        for x0, y0, x1, y1 in page_level(page).marks(stroke):
            out.append(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / MM)
    return out


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_crop_mark_of_every_bundled_sheet_is_at_least_the_minimum(tmp_path: Path, paper: str) -> None:
    style = load_style()
    result = run_cli("build", *GAMES, "--out", str(tmp_path), "--paper", paper, "--jobs", "1")
    assert result.returncode == 0, result.stderr
    minimum = style.mark_min_length / MM
    measured = 0
    short: dict[str, float] = {}
    for game in GAMES:
        for pdf in sorted((tmp_path / game).glob("*.pdf")):
            if pdf.name.endswith("-print-and-play.pdf"):
                continue  # the combined PDF copies these pages
            lengths = mark_lengths(pdf, style.mark_stroke)
            measured += len(lengths)
            if lengths and min(lengths) < minimum - 1e-3:
                short[f"{game}/{pdf.name}"] = round(min(lengths), 3)
    assert measured > 1000  # the card, banknote and tile sheets' marks were all read
    assert short == {}
