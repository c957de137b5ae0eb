"""Card lists kept in a spreadsheet: a CSV next to the component, an .xlsx sheet, or a published CSV link.

A component names its table with ``csv:`` (a file or a link) or ``table:``::

    table: cards.csv
    table: {file: cards.xlsx, sheet: Deck}
    table: {url: "https://docs.google.com/spreadsheets/d/…/export?format=csv", timeout: 10}

Every kind is read into the same rows of text cells, each with its position,
so problems keep the ``file:ROW:COL`` form (``cards.xlsx[Deck]:4:2`` for a
sheet). A link is fetched (loader/fetch.py: http and https only, all of it within its ``timeout:``, 10 s by
default) and cached inside the output folder
(``OUT/.sheets/``) with its fetch time and validators (ETag, Last-Modified), so
the next command asks only "has it changed?" and an unchanged sheet is not sent
again; when it cannot be fetched the cached copy is used and a warning says so. Every reader keeps the bounds
of loader/tables.py (columns, cell length, rows and cells read, no more rows than it takes to pass the piece
limit); an .xlsx, those of loader/workbooks.py too (what its zip and each of its parts inflate to, a row's cells
counted before openpyxl holds them).
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.errors import Problem, display_path
from punchboard.plumbing.limits import FLAGS
from punchboard.plumbing.paths import is_inside
from punchboard.spec import schema_check
from punchboard.spec.yamlsource import Document, PathKey

from .common import Collector
from .fetch import DEFAULT_DEADLINE, FetchError, fetch, url_problem
from .tables import Bounds, Capped, Place, RowBudget, Table, long_cell
from .translated import key_problem, split_key
from .workbooks import xlsx_table

URL = re.compile(r"^https?://", re.IGNORECASE)
SHEETS_FOLDER = ".sheets"


_INTEGER = re.compile(r"-?\d+")
_DECIMAL = re.compile(r"-?\d+\.\d+")


@lru_cache(maxsize=8192)  # a deck's columns repeat their values (kinds, numbers): each text is coerced once
def _coerce_csv(value: str) -> Any:
    """A cell's text as the value a YAML entry would hold: an int, a float, a bool, the text, or None if empty."""
    text = value.strip()
    if _INTEGER.fullmatch(text) and len(text) <= 100:  # longer is no count (and int() refuses > 4300 digits)
        return int(text)
    if _DECIMAL.fullmatch(text):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text if text else None


def coerce_cell(value: str) -> Any:
    """A card table cell's text as its value (what a translation file's text is read as too)."""
    return _coerce_csv(value)


def _spec(doc: Document, key: str, value: Any) -> tuple[str, dict[str, Any]]:
    """``csv:``/``table:`` as (kind, settings): kind is csv, xlsx or url."""
    if isinstance(value, str):
        value = {"url": value} if URL.match(value) else {"file": value}
    if "url" in value:
        return "url", value
    return ("xlsx" if str(value["file"]).lower().endswith(".xlsx") else "csv"), value


def read_table(doc: Document, key: str, value: Any, out: Collector, sheets: Path) -> Table | None:
    """The table a component's ``csv:`` or ``table:`` names, or None after adding a problem."""
    if isinstance(value, dict) and ("url" in value) == ("file" in value):
        out.add(doc.problem((key,), f"{key} needs either file: (a .csv or .xlsx next to {doc.name}) or url: (a published CSV link), "
                                    "not both or neither"))
        return None
    if isinstance(value, dict) and "url" in value and "sheet" in value:
        out.add(doc.problem((key, "sheet"), "sheet applies to an .xlsx workbook; a link is one CSV table", key=True))
        return None
    if isinstance(value, dict) and "file" in value and "timeout" in value:
        out.add(doc.problem((key, "timeout"), "timeout applies to a url:, not to a file", key=True))
        return None
    kind, spec = _spec(doc, key, value)
    path_key: PathKey = (key,) if isinstance(value, str) else (key, "url" if kind == "url" else "file")
    if kind == "url":
        return _url_table(doc, path_key, spec, out, sheets)
    folder = doc.path.parent
    name = str(spec["file"])
    path = folder / name
    if not is_inside(path, folder):
        out.add(doc.problem(path_key, f"{key} file '{name}' lies outside the game folder {display_path(folder)}"))
        return None
    if not path.is_file():
        out.add(doc.problem(path_key, f"{key} file '{name}' not found next to {doc.name}"))
        return None
    size = path.stat().st_size
    max_bytes = out.limits.max_file_bytes
    if size > max_bytes:
        out.add(Problem(display_path(path), 1, 1, f"file is {size} bytes, more than the limit of {max_bytes} (raise it with {FLAGS['max_file_bytes']})"))
        return None
    if kind == "xlsx":
        return xlsx_table(doc, key, spec, path, out)
    if "sheet" in spec:
        out.add(doc.problem((key, "sheet"), f"sheet applies to an .xlsx workbook, not to the CSV file '{name}'", key=True))
        return None
    return _csv_table(display_path(path), path, path.read_bytes(), out)


