"""Procedural vector art: gears, suits and symbols drawn as PDF paths, never raster.

Every icon is drawn into the largest square centred in its box (``frame`` fills
the whole box). Shapes are defined in unit coordinates: u and v from −1 to 1,
v upwards. Layouts use them as ``type: icon, icon: NAME``; see ``ICONS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from .effects import opacity
from .geometry import Rect
from .replay import replayed


@dataclass(frozen=True)
class Ink:
    """How an icon is painted: fill and stroke colours (None = not painted)."""

    fill: str | None
    stroke: str | None = None
    stroke_width: float = 0.8
    accent: str | None = None  # secondary colour (hub, rivets, highlights)
    teeth: int = 12


class Pen:
    """A reportlab path in unit coordinates mapped onto a square."""

    def __init__(self, canvas: Canvas, cx: float, cy: float, half: float):
        self.canvas = canvas
        self.cx, self.cy, self.half = cx, cy, half
        self.path = canvas.beginPath()

    def pt(self, u: float, v: float) -> tuple[float, float]:
        return self.cx + u * self.half, self.cy + v * self.half

    def move(self, u: float, v: float) -> Pen:
        self.path.moveTo(*self.pt(u, v))
        return self

    def line(self, u: float, v: float) -> Pen:
        self.path.lineTo(*self.pt(u, v))
        return self

    def curve(self, u1: float, v1: float, u2: float, v2: float, u3: float, v3: float) -> Pen:
        self.path.curveTo(*self.pt(u1, v1), *self.pt(u2, v2), *self.pt(u3, v3))
        return self

    def polygon(self, points: list[tuple[float, float]]) -> Pen:
        self.move(*points[0])
        for u, v in points[1:]:
            self.line(u, v)
        self.path.close()
        return self

    def circle(self, u: float, v: float, r: float) -> Pen:
        x, y = self.pt(u, v)
        self.path.circle(x, y, r * self.half)
        return self

    def close(self) -> Pen:
        self.path.close()
        return self

    def paint(self, ink: Ink, fill: str | None = "", even_odd: bool = False) -> None:
        colour = ink.fill if fill == "" else fill
        c = self.canvas
        if colour:
            c.setFillColor(opacity.ink(colour))
        if ink.stroke:
            c.setStrokeColor(opacity.ink(ink.stroke))
            c.setLineWidth(ink.stroke_width)
            c.setLineJoin(1)
        mode = FILL_EVEN_ODD if even_odd else 1
        c.drawPath(self.path, fill=1 if colour else 0, stroke=1 if ink.stroke else 0, fillMode=mode)


def gear_points(teeth: int, outer: float, root: float, top_share: float = 0.42) -> list[tuple[float, float]]:
    """Polygon of a gear with trapezoid teeth: ``outer`` tip radius, ``root`` radius."""
    points = []
    pitch = 2 * math.pi / teeth
    for i in range(teeth):
        a = i * pitch - math.pi / 2
        half_top = pitch * top_share / 2
        half_base = pitch * (top_share + 0.22) / 2
        for angle, r in ((a - half_base, root), (a - half_top, outer), (a + half_top, outer), (a + half_base, root)):
            points.append((r * math.cos(angle), r * math.sin(angle)))
    return points


def _gear(pen: Pen, ink: Ink) -> None:
    pen.polygon(gear_points(max(4, ink.teeth), 1.0, 0.8)).circle(0, 0, 0.3)
    spokes = 6
    for i in range(spokes):  # lightening holes between spokes
        a = 2 * math.pi * i / spokes + math.pi / spokes
        pen.circle(0.55 * math.cos(a), 0.55 * math.sin(a), 0.11)
    pen.paint(ink, even_odd=True)
    if ink.accent:
        hub = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
        hub.circle(0, 0, 0.3).circle(0, 0, 0.14)
        hub.paint(Ink(ink.accent), even_odd=True)


def _gears(pen: Pen, ink: Ink) -> None:
    big = Pen(pen.canvas, *pen.pt(-0.3, 0.25), pen.half * 0.68)
    _gear(big, Ink(ink.fill, ink.stroke, ink.stroke_width, ink.accent, 10))
    small = Pen(pen.canvas, *pen.pt(0.52, -0.45), pen.half * 0.46)
    _gear(small, Ink(ink.fill, ink.stroke, ink.stroke_width, ink.accent, 8))


def _steam(pen: Pen, ink: Ink) -> None:
    for dx in (-0.5, 0.0, 0.5):
        pen.move(dx - 0.08, -0.9)
        pen.curve(dx - 0.45, -0.45, dx + 0.3, -0.2, dx - 0.1, 0.25)
        pen.curve(dx - 0.35, 0.55, dx + 0.1, 0.8, dx + 0.05, 0.95)
        pen.curve(dx + 0.3, 0.7, dx + 0.0, 0.45, dx + 0.18, 0.22)
        pen.curve(dx + 0.5, -0.2, dx - 0.15, -0.45, dx + 0.12, -0.9)
        pen.close()
    pen.paint(ink)


def _parts(pen: Pen, ink: Ink) -> None:
    """A hex nut."""
    hexagon = [(0.95 * math.cos(math.pi / 3 * i), 0.95 * math.sin(math.pi / 3 * i)) for i in range(6)]
    pen.polygon(hexagon).circle(0, 0, 0.42)
    pen.paint(ink, even_odd=True)
    if ink.accent:
        ring = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
        ring.circle(0, 0, 0.78).circle(0, 0, 0.62)
        ring.paint(Ink(ink.accent), even_odd=True)


def _electricity(pen: Pen, ink: Ink) -> None:
    pen.polygon([(0.15, 1.0), (-0.6, -0.1), (-0.05, -0.1), (-0.3, -1.0), (0.6, 0.15), (0.05, 0.15), (0.35, 1.0)])
    pen.paint(ink)


def _hearts(pen: Pen, ink: Ink) -> None:
    pen.move(0, -0.95).curve(-0.35, -0.55, -1.0, -0.2, -0.95, 0.35)
    pen.curve(-0.9, 0.95, -0.15, 1.0, 0, 0.5).curve(0.15, 1.0, 0.9, 0.95, 0.95, 0.35)
    pen.curve(1.0, -0.2, 0.35, -0.55, 0, -0.95).close()
    pen.paint(ink)


def _diamonds(pen: Pen, ink: Ink) -> None:
    pen.move(0, 1).curve(0.25, 0.6, 0.45, 0.3, 0.75, 0).curve(0.45, -0.3, 0.25, -0.6, 0, -1)
    pen.curve(-0.25, -0.6, -0.45, -0.3, -0.75, 0).curve(-0.45, 0.3, -0.25, 0.6, 0, 1).close()
    pen.paint(ink)


def _spades(pen: Pen, ink: Ink) -> None:
    pen.move(0, 1).curve(-0.3, 0.6, -1.0, 0.25, -0.95, -0.25)
    pen.curve(-0.9, -0.75, -0.3, -0.8, -0.06, -0.4).curve(-0.1, -0.7, -0.25, -0.9, -0.45, -1.0)
    pen.line(0.45, -1.0).curve(0.25, -0.9, 0.1, -0.7, 0.06, -0.4)
    pen.curve(0.3, -0.8, 0.9, -0.75, 0.95, -0.25).curve(1.0, 0.25, 0.3, 0.6, 0, 1).close()
    pen.paint(ink)


def _clubs(pen: Pen, ink: Ink) -> None:
    pen.circle(0, 0.48, 0.42).circle(-0.48, -0.12, 0.42).circle(0.48, -0.12, 0.42)
    pen.move(-0.1, 0.1).curve(-0.1, -0.5, -0.25, -0.85, -0.45, -1.0).line(0.45, -1.0)
    pen.curve(0.25, -0.85, 0.1, -0.5, 0.1, 0.1).close()
    pen.paint(ink)


def _rock(pen: Pen, ink: Ink) -> None:
    pen.polygon([(-0.95, -0.7), (-0.8, 0.05), (-0.4, 0.55), (0.1, 0.7), (0.6, 0.45), (0.95, -0.1), (0.85, -0.7)])
    pen.paint(ink)
    if ink.accent:
        crack = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
        crack.polygon([(-0.4, 0.45), (-0.15, 0.05), (-0.3, -0.3), (-0.2, -0.32), (-0.05, 0.05), (-0.3, 0.45)])
        crack.paint(Ink(ink.accent))


def _paper(pen: Pen, ink: Ink) -> None:
    pen.polygon([(-0.7, -0.95), (-0.7, 0.95), (0.35, 0.95), (0.7, 0.6), (0.7, -0.95)])
    pen.paint(ink)
    if ink.accent:
        lines = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
        for v in (0.4, 0.1, -0.2, -0.5):
            lines.polygon([(-0.5, v), (0.5, v), (0.5, v - 0.07), (-0.5, v - 0.07)])
        lines.polygon([(0.35, 0.95), (0.35, 0.6), (0.7, 0.6)])
        lines.paint(Ink(ink.accent))


def _scissors(pen: Pen, ink: Ink) -> None:
    pen.circle(-0.45, -0.6, 0.3).circle(-0.45, -0.6, 0.17)
    pen.circle(0.45, -0.6, 0.3).circle(0.45, -0.6, 0.17)
    pen.paint(ink, even_odd=True)
    blades = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    blades.polygon([(-0.32, -0.35), (-0.2, -0.3), (0.45, 1.0), (0.3, 0.98), (-0.15, -0.1)])
    blades.polygon([(0.32, -0.35), (0.2, -0.3), (-0.45, 1.0), (-0.3, 0.98), (0.15, -0.1)])
    blades.paint(ink)


def _steambot(pen: Pen, ink: Ink) -> None:
    pen.polygon([(-0.65, -0.55), (-0.65, 0.35), (0.65, 0.35), (0.65, -0.55)])  # head
    pen.polygon([(0.2, 0.35), (0.2, 0.8), (0.45, 0.8), (0.45, 0.35)])  # chimney
    pen.polygon([(-0.45, -0.55), (-0.45, -0.95), (0.45, -0.95), (0.45, -0.55)])  # neck/jaw
    pen.polygon([(-0.85, -0.25), (-0.85, 0.1), (-0.65, 0.1), (-0.65, -0.25)])
    pen.polygon([(0.85, -0.25), (0.85, 0.1), (0.65, 0.1), (0.65, -0.25)])
    pen.paint(ink)
    face = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    face.circle(-0.3, 0.0, 0.16).circle(0.3, 0.0, 0.16)
    face.polygon([(-0.35, -0.35), (0.35, -0.35), (0.35, -0.27), (-0.35, -0.27)])
    face.paint(Ink(ink.accent or "#ffffff"))
    puff = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    puff.circle(0.4, 0.9, 0.09).circle(0.55, 0.97, 0.06)
    puff.paint(ink)


def _knight(pen: Pen, ink: Ink) -> None:
    """A chess knight's head."""
    pen.polygon([
        (-0.6, -1.0), (0.65, -1.0), (0.6, -0.75), (0.35, -0.7), (0.5, -0.1), (0.55, 0.35), (0.35, 0.75),
        (0.1, 0.9), (0.0, 1.0), (-0.1, 0.85), (-0.35, 0.7), (-0.7, 0.35), (-0.8, 0.1), (-0.65, -0.05),
        (-0.35, 0.05), (-0.1, 0.1), (-0.45, -0.45), (-0.5, -0.7), (-0.7, -0.75),
    ])
    pen.paint(ink)
    eye = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    eye.circle(0.0, 0.55, 0.08)
    eye.paint(Ink(ink.accent or "#ffffff"))


