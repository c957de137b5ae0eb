"""Floor for the image-deck benchmark: the same job written directly with reportlab, nothing else.

Every PNG of ART_FOLDER (except back.png) as a poker card with 1/8 in bleed, six
to a US Letter page, crop marks in line with every cut outside the art, and after
each page of fronts its duplex page of backs (back.png in every slot, mirrored
for a long-edge flip), Flate-compressed with reportlab's canvas: no layout
files, no checks, no fitting, no footers. ``bench_build`` compares
``punchboard build`` of the same deck against it.
Usage: python bench/floor_reportlab.py ART_FOLDER OUT.pdf
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

PAGE_W, PAGE_H = 612.0, 792.0
BLEED = 9.0  # 1/8 in
TRIM_W, TRIM_H = 2.5 * 72, 3.5 * 72
SLOT_W, SLOT_H = TRIM_W + 2 * BLEED, TRIM_H + 2 * BLEED
COLS, ROWS = 3, 2  # 3 × 3 with full bleed does not fit on Letter
MARK = 12.0


def _slots() -> list[tuple[float, float]]:
    x0 = (PAGE_W - COLS * SLOT_W) / 2
    y0 = (PAGE_H - ROWS * SLOT_H) / 2
    return [(x0 + c * SLOT_W, y0 + (ROWS - 1 - r) * SLOT_H) for r in range(ROWS) for c in range(COLS)]


def _marks(canvas: Canvas) -> None:
    x0 = (PAGE_W - COLS * SLOT_W) / 2
    y0 = (PAGE_H - ROWS * SLOT_H) / 2
    canvas.setLineWidth(0.25)
    for c in range(COLS):
        for x in (x0 + c * SLOT_W + BLEED, x0 + (c + 1) * SLOT_W - BLEED):
            canvas.line(x, y0 - MARK - 2, x, y0 - 2)
            canvas.line(x, y0 + ROWS * SLOT_H + 2, x, y0 + ROWS * SLOT_H + MARK + 2)
    for r in range(ROWS):
        for y in (y0 + r * SLOT_H + BLEED, y0 + (r + 1) * SLOT_H - BLEED):
            canvas.line(x0 - MARK - 2, y, x0 - 2, y)
            canvas.line(x0 + COLS * SLOT_W + 2, y, x0 + COLS * SLOT_W + MARK + 2, y)


def main(art: Path, out: Path) -> None:
    fronts = sorted(p for p in art.glob("*.png") if p.name != "back.png")
    back = art / "back.png"
    canvas = Canvas(str(out), pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1)
    slots = _slots()
    for start in range(0, len(fronts), len(slots)):
        sheet = fronts[start:start + len(slots)]
        for path, (x, y) in zip(sheet, slots, strict=False):
            canvas.drawImage(str(path), x, y, SLOT_W, SLOT_H)
        _marks(canvas)
        canvas.showPage()
        for _, (x, y) in zip(sheet, slots, strict=False):
            canvas.drawImage(str(back), PAGE_W - x - SLOT_W, y, SLOT_W, SLOT_H)  # long-edge flip: mirrored
        _marks(canvas)
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