class _Lines:
    """The lines of a text, one at a time as the csv reader asks for them; ``taken()`` hands over (and forgets) those
    read since it was last called: the lines of the record just read, and never the whole file's."""

    def __init__(self, text: str):
        self._lines = iter(io.StringIO(text))
        self._taken: list[str] = []

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self._taken.append(line)
        return line

    def taken(self) -> list[str]:
        """The lines read since the last call."""
        taken, self._taken = self._taken, []
        return taken


def _csv_table(name: str, path: Path, data: bytes, out: Collector) -> Table | None:
    """The rows of CSV ``data`` as read up to where they are enough (tables.RowBudget), or None after a problem.
    Blank rows after the header are not kept (no entry is read from them); the bounds of tables.Bounds hold."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        out.add(Problem(name, line, 1, f"file is not UTF-8 text ({exc.reason}); save the CSV as UTF-8"))
        return None
    lines = _Lines(text)
    reader = csv.reader(lines, strict=True)
    table = Table(name, path)
    budget, bounds = RowBudget(out.limits.max_pieces), Bounds()
    last_line = 0
    try:
        for row in reader:
            record = lines.taken()
            if (wrong := bounds.passed(row)) is not None:
                out.add(Problem(name, last_line + 1, 1, wrong))
                return None
            places = _places(row, record, last_line + 1)
            if (long := long_cell(row)) is not None:
                out.add(Problem(name, *places[long[0] - 1], long[1]))
                return None
            header = last_line == 0
            if header or any(map(str.strip, row)):
                table.rows.append((last_line + 1, row, places))
            last_line = reader.line_num
            if budget.full_after(row, header=header):
                break
    except csv.Error as exc:
        out.add(Problem(name, last_line + 1, 1, f"malformed CSV: {exc}"))
        return None
    return table


def _places(row: list[str], record: list[str], line: int) -> list[Place]:
    """Where each cell of ``row`` starts: the reader read it from the lines ``record``, the first of them line
    ``line``. A row without a quote has its cells where their lengths put them; a quoted cell holds more characters
    than its value (its quotes, a doubled quote for each quote in it) and may go on over several lines, so a row
    with a quote is read again character by character."""
    if len(record) == 1 and '"' not in record[0]:
        places = []
        column = 1
        for cell in row:
            places.append((line, column))
            column += len(cell) + 1
        return places
    found = _quoted_places("".join(record), line)
    return found if len(found) == len(row) else [(line, 1)] * len(row)


def _quoted_places(text: str, line: int) -> list[Place]:
    """Where each cell of one CSV record (``text``, from ``line`` on) starts, as the csv module's default
    dialect reads it: a cell quoted from its first character to a quote not doubled, commas between cells."""
    places: list[Place] = []
    column, at, starting, quoted = 1, 0, True, False
    while at < len(text):
        char = text[at]
        if starting:
            places.append((line, column))
            starting, quoted = False, char == '"'
            if quoted:
                at, column = at + 1, column + 1
                continue
        if quoted:
            if char == '"' and text[at + 1:at + 2] == '"':
                at, column = at + 2, column + 2
                continue
            if char == '"':
                quoted = False
            elif char == "\n":
                line, column = line + 1, 0
        elif char == ",":
            starting = True
        elif char in "\r\n":
            break  # the record's end
        at, column = at + 1, column + 1
    if starting:  # a last cell left empty after a comma
        places.append((line, column))
    return places


def _url_table(doc: Document, path_key: PathKey, spec: dict[str, Any], out: Collector, sheets: Path) -> Table | None:
    """The sheet at the link: fetched within its deadline and cached, else the cached copy with a warning."""
    url = str(spec["url"])
    if (wrong := url_problem(url)) is not None:
        out.add(doc.problem(path_key, wrong))
        return None
    deadline = float(spec.get("timeout", DEFAULT_DEADLINE))
    stem = hashlib.sha256(url.encode()).hexdigest()[:16]
    cached, stamp = sheets / f"{stem}.csv", sheets / f"{stem}.json"
    max_bytes = out.limits.max_file_bytes
    known = _stamp(stamp) if cached.is_file() else {}
    if known.get("sha256") != (hashlib.sha256(cached.read_bytes()).hexdigest() if known else None):
        known = {}  # the copy is not the one fetched: ask for the whole sheet again
    headers = {"User-Agent": "punchboard"}
    if known.get("etag"):
        headers["If-None-Match"] = str(known["etag"])
    if known.get("last_modified"):
        headers["If-Modified-Since"] = str(known["last_modified"])
    try:
        answer = fetch(url, headers, deadline, max_bytes)
    except FetchError as exc:
        return _unreachable(doc, path_key, url, exc, cached, stamp, sheets, out)
    if answer.status == 304:
        if cached.is_file():  # not modified since the cached copy
            return _csv_table(url, cached, cached.read_bytes(), out)
        return _unreachable(doc, path_key, url, "the server answered 304 Not Modified to a plain request", cached,
                            stamp, sheets, out)
    if len(answer.data) > max_bytes:
        out.add(doc.problem(path_key, f"the sheet at {url} is more than {max_bytes} bytes (raise the limit with {FLAGS['max_file_bytes']})"))
        return None
    if answer.content_type == "text/html":
        out.add(doc.problem(path_key, f"{url} returned a web page, not CSV; expected a published CSV link "
                                      "(Google Sheets: File → Share → Publish to web → CSV)"))
        return None
    fetched = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    write_bytes(cached, answer.data)
    validators = {"etag": answer.etag, "last_modified": answer.last_modified}
    record = {"url": url, "fetched": fetched, "sha256": hashlib.sha256(answer.data).hexdigest(),
              **{k: v for k, v in validators.items() if v}}
    write_bytes(stamp, (json.dumps(record, indent=2) + "\n").encode())
    return _csv_table(url, cached, answer.data, out)


def _unreachable(doc: Document, path_key: PathKey, url: str, reason: object, cached: Path, stamp: Path,
                 sheets: Path, out: Collector) -> Table | None:
    """The cached copy with a warning, or an error when there is none."""
    if cached.is_file():
        line, col = doc.where(path_key)
        out.warnings.append(f"{doc.name}:{line}:{col}: could not fetch {url} ({reason}); "
                            f"using the copy fetched {_fetched(stamp)} from {display_path(cached)}")
        return _csv_table(url, cached, cached.read_bytes(), out)
    out.add(doc.problem(path_key, f"could not fetch {url} ({reason}) and there is no cached copy in "
                                  f"{display_path(sheets)}; expected a reachable published CSV link"))
    return None


def _stamp(stamp: Path) -> dict[str, Any]:
    """The record kept beside a cached sheet, or {} when it is missing or damaged."""
    try:
        record = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _fetched(stamp: Path) -> str:
    """When the cached copy was fetched, in words for a warning."""
    fetched = _stamp(stamp).get("fetched")
    return f"at {fetched}" if fetched else "earlier"


class TableRow(NamedTuple):
    """A card table's row read as an entry (its empty cells left out), and where it lies."""

    entry: dict[str, Any]
    line: int
    places: list[Place]  # where each of its cells (one per header column) starts


