"""Sheet style: imposition defaults read from ``layouts/sheet.yaml`` (bleed, marks, footer, …)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.paths import LAYOUTS
from punchboard.plumbing.units import UnitError, parse_length
from punchboard.spec.yamlsource import Document, load_yaml

STYLE_FILE = LAYOUTS / "sheet.yaml"
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class SheetStyle:
    bleed: float
    mark_length: float
    mark_min_length: float
    mark_offset: float
    mark_stroke: float
    mark_color: str
    footer_height: float
    footer_font: str
    footer_size: float
    footer_color: str
    scale_lengths: tuple[tuple[float, str], ...]
    scale_stroke: float
    scale_color: str
    proof_trim: str
    proof_safe: str
    proof_stroke: float
    fold_dash: tuple[float, ...]
    fold_stroke: float
    fold_color: str
    token_gap: float
    cut_stroke: float
    cut_color: str
    calibration_step: float
    calibration_steps: int


class _Reader:
    def __init__(self, doc: Document):
        self.doc = doc
        self.problems: list[Problem] = []

    def value(self, *path: str) -> Any:
        node: Any = self.doc.data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                self.problems.append(self.doc.problem(path[:-1], f"missing key '{'.'.join(path)}'"))
                return None
            node = node[key]
        return node

    def length(self, *path: str) -> float:
        raw = self.value(*path)
        try:
            return parse_length(raw)
        except UnitError as exc:
            if raw is not None:
                self.problems.append(self.doc.problem(path, f"{path[-1]}: {exc}"))
            return 0.0

    def colour(self, *path: str) -> str:
        raw = self.value(*path)
        if not isinstance(raw, str) or not _HEX.match(raw):
            if raw is not None:
                self.problems.append(self.doc.problem(path, f"{path[-1]}: expected a colour #rrggbb, got {raw!r}"))
            return "#000000"
        return raw


def load_style(path: Path = STYLE_FILE) -> SheetStyle:
    return _load_style(path)


@lru_cache(maxsize=4)
def _load_style(path: Path) -> SheetStyle:
    doc = load_yaml(path)
    r = _Reader(doc)
    lengths = r.value("scale_bar", "lengths") or []
    scale: list[tuple[float, str]] = []
    for i, raw in enumerate(lengths):
        try:
            scale.append((parse_length(raw), str(raw)))
        except UnitError as exc:
            r.problems.append(doc.problem(("scale_bar", "lengths", i), f"lengths: {exc}"))
    dash = tuple(parse_length(v) for v in (r.value("fold", "dash") or []))
    steps = r.value("calibration", "steps")
    if not isinstance(steps, int) or not 1 <= steps <= 10:
        r.problems.append(doc.problem(("calibration", "steps"), f"steps: expected a whole number 1–10, got {steps!r}"))
        steps = 4
    style = SheetStyle(
        bleed=r.length("bleed"),
        mark_length=r.length("crop_marks", "length"),
        mark_min_length=r.length("crop_marks", "min_length"),
        mark_offset=r.length("crop_marks", "offset"),
        mark_stroke=r.length("crop_marks", "stroke"),
        mark_color=r.colour("crop_marks", "color"),
        footer_height=r.length("footer", "height"),
        footer_font=str(r.value("footer", "font")),
        footer_size=r.length("footer", "size"),
        footer_color=r.colour("footer", "color"),
        scale_lengths=tuple(scale),
        scale_stroke=r.length("scale_bar", "stroke"),
        scale_color=r.colour("scale_bar", "color"),
        proof_trim=r.colour("proof", "trim"),
        proof_safe=r.colour("proof", "safe"),
        proof_stroke=r.length("proof", "stroke"),
        fold_dash=dash,
        fold_stroke=r.length("fold", "stroke"),
        fold_color=r.colour("fold", "color"),
        token_gap=r.length("tokens", "gap"),
        cut_stroke=r.length("tokens", "cut_stroke"),
        cut_color=r.colour("tokens", "cut_color"),
        calibration_step=r.length("calibration", "step"),
        calibration_steps=steps,
    )
    if r.problems:
        raise SpecError(r.problems)
    return style
