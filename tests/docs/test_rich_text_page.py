"""docs/how-to/rich-text.md is real: its layout and component are written into a game folder, built without a
warning, and read back; the picture it shows exists (rendered from this example, see the page)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber

from tests.conftest import ROOT, run_cli
from tests.docs.page_example import write_page_files

PAGE = ROOT / "docs" / "how-to" / "rich-text.md"


def write_example(folder: Path) -> None:
    """The page's files, and a game.yaml listing its component, in ``folder``."""
    write_page_files(PAGE, folder, {"layouts/player_aid.yaml", "aids.yaml"}, "aid", "aids.yaml")


def test_the_example_builds_without_warnings_and_shows_each_construct(tmp_path: Path) -> None:
    write_example(tmp_path / "game")
    result = run_cli("build", str(tmp_path / "game"), "--out", str(tmp_path / "out"), "--backs", "none")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    with pdfplumber.open(tmp_path / "out" / "aid" / "aids.pdf") as pdf:
        page = pdf.pages[0]
        lines = [line["text"] for line in page.extract_text_lines()]
        colours = {tuple(round(v, 3) for v in c["non_stroking_color"]) for c in page.chars if c["text"] == "l"}
    squeezed = ["".join(line.split()) for line in lines]
    assert any(line.startswith("5Herald(2)") for line in squeezed), lines
    assert any(line.startswith("1.Drawacard") for line in squeezed), lines
    assert any(line.endswith("-") for line in squeezed), lines  # hyphenated
    assert (0.698, 0.133, 0.133) in colours  # "lower" in crimson


def test_the_page_shows_its_picture() -> None:
    assert "](../images/rich-text.png)" in PAGE.read_text(encoding="utf-8")
    assert (ROOT / "docs" / "images" / "rich-text.png").stat().st_size > 1000
