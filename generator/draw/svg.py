"""A small SVG subset drawn as PDF vector paths (no rasterising, no extra dependency).

Supported: ``svg`` with viewBox, ``g`` (translate/scale transforms), ``rect``,
``circle``, ``ellipse``, ``line``, ``polyline``, ``polygon`` and ``path``
(M L H V C S Q T Z, absolute and relative; arcs are drawn as straight lines),
with fill, stroke and stroke-width from attributes or ``style``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from reportlab.lib.colors import toColor
from reportlab.pdfgen.canvas import Canvas

from .geometry import Rect

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_COMMAND = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)")
MAX_BYTES = 2_000_000


class SvgError(ValueError):
    pass


def _numbers(text: str | None) -> list[float]:
    return [float(n) for n in _NUMBER.findall(text or "")]


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _style(element: ET.Element, inherited: dict[str, str]) -> dict[str, str]:
    style = dict(inherited)
    for key in ("fill", "stroke", "stroke-width"):
        if key in element.attrib:
            style[key] = element.attrib[key]
    for part in element.attrib.get("style", "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            style[key.strip()] = value.strip()
    return style


def draw_svg(canvas: Canvas, path: Path, box: Rect, stretch: bool = False) -> None:
    if path.stat().st_size > MAX_BYTES:
        raise SvgError(f"file is larger than {MAX_BYTES // 1_000_000} MB")
    try:
        root = ET.fromstring(path.read_bytes())
    except ET.ParseError as exc:
        raise SvgError(f"not a readable SVG ({exc})") from None
    view = _numbers(root.attrib.get("viewBox"))
    if len(view) != 4:
        width = _numbers(root.attrib.get("width")) or [100.0]
        height = _numbers(root.attrib.get("height")) or [100.0]
        view = [0.0, 0.0, width[0], height[0]]
    vx, vy, vw, vh = view
    if vw <= 0 or vh <= 0:
        raise SvgError("viewBox has no area")
    sx, sy = box.width / vw, box.height / vh
    if not stretch:
        sx = sy = min(sx, sy)
    canvas.saveState()
    canvas.translate(box.x + (box.width - vw * sx) / 2, box.top - (box.height - vh * sy) / 2)
    canvas.scale(sx, -sy)  # SVG is y-down
    canvas.translate(-vx, -vy)
    _children(canvas, root, {"fill": "#000000"})
    canvas.restoreState()


def _children(canvas: Canvas, parent: ET.Element, style: dict[str, str]) -> None:
    for child in parent:
        tag = _tag(child)
        own = _style(child, style)
        canvas.saveState()
        transform = child.attrib.get("transform", "")
        for name, args in re.findall(r"(translate|scale)\s*\(([^)]*)\)", transform):
            values = _numbers(args)
            if name == "translate" and values:
                canvas.translate(values[0], values[1] if len(values) > 1 else 0.0)
            elif name == "scale" and values:
                canvas.scale(values[0], values[1] if len(values) > 1 else values[0])
        if tag == "g":
            _children(canvas, child, own)
        else:
            path = _shape(canvas, tag, child)
            if path is not None:
                _paint(canvas, path, own)
        canvas.restoreState()


def _paint(canvas: Canvas, path: object, style: dict[str, str]) -> None:
    fill, stroke = style.get("fill", "#000000"), style.get("stroke", "none")
    do_fill = fill not in ("none", "transparent")
    do_stroke = stroke not in ("none", "transparent")
    try:
        if do_fill:
            canvas.setFillColor(toColor(fill))
        if do_stroke:
            canvas.setStrokeColor(toColor(stroke))
            canvas.setLineWidth((_numbers(style.get("stroke-width")) or [1.0])[0])
    except ValueError as exc:
        raise SvgError(f"unknown colour ({exc})") from None
    canvas.drawPath(path, fill=int(do_fill), stroke=int(do_stroke))


def _shape(canvas: Canvas, tag: str, e: ET.Element) -> object | None:
    a = e.attrib
    path = canvas.beginPath()

    def num(key: str) -> float:
        got = _numbers(a.get(key))
        return got[0] if got else 0.0

    if tag == "rect":
        path.rect(num("x"), num("y"), num("width"), num("height"))
    elif tag == "circle":
        path.circle(num("cx"), num("cy"), num("r"))
    elif tag == "ellipse":
        path.ellipse(num("cx") - num("rx"), num("cy") - num("ry"), 2 * num("rx"), 2 * num("ry"))
    elif tag == "line":
        path.moveTo(num("x1"), num("y1"))
        path.lineTo(num("x2"), num("y2"))
    elif tag in ("polyline", "polygon"):
        values = _numbers(a.get("points"))
        points = list(zip(values[::2], values[1::2], strict=False))
        if len(points) < 2:
            return None
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        if tag == "polygon":
            path.close()
    elif tag == "path":
        _path_data(path, a.get("d", ""))
    else:
        return None
    return path


def _path_data(path: object, data: str) -> None:  # noqa: C901 - a flat interpreter reads best
    x = y = 0.0
    start = (0.0, 0.0)
    last_control: tuple[float, float] | None = None
    p = path
    for command, args in _COMMAND.findall(data):
        values = _numbers(args)
        rel = command.islower()
        c = command.upper()
        if c == "Z":
            p.close()  # type: ignore[attr-defined]
            x, y = start
            last_control = None
            continue
        step = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7}[c]
        for i in range(0, len(values) - step + 1, step):
            v = values[i : i + step]
            ox, oy = (x, y) if rel else (0.0, 0.0)
            if c == "M" and i == 0:
                x, y = ox + v[0], oy + v[1]
                p.moveTo(x, y)  # type: ignore[attr-defined]
                start = (x, y)
                last_control = None
            elif c in ("M", "L", "T"):
                x, y = ox + v[0], oy + v[1]
                p.lineTo(x, y)  # type: ignore[attr-defined]
                last_control = None
            elif c == "H":
                x = ox + v[0]
                p.lineTo(x, y)  # type: ignore[attr-defined]
            elif c == "V":
                y = oy + v[0]
                p.lineTo(x, y)  # type: ignore[attr-defined]
            elif c == "C":
                p.curveTo(ox + v[0], oy + v[1], ox + v[2], oy + v[3], ox + v[4], oy + v[5])  # type: ignore[attr-defined]
                last_control = (ox + v[2], oy + v[3])
                x, y = ox + v[4], oy + v[5]
            elif c == "S":
                c1 = (2 * x - last_control[0], 2 * y - last_control[1]) if last_control else (x, y)
                p.curveTo(*c1, ox + v[0], oy + v[1], ox + v[2], oy + v[3])  # type: ignore[attr-defined]
                last_control = (ox + v[0], oy + v[1])
                x, y = ox + v[2], oy + v[3]
            elif c == "Q":
                qx, qy = ox + v[0], oy + v[1]
                ex, ey = ox + v[2], oy + v[3]
                p.curveTo(x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey)  # type: ignore[attr-defined]
                x, y = ex, ey
                last_control = None
            elif c == "A":
                x, y = ox + v[5], oy + v[6]
                p.lineTo(x, y)  # type: ignore[attr-defined]
