"""Redraw docs/images/rich-text.png: the player aid of docs/how-to/rich-text.md, built through the CLI from the
page's own YAML and cut out of its sheet at its trim with pdftoppm (150 dpi, so its 6–8 pt text can be read).

    .venv/bin/python docs/images/rich_text.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pdfplumber

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DPI = 150
BLEED = 3 * 72 / 25.4  # the layout's band and paper run 3 mm into the bleed
PAPER = (0.984, 0.973, 0.941)  # the layout's paper colour, #fbf8f0: the bleed rectangle it fills


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from tests.docs.test_rich_text_page import write_example

    with tempfile.TemporaryDirectory() as folder:
        game, out = Path(folder) / "game", Path(folder) / "out"
        write_example(game)
        subprocess.run([sys.executable, "-m", "punchboard", "build", str(game), "--out", str(out), "--backs", "none", "--quiet"], check=True)
        pdf = out / "aid" / "aids.pdf"
        with pdfplumber.open(pdf) as document:
            paper = next(r for r in document.pages[0].rects if tuple(round(v, 3) for v in r["non_stroking_color"]) == PAPER)
        scale = DPI / 72
        x, y = (paper["x0"] + BLEED) * scale, (paper["top"] + BLEED) * scale
        width, height = (paper["width"] - 2 * BLEED) * scale, (paper["height"] - 2 * BLEED) * scale
        crop = [f"-{k}" for k in "xyWH"]
        numbers = [str(round(v)) for v in (x, y, width, height)]
        subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", "-f", "1", "-l", "1",
                        *(part for pair in zip(crop, numbers, strict=True) for part in pair), str(pdf), str(HERE / "rich-text")], check=True)


if __name__ == "__main__":
    main()
