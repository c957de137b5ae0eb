"""An .xlsx workbook sheet read as a card table, bounded before it costs.

An .xlsx file is a zip of XML files: one of 1 MB may inflate to gigabytes. Before openpyxl reads anything, the
sizes the zip states for its members are added up and held to INFLATE_RATIO × the file-size limit, the shared
strings to the file-size limit and every other XML part but the sheets to MAX_PART_BYTES (Python's
zipfile stops a member at its stated size, and a member that inflates further fails its check). The sheet is
then read a row at a time (openpyxl's read-only mode) and reading stops at the first row past a bound of
``tables`` (columns, cell length, rows enough to pass the piece limit). openpyxl builds a whole row before it
hands it over, and goes over every cell, empty ones too: so the sheet's XML is watched as openpyxl reads it
(``_Watched``), and a row of more than MAX_COLUMNS cells, a row numbered past the last a sheet has, or more than
MAX_CELLS cells in all stop the reading within one block (16 KB) of where they start. The workbook is opened by
a subclass of openpyxl's reader that reads no sheet as it opens (openpyxl reads a sheet without a stated used
range through, keeping every row, before any bound could be checked).
"""

from __future__ import annotations

import datetime as dt
import functools
import zipfile
from pathlib import Path
from typing import IO, Any
from xml.parsers import expat

from punchboard.plumbing.errors import Problem, display_path
from punchboard.plumbing.limits import FLAGS
from punchboard.spec import schema_check
from punchboard.spec.yamlsource import Document

from .common import Collector
from .tables import MAX_CELLS, MAX_COLUMNS, MAX_ROWS, RowBudget, Table, long_cell, too_wide

INFLATE_RATIO = 5  # an .xlsx may inflate to this many times the file-size limit (50 MB by default)
MAX_PART_BYTES = 2_000_000  # an XML part but the sheets and shared strings (styles, theme, workbook) inflated


class _Bound(Exception):
    """A sheet passed a bound while it was read: where, and what is wrong."""

    def __init__(self, row: int, column: int, message: str):
        super().__init__(message)
        self.row, self.column, self.message = row, column, message


class _Watched:
    """A sheet's XML as openpyxl reads it, watched on the way by expat: each block read is checked before openpyxl
    sees it, and _Bound raised at the first row or cell past a bound."""

    def __init__(self, source: IO[bytes], max_cells: int = MAX_CELLS):
        self._source = source
        self._parser = expat.ParserCreate(namespace_separator=" ")
        self._parser.StartElementHandler = self._start
        self._max_cells = max_cells
        self._row = 0  # the row being read, by its number
        self._cells = 0  # cells of that row so far
        self._total = 0  # cells of the sheet so far

    def _start(self, name: str, attributes: dict[str, str]) -> None:
        """Count a row or cell element as expat meets it; raise _Bound past a bound."""
        local = name.rpartition(" ")[2]
        if local == "row":
            number = attributes.get("r", "")
            self._row = int(number) if number.isdigit() and len(number) < 10 else self._row + 1
            self._cells = 0
            if self._row > MAX_ROWS:
                raise _Bound(self._row, 1, f"row {self._row:,} lies past row {MAX_ROWS:,}, the last a sheet has")
        elif local == "c":
            self._cells += 1
            self._total += 1
            if self._cells > MAX_COLUMNS:
                raise _Bound(self._row, MAX_COLUMNS + 1, f"row has more than {MAX_COLUMNS:,} cells, more than the "
                                                         f"{MAX_COLUMNS:,} columns a card table may have")
            if self._total > self._max_cells:
                raise _Bound(self._row, self._cells, f"the sheet holds more than {self._max_cells:,} cells (empty ones "
                                                     "included), more than a card table is read for; "
                                                     "delete the unused rows and columns")

    def read(self, size: int = -1) -> bytes:
        """The next block of the sheet, once it has been checked."""
        data = self._source.read(size)
        self._parser.Parse(data, not data)
        return data

    def close(self) -> None:
        """Close the zip member read."""
        self._source.close()

    def __enter__(self) -> _Watched:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@functools.cache
