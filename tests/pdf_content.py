"""What a PDF page draws at its own level, read from its content stream with pypdf.

Fast and exact for what the page itself draws (crop and registration marks, clip
paths, where each form XObject is placed); what happens inside a form is not read.
Coordinates are PDF points, y from the top of the page (like pdfplumber).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pypdf import PageObject
from pypdf.generic import ContentStream

Point = tuple[float, float]


@dataclass
class PageLevel:
    height: float
    strokes: list[tuple[float, float, float, float, float]] = field(default_factory=list)  # width, x0, y0, x1, y1
    fills: list[tuple[float, float, float, float]] = field(default_factory=list)  # filled rectangles x, top, w, h
    clips: list[list[Point]] = field(default_factory=list)  # the points of each clip path
    forms: list[Point] = field(default_factory=list)  # where each form's origin is placed
    placed: list[tuple[str, Point, tuple[float, float, float, float] | None]] = field(default_factory=list)
    # each form placed: its name, where its origin lands, and the page-level clip box around it (x0, top, x1, bottom)

    def marks(self, width: float) -> list[tuple[float, float, float, float]]:
        """Straight segments stroked with line width ``width``."""
        return [(x0, y0, x1, y1) for w, x0, y0, x1, y1 in self.strokes if abs(w - width) < 0.01]

    def cuts(self, width: float) -> tuple[list[float], list[float]]:
        """x of every vertical and y of every horizontal mark of line width ``width``."""
        segments = self.marks(width)
        xs = sorted({round(x0, 2) for x0, y0, x1, y1 in segments if abs(x0 - x1) < 0.01})
        ys = sorted({round(y0, 2) for x0, y0, x1, y1 in segments if abs(y0 - y1) < 0.01})
        return xs, ys


PAINT = {b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"}


def page_level(page: PageObject) -> PageLevel:
    height = float(page.mediabox.height)
    level = PageLevel(height)
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    width = 1.0
    stack: list[tuple[tuple[float, ...], float, tuple[float, float, float, float] | None]] = []
    clip_box: tuple[float, float, float, float] | None = None
    segments: list[tuple[float, float, float, float]] = []
    points: list[Point] = []
    rects: list[tuple[float, float, float, float]] = []
    clip = False
    current: Point | None = None

    def at(x: float, y: float) -> Point:
        a, b, c, d, e, f = ctm
        return a * x + c * y + e, height - (b * x + d * y + f)

    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append((ctm, width, clip_box))
        elif op == b"Q":
            ctm, width, clip_box = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"w":
            width = float(operands[0])
        elif op == b"m":
            current = at(float(operands[0]), float(operands[1]))
            points.append(current)
        elif op == b"l" and current is not None:
            end = at(float(operands[0]), float(operands[1]))
            segments.append((*current, *end))
            points.append(end)
            current = end
        elif op in (b"c", b"v", b"y"):
            current = at(float(operands[-2]), float(operands[-1]))
            points.append(current)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            corners = [at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)]
            points.extend(corners)
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            rects.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
        elif op in (b"W", b"W*"):
            clip = True
        elif op in PAINT:
            if clip:
                level.clips.append(points)
                if points:
                    xs, ys = [x for x, _ in points], [y for _, y in points]
                    box = (min(xs), min(ys), max(xs), max(ys))
                    if clip_box is not None:
                        box = (max(box[0], clip_box[0]), max(box[1], clip_box[1]), min(box[2], clip_box[2]), min(box[3], clip_box[3]))
                    clip_box = box
            if op in (b"S", b"s", b"B", b"B*", b"b", b"b*"):
                level.strokes.extend((width, *s) for s in segments)
            if op in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
                level.fills.extend(rects)
            segments, points, rects, clip, current = [], [], [], False, None
        elif op == b"Do":
            level.forms.append(at(0.0, 0.0))
            level.placed.append((str(operands[0]), at(0.0, 0.0), clip_box))
    return level
