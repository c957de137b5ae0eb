"""Redraw docs/images/repeats-grids-board.png and repeats-grids-cards.png: the example of
docs/how-to/repeats-and-grids.md, built through the CLI from the page's own YAML and CSV, cut out of its sheets
with pdftoppm at 60 dpi (the board at its trim, the cards as their row on the sheet).

    .venv/bin/python docs/images/repeats_grids.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pdfplumber

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DPI = 60
BLEED = 3 * 72 / 25.4  # the paper rectangles run 3 mm into the bleed
BOARD_PAPER = (0.957, 0.937, 0.882)  # #f4efe1
CARD_PAPER = (0.984, 0.973, 0.941)  # #fbf8f0


def _crop(pdf: Path, paper: tuple[float, ...], inset: float, name: str) -> None:
    """The part of page 1 of ``pdf`` the rectangles of colour ``paper`` cover, less ``inset`` on each side."""
    with pdfplumber.open(pdf) as document:
        found = [r for r in document.pages[0].rects if tuple(round(v, 3) for v in r["non_stroking_color"]) == paper]
    x0, x1 = min(r["x0"] for r in found) + inset, max(r["x1"] for r in found) - inset
    top, bottom = min(r["top"] for r in found) + inset, max(r["bottom"] for r in found) - inset
    scale = DPI / 72
    numbers = [str(round(v * scale)) for v in (x0, top, x1 - x0, bottom - top)]
    crop = [part for pair in zip(["-x", "-y", "-W", "-H"], numbers, strict=True) for part in pair]
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", "-f", "1", "-l", "1", *crop, str(pdf), str(HERE / name)],
                   check=True)


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from tests.docs.test_repeats_grids_page import write_example

    with tempfile.TemporaryDirectory() as folder:
        game, out = Path(folder) / "game", Path(folder) / "out"
        write_example(game)
        subprocess.run([sys.executable, "-m", "punchboard", "build", str(game), "--out", str(out), "--quiet"], check=True)
        _crop(out / "realm" / "board.pdf", BOARD_PAPER, BLEED, "repeats-grids-board")
        _crop(out / "realm" / "market.pdf", CARD_PAPER, 0.0, "repeats-grids-cards")


if __name__ == "__main__":
    main()
