"""One card of a how-to page's own example as a picture: the example's files written by the page's test
(``write_example``), built through ``punchboard images`` at its trim, so the PNG comes from the same PDF drawing the
print files use. docs/images/effects.py and docs/images/fonts.py call :func:`draw`."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DPI = 150


def draw(write_example: Callable[[Path], None], game_id: str, picture: str) -> None:
    """Write the example into a scratch folder, render its only card face at ``DPI`` and keep it as ``picture``."""
    with tempfile.TemporaryDirectory() as folder:
        game, out = Path(folder) / "game", Path(folder) / "out"
        write_example(game)
        subprocess.run([sys.executable, "-m", "punchboard", "images", str(game), "--out", str(out), "--dpi", str(DPI),
                        "--bleed", "0", "--quiet"], check=True)
        (face,) = sorted((out / game_id / "images").rglob("*.png"))
        shutil.copyfile(face, HERE / picture)
