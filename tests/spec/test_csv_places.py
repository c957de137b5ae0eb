"""Where each cell of a CSV card table starts (loader/spreadsheets.py): the place a problem or a mark names.

The oracle writes the CSV itself, cell by cell, noting where it puts each one: quoted or not (a cell with a comma,
a quote or a line break must be), quotes doubled inside, cells going on over several lines, LF or CRLF line ends.
What the loader reads back must be those places, and those values.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from punchboard.plumbing.limits import DEFAULT_LIMITS
from punchboard.spec.loader.common import Collector
from punchboard.spec.loader.spreadsheets import _csv_table, table_entries
from tests.conftest import run_cli

CELL = st.text(alphabet=st.sampled_from(list('ab ,"\nxé')), max_size=6)


def _written(rows: list[list[str]], quote_all: list[bool], newline: str) -> tuple[str, list[list[tuple[int, int]]]]:
    """The CSV text of ``rows`` and where each cell starts in it (line, column from 1)."""
    text, places = [], []
    line, column = 1, 1
    for row, quote in zip(rows, quote_all, strict=True):
        found = []
        for n, cell in enumerate(row):
            if n:
                text.append(",")
                column += 1
            found.append((line, column))
            needs = quote or any(c in cell for c in ',"\n\r') or (len(row) == 1 and not cell)
            encoded = '"' + cell.replace('"', '""') + '"' if needs else cell
            text.append(encoded)
            for char in encoded:
                line, column = (line + 1, 1) if char == "\n" else (line, column + 1)
        text.append(newline)
        line, column = line + 1, 1
        places.append(found)
    return "".join(text), places


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(CELL, min_size=1, max_size=4), min_size=1, max_size=5), data=st.data(),
       newline=st.sampled_from(["\n", "\r\n"]))
def test_each_cell_is_read_where_it_was_written(rows: list[list[str]], data: st.DataObject, newline: str):
    quote_all = data.draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows)))
    text, places = _written(rows, quote_all, newline)
    out = Collector(limits=DEFAULT_LIMITS)
    table = _csv_table("cards.csv", Path("cards.csv"), text.encode(), out)
    assert table is not None and not out.problems
    kept = [n for n, row in enumerate(rows) if n == 0 or any(cell.strip() for cell in row)]  # blank rows: not kept
    assert [row for _, row, _ in table.rows] == [rows[n] for n in kept]
    assert [found for _, _, found in table.rows] == [places[n] for n in kept]
    assert [line for line, _, _ in table.rows] == [places[n][0][0] for n in kept]


def test_a_problem_after_a_quoted_cell_names_the_cell(tmp_path: Path):
    """The rule text holds a comma, so it is quoted, and a quote doubled; the bad count after it is named at its own
    column, and a count after a cell over two lines on the line it lies on."""
    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text("id: q\ntitle: Q\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n")
    (game / "deck.yaml").write_text("id: deck\nkind: deck\nsize: poker\nlayout: base/card\nfields: [text]\ncsv: cards.csv\n")
    (game / "cards.csv").write_text('name,text,count\nA,"Draw two, then ""pass""",x\nB,"two\nlines",0\n', encoding="utf-8")
    result = run_cli("check", str(game))
    assert result.returncode == 2, result.stderr
    csv = game / "cards.csv"
    assert f"{csv}:2:29: count must be a positive integer, got 'x'" in result.stderr, result.stderr
    assert f"{csv}:4:8: count must be a positive integer, got 0" in result.stderr, result.stderr


def test_table_entries_name_each_cell_of_a_row_over_two_lines():
    text = 'name,text,count\nA,"one\ntwo",3\n'
    out = Collector(limits=DEFAULT_LIMITS)
    table = _csv_table("cards.csv", Path("cards.csv"), text.encode(), out)
    assert table is not None
    entries = table_entries(table, ["text"], out)
    assert entries.rows[0].places == [(2, 1), (2, 3), (3, 6)]
    assert entries.document(entries.rows[0]).value_marks[("count",)] == (3, 6)
