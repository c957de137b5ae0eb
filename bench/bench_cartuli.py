"""The 84-card image deck against cartuli (a PyPI card-imposition library), in the same run.

Needs network access once to install cartuli into ``bench/.work/cartuli-venv``;
without it the row says so. Runs are interleaved, ``BENCH_REPEATS`` each.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.bench_build import WORK, image_game
from bench.measure import execute, paired, punchboard, ratio, row

CARTULI_VENV = WORK / "cartuli-venv"
CARTULI_JOB = """
import sys
from pathlib import Path
from cartuli import Card, CardImage, Sheet, Size, inch, LETTER, sheet_pdf_output
art, out = Path(sys.argv[1]), Path(sys.argv[2])
size = Size(2.5 * inch, 3.5 * inch)
cards = [Card(CardImage(p, size=size, bleed=0.125 * inch)) for p in sorted(art.glob("*.png"))]
sheet_pdf_output(Sheet(cards, size=LETTER), out)
"""


def _cartuli_python() -> Path | None:
    python = CARTULI_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(CARTULI_VENV)], check=True, capture_output=True)
        install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "cartuli"], capture_output=True)
        if install.returncode != 0:
            return None
    return python


def run() -> list[dict[str, str]]:
    WORK.mkdir(parents=True, exist_ok=True)
    game = image_game(WORK / "art_deck")
    out = WORK / "out-cartuli"
    python = _cartuli_python()
    if python is None:
        return [row("84-card PNG deck vs cartuli", "cartuli could not be installed", "", "")]
    job = WORK / "cartuli_job.py"
    job.write_text(CARTULI_JOB)
    ours, theirs = paired(
        lambda: execute(punchboard("build", str(game), "--force", "--quiet", "--backs", "none", "--out", str(out))).wall,
        lambda: execute([str(python), str(job), str(game / "art"), str(WORK / "cartuli.pdf")]).wall,
    )
    our_size = (out / "art_deck" / "deck.pdf").stat().st_size
    their_size = (WORK / "cartuli.pdf").stat().st_size
    return [
        row("84 × 300-dpi PNG poker deck on Letter with crop marks vs cartuli: time", ours.spread(),
            f"{ratio(ours, theirs):.2f} × cartuli ({theirs.median:.2f} s)", "≤ 0.2 ×"),
        row("same job: PDF size", f"{our_size / 1e6:.2f} MB vs cartuli {their_size / 1e6:.2f} MB",
            f"{our_size / their_size:.2f} × cartuli", "≤ 1 ×"),
    ]
