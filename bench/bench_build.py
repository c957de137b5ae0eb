"""Build benchmarks: full build, one-card rebuild, image-deck imposition against cartuli, peak memory.

Every figure is compared with a reference measured in the same run on the same
machine, and reported as a ratio, because these machines are shared and noisy.
"""

from __future__ import annotations

import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from punchboard.plumbing.paths import ROOT

WORK = ROOT / "bench" / ".work"
CARTULI_VENV = WORK / "cartuli-venv"
CARDS = 84

_MEASURE = """
import resource, sys, time
start = time.perf_counter()
from punchboard.cli import main
code = main(sys.argv[1:])
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""

CARTULI_JOB = """
import sys, time
from pathlib import Path
from cartuli import Card, CardImage, Sheet, Size, inch, LETTER, sheet_pdf_output
art, out = Path(sys.argv[1]), Path(sys.argv[2])
size = Size(2.5 * inch, 3.5 * inch)
cards = [Card(CardImage(p, size=size, bleed=0.125 * inch)) for p in sorted(art.glob("*.png"))]
sheet_pdf_output(Sheet(cards, size=LETTER), out)
"""


def _wall(command: list[str], cwd: Path = ROOT) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def _median(command: list[str], runs: int = 5) -> float:
    return statistics.median(_wall(command) for _ in range(runs))


def _punchboard(*args: str) -> tuple[float, float, int]:
    """(wall seconds, seconds inside the process, peak RSS in MB) of one CLI run."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURE, *args], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    inside, rss_kb = done.stderr.strip().splitlines()[-1].split()
    return wall, float(inside), int(rss_kb) // 1024


def _baseline() -> tuple[float, float]:
    bare = _median([sys.executable, "-c", "pass"])
    with_reportlab = _median([sys.executable, "-c", "import reportlab.pdfgen.canvas"])
    return bare, with_reportlab


def _full_build(out: Path) -> dict[str, object]:
    wall, _, rss = _punchboard("build", "--force", "--quiet", "--out", str(out))
    return {"benchmark": "full build, all 5 games (--force)", "result": f"{wall:.2f} s, peak {rss} MB",
            "ratio": f"{rss / 300:.2f} × the 300 MB memory budget", "target": "peak < 300 MB"}


def _one_card_rebuild(out: Path, baseline: float) -> list[dict[str, object]]:
    game = WORK / "steam_court_copy"
    shutil.rmtree(game, ignore_errors=True)
    shutil.copytree(ROOT / "components" / "steam_court", game)
    _punchboard("build", str(game), "--quiet", "--out", str(out))
    characters = game / "characters.yaml"
    original = characters.read_text()
    walls, insides = [], []
    for round_ in range(3):
        characters.write_text(original.replace("presides", f"presides{'!' * (round_ + 1)}", 1).replace(
            "Give one undesirable card to any player.", f"Give one undesirable card to any player{'!' * (round_ + 1)}"))
        wall, inside, _ = _punchboard("build", str(game), "--quiet", "--out", str(out))
        walls.append(wall)
        insides.append(inside)
    noop, _, _ = _punchboard("build", str(game), "--quiet", "--out", str(out))
    tweak = statistics.median(walls)
    in_process = _watch_style_rebuild(game, characters, original, out)
    return [
        {"benchmark": "rebuild after a one-card tweak (Steam Court character card, CLI)", "result": f"{tweak:.2f} s",
         "ratio": f"{tweak / baseline:.1f} × (python + import reportlab)", "target": "≤ 1.5 ×"},
        {"benchmark": "the same tweak rebuilt by `punchboard watch` (in-process)", "result": f"{in_process:.2f} s",
         "ratio": f"{in_process / baseline:.1f} × (python + import reportlab)", "target": "≤ 1.5 ×"},
        {"benchmark": "unchanged rebuild (CLI, nothing drawn)", "result": f"{noop:.2f} s",
         "ratio": f"{noop / baseline:.1f} × (python + import reportlab)", "target": ""},
    ]


