"""Redraw docs/images/translate.png: one card of the starter game (``punchboard init``) in English and in German,
side by side, from ``punchboard images --lang all`` at 120 dpi: the PNGs come from the same PDF drawing the print
files use.

    .venv/bin/python docs/images/translate.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
DPI = 120
CARD = "deck/004-apprentice-front.png"  # the first Apprentice: its German text runs half as long again
GAP = 24  # pixels between the two cards


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "punchboard", "init", "Duo", "--quiet"], cwd=folder, check=True)
        game, out = Path(folder) / "Duo", Path(folder) / "out"
        subprocess.run([sys.executable, "-m", "punchboard", "images", str(game), "--lang", "all", "--out", str(out),
                        "--dpi", str(DPI), "--bleed", "0", "--quiet"], check=True)
        cards = [Image.open(out / "duo" / lang / "images" / CARD).convert("RGB") for lang in ("en", "de")]
    width, height = cards[0].size
    sheet = Image.new("RGB", (2 * width + GAP, height), "white")
    for n, card in enumerate(cards):
        sheet.paste(card, (n * (width + GAP), 0))
    sheet.save(HERE / "translate.png", optimize=True)


if __name__ == "__main__":
    main()
