"""Redraw docs/images/fonts.png: the specimen card of docs/how-to/fonts-and-icons.md, built through the CLI from the page's
own YAML and rendered by ``punchboard images`` at its trim, 150 dpi: the PNG comes
from the same PDF drawing the print files use.

    .venv/bin/python docs/images/fonts.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DPI = 150


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from tests.docs.test_fonts_page import write_example

    with tempfile.TemporaryDirectory() as folder:
        game, out = Path(folder) / "game", Path(folder) / "out"
        write_example(game)
        subprocess.run([sys.executable, "-m", "punchboard", "images", str(game), "--out", str(out), "--dpi", str(DPI),
                        "--bleed", "0", "--quiet"], check=True)
        (face,) = sorted((out / "specimen" / "images").rglob("*.png"))
        shutil.copyfile(face, HERE / "fonts.png")


if __name__ == "__main__":
    main()
