"""Redraw the README's pictures of sheets, built through the CLI and rendered with pdfium:

- docs/images/bleed-policies.png: Belpunk's deck on US Letter under the default bleed policy (9 a
  sheet on shared cut lines) and under ``--bleed-policy gutter`` (full bleed: 6 a sheet, turned 90°,
  and that sheet's backs turned the other way);
- docs/images/init-first-sheet.png: the first sheet of the deck ``punchboard init`` writes.

    .venv/bin/python docs/images/sheets.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

HERE = Path(__file__).resolve().parent
DPI = 50
GAP = 14
GREY = (200, 200, 200)


def _page(pdf: Path, index: int) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        return document[index].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()


def _build(out: Path, *flags: str, game: str = "belpunk") -> Path:
    subprocess.run([sys.executable, "-m", "punchboard", "build", game, "--out", str(out), "--quiet", "--paper", "letter", *flags],
                   check=True)
    return out / Path(game).name.replace(" ", "_").lower() / "deck.pdf"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        shared = _build(Path(tmp) / "auto")
        gutter = _build(Path(tmp) / "gutter", "--bleed-policy", "gutter")
        pages = [_page(shared, 0), _page(gutter, 0), _page(gutter, 1)]
    width = sum(p.width for p in pages) + GAP * (len(pages) + 1)
    height = max(p.height for p in pages) + 2 * GAP
    sheet = Image.new("RGB", (width, height), GREY)
    x = GAP
    for page in pages:
        sheet.paste(page, (x, GAP))
        x += page.width + GAP
    sheet.save(HERE / "bleed-policies.png", optimize=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "punchboard", "init", "mygame"], cwd=tmp, check=True, capture_output=True)
        first = _page(_build(Path(tmp) / "out", game=str(Path(tmp) / "mygame")), 0)
    first.thumbnail((425, 550))
    first.save(HERE / "init-first-sheet.png", optimize=True)


if __name__ == "__main__":
    main()
