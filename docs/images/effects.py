"""Redraw docs/images/effects.png: the hero card of docs/how-to/effects.md, built through the CLI from the page's
own YAML (with the test's drawn portrait) and rendered by ``punchboard images`` at its trim, 150 dpi: the PNG comes
from the same PDF drawing the print files use.

    .venv/bin/python docs/images/effects.py
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
    from tests.docs.test_effects_page import write_example

    with tempfile.TemporaryDirectory() as folder:
        game, out = Path(folder) / "game", Path(folder) / "out"
        write_example(game)
        subprocess.run([sys.executable, "-m", "punchboard", "images", str(game), "--out", str(out), "--dpi", str(DPI),
                        "--bleed", "0", "--quiet"], check=True)
        (face,) = sorted((out / "hero" / "images").rglob("*.png"))
        shutil.copyfile(face, HERE / "effects.png")


if __name__ == "__main__":
    main()
