"""A repeat or grid element's own keys read into the model: its child elements, lengths and a grid's CSV of cells.

``child`` (a repeat's) and ``cell`` (a grid's) are elements read like any other (their lengths parsed, their
``when`` checked) into :class:`~punchboard.spec.model.Element` objects. ``csv`` stays the file's name and its cells go
into ``csv_cells``, a read-only mapping ``(row, col) → (fields, file:LINE:COL of each)`` from a CSV file in the game folder with a ``row`` and a ``col`` column (from 1); every
problem in it is located ``file:LINE:COL``. :func:`check_element` says what a repeat or grid needs once an
inherited element's keys are merged.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from punchboard.incremental.file_digest import Stamp, stamp
from punchboard.plumbing.errors import Problem
from punchboard.plumbing.paths import is_inside
from punchboard.plumbing.units import parse_length
from punchboard.spec.model import Element, frozen_map
from punchboard.spec.yamlsource import Document, PathKey

from .common import Collector
from .spreadsheets import _csv_table

REPEAT_KEYS = ("child", "cell", "csv", "spacing", "gap", "cell_size")
LENGTH_KEYS = ("spacing", "gap", "cell_size")
GRID_TYPES = ("repeat", "grid")
Cells = Mapping[tuple[int, int], tuple[Mapping[str, str], Mapping[str, str]]]  # (row, col) → its fields, where each is


class ReadsElements(Protocol):
    """What of the layout loader reading the keys is used: its problems, the game folder, element props."""

    out: Collector
    confines: list[Path]

    def _element_props(self, doc: Document, where: PathKey, raw: dict[str, Any], kind: Any = None) -> dict[str, Any]: ...


def repeat_key(loader: ReadsElements, doc: Document, path: PathKey, key: str, value: Any, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The model's props from one repeat or grid key (``raw``: the element as written, for its id and size): the key's
    own value, and for ``csv`` (kept as written, the file's name) its cells under ``csv_cells`` too."""
    if key == "csv":
        return {"csv": value, "csv_cells": _cells(loader, doc, path, value, raw)}
    return {key: _value(loader, doc, path, key, value, raw)}


def _value(loader: ReadsElements, doc: Document, path: PathKey, key: str, value: Any, raw: Mapping[str, Any]) -> Any:
    """The model's value of one repeat or grid key other than ``csv``."""
    if key in LENGTH_KEYS:
        length = parse_length(value)
        if length < 0 or (length == 0 and key == "cell_size"):
            loader.out.add(doc.problem(path, f"{key} must be a {'positive' if key == 'cell_size' else 'zero or positive'} "
                                             f"length, got {value!r}"))
        return length
    parent = str(raw.get("id", "element"))
    if key == "child":
        return _child(loader, doc, path, value, f"{parent}.child")
    return tuple(_child(loader, doc, path + (index,), item, str(item.get("id", f"{parent}.cell#{index}")))
                 for index, item in enumerate(value))  # cell


def _child(loader: ReadsElements, doc: Document, path: PathKey, raw: dict[str, Any], default_id: str) -> Element:
    """One element inside a repeat or grid, read like a layout's own."""
    line, col = doc.where(path)
    kind = raw.get("type")
    if kind is None:
        loader.out.add(doc.problem(path, "an element inside a repeat or grid needs a type: one of rect, ellipse, "
                                         "line, polygon, text, image, icon, repeat, grid"))
    if "box" in raw:
        loader.out.add(doc.problem(path + ("box",), "an element inside a repeat or grid is placed in its cell: box does not "
                                                   "apply; expected x, y, width and height measured in the cell"))
    props = loader._element_props(doc, path, raw, kind)
    if kind == "polygon" and len(props.get("points", ())) < 2:
        loader.out.add(doc.problem(path, "a polygon needs points: a list of at least 2 [x, y] corners"))
    return Element(str(kind or "rect"), str(raw.get("id", default_id)), frozen_map(props), f"{doc.name}:{line}:{col}")


