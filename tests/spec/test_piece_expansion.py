"""How a component's entries expand into pieces (spec/loader/components.py), checked piece by piece (issue #38
item 6: an entry's ``back:`` inheriting the component's back, a one-value ``range:`` and the piece limit's
``copies`` survived hand-made mutants).

Each test loads a small game folder as ``check`` does (load_game) and compares every piece's index, copy, entry,
fields, face, back and cells with what the YAML says, or the located problem with the expected text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.plumbing.errors import SpecError
from punchboard.plumbing.limits import Limits
from punchboard.spec.loader import load_game
from punchboard.spec.model import Component, Side

GAME = "id: mini\ntitle: Mini\nplayers: {min: 2, max: 4}\ncomponents: [parts.yaml]\n"
PLAIN = 'elements:\n  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}\n'


def load(tmp_path: Path, parts: str, max_pieces: int = 20_000, csv: str | None = None) -> Component:
    """The one component of a game whose parts.yaml is ``parts`` (layouts mini/face, mini/back and mini/other
    exist; ``csv``: the text of its cards.csv)."""
    folder = tmp_path / "mini"
    (folder / "layouts" / "mini").mkdir(parents=True)
    if csv is not None:
        (folder / "cards.csv").write_text(csv)
    (folder / "game.yaml").write_text(GAME)
    (folder / "parts.yaml").write_text(parts)
    for name in ("face", "back", "other"):
        (folder / "layouts" / "mini" / f"{name}.yaml").write_text(PLAIN)
    game = load_game(folder, Limits(max_pieces=max_pieces))
    (component,) = [c for c in game.components if c.id == "parts"]
    return component


def problems(tmp_path: Path, parts: str, max_pieces: int = 20_000, csv: str | None = None) -> list[str]:
    """The problems loading reports, each as ``file:LINE:COL: message``."""
    with pytest.raises(SpecError) as caught:
        load(tmp_path, parts, max_pieces, csv)
    return [str(p).replace(str(tmp_path / "mini") + "/", "") for p in caught.value.problems]


def where(mark: str) -> str:
    """A value's mark (``/…/mini/parts.yaml:LINE:COL``) as ``parts.yaml:LINE:COL``."""
    return mark.rsplit("/", 1)[-1]


def rows(component: Component) -> list[tuple[int, int, int, dict[str, object]]]:
    return [(p.index, p.copy, p.entry, dict(p.fields)) for p in component.pieces]


DECK = "id: parts\nkind: deck\nsize: poker\nlayout: mini/face\nfields: [value, text]\n"


def test_counts_copies_and_defaults(tmp_path: Path) -> None:
    parts = DECK + "copies: 2\ndefaults: {text: plain, value: 0}\ncards:\n  - {name: A, count: 2}\n  - {name: B, value: 5}\n"
    component = load(tmp_path, parts)
    assert component.copies == 2
    assert rows(component) == [
        (0, 0, 0, {"text": "plain", "value": 0, "name": "A"}),
        (1, 0, 0, {"text": "plain", "value": 0, "name": "A"}),
        (2, 0, 1, {"text": "plain", "value": 5, "name": "B"}),
        (3, 1, 0, {"text": "plain", "value": 0, "name": "A"}),
        (4, 1, 0, {"text": "plain", "value": 0, "name": "A"}),
        (5, 1, 1, {"text": "plain", "value": 5, "name": "B"}),
    ]
    assert all(p.face == Side("mini/face") and p.back is None and p.cells == ((0, 0),) for p in component.pieces)
    assert where(component.pieces[2].marks["value"]) == "parts.yaml:10:22"  # where B's value is written
    assert where(component.pieces[0].marks["text"]) == "parts.yaml:7:18"  # where the default is


