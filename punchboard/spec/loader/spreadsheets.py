"""Card lists kept in a spreadsheet next to the component YAML."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from punchboard.plumbing.errors import Problem, display_path
from punchboard.plumbing.limits import FLAGS
from punchboard.plumbing.paths import is_inside
from punchboard.spec import schema_check
from punchboard.spec.yamlsource import Document

from .common import Collector


def _coerce_csv(value: str) -> Any:
    text = value.strip()
    if re.fullmatch(r"-?\d+", text) and len(text) <= 100:  # longer is no count (and int() refuses > 4300 digits)
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text if text else None


def csv_entries(doc: Document, csv_name: str, fields: list[str], out: Collector) -> list[tuple[dict[str, Any], Document]]:
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
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            shown = repr(count) if len(repr(count)) <= 40 else f"{repr(count)[:30]}… ({len(str(count))} characters)"
            out.add(row_doc.problem(("count",), f"count must be a positive integer, got {shown}"))
            continue
        entries.append((entry, row_doc))
    return entries