def _star(pen: Pen, ink: Ink) -> None:
    points = []
    for i in range(10):
        r = 1.0 if i % 2 == 0 else 0.42
        a = math.pi / 2 + i * math.pi / 5
        points.append((r * math.cos(a), r * math.sin(a) - 0.05))
    pen.polygon(points)
    pen.paint(ink)


def _shield(pen: Pen, ink: Ink) -> None:
    pen.move(-0.8, 0.9).line(0.8, 0.9).curve(0.8, -0.1, 0.5, -0.7, 0, -1.0)
    pen.curve(-0.5, -0.7, -0.8, -0.1, -0.8, 0.9).close()
    pen.paint(ink)
    if ink.accent:
        band = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
        band.polygon([(-0.12, 0.9), (0.12, 0.9), (0.12, -0.85), (-0.12, -0.85)])
        band.paint(Ink(ink.accent))


def _coin(pen: Pen, ink: Ink) -> None:
    pen.circle(0, 0, 1.0)
    pen.paint(ink)
    ring = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    ring.circle(0, 0, 0.82).circle(0, 0, 0.74)
    ring.paint(Ink(ink.accent or ink.stroke or "#000000"), even_odd=True)


def _chest(pen: Pen, ink: Ink) -> None:
    pen.polygon([(-0.95, -0.8), (-0.95, 0.15), (0.95, 0.15), (0.95, -0.8)])
    pen.move(-0.95, 0.25).curve(-0.95, 0.9, 0.95, 0.9, 0.95, 0.25).close()
    pen.paint(ink)
    lock = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    lock.polygon([(-0.15, -0.15), (-0.15, 0.35), (0.15, 0.35), (0.15, -0.15)])
    lock.polygon([(-0.95, 0.15), (0.95, 0.15), (0.95, 0.25), (-0.95, 0.25)])
    lock.paint(Ink(ink.accent or "#000000"))


