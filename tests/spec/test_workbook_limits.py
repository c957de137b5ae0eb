"""Card tables bounded before they cost (loader/tables.py, loader/workbooks.py): a zip-bomb workbook, a
million-row workbook, a 200,000-column CSV and an over-long cell each end in exit 2 with a located message, for
``check`` and ``build`` alike, well under 500 MB; a table's repeated problems are capped."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.conftest import run_cli

GAME = "id: limits\ntitle: Limits\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n"
DECK = "id: deck\nkind: deck\nsize: bridge\nlayout: base/card\nback: none\nfields: [value, text]\nTABLE\n"
SHEET = "xl/worksheets/sheet1.xml"
HEAD = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
TAIL = b"</sheetData></worksheet>"
MB = 1 << 20
LIMIT = "more than the limit of 20000; expected a printable count (raise the limit with --max-pieces)"


def _game(folder: Path, table: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "deck.yaml").write_text(DECK.replace("TABLE", table))
    return folder


def _workbook(path: Path, sheet_xml: Iterator[bytes]) -> None:
    """An .xlsx whose one sheet, Deck, is ``sheet_xml`` streamed into the zip in chunks (never held whole)."""
    book = Workbook()
    book.active.title = "Deck"
    template = path.with_suffix(".template.xlsx")
    book.save(template)
    with zipfile.ZipFile(template) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as made:
        for member in source.infolist():
            if member.filename != SHEET:
                made.writestr(member.filename, source.read(member))
        with made.open(SHEET, "w", force_zip64=True) as sheet:
            for chunk in sheet_xml:
                sheet.write(chunk)
    template.unlink()


def _inline(text: str) -> bytes:
    return f'<c t="inlineStr"><is><t>{text}</t></is></c>'.encode()


def _bomb() -> Iterator[bytes]:
    """A sheet with a header and one row whose text cell is 1 GiB of one letter."""
    yield HEAD + b"<row>" + _inline("name") + _inline("text") + b"</row><row>" + _inline("Bomb")[:-len("</t></is></c>")]
    chunk = b"a" * MB
    for _ in range(1024):
        yield chunk
    yield b"</t></is></c></row>" + TAIL


def _million_rows() -> Iterator[bytes]:
    """A header (name, value) and a million rows of one number each, a thousand rows to a chunk."""
    yield HEAD + b"<row>" + _inline("name") + _inline("value") + b"</row>"
    block = b"<row><c/><c><v>7</v></c></row>" * 1000
    for _ in range(1000):
        yield block
    yield TAIL


# Runs a command and writes its peak resident size (kB) to a file. A process's peak counts what it inherited at
# fork (Linux keeps it across exec), so measured straight from the test process every command would "peak" at the
# test process's own size; run from this small process, the command's peak is its own.
_PEAK_WRAPPER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def _measured(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    """``punchboard ARGS`` run as ``run_cli`` runs it, with the peak resident size of exactly that process, in MB."""
    env = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="120")
    peak_file = cwd / ".peak-rss"
    command = [sys.executable, "-c", _PEAK_WRAPPER, str(peak_file), sys.executable, "-m", "punchboard", *args]
    result = subprocess.run(command, cwd=cwd, env=env, text=True, capture_output=True, timeout=600)
    peak = int(peak_file.read_text())
    peak_file.unlink()
    return result, peak / (MB if sys.platform == "darwin" else 1024)  # ru_maxrss: bytes on macOS, kB on Linux


def _check_and_build(game: Path, tmp_path: Path) -> list[str]:
    """``check`` and ``build`` of ``game``: both must exit 2, well under 500 MB; their stderr, in that order."""
    said = []
    for verb in ("check", "build"):
        args = (verb, str(game)) if verb == "check" else (verb, str(game), "--out", str(tmp_path / "out"))
        result, peak = _measured(*args, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert peak < 500
        said.append(result.stderr)
    return said


def test_a_workbook_that_inflates_to_a_gibibyte_cell_is_refused_before_it_is_read(tmp_path: Path):
    game = _game(tmp_path / "bomb", "table: {file: cards.xlsx, sheet: Deck}")
    _workbook(game / "cards.xlsx", _bomb())
    assert (game / "cards.xlsx").stat().st_size < 2 * MB  # about 1 MB on disk
    for said in _check_and_build(game, tmp_path):
        assert said.startswith("bomb/cards.xlsx:1:1: workbook inflates to 1,073,7")
        assert said.endswith("bytes, more than the limit of 50,000,000 (5 × the file-size limit; raise it with --max-file-bytes)\n")


def test_a_million_row_workbook_is_read_only_until_it_passes_the_piece_limit(tmp_path: Path):
    game = _game(tmp_path / "rows", "table: cards.xlsx")
    _workbook(game / "cards.xlsx", _million_rows())
    assert (game / "cards.xlsx").stat().st_size < 2 * MB
    for said in _check_and_build(game, tmp_path):
        assert said == f"rows/cards.xlsx[Deck]:20002:1: component expands to at least 20001 pieces, {LIMIT}\n"


def test_a_csv_header_of_200000_columns_is_one_problem(tmp_path: Path):
    game = _game(tmp_path / "wide", "table: cards.csv")
    (game / "cards.csv").write_text(",".join(f"c{i}" for i in range(200_000)) + "\n" + "x," * 199_999 + "x\n")
    for said in _check_and_build(game, tmp_path):
        assert said == "wide/cards.csv:1:1: row has 200,000 cells, more than the 1,000 columns a card table may have\n"


def test_a_table_past_the_piece_limit_is_read_no_further(tmp_path: Path):
    """Rows after the first past the limit are not read: a malformed line after it is never reached."""
    game = _game(tmp_path / "long", "table: cards.csv")
    rows = "".join(f"C{i},{i}\n" for i in range(20_001))
    (game / "cards.csv").write_text("name,value\n" + rows + '"never closed\n')
    for said in _check_and_build(game, tmp_path):
        assert said == f"long/cards.csv:20002:1: component expands to at least 20001 pieces, {LIMIT}\n"


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_cell_longer_than_excel_allows_is_refused_at_the_cell(tmp_path: Path, kind: str):
    game = _game(tmp_path / kind, f"table: cards.{kind}")
    long_text = "word " * 8_000  # 40,000 characters
    if kind == "csv":
        (game / "cards.csv").write_text(f"name,text\nShort,fine\nLong,{long_text}\n")
        where = "csv/cards.csv:3:6"
    else:
        rows = (["name", "text"], ["Short", "fine"], ["Long", long_text])  # openpyxl would cut it at 32,767 on saving
        xml = b"".join(b"<row>" + b"".join(map(_inline, row)) + b"</row>" for row in rows)
        _workbook(game / "cards.xlsx", iter([HEAD + xml + TAIL]))
        where = "xlsx/cards.xlsx[Deck]:3:2"
    for said in _check_and_build(game, tmp_path):
        assert said == f"{where}: cell holds 40,000 characters, more than the 32,767 a cell may hold (Excel's own limit)\n"


def test_a_sheet_row_with_a_value_past_the_column_limit_is_refused_and_an_empty_tail_is_not(tmp_path: Path):
    game = _game(tmp_path / "cols", "table: cards.xlsx")
    book = Workbook()
    book.active.title = "Deck"
    for row in (["name", "text"], ["Owl", "Flies"]):
        book.active.append(row)
    book.active.cell(row=2, column=5_000).style = "Note"  # a formatted empty cell far right: nothing to read
    book.save(game / "cards.xlsx")
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    book.active.cell(row=3, column=1_500, value="stray")
    book.save(game / "cards.xlsx")
    for said in _check_and_build(game, tmp_path):
        assert said == "cols/cards.xlsx[Deck]:3:1001: row has 1,500 cells, more than the 1,000 columns a card table may have\n"


def test_a_tables_repeated_problems_are_capped(tmp_path: Path):
    game = _game(tmp_path / "many", "table: cards.csv")
    header = ",".join(["name", *(f"extra{i}" for i in range(30))])
    (game / "cards.csv").write_text(header + "\n")
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 11
    assert lines[0].startswith("many/cards.csv:1:6: unknown column 'extra0'")
    assert lines[-1] == "many/cards.csv:1:76: … and 20 more problems in this table like the ones above"
    (game / "cards.csv").write_text("name,value\n" + "A,1,2\n" * 500)
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.stderr.splitlines()[-1] == "many/cards.csv:12:1: … and 490 more problems in this table like the ones above"


def test_a_workbook_member_that_inflates_past_its_stated_size_is_an_unreadable_workbook(tmp_path: Path):
    """The zip's stated sizes bound what is read: a member that says less than it holds fails its check."""
    game = _game(tmp_path / "lies", "table: cards.xlsx")
    book = Workbook()
    book.active.title = "Deck"
    for row in (["name", "value"], ["Owl", 3]):
        book.active.append(row)
    book.save(game / "honest.xlsx")
    data = bytearray((game / "honest.xlsx").read_bytes())
    name = SHEET.encode()
    at = data.find(b"PK\x01\x02")  # the central directory, whose sizes zipfile reads by
    while data[at + 46:at + 46 + len(name)] != name:
        at = data.find(b"PK\x01\x02", at + 4)
    (stated,) = struct.unpack_from("<I", data, at + 24)
    struct.pack_into("<I", data, at + 24, stated // 2)
    (game / "cards.xlsx").write_bytes(bytes(data))
    (game / "honest.xlsx").unlink()
    shutil.rmtree(tmp_path / "out", ignore_errors=True)
    for said in _check_and_build(game, tmp_path):
        assert said.startswith("lies/cards.xlsx:1:1: not a readable .xlsx workbook (")


def _empty_cells_row(cells: int) -> bytes:
    return b"<row>" + b"<c/>" * cells + b"</row>"


def _with_dimension(rows: Iterator[bytes]) -> Iterator[bytes]:
    """A sheet that states its used range, as Excel writes it: openpyxl opens it without reading it through."""
    yield HEAD.replace(b"<sheetData>", b'<dimension ref="A1:B2"/><sheetData>')
    yield b"<row>" + _inline("name") + _inline("value") + b"</row>"
    yield from rows
    yield TAIL


def test_a_row_of_ten_million_empty_cells_is_refused_before_openpyxl_holds_it(tmp_path: Path):
    """openpyxl keeps a row's cells until the row ends (2.8 GB for this one): the row is refused at its 1,001st."""
    game = _game(tmp_path / "wide", "table: cards.xlsx")
    _workbook(game / "cards.xlsx", _with_dimension(iter([b"<row>", *([b"<c/>" * 100_000] * 100), b"</row>"])))
    for said in _check_and_build(game, tmp_path):
        assert said == "wide/cards.xlsx[Deck]:2:1001: row has more than 1,000 cells, more than the 1,000 columns a card table may have\n"


def test_a_sheet_without_a_dimension_is_not_read_through_as_the_workbook_opens(tmp_path: Path):
    """Without a dimension openpyxl's own read-only sheet reads the whole sheet as the workbook opens, keeping every
    cell of a row: the sheet is read only as its rows are, and the row refused at its 1,001st cell."""
    game = _game(tmp_path / "scan", "table: cards.xlsx")
    _workbook(game / "cards.xlsx", iter([HEAD, b"<row>" + _inline("name") + b"</row>", _empty_cells_row(5_000), TAIL]))
    for said in _check_and_build(game, tmp_path):
        assert said == ("scan/cards.xlsx[Deck]:2:1001: row has more than 1,000 cells, more than the 1,000 columns a "
                        "card table may have\n")


def test_blank_rows_of_empty_cells_stop_at_the_cell_bound(tmp_path: Path):
    """Rows of 999 empty cells are blank: they never pass the piece limit, so the cells read are bounded instead."""
    game = _game(tmp_path / "blank", "table: cards.xlsx")
    _workbook(game / "cards.xlsx", _with_dimension(iter([_empty_cells_row(999)] * 10_000)))
    for said in _check_and_build(game, tmp_path):
        assert said == ("blank/cards.xlsx[Deck]:1002:999: the sheet holds more than 1,000,000 cells (empty ones included), "
                        "more than a card table is read for; delete the unused rows and columns\n")


def test_a_row_numbered_past_the_last_row_of_a_sheet_is_refused(tmp_path: Path):
    game = _game(tmp_path / "far", "table: cards.xlsx")
    _workbook(game / "cards.xlsx", _with_dimension(iter([b'<row r="3000000">' + _inline("Owl") + b"</row>"])))
    for said in _check_and_build(game, tmp_path):
        assert said == "far/cards.xlsx[Deck]:3000000:1: row 3,000,000 lies past row 1,048,576, the last a sheet has\n"


def test_a_row_far_down_the_sheet_is_read_without_keeping_the_blank_rows_before_it(tmp_path: Path):
    game = _game(tmp_path / "gap", "table: cards.xlsx")
    _workbook(game / "cards.xlsx", _with_dimension(iter([b'<row r="1048576">' + _inline("Owl") + _inline("3") + b"</row>"])))
    result, peak = _measured("build", str(game), "--out", str(tmp_path / "out"), "--backs", "none", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert peak < 500
    assert (tmp_path / "out" / "limits" / "deck.pdf").is_file()


def test_a_workbook_whose_styles_inflate_past_their_limit_is_refused_before_openpyxl_parses_them(tmp_path: Path):
    """openpyxl parses styles.xml whole into objects as it opens a workbook: 42 MB of cell formats took 37 s and
    1.3 GB. Every XML part but the sheets and shared strings is held to 2 MB; the shared strings to the file limit."""
    game = _game(tmp_path / "styles", "table: cards.xlsx")
    book = Workbook()
    book.active.title = "Deck"
    book.active.append(["name", "value"])
    book.save(game / "honest.xlsx")
    with zipfile.ZipFile(game / "honest.xlsx") as source, zipfile.ZipFile(game / "cards.xlsx", "w", zipfile.ZIP_DEFLATED) as made:
        for member in source.infolist():
            data = source.read(member)
            if member.filename == "xl/styles.xml":
                at = data.index(b">", data.index(b"<cellXfs")) + 1
                data = data[:at] + b'<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>' * 800_000 + data[at:]
            made.writestr(member, data)
    (game / "honest.xlsx").unlink()
    for said in _check_and_build(game, tmp_path):
        assert said.startswith("styles/cards.xlsx:1:1: the workbook's part xl/styles.xml inflates to 42,")
        assert said.endswith(" bytes, more than 2,000,000 (the most a workbook's styles, theme or other part may hold)\n")


@pytest.mark.parametrize(("body", "said"), [
    ("\n" * 1_100_000, "blank/cards.csv:1048577:1: the table has more than 1,048,576 rows (blank ones included), the most a sheet has\n"),
    (",,,,,,,,,\n" * 120_000, "blank/cards.csv:100001:1: the table holds more than 1,000,000 cells (empty ones included), more than a "
                              "card table is read for; delete the unused rows and columns\n"),
])
def test_a_csv_of_blank_lines_or_empty_cells_stops_at_the_row_or_cell_bound(tmp_path: Path, body: str, said: str):
    """Blank rows never pass the piece limit: a 10 MB CSV of them took 86 s and 2.4 GB. Rows and cells read are
    bounded, and blank rows are not kept."""
    game = _game(tmp_path / "blank", "table: cards.csv")
    (game / "cards.csv").write_text("name,value\n" + body)
    assert _check_and_build(game, tmp_path) == [said, said]
