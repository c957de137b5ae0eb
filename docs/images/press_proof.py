"""Redraw docs/images/press-proof.png and docs/images/press-soft-proof.png for docs/how-to/print-shop-cmyk.md.

press-proof.png: one card built with ``--shop drivethrucards``, its RGB page (left) and its press page (right), both
rendered by Ghostscript; the press page's CMYK is shown through the same profile it was converted with
(Ghostscript's default CMYK profile), so the right half is what the press prints, as a screen shows it.

press-soft-proof.png: the same card's ``punchboard images --proof-cmyk`` output: its RGB image (left) and its soft
proof (right), the image converted to CMYK through the press profile and back (generator/press/proof.py).

    .venv/bin/python docs/images/press_proof.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
DPI = 60
GAP = 14
GAME = "id: proof\ntitle: Proof\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = "id: cards\nkind: deck\nsize: poker\nlayout: proof/card\nback: none\ncards:\n  - {name: Press proof}\n"
LAYOUT = """\
bleed: 3mm
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: green, type: rect, box: bleed, x: 0, y: 0, width: 50%, height: 35%, fill: "#00ff00"}
  - {id: blue, type: rect, box: bleed, x: 50%, y: 0, width: 50%, height: 35%, fill: "#0050ff"}
  - {id: orange, type: rect, box: bleed, x: 0, y: 35%, width: 50%, height: 30%, fill: "#ff7a00"}
  - {id: teal, type: rect, box: bleed, x: 50%, y: 35%, width: 50%, height: 30%, fill: "#2a7f62"}
  - {id: name, type: text, box: safe, x: 0, y: 72%, width: 100%, height: 20%, text: "{name}", font: Vera-Bold, size: 14pt,
     align: center, color: "#000000"}
"""


def _render(pdf: Path, target: Path) -> Image.Image:
    subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", f"-r{DPI}", "-dFirstPage=1", "-dLastPage=1",
                    f"-sOutputFile={target}", str(pdf)], check=True, timeout=120)
    with Image.open(target) as image:
        return image.convert("RGB")


def _side_by_side(left: Image.Image, right: Image.Image, target: Path) -> None:
    sheet = Image.new("RGB", (left.width + right.width + GAP, max(left.height, right.height)), (255, 255, 255))
    sheet.paste(left, (0, 0))
    sheet.paste(right, (left.width + GAP, 0))
    sheet.save(target, optimize=True)


def _soft_proof(folder: Path, out: Path) -> None:
    subprocess.run([sys.executable, "-m", "punchboard", "images", str(folder), "--out", str(out), "--quiet", "--dpi", str(DPI),
                    "--proof-cmyk"], check=True, timeout=300)
    name = "cards/001-press-proof-front.png"
    with Image.open(out / "proof" / "images" / name) as rgb, Image.open(out / "proof" / "soft-proof" / name) as proof:
        _side_by_side(rgb.convert("RGB"), proof.convert("RGB"), HERE / "press-soft-proof.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "proof"
        (folder / "layouts" / "proof").mkdir(parents=True)
        for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("layouts/proof/card.yaml", LAYOUT)):
            (folder / name).write_text(text, encoding="utf-8")
        out = Path(tmp) / "out"
        subprocess.run([sys.executable, "-m", "punchboard", "build", str(folder), "--out", str(out), "--quiet", "--shop",
                        "drivethrucards"], check=True, timeout=300)
        rgb = _render(out / "proof" / "cards.pdf", Path(tmp) / "rgb.png")
        cmyk = _render(out / "proof" / "press" / "cards.pdf", Path(tmp) / "cmyk.png")
        _soft_proof(folder, Path(tmp) / "images")
    _side_by_side(rgb, cmyk, HERE / "press-proof.png")


if __name__ == "__main__":
    main()