def _cells(loader: ReadsElements, doc: Document, path: PathKey, name: str, raw: Mapping[str, Any]) -> Cells:
    """A grid's CSV: (row, col) → that cell's fields; empty after a problem, which is in the loader's collector."""
    out, game = loader.out, loader.confines[0]
    file = game / name
    if ".." in Path(name).parts or Path(name).is_absolute() or not file.is_file() or not is_inside(file, game):
        out.add(doc.problem(path, f"csv file '{name}' not found; expected a CSV file inside the game folder, "
                                  "named relative to it (board/map.csv)"))
        return MappingProxyType({})
    data = file.read_bytes()
    if len(data) > out.limits.max_file_bytes:
        out.add(doc.problem(path, f"csv file '{name}' holds {len(data):,} bytes, more than --max-file-bytes "
                                  f"{out.limits.max_file_bytes:,}"))
        return MappingProxyType({})
    table = _csv_table(name, file, data, out)
    if table is None or not table.rows:
        return MappingProxyType({})
    _, header, places = table.rows[0]
    names = [cell.strip() for cell in header]
    if "row" not in names or "col" not in names:
        out.add(Problem(name, places[0][0], places[0][1],
                        f"a grid's CSV needs a row and a col column; its header has {', '.join(names) or 'nothing'}"))
        return MappingProxyType({})
    size = {"row": raw.get("rows"), "col": raw.get("cols")}
    cells: dict[tuple[int, int], tuple[Mapping[str, str], Mapping[str, str]]] = {}
    for line, row, where in table.rows[1:]:
        values = dict(zip(names, (cell.strip() for cell in row), strict=False))
        at = {column: where[names.index(column)] if names.index(column) < len(where) else (line, 1) for column in ("row", "col")}
        numbers = [_number(values.get(column, ""), column, size[column], name, at[column], out) for column in ("row", "col")]
        if None in numbers:
            continue
        key = (int(numbers[0] or 0), int(numbers[1] or 0))
        if key in cells:
            out.add(Problem(name, line, 1, f"cell row {key[0]}, col {key[1]} is given twice; expected each cell once"))
            continue
        own = {k: v for k, v in values.items() if k not in ("row", "col") and k}
        marks = {k: f"{name}:{where[names.index(k)][0]}:{where[names.index(k)][1]}" for k in own if names.index(k) < len(where)}
        cells[key] = (frozen_map(own), frozen_map(marks))
    return frozen_map(cells)


def _number(text: str, column: str, most: Any, name: str, at: tuple[int, int], out: Collector) -> int | None:
    """A cell's row or col as a whole number from 1 to the grid's ``most``; None (and a problem) otherwise."""
    if not text.isdigit() or int(text) < 1 or (isinstance(most, int) and int(text) > most):
        expected = f"1 to {most}" if isinstance(most, int) else "1 or more"
        out.add(Problem(name, at[0], at[1], f"{column} {text!r} is not a {column} of the grid; expected a whole number {expected}"))
        return None
    return int(text)


def check_element(doc: Document, where: PathKey, kind: str, props: Mapping[str, Any], out: Collector) -> bool:
    """Whether a repeat or grid (``props`` merged with an inherited element's) has what it needs; a problem if not."""
    needs = ("count", "child") if kind == "repeat" else ("rows", "cols")
    missing = [key for key in needs if key not in props]
    if missing:
        out.add(doc.problem(where, f"a {kind} element needs {' and '.join(missing)}"))
        return False
    return True


def csv_stamps(data: Mapping[str, Any], game_folder: Path) -> tuple[tuple[str, Path, Stamp | None], ...]:
    """Each grid CSV a layout file names with its stamp, so a kept load (kept.py) sees the CSV change."""
    found = []
    for raw in data.get("elements", []) or []:
        name = raw.get("csv") if isinstance(raw, Mapping) else None
        if isinstance(name, str):
            found.append(("csv:" + name, game_folder / name, stamp(game_folder / name)))
    return tuple(found)