def _watch_style_rebuild(game: Path, characters: Path, original: str, out: Path) -> float:
    """What watch mode does after a save: reload the game and rebuild, in a warm process."""
    from punchboard.generator.build import build_game
    from punchboard.generator.options import BuildOptions

    from punchboard.spec.loader import load_game

    options = BuildOptions(quiet=True)
    build_game(load_game(game), out, options)
    times = []
    for round_ in range(3):
        characters.write_text(original.replace(
            "Give one undesirable card to any player.", f"Give one undesirable card to any player{'?' * (round_ + 1)}"))
        start = time.perf_counter()
        build_game(load_game(game), out, options)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _art(folder: Path) -> None:
    """84 deterministic 300-dpi poker PNGs with 1/8 in bleed (825 × 1125 px)."""
    from PIL import Image, ImageDraw

    if folder.is_dir() and len(list(folder.glob("*.png"))) == CARDS:
        return
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(84)
    for index in range(1, CARDS + 1):
        image = Image.new("RGB", (825, 1125), tuple(rng.randrange(256) for _ in range(3)))
        draw = ImageDraw.Draw(image)
        for _ in range(40):
            x, y = rng.randrange(825), rng.randrange(1125)
            draw.ellipse([x, y, x + rng.randrange(20, 300), y + rng.randrange(20, 300)],
                         fill=tuple(rng.randrange(256) for _ in range(3)))
        draw.text((60, 60), f"card {index}", fill=(0, 0, 0))
        image.save(folder / f"card{index:02d}.png")


def _image_game(folder: Path) -> Path:
    _art(folder / "art")
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "art_card.yaml").write_text(
        "bleed: 0.125in\nelements:\n"
        "  - {id: art, type: image, box: bleed, x: 0, y: 0, width: 100%, height: 100%, src: 'art/{art}.png', fit: stretch}\n"
    )
    (folder / "cards.csv").write_text("name,art\n" + "".join(f"Card {i},card{i:02d}\n" for i in range(1, CARDS + 1)))
    (folder / "deck.yaml").write_text(
        "id: deck\nkind: deck\nsize: poker\nlayout: art_card\nback: none\nfields: [art]\ncsv: cards.csv\n")
    (folder / "game.yaml").write_text("id: art_deck\ntitle: Art deck\nplayers: {min: 1, max: 1}\ncomponents: [deck.yaml]\n")
    return folder


def _cartuli_python() -> Path | None:
    python = CARTULI_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(CARTULI_VENV)], check=True, capture_output=True)
        install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "cartuli"], capture_output=True)
        if install.returncode != 0:
            return None
    return python


def _against_cartuli(out: Path) -> list[dict[str, object]]:
    game = _image_game(WORK / "art_deck")
    python = _cartuli_python()
    if python is None:
        return [{"benchmark": "84-card PNG deck vs cartuli", "result": "cartuli could not be installed", "ratio": "", "target": ""}]
    job = WORK / "cartuli_job.py"
    job.write_text(CARTULI_JOB)
    ours, theirs = [], []
    for _ in range(3):
        ours.append(_punchboard("build", str(game), "--force", "--quiet", "--backs", "none", "--out", str(out))[0])
        theirs.append(_wall([str(python), str(job), str(game / "art"), str(WORK / "cartuli.pdf")]))
    our_size = (out / "art_deck" / "deck.pdf").stat().st_size
    their_size = (WORK / "cartuli.pdf").stat().st_size
    mine, other = statistics.median(ours), statistics.median(theirs)
    return [
        {"benchmark": "impose 84 × 300-dpi PNG poker deck on Letter with crop marks: time", "result": f"{mine:.2f} s vs cartuli {other:.2f} s",
         "ratio": f"{mine / other:.2f} × cartuli", "target": "≤ 0.2 ×"},
        {"benchmark": "same job: PDF size (same 300-dpi images)", "result": f"{our_size / 1e6:.2f} MB vs cartuli {their_size / 1e6:.2f} MB",
         "ratio": f"{our_size / their_size:.2f} × cartuli", "target": "≤ 1 ×"},
    ]


def run() -> list[dict[str, object]]:
    WORK.mkdir(parents=True, exist_ok=True)
    out = WORK / "out"
    shutil.rmtree(out, ignore_errors=True)
    bare, baseline = _baseline()
    rows: list[dict[str, object]] = [
        {"benchmark": "reference: python start-up; + import reportlab.pdfgen.canvas", "result": f"{bare:.3f} s; {baseline:.3f} s", "ratio": "1 ×", "target": ""},
        _full_build(out),
    ]
    rows += _one_card_rebuild(out, baseline)
    rows += _against_cartuli(out)
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
