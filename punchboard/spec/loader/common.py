"""What every loader shares: the problem collector and reading YAML files and lengths."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.limits import DEFAULT_LIMITS, Limits
from punchboard.plumbing.units import UnitError, parse_length
from punchboard.spec.yamlsource import Document, PathKey, load_yaml

MAX_PIECES = DEFAULT_LIMITS.max_pieces
LIST_KEYS = {
    "deck": "cards",
    "banknotes": "banknotes",
    "tokens": "tokens",
    "board": "boards",
    "tiles": "tiles",
    "sheet": "sheets",
}
ENTRY_KEYS = {"count", "range", "back", "layout", "cells", "name"}
HEX_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
LENGTH_PROPS = ("stroke_width", "radius", "size", "min_size")
DIM_PROPS = ("x", "y", "width", "height", "x1", "y1", "x2", "y2")



@dataclass
class Collector:
    """Gathers every problem so the user sees them all at once."""

    problems: list[Problem] = field(default_factory=list)
    limits: Limits = DEFAULT_LIMITS
    warnings: list[str] = field(default_factory=list)  # "file:LINE:COL: …" accepted, but the user must hear of it
    sheets: Path = Path("output") / ".sheets"  # where spreadsheet links are cached: inside the output folder

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def extend(self, problems: list[Problem]) -> None:
        self.problems.extend(problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise SpecError(self.problems)


def load_document(path: Path, out: Collector) -> Document | None:
    try:
        return load_yaml(path, max_nodes=out.limits.max_yaml_nodes, max_bytes=out.limits.max_file_bytes)
    except SpecError as err:
        out.extend(err.problems)
        return None


def positive_length(doc: Document, path: PathKey, value: Any, out: Collector) -> float | None:
    try:
        points = parse_length(value)
    except UnitError as exc:
        out.add(doc.problem(path, f"{path[-1]}: {exc}"))
        return None
    if points <= 0:
        out.add(doc.problem(path, f"{path[-1]} must be a positive length, got {value!r}"))
        return None
    return points