def _dragon(pen: Pen, ink: Ink) -> None:
    """A dragon's head in profile with a horn and open jaw."""
    pen.polygon([
        (-0.9, -0.9), (-0.55, -0.2), (-0.6, 0.3), (-0.3, 0.65), (-0.35, 1.0), (0.0, 0.7), (0.35, 0.6),
        (0.95, 0.3), (0.85, 0.1), (0.3, 0.05), (0.9, -0.2), (0.8, -0.35), (0.15, -0.3), (-0.15, -0.5),
        (-0.3, -0.9),
    ])
    pen.paint(ink)
    eye = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    eye.polygon([(0.05, 0.4), (0.3, 0.38), (0.12, 0.28)])
    eye.paint(Ink(ink.accent or "#ffffff"))


def _trap(pen: Pen, ink: Ink) -> None:
    """A bear trap: two jaws with teeth on a base plate."""
    pen.move(-0.95, -0.1).curve(-0.95, 0.9, 0.95, 0.9, 0.95, -0.1).line(0.8, -0.1)
    pen.curve(0.8, 0.65, -0.8, 0.65, -0.8, -0.1).close()
    for i in range(7):
        u = -0.6 + i * 0.2
        pen.polygon([(u - 0.07, 0.45 - abs(u) * 0.5), (u + 0.07, 0.45 - abs(u) * 0.5), (u, 0.15 - abs(u) * 0.4)])
    pen.polygon([(-0.95, -0.3), (0.95, -0.3), (0.95, -0.55), (-0.95, -0.55)])
    pen.circle(0, -0.42, 0.22)
    pen.paint(ink)


