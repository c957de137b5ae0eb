"""Redraw docs/images/showcase.png: five cards of the bundled showcase game (Harbour Lights) side by side — three
cargo cards (their costs as 1, 4 and 6 coins), the player aid and the common back — rendered by
``punchboard images`` at their trim, 100 dpi, from the same PDF drawing the print files use.

    .venv/bin/python docs/images/showcase.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
DPI = 100
GAP = 16  # pixels between the cards and round the row
CARDS = ("cargo/001-herring-catch-front.png", "cargo/013-pepper-sacks-front.png", "cargo/019-mast-pine-front.png",
         "aid/001-harbour-master-s-ledger-front.png", "cargo/001-herring-catch-back.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        subprocess.run([sys.executable, "-m", "punchboard", "images", "showcase", "--out", str(out), "--dpi", str(DPI),
                        "--bleed", "0", "--quiet"], check=True)
        faces = [Image.open(out / "showcase" / "images" / name).convert("RGB") for name in CARDS]
        width = sum(face.width for face in faces) + GAP * (len(faces) + 1)
        height = max(face.height for face in faces) + 2 * GAP
        row = Image.new("RGB", (width, height), (255, 255, 255))
        x = GAP
        for face in faces:
            row.paste(face, (x, GAP))
            x += face.width + GAP
        row.save(HERE / "showcase.png", optimize=True)


if __name__ == "__main__":
    main()