def test_a_range_runs_from_its_start_to_its_end_by_its_step(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {range: {field: value, from: 2, to: 8, step: 3}, count: 2}\n  - {range: {field: value, from: 1, to: 2}}\n"
    got = [(p.entry, p.name, p.get("value")) for p in load(tmp_path, parts).pieces]
    # a piece's entry is the template it was made from: each value of a range is one
    assert got == [(0, "2", 2), (0, "2", 2), (1, "5", 5), (1, "5", 5), (2, "8", 8), (2, "8", 8), (3, "1", 1), (4, "2", 2)]


def test_a_one_value_range_makes_one_piece(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {range: {field: value, from: 7, to: 7}}\n  - {range: {field: value, from: 3, to: 4, step: 5}}\n"
    component = load(tmp_path, parts)
    assert [(p.name, p.get("value")) for p in component.pieces] == [("7", 7), ("3", 3)]
    assert where(component.pieces[0].marks["value"]) == "parts.yaml:7:13"  # a ranged value is located at its range


def test_an_entrys_name_and_fields_stand_beside_its_range(tmp_path: Path) -> None:
    parts = DECK + "defaults: {text: d}\ncards:\n  - {name: Coin, text: t, range: {field: value, from: 1, to: 2}}\n"
    got = [dict(p.fields) for p in load(tmp_path, parts).pieces]
    assert got == [{"name": "Coin", "text": "t", "value": 1}, {"name": "Coin", "text": "t", "value": 2}]


def test_a_range_that_runs_backwards_or_names_no_field_is_refused(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {range: {field: value, from: 5, to: 3}}\n"
    assert problems(tmp_path / "a", parts) == ["parts.yaml:7:13: range goes from 5 down to 3; expected from ≤ to"]
    parts = DECK + "cards:\n  - {range: {field: colour, from: 1, to: 3}}\n"
    assert problems(tmp_path / "b", parts) == ["parts.yaml:7:21: range field 'colour' is not declared under fields:"]


def test_an_entrys_back_inherits_the_components_back(tmp_path: Path) -> None:
    parts = DECK + (
        "back: {layout: mini/back, fields: {text: Back, value: 1}}\n"
        "cards:\n"
        "  - {name: Plain}\n"
        "  - {name: Own fields, back: {fields: {value: 9}}}\n"
        "  - {name: Own layout, back: {layout: mini/other}}\n"
        "  - {name: None, back: none}\n"
    )
    pieces = load(tmp_path, parts).pieces
    assert [p.back for p in pieces] == [
        Side("mini/back", {"text": "Back", "value": 1}),
        Side("mini/back", {"text": "Back", "value": 9}),
        Side("mini/other", {"text": "Back", "value": 1}),
        None,
    ]
    marks = pieces[1].back.marks if pieces[1].back is not None else {}
    assert {k: where(v) for k, v in marks.items()} == {"text": "parts.yaml:6:42", "value": "parts.yaml:9:47"}


def test_an_entrys_layout_replaces_the_components(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {name: A}\n  - {name: B, layout: mini/other}\n"
    assert [p.face for p in load(tmp_path, parts).pieces] == [Side("mini/face"), Side("mini/other")]


def test_a_back_without_a_layout_or_as_text_is_refused(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {name: A, back: {fields: {value: 2}}}\n"
    assert problems(tmp_path / "a", parts) == ["parts.yaml:7:21: back needs a layout (none is inherited from the component)"]


def test_an_entry_without_any_layout_is_refused(tmp_path: Path) -> None:
    parts = "id: parts\nkind: deck\nsize: poker\nfields: [value]\ncards:\n  - {name: A, layout: mini/face}\n  - {name: B}\n"
    assert problems(tmp_path, parts) == ["parts.yaml:7:5: no layout: set layout on the component or on this entry"]


@pytest.mark.parametrize(("cards", "copies", "limit", "where", "total"), [
    ("{name: A, count: 3}", 4, 10, "6:9", 12),  # each entry fits; the copies do not: copies is to blame
    ("{name: A, count: 3}", 4, 12, None, 12),  # exactly the limit
    ("{name: A, count: 11}", 1, 10, "8:22", 11),  # the count alone
    ("{name: A, range: {field: value, from: 1, to: 6}, count: 2}", 1, 10, "8:22", 12),  # the range
    ("{name: A, count: 30}", 2, 40, "6:9", 60),  # the count fits, with the copies it does not
    ("{name: A, count: 50}", 2, 40, "8:22", 100),  # the count alone does not fit
])
def test_the_piece_limit_counts_count_range_and_copies(tmp_path: Path, cards: str, copies: int, limit: int,
                                                       where: str | None, total: int) -> None:
    parts = DECK + f"copies: {copies}\ncards:\n  - {cards}\n"
    if where is None:
        assert len(load(tmp_path, parts, max_pieces=limit).pieces) == total
        return
    message = (f"component expands to at least {total} pieces, more than the limit of {limit}; expected a printable "
               "count (raise the limit with --max-pieces)")
    assert problems(tmp_path, parts, max_pieces=limit) == [f"parts.yaml:{where}: {message}"]


def test_the_piece_limit_counts_every_entry(tmp_path: Path) -> None:
    parts = DECK + "copies: 2\ncards:\n  - {name: A, count: 3}\n  - {name: B, count: 3}\n"
    assert len(load(tmp_path / "a", parts, max_pieces=12).pieces) == 12
    assert problems(tmp_path / "b", parts, max_pieces=11)[0].startswith("parts.yaml:6:9: component expands to at least 12")


TILES = "id: parts\nkind: tiles\ncell: 20mm\nlayout: mini/face\nfields: [value]\ntiles:\n"


def test_a_tiles_cells_are_its_xs(tmp_path: Path) -> None:
    component = load(tmp_path, TILES + '  - {name: L, cells: ["X.", "XX"]}\n  - {name: I}\n')
    assert [p.cells for p in component.pieces] == [((0, 0), (1, 0), (1, 1)), ((0, 0),)]


def test_cells_need_a_tile_and_an_x(tmp_path: Path) -> None:
    assert problems(tmp_path / "a", TILES + '  - {name: Empty, cells: ["..", "."]}\n') == [
        "parts.yaml:7:26: cells has no X; expected at least one cell"]
    parts = DECK + 'cards:\n  - {name: A, cells: ["X"]}\n'
    assert problems(tmp_path / "b", parts) == ["parts.yaml:7:15: cells only applies to tiles, not to a deck"]


CSV = "name,value,count\nA,1,2\nB,2,\n"
TABLE = DECK + "copies: 2\ndefaults: {text: d}\nback: {layout: mini/back}\ncsv: cards.csv\n"


def test_a_card_table_expands_with_copies_and_the_components_back(tmp_path: Path) -> None:
    component = load(tmp_path, TABLE, csv=CSV)
    got = [(p.index, p.copy, p.entry, dict(p.fields), p.back) for p in component.pieces]
    a, b, back = {"text": "d", "name": "A", "value": 1}, {"text": "d", "name": "B", "value": 2}, Side("mini/back")
    assert got == [(0, 0, 0, a, back), (1, 0, 0, a, back), (2, 0, 1, b, back),
                   (3, 1, 0, a, back), (4, 1, 0, a, back), (5, 1, 1, b, back)]
    assert len(load(tmp_path / "at", TABLE, max_pieces=6, csv=CSV).pieces) == 6


@pytest.mark.parametrize(("csv", "limit", "where", "total"), [
    (CSV, 5, "parts.yaml:6:9", 6),  # the rows fit, their copies do not: copies is to blame
    ("name,value,count\nA,1,9\n", 8, "cards.csv:2:5", 18),  # one row's count alone
])
def test_a_card_tables_rows_count_against_the_piece_limit(tmp_path: Path, csv: str, limit: int, where: str,
                                                           total: int) -> None:
    (found,) = problems(tmp_path, TABLE, max_pieces=limit, csv=csv)
    assert found.startswith(f"{where}: component expands to at least {total} pieces, more than the limit of {limit};")


def test_a_ranges_step_counts_against_the_piece_limit(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {range: {field: value, from: 1, to: 30, step: 10}, count: 4}\n"  # 1, 11, 21: 12 pieces
    assert len(load(tmp_path / "a", parts, max_pieces=12).pieces) == 12
    (found,) = problems(tmp_path / "b", parts, max_pieces=11)
    assert found.startswith("parts.yaml:7:13: component expands to at least 12 pieces, more than the limit of 11;")


def test_a_backwards_range_makes_no_pieces_to_count(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {range: {field: value, from: 5, to: 3}, count: 9}\n"
    assert problems(tmp_path, parts, max_pieces=4) == ["parts.yaml:7:13: range goes from 5 down to 3; expected from ≤ to"]


def test_a_backs_unknown_layout_is_located_at_its_name(tmp_path: Path) -> None:
    parts = DECK + "cards:\n  - {name: A, back: {layout: mini/nope}}\n"
    (found,) = problems(tmp_path / "a", parts)
    assert found.startswith("parts.yaml:7:30: ") and "mini/nope" in found
    parts = DECK + "back: plain\ncards:\n  - {name: A}\n"
    assert problems(tmp_path / "b", parts) == [
        "parts.yaml:6:7: back must be 'none' or a mapping with layout and fields, got 'plain'"]


def test_what_a_component_says_besides_its_pieces(tmp_path: Path) -> None:
    deck = load(tmp_path / "a", DECK + "cards:\n  - {name: A}\n")
    assert deck.printed is True and deck.shape is None and [p.name for p in deck.inputs] == ["parts.yaml"]
    hidden = load(tmp_path / "b", DECK + "print: false\ncards:\n  - {name: A}\n")
    assert hidden.printed is False
    table = load(tmp_path / "c", TABLE, csv=CSV)
    assert [p.name for p in table.inputs] == ["parts.yaml", "cards.csv"]
    tokens = load(tmp_path / "d", "id: parts\nkind: tokens\nsize: 20mm\nlayout: mini/face\nshape: hexagon\ntokens:\n  - {name: A}\n")
    assert tokens.shape is not None and tokens.shape.name == "hexagon"


def test_an_empty_list_or_table_is_refused(tmp_path: Path) -> None:
    assert problems(tmp_path / "a", DECK + "cards: []\n") == ["parts.yaml:6:8: cards is empty; expected at least one entry"]
    assert problems(tmp_path / "b", TABLE, csv="name,value,count\n") == [
        "parts.yaml:9:6: cards is empty and the csv has no rows; expected at least one entry"]


def test_unknown_entry_keys_and_defaults_are_located_at_the_key(tmp_path: Path) -> None:
    (found,) = problems(tmp_path / "a", DECK + "cards:\n  - {name: A, colour: red}\n")
    assert found.startswith("parts.yaml:7:15: unknown field 'colour'")
    assert found.endswith("declare it under fields: or use one of back, cells, count, layout, name, range")
    assert problems(tmp_path / "b", DECK + "defaults: {colour: red}\ncards:\n  - {name: A}\n") == [
        "parts.yaml:6:12: default for undeclared field 'colour'; declare it under fields:"]
    (found,) = problems(tmp_path / "c", DECK + "cards:\n  - {name: A, layout: mini/nope}\n")
    assert found.startswith("parts.yaml:7:23: layout 'mini/nope' not found")


def test_the_piece_limit_blames_the_range_before_the_copies(tmp_path: Path) -> None:
    # 2 × 6 values = 12 > 10 before any copy: the range is to blame, not the 2 copies (24 in all)
    parts = DECK + "copies: 2\ncards:\n  - {name: A, range: {field: value, from: 1, to: 6}, count: 2}\n"
    (found,) = problems(tmp_path, parts, max_pieces=10)
    assert found.startswith("parts.yaml:8:22: component expands to at least 24 pieces")


def test_a_table_row_of_exactly_the_limit_blames_the_copies(tmp_path: Path) -> None:
    (found,) = problems(tmp_path, TABLE, max_pieces=9, csv="name,value,count\nA,1,9\n")
    assert found.startswith("parts.yaml:6:9: component expands to at least 18 pieces, more than the limit of 9;")


def test_a_component_without_entries_is_one_piece(tmp_path: Path) -> None:
    board = load(tmp_path, "id: parts\nkind: board\nsize: {width: 200mm, height: 200mm}\nlayout: mini/face\nfields: [value]\n"
                           "defaults: {value: 3}\n")
    assert rows(board) == [(0, 0, 0, {"value": 3})]


def test_a_card_table_is_given_once(tmp_path: Path) -> None:
    parts = TABLE + "table: cards.csv\n"
    assert problems(tmp_path, parts, csv=CSV)[0] == "parts.yaml:10:1: give the card table once: csv: or table:, not both"


@pytest.mark.parametrize(("parts", "where", "total"), [
    ("copies: 2\ncards:\n  - {name: A, count: 5}\n", "6:9", 10),  # the entry alone is exactly the limit: the copies
    ("cards:\n  - {name: A, range: {field: value, from: 1, to: 2}, count: 4}\n", "7:22", 8),  # the count alone is
])
def test_the_piece_limit_blames_at_exactly_the_limit(tmp_path: Path, parts: str, where: str, total: int) -> None:
    (found,) = problems(tmp_path, DECK + parts, max_pieces=total // 2)
    assert found.startswith(f"parts.yaml:{where}: component expands to at least {total} pieces")