def _rivet(pen: Pen, ink: Ink) -> None:
    pen.circle(0, 0, 1.0)
    pen.paint(ink)
    shine = Pen(pen.canvas, pen.cx, pen.cy, pen.half)
    shine.circle(-0.3, 0.3, 0.3)
    shine.paint(Ink(ink.accent or "#ffffff"))


SquareIcon = Callable[[Pen, Ink], None]

ICONS: dict[str, SquareIcon] = {
    "gear": _gear,
    "cog": _gear,
    "steam": _steam,
    "gears": _gears,
    "parts": _parts,
    "nut": _parts,
    "electricity": _electricity,
    "bolt": _electricity,
    "clubs": _clubs,
    "diamonds": _diamonds,
    "hearts": _hearts,
    "spades": _spades,
    "rock": _rock,
    "paper": _paper,
    "scissors": _scissors,
    "steambot": _steambot,
    "knight": _knight,
    "star": _star,
    "shield": _shield,
    "coin": _coin,
    "chest": _chest,
    "dragon": _dragon,
    "trap": _trap,
    "rivet": _rivet,
}
ICON_NAMES = tuple(sorted([*ICONS, "frame"]))


def draw_frame(canvas: Canvas, box: Rect, ink: Ink, rivet_size: float | None = None) -> None:
    """A rectangular frame band with rivets at the corners and along the edges, filling ``box``."""
    band = ink.stroke_width if ink.stroke_width > 2 else min(box.width, box.height) * 0.06
    path = canvas.beginPath()
    path.roundRect(box.x, box.y, box.width, box.height, band)
    path.roundRect(box.x + band, box.y + band, box.width - 2 * band, box.height - 2 * band, band * 0.6)
    canvas.setFillColor(opacity.ink(ink.fill or "#b8893a"))
    canvas.drawPath(path, fill=1, stroke=0, fillMode=FILL_EVEN_ODD)
    if ink.stroke:
        canvas.setStrokeColor(opacity.ink(ink.stroke))
        canvas.setLineWidth(0.4)
        canvas.roundRect(box.x + band, box.y + band, box.width - 2 * band, box.height - 2 * band, band * 0.6, stroke=1, fill=0)
    r = (rivet_size or band * 0.62) / 2
    rivet_ink = Ink(ink.accent or "#e2c27d", accent="#ffffff")
    inset = band / 2
    spacing = band * 5
    for x0, y0, x1, y1 in (
        (box.x + inset, box.y + inset, box.right - inset, box.y + inset),
        (box.x + inset, box.top - inset, box.right - inset, box.top - inset),
        (box.x + inset, box.y + inset, box.x + inset, box.top - inset),
        (box.right - inset, box.y + inset, box.right - inset, box.top - inset),
    ):
        length = math.hypot(x1 - x0, y1 - y0)
        n = max(1, int(length // spacing))
        for i in range(n + 1):
            t = i / n
            _rivet(Pen(canvas, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, r), rivet_ink)


def built_in(name: str) -> bool:
    """Whether ``name`` is one of punchboard's own icons (drawn from paths alone: no resource of the document)."""
    return name == "frame" or name in ICONS


def draw_icon(canvas: Canvas, name: str, box: Rect, ink: Ink, own: Mapping[str, Path] | None = None) -> bool:
    """Draw icon ``name`` into ``box``; False if there is no such icon.

    ``own`` are the game's own icons (name → SVG/PNG file): drawn in their own colours
    into the largest centred square, and preferred over a built-in icon of the same name.
    An icon recurring in the same box with the same ink (every card's frame, a
    deck's gears) is computed once per canvas and its operators replayed."""
    if own and name in own:
        from .pictures import draw_picture  # pictures → svg/images; art stays importable on its own

        side = min(box.width, box.height)
        cx, cy = box.center
        try:
            draw_picture(canvas, own[name], Rect(cx - side / 2, cy - side / 2, side, side))
        except ValueError:
            return False
        return True
    if name == "frame":
        replayed(canvas, (name, box, ink), lambda: draw_frame(canvas, box, ink))
        return True
    icon = ICONS.get(name)
    if icon is None:
        return False
    cx, cy = box.center
    replayed(canvas, (name, box, ink), lambda: icon(Pen(canvas, cx, cy, min(box.width, box.height) / 2), ink))
    return True