def _reader() -> Any:
    """openpyxl's workbook reader, extended by subclassing: its sheets are read through _Watched, and none is read
    when the workbook is opened (openpyxl's own read-only sheet reads a sheet without a stated used range through
    as it opens, keeping every row: 19 s and 160 MB for a million rows)."""
    from openpyxl.reader.excel import ExcelReader
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    class WatchedSheet(ReadOnlyWorksheet):  # type: ignore[misc]
        def _get_size(self) -> None:
            """Read no stated used range: the sheet is read with reset_dimensions, as its rows are."""

        def _get_source(self) -> _Watched:
            """The sheet's XML, watched as it is read."""
            return _Watched(super()._get_source())  # type: ignore[misc]

    class Reader(ExcelReader):  # type: ignore[misc]
        def read_worksheets(self) -> None:
            """The workbook's sheets as WatchedSheet (and its chart sheets as openpyxl reads them), none read yet."""
            for sheet, rel in self.parser.find_sheets():
                if rel.target not in self.valid_files:
                    continue
                if "chartsheet" in rel.Type:
                    self.read_chartsheet(sheet, rel)  # type: ignore[arg-type]
                    continue
                watched = WatchedSheet(self.wb, sheet.name, rel.target, self.shared_strings)
                watched.sheet_state = sheet.state  # type: ignore[assignment]
                self.wb._sheets.append(watched)  # type: ignore[attr-defined]

    return Reader


def _open(path: Path) -> Any:
    """The workbook at ``path``, read-only, cells as their values, its sheets read through _Watched when asked."""
    reader = _reader()(path, read_only=True, data_only=True)
    try:
        reader.read()
    except BaseException:
        reader.archive.close()  # the workbook is never handed over, so nothing else would close it
        raise
    return reader.wb


def _unreadable(path: Path, exc: Exception) -> Problem:
    """The problem of a workbook that zipfile or openpyxl cannot read."""
    return Problem(display_path(path), 1, 1, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc}); "
                                            "save it from your spreadsheet as .xlsx")


def _part_limit(name: str, max_bytes: int) -> int | None:
    """What one member of a workbook may inflate to, or None when only the total bounds it: openpyxl parses the
    shared strings and every XML part whole as it opens the workbook (its styles into a tree of objects: 42 MB of
    them took 37 s and 1.3 GB), the sheets a row at a time, and no other file at all (pictures)."""
    lower = name.lower()
    if lower.startswith("xl/worksheets/") and lower.endswith(".xml"):
        return None
    if lower.endswith("sharedstrings.xml"):
        return max_bytes
    if lower.endswith((".xml", ".rels")):
        return MAX_PART_BYTES
    return None


def inflated_problem(path: Path, max_bytes: int) -> Problem | None:
    """A problem when the workbook's members inflate past INFLATE_RATIO × ``max_bytes`` in all, or one member past
    its own limit (``_part_limit``), or None."""
    limit = INFLATE_RATIO * max_bytes
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        return _unreadable(path, exc)
    raise_it = f"raise it with {FLAGS['max_file_bytes']}"
    for member in members:
        part = _part_limit(member.filename, max_bytes)
        if part is not None and member.file_size > part:
            what = "the file-size limit; " + raise_it if part == max_bytes else "the most a workbook's styles, theme or other part may hold"
            return Problem(display_path(path), 1, 1, f"the workbook's part {member.filename} inflates to {member.file_size:,} bytes, "
                                                    f"more than {part:,} ({what})")
    total = sum(member.file_size for member in members)
    if total <= limit:
        return None
    return Problem(display_path(path), 1, 1, f"workbook inflates to {total:,} bytes, more than the limit of {limit:,} "
                                            f"({INFLATE_RATIO} × the file-size limit; {raise_it})")


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
    try:
        sheet.reset_dimensions()  # rows as long as their cells, not padded to a stated (perhaps false) used range
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            cells = _read_row(number, values, table, out)
            if cells is None:
                return False
            if budget.full_after(cells, header=number == 1):
                break
    except _Bound as bound:
        out.add(Problem(table.name, bound.row, bound.column, bound.message))
        return False
    return True


def _read_row(number: int, values: tuple[Any, ...], table: Table, out: Collector) -> list[str] | None:
    """Row ``number``'s cells, added to ``table`` unless the row is blank (the header always is); None after a
    problem."""
    cells = _row_cells(values)
    if cells is None:
        out.add(Problem(table.name, number, MAX_COLUMNS + 1, too_wide(len(values))))
        return None
    if (long := long_cell(cells)) is not None:
        out.add(Problem(table.name, number, *long))
        return None
    if cells or number == 1:  # a blank row is no entry: only its number would be kept
        table.rows.append((number, cells, [(number, column) for column in range(1, len(cells) + 1)]))
    return cells


def xlsx_table(doc: Document, key: str, spec: dict[str, Any], path: Path, out: Collector) -> Table | None:
    """The sheet ``spec`` names (the first without ``sheet:``) of the workbook at ``path``, or None after a problem."""
    if (problem := inflated_problem(path, out.limits.max_file_bytes)) is not None:
        out.add(problem)
        return None
    try:
        book = _open(path)  # openpyxl imported on first use: most games keep CSV
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
