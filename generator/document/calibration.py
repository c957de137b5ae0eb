"""Duplex calibration: a front page of targets and a back page of crosshairs shifted in known steps.

Print both pages duplex, hold the sheet against a light, find the cell whose
crosshair sits in its target's centre, and pass that cell's label as
``--duplex-offset X,Y``: X moves backs right, Y moves them up (as seen on the back).
"""

from __future__ import annotations

from punchboard.generator.draw import fonts
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.impose.backs import mirror_rect
from punchboard.generator.impose.grid import printable_margin
from punchboard.generator.impose.style import SheetStyle
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm, to_mm
from punchboard.plumbing.words import ENGLISH, words
from punchboard.spec.model import Paper

from .pages import FooterBand, Page


def calibration_pages(paper: Paper, style: SheetStyle, mode: str, lang: str = ENGLISH) -> list[Page]:
    """The calibration sheet's two pages for back mode ``mode``, its words in ``lang``."""
    w = words(lang)
    steps, step = style.calibration_steps, style.calibration_step
    n = 2 * steps + 1
    m, f = printable_margin(paper, style), style.footer_height
    room = Rect(m, m + f, paper.width - 2 * m, paper.height - 2 * m - f - mm(12))
    cell = min(room.width / n, room.height / n)
    x0 = room.x + (room.width - cell * n) / 2
    y0 = room.y + (room.height - cell * n) / 2
    flip_x, flip_y = (True, False) if mode != "duplex-short" else (False, True)
    footer = FooterBand(Rect(m, m, paper.width - 2 * m, f))
    font, bold = fonts.resolve("Vera"), fonts.resolve("Vera-Bold")

    def cells() -> list[tuple[Rect, int, int]]:
        out = []
        for row in range(n):
            for col in range(n):
                ox, oy = col - steps, steps - row
                out.append((Rect(x0 + col * cell, y0 + (n - 1 - row) * cell, cell, cell), ox, oy))
        return out

    def front(canvas: Canvas) -> None:
        canvas.setFont(bold, 12)
        canvas.setFillColor("#000000")
        canvas.drawString(m + mm(2), paper.height - m - mm(6), w.text("Duplex calibration ({mode})", mode=mode))
        advice = w.text("Print both pages duplex at 100 %. Against a light, find the crosshair centred in its circle; "
                        "use that cell's X,Y as --duplex-offset.")
        room = paper.width - 2 * m - mm(4)  # a longer language's line shrinks to stay on the page
        canvas.setFont(font, min(7.5, 7.5 * room / max(1.0, fonts.width(advice, font, 7.5))))
        canvas.drawString(m + mm(2), paper.height - m - mm(10.5), advice)
        canvas.setLineWidth(0.4)
        for rect, ox, oy in cells():
            cx, cy = rect.center
            canvas.setStrokeColor("#999999")
            canvas.rect(rect.x, rect.y, rect.width, rect.height, stroke=1, fill=0)
            canvas.setStrokeColor("#000000")
            canvas.circle(cx, cy, min(mm(step) * 0.5, cell * 0.2), stroke=1, fill=0)
            canvas.circle(cx, cy, cell * 0.3, stroke=1, fill=0)
            canvas.setFont(font, 5.5)
            # the label is what --duplex-offset X,Y takes: a point before the decimals in every language
            canvas.drawCentredString(cx, rect.y + 2.5, f"{to_mm(ox * step):+.1f},{to_mm(oy * step):+.1f}")

    def back(canvas: Canvas) -> None:
        canvas.setStrokeColor("#c00000")
        canvas.setLineWidth(0.3)
        for rect, ox, oy in cells():
            seen = mirror_rect(rect, paper.width, paper.height, flip_x, flip_y)
            cx, cy = seen.center
            # Back art drawn with offset o lands at its place + o + the printer's error e. The
            # crosshair of the cell labelled s is drawn at its place + s: it looks centred when
            # s + e = 0, and then --duplex-offset s makes every back land where it belongs.
            cx += ox * step
            cy += oy * step
            arm = cell * 0.32
            canvas.line(cx - arm, cy, cx + arm, cy)
            canvas.line(cx, cy - arm, cx, cy + arm)

    mirrored = footer.mirrored(paper.width, paper.height, flip_x, flip_y)
    name, meta = w.text("duplex calibration"), {"lang": w.lang}
    return [
        Page(paper.width, paper.height, front, name, w.text("front: targets"), footer, role="calibration", meta=meta),
        Page(paper.width, paper.height, back, name, w.text("back: crosshairs shifted in known steps"), mirrored,
             role="calibration", meta=dict(meta)),
    ]
