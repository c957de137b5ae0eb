"""Rich black (``--rich-black``): large areas of 100 % K printed with all four inks, small type kept one ink.

Runs on a content stream whose colours are already DeviceCMYK (``pdfx.device_cmyk``), where pure black is
``0 0 0 1 k``. A fill of that black whose path, in page space, is at least ``area_from`` wide and high, and
black text set at ``text_below`` or larger, get the rich mix set just before them and 100 % K again just after,
so everything else (small text, rules, strokes) keeps its one-plate black. A form's own stream is measured from
the form's space (its invoking matrix is not followed), so a scaled form's shapes are measured at form scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
PATH_OPS = {"m", "l", "c", "v", "y", "re", "h"}
CLIP_OPS = {"W", "W*"}
FILL_OPS = {"f", "F", "f*", "B", "B*", "b", "b*"}
PAINT_OPS = FILL_OPS | {"S", "s", "n"}
TEXT_SHOW = {"Tj", "TJ", "'", '"'}
BLACK = (0.0, 0.0, 0.0, 1.0)


def _times(a: Matrix, b: Matrix) -> Matrix:
    """``a`` then ``b`` (PDF's row-vector order: a point p goes to p·a·b)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]


def _scale(m: Matrix) -> float:
    return abs(m[0] * m[3] - m[1] * m[2]) ** 0.5


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    black: bool = False  # the fill colour is 100 % K
    stack: list[tuple[Matrix, bool]] = field(default_factory=list)
    tm: Matrix = IDENTITY
    font_size: float = 0.0
    path: list[Any] = field(default_factory=list)  # the path being built, with its clip operators
    points: list[tuple[float, float]] = field(default_factory=list)  # its points in page space


def _points(name: str, values: list[float]) -> list[tuple[float, float]]:
    if name == "re" and len(values) == 4:
        x, y, w, h = values
        return [(x, y), (x + w, y + h), (x + w, y), (x, y + h)]
    return [(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]


def _large(points: list[tuple[float, float]], least: float) -> bool:
    if not points:
        return False
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return max(xs) - min(xs) >= least and max(ys) - min(ys) >= least


def _graphics(state: _State, name: str, operands: list[Any]) -> None:
    """Follow the graphics state: q/Q, cm, the fill colour, the text matrix and size."""
    if name == "q":
        state.stack.append((state.ctm, state.black))
    elif name == "Q" and state.stack:
        state.ctm, state.black = state.stack.pop()
    elif name == "cm" and len(operands) == 6:
        state.ctm = _times(tuple(float(v) for v in operands), state.ctm)  # type: ignore[arg-type]
    elif name == "k":
        state.black = tuple(float(v) for v in operands) == BLACK
    elif name in ("sc", "scn", "cs", "g", "rg"):
        state.black = False
    elif name == "BT":
        state.tm = IDENTITY
    elif name == "Tm" and len(operands) == 6:
        state.tm = tuple(float(v) for v in operands)  # type: ignore[assignment]
    elif name == "Tf" and len(operands) == 2:
        state.font_size = abs(float(operands[1]))


def rich_black(instructions: list[Any], mix: tuple[float, ...], text_below: float, area_from: float) -> tuple[list[Any], bool]:
    """``instructions`` (pikepdf's, DeviceCMYK) with large black fills and black text from ``text_below`` points in
    the rich ``mix`` (0–1 each), and whether anything changed."""
    import pikepdf

    def colour(values: tuple[float, ...]) -> Any:
        return pikepdf.ContentStreamInstruction([round(v, 4) for v in values], pikepdf.Operator("k"))

    state, out, changed = _State(), [], False
    for instruction in instructions:
        name = str(getattr(instruction, "operator", ""))
        operands = list(getattr(instruction, "operands", []))
        if name in PATH_OPS or (name in CLIP_OPS and state.path):
            numbers = [float(v) for v in operands]
            state.points.extend(_apply(state.ctm, x, y) for x, y in _points(name, numbers))
            state.path.append(instruction)
            continue
        if name in PAINT_OPS:
            rich = name in FILL_OPS and state.black and _large(state.points, area_from)
            out.extend([colour(mix), *state.path, instruction, colour(BLACK)] if rich else [*state.path, instruction])
            changed = changed or rich
            state.path, state.points = [], []
            continue
        if name in TEXT_SHOW and state.black and state.font_size * _scale(_times(state.tm, state.ctm)) >= text_below:
            out.extend([colour(mix), instruction, colour(BLACK)])
            changed = True
            continue
        out.extend(state.path)  # a path left unpainted (not valid PDF, kept as it was)
        state.path, state.points = [], []
        _graphics(state, name, operands)
        out.append(instruction)
    out.extend(state.path)
    return out, changed
