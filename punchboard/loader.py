"""YAML → validated, immutable model. All input checking happens here."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import expressions, layout_checks, schema_check
from .binding import FIELD_REF
from .errors import Problem, SpecError, display_path
from .limits import DEFAULT_LIMITS, FLAGS, Limits
from .model import (
    BoxLine,
    Component,
    Element,
    Game,
    Layout,
    Paper,
    Piece,
    Side,
    Size,
    SupplyItem,
    TokenShape,
    frozen_map,
)
from .paths import GAME_FILE, LAYOUTS, is_inside
from .setup_loader import load_setup
from .units import UnitError, parse_dim, parse_length, to_mm
from .yamlsource import Document, PathKey, load_yaml

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
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
LENGTH_PROPS = ("stroke_width", "radius", "size", "min_size")
DIM_PROPS = ("x", "y", "width", "height", "x1", "y1", "x2", "y2")


@dataclass
class Collector:
    """Gathers every problem so the user sees them all at once."""

    problems: list[Problem] = field(default_factory=list)
    limits: Limits = DEFAULT_LIMITS

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def extend(self, problems: list[Problem]) -> None:
        self.problems.extend(problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise SpecError(self.problems)


def _load(path: Path, out: Collector) -> Document | None:
    try:
        return load_yaml(path, max_nodes=out.limits.max_yaml_nodes, max_bytes=out.limits.max_file_bytes)
    except SpecError as err:
        out.extend(err.problems)
        return None


def _length(doc: Document, path: PathKey, value: Any, out: Collector) -> float | None:
    try:
        points = parse_length(value)
    except UnitError as exc:
        out.add(doc.problem(path, f"{path[-1]}: {exc}"))
        return None
    if points <= 0:
        out.add(doc.problem(path, f"{path[-1]} must be a positive length, got {value!r}"))
        return None
    return points


def load_size_presets() -> dict[str, Size]:
    doc = load_yaml(LAYOUTS / "sizes.yaml")
    out = Collector()
    presets = {}
    for name, spec in (doc.data or {}).items():
        w = _length(doc, (name, "width"), spec.get("width"), out)
        h = _length(doc, (name, "height"), spec.get("height"), out)
        if w and h:
            presets[name] = Size(w, h)
    out.raise_if_any()
    return presets


def _size(doc: Document, path: PathKey, value: Any, presets: dict[str, Size], out: Collector) -> Size | None:
    if isinstance(value, dict):
        w = _length(doc, path + ("width",), value.get("width"), out)
        h = _length(doc, path + ("height",), value.get("height"), out)
        return Size(w, h) if w and h else None
    if isinstance(value, str) and value in presets:
        return presets[value]
    if isinstance(value, str) and re.match(r"^[a-z][a-z-]*$", value):
        hint = schema_check.suggest(value, sorted(presets))
        out.add(
            doc.problem(
                path,
                f"unknown size preset '{value}'{hint}; expected one of {', '.join(sorted(presets))}, "
                "a length, or width and height",
            )
        )
        return None
    side = _length(doc, path, value, out)
    return Size(side, side) if side else None


def load_paper(name: str) -> Paper:
    path = LAYOUTS / "paper" / f"{name}.yaml"
    if not re.match(r"^[a-z0-9_-]+$", name) or not path.is_file():
        known = sorted(p.stem for p in (LAYOUTS / "paper").glob("*.yaml"))
        raise SpecError(
            [Problem("--paper", 1, 1, f"unknown paper '{name}'; expected one of {', '.join(known)}")]
        )
    doc = load_yaml(path)
    out = Collector()
    out.extend(schema_check.check(doc, "paper"))
    out.raise_if_any()
    data = doc.data
    width = _length(doc, ("width",), data["width"], out)
    height = _length(doc, ("height",), data["height"], out)
    margin = _length(doc, ("margin",), data.get("margin", "5mm"), out)
    out.raise_if_any()
    assert width and height and margin
    if data.get("orientation") == "landscape":
        width, height = max(width, height), min(width, height)
    return Paper(data["name"], width, height, margin, path)


# ---------------------------------------------------------------- layouts


class LayoutLoader:
    """Resolves layout names to files (game's own layouts/ first), following ``extends``."""

    def __init__(self, game_folder: Path, out: Collector):
        self.roots = [game_folder / "layouts", LAYOUTS]
        self.out = out
        self.cache: dict[str, Layout | None] = {}
        # (element source, prop) → file:LINE:COL of the value, so later checks point at the value itself
        self.prop_marks: dict[tuple[str, str], str] = {}

    def find(self, name: str) -> Path | None:
        if ".." in name.split("/") or name.startswith("/"):
            return None
        for root in self.roots:
            candidate = root / f"{name}.yaml"
            if candidate.is_file() and is_inside(candidate, root):
                return candidate
        return None

    def known(self) -> list[str]:
        names = set()
        for root in self.roots:
            if root.is_dir():
                names.update(
                    str(p.relative_to(root).with_suffix(""))
                    for p in root.rglob("*.yaml")
                    if p.parent.name != "paper" and p.name != "sizes.yaml"
                )
        return sorted(names)

    def missing(self, doc: Document, path: PathKey, name: str) -> None:
        if ".." in name.split("/") or name.startswith("/") or any(
            (root / f"{name}.yaml").is_file() for root in self.roots
        ):
            self.out.add(
                doc.problem(
                    path,
                    f"layout '{name}' lies outside the layouts folders; expected a name like 'base/card' "
                    "for a file inside the game's layouts/ or punchboard's layouts/ (no '..', no leading '/', no symlink out)",
                )
            )
            return
        hint = schema_check.suggest(name, self.known())
        self.out.add(
            doc.problem(
                path,
                f"layout '{name}' not found{hint}; expected a file layouts/{name}.yaml "
                "in the game folder or in punchboard's layouts/",
            )
        )

    def get(self, name: str, stack: tuple[str, ...] = ()) -> Layout | None:
        if name in self.cache and not stack:
            return self.cache[name]
        path = self.find(name)
        if path is None:
            return None
        doc = _load(path, self.out)
        if doc is None:
            self.cache[name] = None
            return None
        if doc.data is None:
            doc.data = {}
        problems = schema_check.check(doc, "layout")
        if problems:
            self.out.extend(problems)
            self.cache[name] = None
            return None
        data = doc.data
        parent: Layout | None = None
        if "extends" in data:
            base = data["extends"]
            if base == name or base in stack:
                cycle = " → ".join(stack + (name, base))
                self.out.add(doc.problem(("extends",), f"layout extends itself in a cycle: {cycle}"))
                self.cache[name] = None
                return None
            if self.find(base) is None:
                self.missing(doc, ("extends",), base)
                self.cache[name] = None
                return None
            parent = self.get(base, stack + (name,))
            if parent is None:
                self.cache[name] = None
                return None
        layout = self._build(name, path, doc, parent)
        self.cache[name] = layout
        return layout

    def _build(self, name: str, path: Path, doc: Document, parent: Layout | None) -> Layout:
        data = doc.data
        elements: list[Element] = list(parent.elements) if parent else []
        palette = dict(parent.palette) if parent else {}
        palette.update(data.get("palette", {}))
        fonts = dict(parent.fonts) if parent else {}
        for font_name, font_file in data.get("fonts", {}).items():
            font_path = path.parent / font_file
            if not is_inside(font_path, path.parent) and not is_inside(font_path, LAYOUTS):
                self.out.add(doc.problem(("fonts", font_name), f"font file '{font_file}' lies outside the layouts folder"))
            elif not font_path.is_file():
                self.out.add(doc.problem(("fonts", font_name), f"font file '{font_file}' not found next to {doc.name}"))
            else:
                fonts[font_name] = font_path
        own_ids: dict[str, int] = {}
        for index, raw in enumerate(data.get("elements", [])):
            where: PathKey = ("elements", index)
            element_id = str(raw.get("id", f"{name}#{index}"))
            position = doc.where(where)
            source = f"{doc.name}:{position[0]}:{position[1]}"
            if element_id in own_ids:
                first = doc.where(("elements", own_ids[element_id]))[0]
                self.out.add(
                    doc.problem(
                        where + ("id",),
                        f"duplicate element id '{element_id}' (also on line {first}); expected each id once per layout",
                    )
                )
                continue
            own_ids[element_id] = index
            existing = next((i for i, e in enumerate(elements) if e.id == element_id), None)
            if raw.get("remove"):
                if existing is None:
                    self.out.add(doc.problem(where, f"remove: no inherited element with id '{element_id}'"))
                else:
                    del elements[existing]
                continue
            merged: dict[str, Any] = {}
            if existing is not None:
                merged.update(elements[existing].props)
            props = self._element_props(doc, where, raw)
            merged.update(props)
            if "type" not in raw and existing is not None:
                element_type = elements[existing].type
            elif "type" in raw:
                element_type = raw["type"]
            else:
                self.out.add(doc.problem(where, "element needs a type: one of rect, ellipse, line, polygon, text, image, icon"))
                continue
            element = Element(element_type, element_id, frozen_map(merged), source)
            for key in merged:
                if key in raw:
                    line, col = doc.where(where + (key,))
                    self.prop_marks[(source, key)] = f"{doc.name}:{line}:{col}"
                elif existing is not None:
                    self.prop_marks[(source, key)] = self.mark(elements[existing], key)
            if existing is not None:
                elements[existing] = element
            else:
                elements.append(element)
        safe = _length(doc, ("safe",), data["safe"], self.out) if "safe" in data else (parent.safe if parent else parse_length("3mm"))
        bleed = _length(doc, ("bleed",), data["bleed"], self.out) if "bleed" in data else (parent.bleed if parent else None)
        chain = (path,) + (parent.chain if parent else ())
        return Layout(name, path, chain, tuple(elements), frozen_map(palette), frozen_map(fonts), safe or 0.0, bleed)

    def mark(self, element: Element, key: str) -> str:
        """``file:LINE:COL`` of one property of ``element`` (the element's own position if unknown)."""
        return self.prop_marks.get((element.source, key), element.source)

    def _element_props(self, doc: Document, where: PathKey, raw: dict[str, Any]) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for key, value in raw.items():
            path = where + (key,)
            try:
                if key in DIM_PROPS:
                    props[key] = parse_dim(value)
                elif key in LENGTH_PROPS:
                    props[key] = parse_length(value)
                elif key == "points":
                    props[key] = tuple((parse_dim(x), parse_dim(y)) for x, y in value)
                elif key == "dash":
                    props[key] = tuple(parse_length(v) for v in value)
                elif key == "when":
                    expressions.parse(value)
                    props[key] = value
                else:
                    props[key] = value
            except UnitError as exc:
                self.out.add(doc.problem(path, f"{key}: {exc}"))
            except expressions.ExpressionError as exc:
                self.out.add(doc.problem(path, f"when: {exc}"))
        return props


# ---------------------------------------------------------------- components


def _coerce_csv(value: str) -> Any:
    text = value.strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text if text else None


def _csv_entries(doc: Document, csv_name: str, fields: list[str], out: Collector) -> list[tuple[dict[str, Any], Document]]:
    """Rows of a card CSV as entries, each with a tiny Document that knows its row's position."""
    folder = doc.path.parent
    path = folder / csv_name
    if not is_inside(path, folder):
        out.add(doc.problem(("csv",), f"csv file '{csv_name}' lies outside the game folder {display_path(folder)}"))
        return []
    if not path.is_file():
        out.add(doc.problem(("csv",), f"csv file '{csv_name}' not found next to {doc.name}"))
        return []
    name = display_path(path)
    max_bytes = out.limits.max_file_bytes
    size = path.stat().st_size
    if size > max_bytes:
        out.add(Problem(name, 1, 1, f"file is {size} bytes, more than the limit of {max_bytes} (raise it with {FLAGS['max_file_bytes']})"))
        return []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        out.add(Problem(name, line, 1, f"file is not UTF-8 text ({exc.reason}); save the CSV as UTF-8"))
        return []
    reader = csv.reader(io.StringIO(text), strict=True)
    rows: list[tuple[int, list[str]]] = []  # (line the row starts on, its cells)
    last_line = 0
    try:
        for row in reader:
            rows.append((last_line + 1, row))
            last_line = reader.line_num
    except csv.Error as exc:
        out.add(Problem(name, last_line + 1, 1, f"malformed CSV: {exc}"))
        return []
    if not rows:
        out.add(Problem(name, 1, 1, "csv file is empty; expected a header row naming the fields"))
        return []
    raw_header = rows[0][1]
    header = [h.strip() for h in raw_header]
    header_cols = [1 + sum(len(cell) + 1 for cell in raw_header[:i]) for i in range(len(raw_header))]
    allowed = sorted(set(fields) | {"count", "name"})
    good = True
    for col, column in enumerate(header):
        if not column:
            good = False
            out.add(Problem(name, 1, header_cols[col], f"column {col + 1} of the header has no name; expected one of {', '.join(allowed)}"))
        elif column in header[:col]:
            good = False
            out.add(Problem(name, 1, header_cols[col], f"duplicate column '{column}' (also column {header.index(column) + 1})"))
        elif column not in allowed:
            good = False
            hint = schema_check.suggest(column, allowed)
            out.add(Problem(name, 1, header_cols[col], f"unknown column '{column}'{hint}; expected one of {', '.join(allowed)}"))
    if not good:
        return []
    entries = []
    for line_no, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            out.add(Problem(name, line_no, 1, f"row has {len(row)} cells, expected {len(header)} like the header"))
            continue
        entry = {column: _coerce_csv(cell) for column, cell in zip(header, row, strict=False) if _coerce_csv(cell) is not None}
        row_doc = Document(path, entry)
        row_doc.value_marks[()] = (line_no, 1)
        offset = 1
        for column, cell in zip(header, row, strict=False):
            row_doc.value_marks[(column,)] = (line_no, offset)
            offset += len(cell) + 1
        count = entry.get("count", 1)
        if not isinstance(count, int) or count < 1:
            out.add(row_doc.problem(("count",), f"count must be a positive integer, got {count!r}"))
            continue
        entries.append((entry, row_doc))
    return entries


class ComponentLoader:
    def __init__(self, game_folder: Path, layouts: LayoutLoader, presets: dict[str, Size], out: Collector):
        self.folder = game_folder
        self.layouts = layouts
        self.presets = presets
        self.out = out
        self.id_marks: dict[Path, tuple[int, int]] = {}
        self.ids_read: set[str] = set()  # ids of every component file read, valid or not

    def side(self, doc: Document, path: PathKey, spec: Any, inherited: Side | None) -> Side | None:
        if spec is None:
            return inherited
        if spec == "none":
            return None
        if isinstance(spec, str):
            self.out.add(doc.problem(path, f"back must be 'none' or a mapping with layout and fields, got {spec!r}"))
            return inherited
        layout = spec.get("layout", inherited.layout if inherited else None)
        if layout is None:
            self.out.add(doc.problem(path, "back needs a layout (none is inherited from the component)"))
            return None
        self.check_layout(doc, path + ("layout",) if "layout" in spec else path, layout)
        fields = dict(inherited.fields) if inherited else {}
        fields.update(spec.get("fields", {}))
        return Side(layout, frozen_map(fields))

    def check_layout(self, doc: Document, path: PathKey, name: str) -> None:
        if self.layouts.find(name) is None:
            self.layouts.missing(doc, path, name)
        else:
            self.layouts.get(name)

    def load(self, path: Path) -> Component | None:
        doc = _load(path, self.out)
        if doc is None:
            return None
        data = doc.data
        self.id_marks[path] = doc.where(("id",))
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            self.ids_read.add(data["id"])
        if not isinstance(data, dict):
            self.out.add(doc.problem((), "a component file must be a mapping with id and kind"))
            return None
        kind = data.get("kind")
        kinds = ["deck", "banknotes", "tokens", "board", "tiles", "sheet", "supply"]
        if kind not in kinds:
            hint = schema_check.suggest(str(kind), kinds) if isinstance(kind, str) else ""
            got = "nothing" if kind is None else repr(kind)
            self.out.add(doc.problem(("kind",), f"kind must be one of {', '.join(kinds)}, got {got}{hint}"))
            return None
        problems = schema_check.check(doc, "component", kind)
        if problems:
            self.out.extend(problems)
            return None
        if kind == "supply":
            items = tuple(SupplyItem(i["name"], i["count"], i.get("notes", "")) for i in data["items"])
            return Component(data["id"], kind, data.get("name", data["id"]), path, None, 1, (), notes=data.get("notes", ""), printed=False, supplies=items)
        return self._printed(doc, data, kind)

    def _printed(self, doc: Document, data: dict[str, Any], kind: str) -> Component | None:
        errors_before = len(self.out.problems)
        size = _size(doc, ("size",), data["size"], self.presets, self.out) if "size" in data else None
        cell = _length(doc, ("cell",), data["cell"], self.out) if "cell" in data else None
        fields = list(data.get("fields", []))
        defaults = data.get("defaults", {})
        for key in defaults:
            if key not in fields and key != "name":
                self.out.add(doc.problem(("defaults", key), f"default for undeclared field '{key}'; declare it under fields:", key=True))
        face: Side | None = None
        if "layout" in data:
            self.check_layout(doc, ("layout",), data["layout"])
            face = Side(data["layout"])
        back = self.side(doc, ("back",), data.get("back"), None)
        list_key = LIST_KEYS[kind]
        entries: list[tuple[dict[str, Any], Document, PathKey]] = [
            (entry, doc, (list_key, i)) for i, entry in enumerate(data.get(list_key, []))
        ]
        if "csv" in data:
            entries += [(entry, row_doc, ()) for entry, row_doc in _csv_entries(doc, data["csv"], fields, self.out)]
        if not entries and list_key not in data and "csv" not in data:
            entries = [({}, doc, ())]
        if not entries and len(self.out.problems) == errors_before:
            also = " and the csv file has no rows" if "csv" in data else ""
            self.out.add(doc.problem((list_key,) if list_key in data else ("csv",), f"{list_key} is empty{also}; expected at least one entry"))
        copies = data.get("copies", 1)
        pieces: list[Piece] = []
        templates: list[tuple[int, dict[str, Any], Side | None, Side | None, tuple[tuple[int, int], ...]]] = []
        total = 0
        for entry, edoc, epath in entries:
            for key in entry:
                if key not in ENTRY_KEYS and key not in fields:
                    hint = schema_check.suggest(key, sorted(set(fields) | ENTRY_KEYS))
                    self.out.add(
                        edoc.problem(
                            epath + (key,),
                            f"unknown field '{key}'{hint}; declare it under fields: or use one of "
                            + ", ".join(sorted(ENTRY_KEYS)),
                            key=True,
                        )
                    )
            entry_face = face
            if "layout" in entry:
                self.check_layout(edoc, epath + ("layout",), entry["layout"])
                entry_face = Side(entry["layout"])
            if entry_face is None:
                self.out.add(edoc.problem(epath, "no layout: set layout on the component or on this entry"))
            entry_back = self.side(edoc, epath + ("back",), entry.get("back"), back)
            cells = self._cells(edoc, epath, entry.get("cells"), kind)
            base = {k: v for k, v in defaults.items()}
            base.update({k: v for k, v in entry.items() if k not in ENTRY_KEYS or k == "name"})
            values: list[dict[str, Any]] = [base]
            steps = range(1)
            if "range" in entry:
                rng = entry["range"]
                steps = range(rng["from"], rng["to"] + 1, rng.get("step", 1))
                if rng["field"] not in fields:
                    self.out.add(edoc.problem(epath + ("range", "field"), f"range field '{rng['field']}' is not declared under fields:"))
                if rng["to"] < rng["from"]:
                    self.out.add(edoc.problem(epath + ("range",), f"range goes from {rng['from']} down to {rng['to']}; expected from ≤ to"))
            count = entry.get("count", 1)
            total += count * len(steps) * copies
            max_pieces = self.out.limits.max_pieces
            if total > max_pieces:
                culprit, where = edoc, epath + ("count",)
                if count * len(steps) <= max_pieces and copies > 1:
                    culprit, where = doc, ("copies",)
                elif "range" in entry and count <= max_pieces:
                    where = epath + ("range",)
                self.out.add(
                    culprit.problem(
                        where,
                        f"component expands to at least {total} pieces, more than the limit of {max_pieces}; "
                        f"expected a printable count (raise the limit with {FLAGS['max_pieces']})",
                    )
                )
                return None
            if "range" in entry:
                values = [{"name": str(v), **base, rng["field"]: v} for v in steps]
            for fields_of in values:
                templates.append((count, fields_of, entry_face, entry_back, cells))
        if len(self.out.problems) > errors_before:
            return None
        index = 0
        for copy in range(copies):
            for entry_index, (count, fields_of, entry_face, entry_back, cells) in enumerate(templates):
                frozen = frozen_map(fields_of)
                for _ in range(count):
                    pieces.append(Piece(data["id"], index, copy, entry_index, frozen, entry_face, entry_back, cells))
                    index += 1
        if kind in ("deck", "banknotes", "tokens", "board", "sheet") and size is None:
            self.out.add(doc.problem((), f"missing required key 'size' for a {kind}"))
            return None
        if size is not None and not self._safe_zones_fit(doc, size, kind, (("layout",), face), (("back", "layout"), back)):
            return None
        shape = None
        if kind == "tokens":
            outline = tuple((float(x), float(y)) for x, y in data.get("outline", []))
            shape_name = data.get("shape", "circle")
            if shape_name == "custom" and not outline:
                self.out.add(doc.problem(("shape",), "shape custom needs an outline: a list of [x, y] points"))
            shape = TokenShape(shape_name, data.get("teeth", 12), outline)
        return Component(
            id=data["id"],
            kind=kind,
            name=data.get("name", data["id"].replace("_", " ").title()),
            source=doc.path,
            size=size,
            copies=copies,
            pieces=tuple(pieces),
            fields=tuple(fields),
            notes=data.get("notes", ""),
            printed=data.get("print", True),
            shape=shape,
            cell=cell,
            fold=data.get("fold", "none"),
            outside=self._outside(doc, data),
            inputs=(doc.path, doc.path.parent / data["csv"]) if "csv" in data else (doc.path,),
        )

    def _safe_zones_fit(self, doc: Document, size: Size, kind: str, *sides: tuple[PathKey, Side | None]) -> bool:
        """A layout's safe margin must leave some room inside the piece it is drawn on."""
        fits = True
        for path, side in sides:
            layout = self.layouts.cache.get(side.layout) if side is not None else None
            if layout is None or 2 * layout.safe < min(size.width, size.height):
                continue
            fits = False
            self.out.add(
                doc.problem(
                    path,
                    f"layout '{layout.name}' keeps a {round(to_mm(layout.safe), 2):g} mm safe margin on each side, which leaves "
                    f"no room on a {round(to_mm(size.width), 2):g} × {round(to_mm(size.height), 2):g} mm {kind}; expected a safe margin "
                    "under half the piece's smaller side",
                )
            )
        return fits

    def _outside(self, doc: Document, data: dict[str, Any]) -> Side | None:
        if "outside" not in data:
            return None
        if data.get("fold", "none") == "none":
            self.out.add(doc.problem(("outside",), "outside needs a folded sheet: set fold to half-horizontal or half-vertical", key=True))
            return None
        return self.side(doc, ("outside",), data["outside"], None)

    def _cells(self, doc: Document, path: PathKey, rows: list[str] | None, kind: str) -> tuple[tuple[int, int], ...]:
        if rows is None:
            return ((0, 0),)
        if kind != "tiles":
            self.out.add(doc.problem(path + ("cells",), f"cells only applies to tiles, not to a {kind}", key=True))
            return ((0, 0),)
        cells = tuple((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X")
        if not cells:
            self.out.add(doc.problem(path + ("cells",), "cells has no X; expected at least one cell"))
            return ((0, 0),)
        return cells


# ---------------------------------------------------------------- games


def _field_refs(text: Any) -> set[str]:
    return set(FIELD_REF.findall(text)) if isinstance(text, str) else set()


def _check_colours(game_palette: dict[str, str], layout: Layout, mark: layout_checks.Mark, out: Collector) -> None:
    palette = {**game_palette, **layout.palette}
    for element in layout.elements:
        for key in ("fill", "stroke", "color", "accent"):
            colour = element.props.get(key)
            if colour is None or colour == "none":
                continue
            if isinstance(colour, str) and (_HEX.match(colour) or colour in palette):
                continue
            known = sorted(palette)
            hint = schema_check.suggest(str(colour), known)
            out.add(
                layout_checks.at(
                    mark(element, key),
                    f"{key}: unknown colour {colour!r}{hint}; expected #rrggbb or a palette name "
                    f"({', '.join(known) or 'none defined'})",
                )
            )


def _load_components(
    folder: Path, doc: Document, names: list[str], loader: ComponentLoader, out: Collector
) -> tuple[list[Component], list[Path]]:
    """The components game.yaml lists, in order, and the files they came from."""
    components: list[Component] = []
    files: list[Path] = []
    listed: dict[Path, int] = {}
    seen: dict[str, Path] = {}
    for index, name in enumerate(names):
        path = folder / name
        if not is_inside(path, folder):
            out.add(doc.problem(("components", index), f"component file '{name}' lies outside the game folder"))
            continue
        if not path.is_file():
            out.add(doc.problem(("components", index), f"component file '{name}' not found in {display_path(folder)}"))
            continue
        if path.resolve() in listed:
            first = listed[path.resolve()]
            out.add(doc.problem(("components", index), f"component file '{name}' is listed twice (also item {first + 1} of components)"))
            continue
        listed[path.resolve()] = index
        files.append(path)
        component = loader.load(path)
        if component is None:
            continue
        if component.id in seen:
            line, col = loader.id_marks.get(path, (1, 1))
            other = display_path(seen[component.id])
            out.add(Problem(display_path(path), line, col, f"duplicate component id '{component.id}' (also in {other}); expected each id once per game"))
            continue
        seen[component.id] = path
        components.append(component)
    return components, files


def load_game(folder: Path, limits: Limits = DEFAULT_LIMITS) -> Game:
    """Load and validate a game folder; raises SpecError listing every problem."""
    out = Collector(limits=limits)
    game_path = folder / GAME_FILE
    if not game_path.is_file():
        raise SpecError([Problem(display_path(folder), 1, 1, f"no {GAME_FILE} in this folder; expected a game folder")])
    doc = _load(game_path, out)
    out.raise_if_any()
    assert doc is not None
    if not isinstance(doc.data, dict):
        raise SpecError([doc.problem((), "game.yaml must be a mapping with id, title, players and components")])
    game_problems = schema_check.check(doc, "game")
    if game_problems:
        out.extend(game_problems)
        names = doc.data.get("components")
        if isinstance(names, list) and all(isinstance(name, str) for name in names):
            # report the component files' problems too, not only the game file's
            _load_components(folder, doc, names, ComponentLoader(folder, LayoutLoader(folder, out), load_size_presets(), out), out)
        out.raise_if_any()
    data = doc.data
    if data["players"]["min"] > data["players"]["max"]:
        out.add(doc.problem(("players",), f"players min {data['players']['min']} is more than max {data['players']['max']}"))
    presets = load_size_presets()
    layouts = LayoutLoader(folder, out)
    loader = ComponentLoader(folder, layouts, presets, out)
    components, files = _load_components(folder, doc, data["components"], loader, out)
    files.insert(0, game_path)
    seen = {component.id for component in components}
    setup = None
    warnings: tuple[str, ...] = ()
    if "setup" in data:
        setup = folder / data["setup"]
        if not is_inside(setup, folder):
            out.add(doc.problem(("setup",), f"setup file '{data['setup']}' lies outside the game folder"))
        elif not setup.is_file():
            out.add(doc.problem(("setup",), f"setup file '{data['setup']}' not found in {display_path(folder)}"))
        elif not out.problems:
            try:
                warnings = load_setup(setup, components, (data["players"]["min"], data["players"]["max"])).gaps
            except SpecError as err:
                out.extend(err.problems)
    box: list[BoxLine] = []
    ids = sorted(seen)
    for index, line in enumerate(data.get("box", [])):
        for j, component_id in enumerate(line["components"]):
            if component_id not in seen and component_id not in loader.ids_read:
                hint = schema_check.suggest(component_id, ids)
                out.add(doc.problem(("box", index, "components", j), f"box line refers to unknown component '{component_id}'{hint}"))
        if "where" in line:
            try:
                expressions.parse(line["where"])
            except expressions.ExpressionError as exc:
                out.add(doc.problem(("box", index, "where"), f"where: {exc}"))
        line_no, col = doc.where(("box", index))
        box.append(BoxLine(line["text"], line["count"], tuple(line["components"]), line.get("where"), f"{doc.name}:{line_no}:{col}", line.get("per_copy", False)))
    used: dict[str, Layout] = {}
    palette = dict(data.get("palette", {}))
    for component in components:
        for name in sorted(component.layouts()):
            layout = layouts.get(name)
            if layout is not None:
                used[name] = layout
    images = layout_checks.ImageChecker(folder, limits, layouts.mark)

    def shared(file: str) -> bool:
        """A layout file meant for many games: in punchboard's layouts/ but not its layouts/<game id>/."""
        return is_inside(Path(file), LAYOUTS) and not is_inside(Path(file), LAYOUTS / str(data["id"]))

    for layout in used.values():
        _check_colours(palette, layout, layouts.mark, out)
        out.extend(layout_checks.check_fonts(layout, layouts.mark))
        out.extend(images.literal(layout))
    for component in components:
        out.extend(layout_checks.check_bindings(component, used, images, layouts.mark, shared))
    out.raise_if_any()
    return Game(
        id=data["id"],
        title=data["title"],
        folder=folder,
        players_min=data["players"]["min"],
        players_max=data["players"]["max"],
        components=tuple(components),
        layouts=frozen_map(used),
        box=tuple(box),
        palette=frozen_map(palette),
        rulebook=data.get("rulebook", ""),
        designers=tuple(data.get("designers", [])),
        setup=setup,
        notes=data.get("notes", ""),
        files=tuple(files),
        warnings=warnings,
    )