@dataclass
class TableEntries:
    """The rows of a card table that read as entries, under the header they were read by."""

    table: Table
    header: list[str]  # checked: each column names a declared field, count or name, once
    rows: list[TableRow] = field(default_factory=list)

    def document(self, row: TableRow) -> Document:
        """A tiny Document that knows the row's position: problems and marks name its cells."""
        doc = Document(self.table.path, row.entry)
        doc.__dict__["name"] = self.table.name  # problems name the sheet or link, not only the file read
        doc.value_marks[()] = (row.line, 1)
        for column, place in zip(self.header, row.places, strict=False):
            doc.value_marks[(column,)] = place
        return doc


class CellMarks(Mapping[str, str]):
    """A card table row's marks, field → ``file:LINE:COL`` of its cell (or of the component's default), written out
    only when asked for: a piece's marks are read when a check names its cell, and a 2,000-row table made 8,000
    of them on every load. The same keys in the same order as the dict the entry loop makes."""

    __slots__ = ("_name", "_places", "_columns", "_entry", "_defaults")

    def __init__(self, name: str, places: Sequence[Place], columns: Mapping[str, int], entry: Mapping[str, Any],
                 defaults: Mapping[str, str]):
        self._name, self._places, self._columns, self._entry, self._defaults = name, places, columns, entry, defaults

    def __getitem__(self, key: str) -> str:
        at = self._columns.get(key)
        if at is not None and key in self._entry:  # an empty cell sets nothing: the default's mark stands
            line, column = self._places[at]
            return f"{self._name}:{line}:{column}"
        return self._defaults[key]

    def __iter__(self) -> Iterator[str]:
        yield from self._defaults
        for key in self._columns:
            if key in self._entry and key not in self._defaults:
                yield key

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"CellMarks({dict(self)!r})"


