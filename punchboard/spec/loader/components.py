"""Component files: entries expanded into pieces, sides bound to layouts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from punchboard.incremental.loads import KeptComponent, kept
from punchboard.plumbing.errors import Problem
from punchboard.plumbing.limits import FLAGS
from punchboard.plumbing.units import to_mm
from punchboard.spec import schema_check
from punchboard.spec.model import (
    Component,
    Piece,
    Side,
    Size,
    SupplyItem,
    TokenShape,
    frozen_map,
    new_piece,
)
from punchboard.spec.yamlsource import Document, PathKey

from .common import ENTRY_KEYS, LIST_KEYS, Collector, load_document, positive_length
from .layouts import LayoutLoader
from .sizes import parse_size
from .spreadsheets import CellMarks, TableEntries, read_table, table_entries
from .translated import Gathered, key_problem, split_key, translated_keys

# What an entry makes: count, fields, face, back, cells and marks of each of its pieces.
Template = tuple[int, dict[str, Any], Side | None, Side | None, tuple[tuple[int, int], ...], Any]
# The entry keys no field may be named after: an entry's (or a card table row's) value under one is that key's.
_ENTRY_ONLY = {"range": "range: makes a run of cards", "back": "back: gives the entry its own back",
               "layout": "layout: gives the entry its own layout", "cells": "cells: shapes a tile"}
ONE_CELL = ((0, 0),)  # the cells of a piece that is not a tile, or of a tile that gives none


class _Shared(NamedTuple):
    """What every entry of one printed component starts from."""

    kind: str
    fields: list[str]
    defaults: dict[str, Any]
    default_marks: dict[str, str]  # where each default was written
    face: Side | None  # the component's layout
    back: Side | None
    copies: int


def _pieces(component_id: str, copies: int, templates: list[Template]) -> list[Piece]:
    """The pieces ``templates`` make, every copy of the component in turn, numbered in that order."""
    pieces: list[Piece] = []
    index = 0
    for copy in range(copies):
        for entry_index, (count, fields_of, entry_face, entry_back, cells, marks) in enumerate(templates):
            spec = {"component": component_id, "index": index, "copy": copy, "entry": entry_index,
                    "fields": frozen_map(fields_of), "face": entry_face, "back": entry_back, "cells": cells, "marks": marks}
            for _ in range(count):
                spec["index"] = index
                pieces.append(new_piece(spec))
                index += 1
    return pieces


def _mark(doc: Document, path: PathKey) -> str:
    found = doc.value_marks.get(path)  # where a value was written, most often (a card table's cell): no search
    line, col = found if found is not None else doc.where(path)
    return f"{doc.name}:{line}:{col}"


def _fields_alone(face: Side | None) -> bool:
    """Whether a card table's rows are made into templates without the entry loop's checks (_row_templates): its
    columns are declared fields, count and name (no field is named after another entry key), so its rows set
    fields alone, and they take the component's layout; without one, the entry loop says each has none."""
    return face is not None


