"""A card table's rows as read (from a CSV, a workbook sheet or a link), and the bounds every reader keeps.

A reader stops as soon as a bound is passed, so a hostile or mistaken table costs no more than the bounds:

* at most MAX_COLUMNS columns and MAX_CELL_CHARS characters in a cell (Excel's own limit), else a problem;
* at most MAX_ROWS rows and MAX_CELLS cells read, blank and empty ones included (``Bounds``), else a problem;
* the header and then at most ``max_pieces + 1`` rows that are not blank: each such row is a problem or at
  least one piece, so the rows read already pass the piece limit and the component's count reports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from punchboard.plumbing.errors import Problem

MAX_COLUMNS = 1_000  # columns a card table may have (its fields plus count and name)
MAX_CELL_CHARS = 32_767  # characters in one cell: what Excel itself lets a cell hold
MAX_ROWS = 1_048_576  # rows read, blank ones too: the most a sheet has in Excel
MAX_CELLS = 1_000_000  # cells read, empty ones too: 20,000 rows of 50 columns

Place = tuple[int, int]  # line and column where a cell starts (a quoted cell: at its opening quote)


@dataclass
class Table:
    """Rows of text cells as read, with where each row and cell starts in its source."""

    name: str  # how problems name the source: cards.csv, cards.xlsx[Deck], https://…
    path: Path  # the file read (for a link: its cached copy)
    rows: list[tuple[int, list[str], list[Place]]] = field(default_factory=list)  # (row, cells, where each cell starts)
    noun: str = "csv file"
    padded: bool = False  # a sheet row may stop before the last column: the rest is empty


def too_wide(width: int) -> str:
    """The problem of a row of ``width`` cells, more than MAX_COLUMNS."""
    return f"row has {width:,} cells, more than the {MAX_COLUMNS:,} columns a card table may have"


def long_cell(cells: Sequence[str]) -> tuple[int, str] | None:
    """(column, problem) of the first cell longer than MAX_CELL_CHARS, or None."""
    if max(map(len, cells), default=0) <= MAX_CELL_CHARS:
        return None
    column = next(at for at, cell in enumerate(cells, start=1) if len(cell) > MAX_CELL_CHARS)
    size = len(cells[column - 1])
    return column, f"cell holds {size:,} characters, more than the {MAX_CELL_CHARS:,} a cell may hold (Excel's own limit)"


class Bounds:
    """Counts the rows and cells a reader has read, blank and empty ones too, which the piece limit does not bound:
    a table of nothing but blank rows or empty cells stops at MAX_ROWS rows or MAX_CELLS cells."""

    def __init__(self) -> None:
        self._rows = 0
        self._cells = 0

    def passed(self, cells: Sequence[str]) -> str | None:
        """Count a row just read; the problem of the first bound it passes (MAX_COLUMNS too), or None."""
        if len(cells) > MAX_COLUMNS:
            return too_wide(len(cells))
        self._rows += 1
        self._cells += len(cells)
        if self._rows > MAX_ROWS:
            return f"the table has more than {MAX_ROWS:,} rows (blank ones included), the most a sheet has"
        if self._cells > MAX_CELLS:
            return (f"the table holds more than {MAX_CELLS:,} cells (empty ones included), more than a card table is "
                    "read for; delete the unused rows and columns")
        return None


class RowBudget:
    """Says when a reader has read enough rows: the header, then ``max_pieces + 1`` rows that are not blank."""

    def __init__(self, max_pieces: int):
        self._left = max_pieces + 2  # the header counts, blank or not

    def full_after(self, cells: Sequence[str], header: bool) -> bool:
        """Count a row just read; True when the reader should read no more."""
        if header or any(map(str.strip, cells)):
            self._left -= 1
        return self._left <= 0


class Capped:
    """Adds a table's problems, the first ``shown`` of them, then one saying how many more there were."""

    def __init__(self, add: Callable[[Problem], None], name: str, shown: int = 10):
        self._add = add
        self._name = name
        self._shown = shown
        self._count = 0
        self._first_hidden: Place = (1, 1)

    def __call__(self, line: int, col: int, message: str) -> None:
        self._count += 1
        if self._count <= self._shown:
            self._add(Problem(self._name, line, col, message))
        elif self._count == self._shown + 1:
            self._first_hidden = (line, col)

    def close(self) -> None:
        """Add the count of the problems not shown, if any."""
        hidden = self._count - self._shown
        if hidden > 0:
            self._add(Problem(self._name, *self._first_hidden, f"… and {hidden:,} more problems in this table like the ones above"))