def _header_good(header: list[str], places: list[Place], allowed: list[str], report: Capped,
                 languages: tuple[str, ...] | None = ()) -> bool:
    """Whether each column of ``header`` names an allowed field once, or its translation (``field@lang``) into one of
    the game's ``languages`` but the first; each one that does not is reported."""
    first: dict[str, int] = {}
    wrong = 0
    for col, column in enumerate(header):
        if split_key(column) is not None and column not in first:
            problem = key_problem(column, languages, [name for name in allowed if name != "count"])
            if problem is not None:
                wrong += 1
                report(*places[col], problem)
        elif not column:
            report(*places[col], f"column {col + 1} of the header has no name; expected one of {', '.join(allowed)}")
        elif column in first:
            report(*places[col], f"duplicate column '{column}' (also column {first[column] + 1})")
        elif column not in allowed:
            hint = schema_check.suggest(column, allowed)
            report(*places[col], f"unknown column '{column}'{hint}; expected one of {', '.join(allowed)}")
        first.setdefault(column, col)
    return not wrong and all(column in allowed or split_key(column) is not None for column in header) and len(first) == len(header)


def table_entries(table: Table, fields: list[str], out: Collector, languages: tuple[str, ...] | None = ()) -> TableEntries:
    """Rows of a card table as entries; a row with a problem is left out (and none is read under a bad header).
    The table's problems are capped (tables.Capped): the first ten, then how many more."""
    name = table.name
    if not table.rows:
        out.add(Problem(name, 1, 1, f"{table.noun} is empty; expected a header row naming the fields"))
        return TableEntries(table, [])
    _, raw_header, header_places = table.rows[0]
    header = [h.strip() for h in raw_header]
    report = Capped(out.add, name)
    entries = TableEntries(table, header)
    if not _header_good(header, header_places, sorted(set(fields) | {"count", "name"}), report, languages):
        report.close()
        return entries
    counted = "count" in header
    count_at = header.index("count") if counted else 0
    for line_no, row, places in table.rows[1:]:
        if not any(map(str.strip, row)):  # a blank row
            continue
        if table.padded and len(row) < len(header):
            row = row + [""] * (len(header) - len(row))
            places = places + [(line_no, column) for column in range(len(places) + 1, len(header) + 1)]
        if len(row) != len(header):
            report(line_no, 1, f"row has {len(row)} cells, expected {len(header)} like the header")
            continue
        entry = {column: value for column, value in zip(header, map(_coerce_csv, row), strict=False) if value is not None}
        if counted:  # without a count column every row counts 1
            count = entry.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                shown = repr(count) if len(repr(count)) <= 40 else f"{repr(count)[:30]}… ({len(str(count))} characters)"
                report(*places[count_at], f"count must be a positive integer, got {shown}")
                continue
        entries.rows.append(TableRow(entry, line_no, places))
    report.close()
    return entries