def range_length(start: int, stop: int, step: int) -> int:
    """How many values a ``range:`` from ``start`` to ``stop`` (both included) by ``step`` (≥ 1) runs through, worked
    out for any size (0 when it runs backwards)."""
    return max(0, (stop - start) // step + 1)


def _too_many(culprit: Document, path: PathKey, total: int, max_pieces: int) -> Problem:
    return culprit.problem(
        path,
        f"component expands to at least {total} pieces, more than the limit of {max_pieces}; "
        f"expected a printable count (raise the limit with {FLAGS['max_pieces']})",
    )


class ComponentLoader:
    def __init__(self, game_folder: Path, layouts: LayoutLoader, presets: dict[str, Size], out: Collector,
                 languages: tuple[str, ...] | None = ()):
        self.folder = game_folder
        self.languages = languages  # game.yaml's languages: (keys and columns field@lang name one of them; None: invalid)
        self.gathered = Gathered()  # the translations of the component being loaded
        self.layouts = layouts
        self.presets = presets
        self.out = out
        self.id_marks: dict[Path, tuple[int, int]] = {}
        self.ids_read: set[str] = set()  # ids of every component file read, valid or not
        self.nameless: list[Path] = []  # component files too broken to tell their id
        self.group_marks: dict[str, tuple[str, int, int]] = {}  # component id -> file, line, col of its print_group
        self.named: dict[str, None] | None = None  # the layouts the component being loaded names, in order (punchboard/incremental/loads.py)

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
        marks = dict(inherited.marks) if inherited else {}
        marks.update({key: _mark(doc, path + ("fields", key)) for key in spec.get("fields", {})})
        return Side(layout, frozen_map(fields), frozen_map(marks))

    def check_layout(self, doc: Document, path: PathKey, name: str) -> None:
        if self.named is not None:
            self.named[name] = None
        if self.layouts.find(name) is None:
            self.layouts.missing(doc, path, name)
        else:
            self.layouts.get(name)

    def load(self, path: Path) -> Component | None:
        doc = load_document(path, self.out)
        if doc is None:
            self.nameless.append(path)
            return None
        data = doc.data
        self.id_marks[path] = doc.where(("id",))
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            self.ids_read.add(data["id"])
        else:
            self.nameless.append(path)
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
        same = self._kept(path, doc, data)
        if same is not None:
            return same
        problems = schema_check.check(doc, "component", kind)
        if "print_group" in data and kind not in ("deck", "banknotes", "tokens"):  # say why, not only "unknown key"
            problems = [p for p in problems if not p.message.startswith("unknown key 'print_group'")]
            problems.append(doc.problem(("print_group",), f"print_group: only decks, banknotes and tokens share sheets (a {kind} "
                                                         "component prints on its own); expected no print_group here", key=True))
        if problems:
            self.out.extend(problems)
            return None
        if kind == "supply":
            return self._supply(doc, data, path)
        return self._keep(path, doc, data, lambda: self._printed(doc, data, kind))

    def _kept(self, path: Path, doc: Document, data: dict[str, Any]) -> Component | None:
        """The very component of the last load, if its file and everything it was made from are unchanged (punchboard/incremental/loads.py)."""
        memo = kept()
        known = memo.components.get(path) if memo is not None else None
        if known is None or known.digest != doc.text_digest or known.limits != self.out.limits or known.presets != self.presets:
            return None
        # Its layouts are looked up as check_layout would. If one changed, the component is loaded as usual,
        # and what this look-up said and loaded is taken back first: a problem of a layout counts against
        # the component loading it (its load stops), so it must be found again inside that load.
        problems, cached = len(self.out.problems), set(self.layouts.cache)
        for name, layout in known.layouts:
            if self.layouts.find(name) is None or self.layouts.get(name) is not layout or len(self.out.problems) != problems:
                del self.out.problems[problems:]
                for added in set(self.layouts.cache) - cached:
                    del self.layouts.cache[added]
                return None
        self._print_group(doc, data)
        return known.component

    def _keep(self, path: Path, doc: Document, data: dict[str, Any], load: Callable[[], Component | None]) -> Component | None:
        """``load()``, kept for the next load when it found no problem and read no card table."""
        memo = kept()
        if memo is None or "csv" in data or "table" in data or not doc.text_digest:
            return load()
        before = len(self.out.problems), len(self.out.warnings)
        names: dict[str, None] = {}
        self.named = names
        try:
            component = load()
        finally:
            self.named = None
        if component is None or component.translations is not None or (len(self.out.problems), len(self.out.warnings)) != before:
            return component  # a translated component is read under the game's languages: it is not kept
        layouts = tuple((name, self.layouts.cache.get(name)) for name in names)
        if all(layout is not None for _, layout in layouts):
            memo.put(memo.components, path, KeptComponent(doc.text_digest, self.out.limits, dict(self.presets),
                                                          layouts, component))  # type: ignore[arg-type]
        return component

    def _supply(self, doc: Document, data: dict[str, Any], path: Path) -> Component | None:
        fields = tuple(data.get("fields", []))
        items = []
        before = len(self.out.problems)
        for index, item in enumerate(data["items"]):
            values = {k: v for k, v in item.items() if k not in ("name", "count", "notes")}
            for key in values:
                if key not in fields:
                    hint = schema_check.suggest(key, list(fields))
                    known = f"; fields: {', '.join(fields)}" if fields else "; declare it under fields: first"
                    self.out.add(doc.problem(("items", index, key), f"unknown field '{key}'{hint}{known}", key=True))
            items.append(SupplyItem(item["name"], item["count"], item.get("notes", ""), frozen_map(values)))
        if len(self.out.problems) > before:
            return None
        return Component(data["id"], "supply", data.get("name", data["id"]), path, None, 1, (), fields=fields,
                         notes=data.get("notes", ""), printed=False, supplies=tuple(items))

    def _printed(self, doc: Document, data: dict[str, Any], kind: str) -> Component | None:
        """A printed component (deck, tokens, board, …): its entries and card table expanded into pieces;
        None when it has a problem (each one is added to the collector)."""
        errors_before = len(self.out.problems)
        self.gathered = Gathered()
        self._name_translations(doc, data)
        size = parse_size(doc, ("size",), data["size"], self.presets, self.out) if "size" in data else None
        cell = positive_length(doc, ("cell",), data["cell"], self.out) if "cell" in data else None
        fields = self._declared_fields(doc, data)
        if fields is None:
            return None
        defaults = data.get("defaults", {})
        face: Side | None = None
        if "layout" in data:
            self.check_layout(doc, ("layout",), data["layout"])
            face = Side(data["layout"])
        back = self.side(doc, ("back",), data.get("back"), None)
        entries, rows, table_file = self._entries(doc, data, kind, fields, face, errors_before)
        shared = _Shared(kind, fields, defaults, {k: _mark(doc, ("defaults", k)) for k in defaults}, face, back,
                         data.get("copies", 1))
        templates: list[Template] = []
        total = 0
        for entry, edoc, epath in entries:
            added = self._entry_templates(doc, shared, entry, edoc, epath, total, templates)
            if added is None:
                return None
            total = added
        if rows is not None and not self._row_templates(doc, rows, defaults, shared.default_marks, (face, back),
                                                        shared.copies, total, templates):
            return None
        if len(self.out.problems) > errors_before:
            return None
        pieces = _pieces(data["id"], shared.copies, templates)
        if kind in ("deck", "banknotes", "tokens", "board", "sheet") and size is None:
            self.out.add(doc.problem((), f"missing required key 'size' for a {kind}"))
            return None
        if size is not None and not self._safe_zones_fit(doc, size, kind, (("layout",), face), (("back", "layout"), back)):
            return None
        return Component(
            id=data["id"],
            kind=kind,
            name=data.get("name", data["id"].replace("_", " ").title()),
            source=doc.path,
            size=size,
            copies=shared.copies,
            pieces=tuple(pieces),
            fields=tuple(fields),
            notes=data.get("notes", ""),
            printed=data.get("print", True),
            shape=self._token_shape(doc, data) if kind == "tokens" else None,
            cell=cell,
            fold=data.get("fold", "none"),
            outside=self._outside(doc, data),
            inputs=(doc.path, table_file) if table_file is not None else (doc.path,),
            print_group=self._print_group(doc, data),
            translations=self.gathered.frozen(),
        )

    def _name_translations(self, doc: Document, data: dict[str, Any]) -> None:
        """The component's ``name@lang`` keys, gathered (a language the game lacks is a problem at its key)."""
        for key in translated_keys(data):
            wrong = key_problem(key, self.languages, ["name"])
            if wrong is not None:
                self.out.add(doc.problem((key,), wrong, key=True))
            elif isinstance(data[key], str) and data[key]:
                self.gathered.names[key.partition("@")[2]] = (data[key], _mark(doc, (key,)))

    def _declared_fields(self, doc: Document, data: dict[str, Any]) -> list[str] | None:
        """The component's fields; None when one has the name of an entry's own key (every entry setting it
        would be read as that key). A default for an undeclared field is a problem too."""
        fields = list(data.get("fields", []))
        misnamed = [(at, key) for at, key in enumerate(fields) if key in _ENTRY_ONLY]
        for at, key in misnamed:
            self.out.add(doc.problem(("fields", at), f"field '{key}' has the name of an entry's own key ({_ENTRY_ONLY[key]}), "
                                     "which a card's value cannot set; expected another name for the field"))
        if misnamed:
            return None
        for key in data.get("defaults", {}):
            if key not in fields and key != "name":
                self.out.add(doc.problem(("defaults", key), f"default for undeclared field '{key}'; declare it under fields:", key=True))
        return fields

    def _entries(self, doc: Document, data: dict[str, Any], kind: str, fields: list[str], face: Side | None,
                 errors_before: int) -> tuple[list[tuple[dict[str, Any], Document, PathKey]], TableEntries | None, Path | None]:
        """The component's entries (with the document and path each is in), its card table's rows when they
        set fields alone (:meth:`_row_templates` reads them; otherwise they are entries), and the table's file."""
        list_key = LIST_KEYS[kind]
        entries: list[tuple[dict[str, Any], Document, PathKey]] = [
            (entry, doc, (list_key, i)) for i, entry in enumerate(data.get(list_key, []))
        ]
        table_key = "table" if "table" in data else "csv"
        table_file: Path | None = None
        rows: TableEntries | None = None
        if "csv" in data and "table" in data:
            self.out.add(doc.problem(("table",), "give the card table once: csv: or table:, not both", key=True))
        elif table_key in data:
            table = read_table(doc, table_key, data[table_key], self.out, self.out.sheets)
            if table is not None:
                table_file = table.path
                rows = table_entries(table, fields, self.out, self.languages)
                self.gathered.declare(rows.header)
                if not _fields_alone(face):  # the entry loop reads them, as it reads the component's entries
                    entries += [(row.entry, rows.document(row), ()) for row in rows.rows]
                    rows = None
        if not entries and list_key not in data and table_key not in data:
            entries = [({}, doc, ())]
        if not entries and not (rows is not None and rows.rows) and len(self.out.problems) == errors_before:
            also = f" and the {table_key} has no rows" if table_key in data else ""
            self.out.add(doc.problem((list_key,) if list_key in data else (table_key,), f"{list_key} is empty{also}; expected at least one entry"))
        return entries, rows, table_file

    def _entry_templates(self, doc: Document, shared: _Shared, entry: dict[str, Any], edoc: Document, epath: PathKey,
                         total: int, templates: list[Template]) -> int | None:
        """Check one entry and add what it makes to ``templates``: the pieces counted so far with it, or None
        when they pass the piece limit (the problem names the count, copies or range that passed it)."""
        fields, defaults = shared.fields, shared.defaults
        for key in entry:
            if split_key(key) is not None:
                wrong = key_problem(key, self.languages, [*fields, "name"])
                if wrong is not None:
                    self.out.add(edoc.problem(epath + (key,), wrong, key=True))
                continue
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
        entry_face = shared.face
        if "layout" in entry:
            self.check_layout(edoc, epath + ("layout",), entry["layout"])
            entry_face = Side(entry["layout"])
        if entry_face is None:
            self.out.add(edoc.problem(epath, "no layout: set layout on the component or on this entry"))
        entry_back = self.side(edoc, epath + ("back",), entry.get("back"), shared.back)
        cells = self._cells(edoc, epath, entry.get("cells"), shared.kind)
        base = {k: v for k, v in defaults.items()}
        translated = translated_keys(entry)
        base.update({k: v for k, v in entry.items() if (k not in ENTRY_KEYS or k == "name") and k not in translated})
        marks = dict(shared.default_marks)
        marks.update({k: _mark(edoc, epath + (k,)) for k in entry if (k not in ENTRY_KEYS or k == "name") and k not in translated})
        values: list[dict[str, Any]] = [base]
        steps = 1  # values the entry runs through: its range's length, worked out (len() of a range stops at 2**63)
        if "range" in entry:
            rng = entry["range"]
            marks[rng["field"]] = _mark(edoc, epath + ("range",))
            steps = range_length(rng["from"], rng["to"], rng.get("step", 1))
            if rng["field"] not in fields:
                self.out.add(edoc.problem(epath + ("range", "field"), f"range field '{rng['field']}' is not declared under fields:"))
            if rng["to"] < rng["from"]:
                self.out.add(edoc.problem(epath + ("range",), f"range goes from {rng['from']} down to {rng['to']}; expected from ≤ to"))
        count = entry.get("count", 1)
        copies = shared.copies
        total += count * steps * copies
        max_pieces = self.out.limits.max_pieces
        if total > max_pieces:
            culprit, where = edoc, epath + ("count",)
            if count * steps <= max_pieces and copies > 1:
                culprit, where = doc, ("copies",)
            elif "range" in entry and count <= max_pieces:
                where = epath + ("range",)
            self.out.add(_too_many(culprit, where, total, max_pieces))
            return None
        if "range" in entry:
            values = [{"name": str(v), **base, rng["field"]: v} for v in range(rng["from"], rng["to"] + 1, rng.get("step", 1))]
        if translated:
            self.gathered.declare(translated)
            wording = {key: entry[key] for key in translated}
            written = {key: _mark(edoc, epath + (key,)) for key in translated}
            for at in range(len(templates), len(templates) + len(values)):
                self.gathered.add(at, wording, written)
        for fields_of in values:
            templates.append((count, fields_of, entry_face, entry_back, cells, frozen_map(marks)))
        return total

    def _token_shape(self, doc: Document, data: dict[str, Any]) -> TokenShape:
        """A token component's shape: its name, teeth and (for custom) its outline."""
        outline = tuple((float(x), float(y)) for x, y in data.get("outline", []))
        shape_name = data.get("shape", "circle")
        if shape_name == "custom" and not outline:
            self.out.add(doc.problem(("shape",), "shape custom needs an outline: a list of [x, y] points"))
        return TokenShape(shape_name, data.get("teeth", 12), outline)

    def _row_templates(self, doc: Document, rows: TableEntries, defaults: dict[str, Any], default_marks: dict[str, str],
                       sides: tuple[Side | None, Side | None], copies: int, total: int, templates: list[Template]) -> bool:
        """The templates the entry loop makes of a card table's rows, made without its checks of each entry, which
        these rows pass: table_entries checked their columns (declared fields, count and name) and counts, and they
        take the component's layout, back and cells. False, after the problem, if they bring it past max_pieces."""
        face, back = sides
        name = rows.table.name
        columns = {column: at for at, column in enumerate(rows.header) if column != "count" and split_key(column) is None}
        translated = {column: at for at, column in enumerate(rows.header) if split_key(column) is not None}
        picked = "count" in rows.header or bool(translated)  # a row's entry holds more than its fields: pick them
        max_pieces = self.out.limits.max_pieces
        for row in rows.rows:
            entry, _, places = row
            if translated:
                self.gathered.add(len(templates), {column: entry[column] for column in translated if column in entry},
                                  {column: f"{name}:{places[at][0]}:{places[at][1]}" for column, at in translated.items()})
            count = entry.get("count", 1)
            total += count * copies
            if total > max_pieces:
                culprit, where = (doc, ("copies",)) if count <= max_pieces and copies > 1 else (rows.document(row), ("count",))
                self.out.add(_too_many(culprit, where, total, max_pieces))
                return False
            if defaults or picked:  # an empty cell sets nothing: the default stands
                fields_of = dict(defaults)
                fields_of.update((column, entry[column]) for column in columns if column in entry)
            else:
                fields_of = entry  # its cells are the fields, in the header's order
            templates.append((count, fields_of, face, back, ONE_CELL, CellMarks(name, places, columns, entry, default_marks)))
        return True

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

    def _print_group(self, doc: Document, data: dict[str, Any]) -> str:
        """The print group, its place remembered for the game-wide check (loader/print_groups.py)."""
        group = data.get("print_group", "")
        if group:
            self.group_marks[data["id"]] = (doc.name, *doc.where(("print_group",)))
        return group

    def _outside(self, doc: Document, data: dict[str, Any]) -> Side | None:
        if "outside" not in data:
            return None
        if data.get("fold", "none") == "none":
            self.out.add(doc.problem(("outside",), "outside needs a folded sheet: set fold to half-horizontal or half-vertical", key=True))
            return None
        return self.side(doc, ("outside",), data["outside"], None)

    def _cells(self, doc: Document, path: PathKey, rows: list[str] | None, kind: str) -> tuple[tuple[int, int], ...]:
        if rows is None:
            return ONE_CELL
        if kind != "tiles":
            self.out.add(doc.problem(path + ("cells",), f"cells only applies to tiles, not to a {kind}", key=True))
            return ONE_CELL
        cells = tuple((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X")
        if not cells:
            self.out.add(doc.problem(path + ("cells",), "cells has no X; expected at least one cell"))
            return ONE_CELL
        return cells
