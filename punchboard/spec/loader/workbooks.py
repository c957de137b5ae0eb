"""An .xlsx workbook sheet read as a card table, bounded before it costs.

An .xlsx file is a zip of XML files: one of 1 MB may inflate to gigabytes. Before openpyxl reads anything, the
sizes the zip states for its members are added up and held to INFLATE_RATIO × the file-size limit (Python's
zipfile stops a member at its stated size, and a member that inflates further fails its check). The sheet is
then read a row at a time (openpyxl's read-only mode) and reading stops at the first row past a bound of
``tables`` (columns, cell length, rows enough to pass the piece limit).
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import Problem, display_path
from punchboard.plumbing.limits import FLAGS
from punchboard.spec import schema_check
from punchboard.spec.yamlsource import Document

from .common import Collector
from .tables import MAX_COLUMNS, RowBudget, Table, long_cell, too_wide

INFLATE_RATIO = 5  # an .xlsx may inflate to this many times the file-size limit (50 MB by default)
MAX_SHEET_ROWS = 1_048_576  # the most rows a sheet has in Excel: a row numbered past it is no sheet's


def _unreadable(path: Path, exc: Exception) -> Problem:
    """The problem of a workbook that zipfile or openpyxl cannot read."""
    return Problem(display_path(path), 1, 1, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc}); "
                                            "save it from your spreadsheet as .xlsx")


def inflated_problem(path: Path, max_bytes: int) -> Problem | None:
    """A problem when the workbook's members inflate past INFLATE_RATIO × ``max_bytes`` in all, or None."""
    limit = INFLATE_RATIO * max_bytes
    try:
        with zipfile.ZipFile(path) as archive:
            total = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        return _unreadable(path, exc)
    if total <= limit:
        return None
    return Problem(display_path(path), 1, 1, f"workbook inflates to {total:,} bytes, more than the limit of {limit:,} "
                                            f"({INFLATE_RATIO} × the file-size limit; raise it with {FLAGS['max_file_bytes']})")


def _cell_text(value: Any) -> str:
    """A workbook cell as the text a CSV export of it would hold."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _row_cells(values: tuple[Any, ...]) -> list[str] | None:
    """A sheet row as text cells without the empty ones at its end; None when it runs past MAX_COLUMNS."""
    if len(values) > MAX_COLUMNS:
        if values[MAX_COLUMNS:].count(None) != len(values) - MAX_COLUMNS:
            return None
        values = values[:MAX_COLUMNS]  # a sheet's used range may run past the last column
    cells = [_cell_text(value) for value in values]
    while cells and not cells[-1].strip():
        cells.pop()
    return cells


def _read_rows(sheet: Any, table: Table, out: Collector) -> bool:
    """Read ``sheet``'s rows into ``table`` until it holds enough (RowBudget); False after a problem."""
    budget = RowBudget(out.limits.max_pieces)
    sheet.reset_dimensions()  # rows as long as their cells, not padded to a stated (perhaps false) used range
    for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
        if number > MAX_SHEET_ROWS:
            out.add(Problem(table.name, number, 1, f"the sheet has rows past row {MAX_SHEET_ROWS:,}, the last a sheet has"))
            return False
        cells = _row_cells(values)
        if cells is None:
            out.add(Problem(table.name, number, MAX_COLUMNS + 1, too_wide(len(values))))
            return False
        if (long := long_cell(cells)) is not None:
            out.add(Problem(table.name, number, *long))
            return False
        table.rows.append((number, cells, [(number, column) for column in range(1, len(cells) + 1)]))
        if budget.full_after(cells, header=number == 1):
            break
    return True


def xlsx_table(doc: Document, key: str, spec: dict[str, Any], path: Path, out: Collector) -> Table | None:
    """The sheet ``spec`` names (the first without ``sheet:``) of the workbook at ``path``, or None after a problem."""
    if (problem := inflated_problem(path, out.limits.max_file_bytes)) is not None:
        out.add(problem)
        return None
    from openpyxl import load_workbook  # imported on first use: most games keep CSV

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises zip, XML and key errors for damaged files
        out.add(_unreadable(path, exc))
        return None
    try:
        names = list(book.sheetnames)
        wanted = spec.get("sheet", names[0] if names else "")
        if wanted not in names:
            hint = schema_check.suggest(str(wanted), names)
            out.add(doc.problem((key, "sheet"), f"no sheet '{wanted}' in {path.name}{hint}; the workbook has {', '.join(names)}"))
            return None
        table = Table(f"{display_path(path)}[{wanted}]", path, noun=f"sheet '{wanted}'", padded=True)
        try:
            complete = _read_rows(book[wanted], table, out)
        except Exception as exc:  # noqa: BLE001 - a damaged sheet fails while it is read, row by row
            out.add(_unreadable(path, exc))
            return None
        return table if complete else None
    finally:
        book.close()
