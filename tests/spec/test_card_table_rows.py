"""A card table's rows that set fields alone are made into pieces without the entry loop's checks of each entry
(loader/components.py, ``_row_templates``): the pieces, marks and problems are the ones the entry loop gives."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.limits import DEFAULT_LIMITS
from punchboard.spec.loader import components, load_game
from punchboard.spec.model import Piece, Side, frozen_map, new_piece
from tests.conftest import run_cli

GAME = "id: rows\ntitle: Rows\nplayers: {min: 1, max: 2}\ncomponents: [cards.yaml]\n"
DECK = "id: cards\nkind: deck\nsize: poker\nlayout: base/card\nfields: [value, text, kind]\n"
# blank cells, a blank row, a quoted cell and one over two lines, counts given and not
CSV = 'name,value,count,text,kind\nA,1,2,hello,x\nB,2.5,,,y\n,,,,\nC,,1,"two\nlines",z\nD,true,3,  spaced  ,\nE,-3,1,plain,FALSE\n'
UNCOUNTED = 'name,value,text,kind\nA,1,hello,x\nB,2.5,,y\n,,,\nC,,"two\nlines",z\nD,true,  spaced  ,\nE,-3,plain,FALSE\n'


def _game(tmp_path: Path, deck: str, csv: str = CSV) -> Path:
    folder = tmp_path / "rows"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(deck)
    (folder / "cards.csv").write_text(csv)
    return folder


def _load(folder: Path, tmp_path: Path, max_pieces: int = DEFAULT_LIMITS.max_pieces) -> tuple[Piece, ...] | list[Problem]:
    limits = dataclasses.replace(DEFAULT_LIMITS, max_pieces=max_pieces)
    try:
        game = load_game(folder, limits, out_dir=tmp_path / "out")
    except SpecError as err:
        return err.problems
    return game.component("cards").pieces


def _side(side: Side | None) -> Any:
    return None if side is None else (side.layout, list(side.fields.items()), list(side.marks.items()))


def _shown(piece: Piece) -> Any:
    """Everything a piece holds, in order (``==`` leaves its marks out); a table row's marks are written out when
    asked for (spreadsheets.CellMarks), so the piece is pickled with them as the entry loop's plain mapping, and
    its own pickle must give the same marks back."""
    assert list(pickle.loads(pickle.dumps(piece)).marks.items()) == list(piece.marks.items())
    plain = dataclasses.replace(piece, marks=frozen_map(piece.marks))
    return (piece.component, piece.index, piece.copy, piece.entry, list(piece.fields.items()), _side(piece.face),
            _side(piece.back), piece.cells, list(piece.marks.items()), list(vars(piece)), pickle.dumps(plain))


def _both_ways(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, rows_read: bool = True,
               **limits: int) -> tuple[Any, Any]:
    """What the game loads to with its table's rows made by _row_templates, and by the entry loop
    (``rows_read``: the load reaches the rows, not stopped by the component's own entries)."""
    made = components.ComponentLoader._row_templates
    calls: list[int] = []
    with monkeypatch.context() as patch:
        patch.setattr(components.ComponentLoader, "_row_templates", lambda *args: calls.append(1) or made(*args))
        fast = _load(folder, tmp_path, **limits)
    assert bool(calls) == rows_read
    with monkeypatch.context() as patch:
        patch.setattr(components, "_fields_alone", lambda face: False)
        slow = _load(folder, tmp_path, **limits)
    assert fast == slow
    if isinstance(fast, list):
        return fast, slow
    return [_shown(p) for p in fast], [_shown(p) for p in slow]


@pytest.mark.parametrize(
    "deck",
    [
        DECK + "csv: cards.csv\n",
        DECK + "copies: 2\ntable: cards.csv\n",
        DECK + "defaults: {kind: k, name: Nameless, text: none given}\ncsv: cards.csv\n",
        DECK + "back: {layout: base/card, fields: {text: back text}}\ncsv: cards.csv\n",
        DECK + "back: none\ncards:\n  - {name: Y, value: 9, count: 2}\n  - {name: Z, range: {field: value, from: 1, to: 3}}\ncsv: cards.csv\n",
        DECK.replace("kind]", "kind, count]") + "defaults: {count: 7}\ncsv: cards.csv\n",  # a field named count
        "id: cards\nkind: tiles\nsize: {width: 30mm, height: 30mm}\ncell: 30mm\nlayout: base/card\n"
        "fields: [value, text, kind]\ncsv: cards.csv\n",
    ],
)
def test_a_table_row_gives_the_piece_the_entry_loop_gives(tmp_path, monkeypatch, deck):
    fast, slow = _both_ways(_game(tmp_path, deck), tmp_path, monkeypatch)
    assert fast == slow
    assert fast and not isinstance(fast[0], Problem)


def test_a_sheet_row_gives_the_piece_the_entry_loop_gives(tmp_path, monkeypatch):
    folder = _game(tmp_path, DECK + "table: {file: cards.xlsx, sheet: Deck}\n")
    book = Workbook()
    book.active.title = "Deck"
    for row in [["name", "value", "text", "count"], ["A", 1, "t", 2], ["B", 2.5], [None, None], ["C"], ["D", True, None, 1]]:
        book.active.append(row)  # a sheet's rows may stop before the last column
    book.save(folder / "cards.xlsx")
    fast, slow = _both_ways(folder, tmp_path, monkeypatch)
    assert fast == slow
    assert len(fast) == 5 and fast[3][8] == [("name", f"{folder / 'cards.xlsx'}[Deck]:5:1")]


@pytest.mark.parametrize("max_pieces", [1, 2, 3, 5, 8, 9, 10, 17, 18, 19])
@pytest.mark.parametrize("copies", [1, 2])
@pytest.mark.parametrize("csv", [CSV, UNCOUNTED])
def test_a_table_past_the_piece_limit_is_named_where_the_entry_loop_names_it(tmp_path, monkeypatch, max_pieces, copies, csv):
    folder = _game(tmp_path, DECK + f"copies: {copies}\ncards:\n  - {{name: Y, count: 2}}\ncsv: cards.csv\n", csv)
    fast, slow = _both_ways(folder, tmp_path, monkeypatch, rows_read=2 * copies <= max_pieces, max_pieces=max_pieces)
    assert fast == slow


def test_marks_give_each_cells_line_and_column(tmp_path):
    pieces = _load(_game(tmp_path, DECK + "defaults: {text: none given}\ncsv: cards.csv\n"), tmp_path)
    assert not isinstance(pieces, list)
    name = str(tmp_path / "rows" / "cards.csv")
    by_name = {piece.name: piece.marks for piece in pieces}
    # the default's mark first, then the row's in column order; count is no field and has none
    assert list(by_name["A"].items()) == [("text", f"{name}:2:7"), ("name", f"{name}:2:1"), ("value", f"{name}:2:3"),
                                          ("kind", f"{name}:2:13")]
    # an empty cell sets nothing: B's text keeps the default's mark
    assert list(by_name["B"].items()) == [("text", f"{tmp_path / 'rows' / 'cards.yaml'}:6:18"), ("name", f"{name}:3:1"),
                                          ("value", f"{name}:3:3"), ("kind", f"{name}:3:9")]
    assert by_name["D"]["name"] == f"{name}:7:1"  # the row after a cell over two lines
    assert by_name["D"]["text"] == f"{name}:7:10"


def test_bad_rows_and_a_table_past_the_limit_give_their_messages(tmp_path):
    csv = "name,value,count\nA,1,2\nB,2\nC,3,0\nD,4,two\nE,5,30\n"
    folder = _game(tmp_path, DECK + "csv: cards.csv\n", csv)
    name = str(folder / "cards.csv")
    assert [str(p) for p in _load(folder, tmp_path)] == [
        f"{name}:3:1: row has 2 cells, expected 3 like the header",
        f"{name}:4:5: count must be a positive integer, got 0",
        f"{name}:5:5: count must be a positive integer, got 'two'",
    ]
    (folder / "cards.csv").write_text("name,value,count\nA,1,2\nE,5,30\n")
    limit = "more than the limit of 20; expected a printable count (raise the limit with --max-pieces)"
    assert [str(p) for p in _load(folder, tmp_path, max_pieces=20)] == [f"{name}:3:5: component expands to at least 32 pieces, {limit}"]
    (folder / "cards.csv").write_text("name,value\n" + "".join(f"C{i},{i}\n" for i in range(30)))
    assert [str(p) for p in _load(folder, tmp_path, max_pieces=20)] == [f"{name}:22:1: component expands to at least 21 pieces, {limit}"]
    (folder / "cards.yaml").write_text(DECK + "copies: 2\ncsv: cards.csv\n")
    deck = folder / "cards.yaml"
    assert [str(p) for p in _load(folder, tmp_path, max_pieces=20)] == [f"{deck}:6:9: component expands to at least 22 pieces, {limit}"]


def test_rows_without_the_components_layout_each_get_a_problem(tmp_path):
    folder = _game(tmp_path, DECK.replace("layout: base/card\n", "") + "csv: cards.csv\n")
    problems = _load(folder, tmp_path)
    assert isinstance(problems, list)
    assert [(p.line, p.col, p.message) for p in problems] == [
        (line, 1, "no layout: set layout on the component or on this entry") for line in (2, 3, 5, 7, 8)
    ]


def test_new_piece_is_the_piece_init_makes():
    values = {"component": "cards", "index": 4, "copy": 1, "entry": 2, "fields": frozen_map({"name": "A", "value": 1}),
              "face": Side("base/card"), "back": None, "cells": ((0, 0),), "marks": frozen_map({"name": "cards.csv:2:1"})}
    assert list(values) == [f.name for f in dataclasses.fields(Piece)]
    made, init = new_piece(values), Piece(**values)
    assert made == init and repr(made) == repr(init) and vars(made) == vars(init) and list(vars(made)) == list(vars(init))
    assert pickle.dumps(made) == pickle.dumps(init) and pickle.loads(pickle.dumps(made)) == init
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.index = 5  # type: ignore[misc]
    values["index"] = 5  # the loader reuses its dict from piece to piece
    assert made.index == 4


@pytest.mark.parametrize("key", ["range", "back", "layout", "cells"])
@pytest.mark.parametrize("verb", ["check", "build", "verify"])
def test_a_field_named_after_an_entry_key_is_bad_input_not_a_crash(tmp_path: Path, key: str, verb: str):
    """A card table's column sets the field it names; one named like an entry's own key (range, back, layout,
    cells) would be read as that key (a number as a range: a crash, exit 3, before)."""
    folder = _game(tmp_path, DECK.replace("fields: [value, text, kind]", f"fields: [value, {key}]"), f"name,{key}\nA,5\nB,x\n")
    result = run_cli(verb, str(folder), *(["--out", str(tmp_path / "out")] if verb != "check" else []))
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"{folder / 'cards.yaml'}:5:17: field '{key}' has the name of an entry's own key"), \
        result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out" / "rows").exists()
