"""Workbench edits written as a person would: one value changes, every other byte of the file stays."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from punchboard.spec.loader import load_game
from punchboard.studio.edits import EditRefused, element_edit, field_edit, validated
from punchboard.studio.overrides import element_add, inherited_value
from punchboard.studio.provenance import written_at

from .tiny_game import write_game

LAYOUT = """\
# The tiny card's face. Keep the title high: the art sits below it.
extends: base/card
palette: {ink: "#222222"}
elements:
  - {id: badge, type: rect, x: 12mm, y: 4mm, width: 10mm, height: 8.5mm, fill: ink}  # the corner badge
  - id: band         # a block mapping
    type: rect
    x: '3.5mm'       # quoted: stays quoted
    y: 40%
    width: 1in
    height: 6
    fill: "#aa3300"
  - id: title
    type: text
    align: center
    font: Vera  # the plain face
"""


def _diff(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    path = tmp_path / "card.yaml"
    path.write_text(LAYOUT, encoding="utf-8")
    return path


@pytest.mark.parametrize(("element", "key", "value", "extent", "old", "new"), [
    ("badge", "x", 22.0, None, "x: 12mm,", "x: 22mm,"),  # moved 10 mm right, in a flow mapping
    ("badge", "height", 8.54, None, "height: 8.5mm}", "height: 8.5mm}"),  # rounded to 0.1 mm: unchanged
    ("badge", "width", 12.26, None, "width: 10mm,", "width: 12.3mm,"),
    ("band", "x", 13.5, None, "x: '3.5mm'", "x: '13.5mm'"),  # quoted stays quoted
    ("band", "y", 41.46, 82.9, "y: 40%", "y: 50.06%"),  # 41.5 mm of its 82.9 mm box: still a percentage
    ("band", "width", 50.8, None, "width: 1in", "width: 2in"),  # inches stay inches
    ("band", "height", 7.25, None, "height: 6", "height: 7.3"),  # a bare number (mm) stays bare
    ("band", "fill", "#0044aa", None, 'fill: "#aa3300"', 'fill: "#0044aa"'),
    ("badge", "fill", "paper", None, "fill: ink}", "fill: paper}"),  # plain stays plain when it reads back
    ("title", "align", "left", None, "align: center", "align: left"),  # a block mapping's plain value
    ("title", "font", "Vera-Bold", None, "font: Vera  ", "font: Vera-Bold  "),  # the comment stays where it was
])
def test_one_value_changes_in_the_files_unit_and_nothing_else(layout: Path, element: str, key: str, value: object,
                                                              extent: float | None, old: str, new: str):
    before = layout.read_text(encoding="utf-8")
    after = element_edit(layout, element, key, value, extent).decode("utf-8")
    changed = _diff(before, after)
    if old == new:
        assert after == before
        return
    assert len(changed) == 2, changed  # one line out, one line in
    assert old in changed[0] and changed[1] == changed[0][0:0] + "+" + changed[0][1:].replace(old, new)


def test_a_colour_with_a_hash_is_quoted_so_it_is_no_comment(layout: Path):
    after = element_edit(layout, "badge", "fill", "#102030").decode("utf-8")
    assert 'fill: "#102030"}  # the corner badge' in after


def test_the_file_that_writes_the_key_is_found_along_the_extends_chain(tmp_path: Path, layout: Path):
    parent = tmp_path / "parent.yaml"
    parent.write_text("elements:\n  - {id: badge, type: rect, stroke: red}\n", encoding="utf-8")
    assert written_at((layout, parent), "badge", "x") == (0, layout, (5, 32))  # line 5, column 32 of card.yaml
    assert written_at((layout, parent), "badge", "stroke") == (1, parent, (2, 37))
    assert written_at((layout, parent), "badge", "opacity") is None
    assert written_at((layout, parent), "title", "font") == (0, layout, (16, 11))


@pytest.mark.parametrize(("element", "key", "value", "inherited", "old", "new"), [
    # a flow mapping gets the key at its end, before the comment after it
    ("badge", "stroke", "#ff0000", None, "height: 8.5mm, fill: ink}",
     'height: 8.5mm, fill: ink, stroke: "#ff0000"}'),
    ("badge", "text", "A", None, "fill: ink}", "fill: ink, text: A}"),
])
def test_an_override_is_added_to_the_elements_own_mapping(layout: Path, element: str, key: str, value: object,
                                                          inherited: tuple[object, str] | None, old: str, new: str):
    before = layout.read_text(encoding="utf-8")
    after = element_add(layout, element, key, value, inherited).decode("utf-8")
    assert after == before.replace(old, new), _diff(before, after)


def test_an_override_in_a_block_mapping_is_a_new_line_at_its_indentation(layout: Path):
    before = layout.read_text(encoding="utf-8")
    after = element_add(layout, "title", "color", "#102030", None).decode("utf-8")
    assert _diff(before, after) == ['+    color: "#102030"']
    assert after.endswith('    font: Vera  # the plain face\n    color: "#102030"\n')
    after = element_add(layout, "title", "x", 30.0, ("1in", "1in")).decode("utf-8")  # inherited in inches: inches
    assert _diff(before, after) == ["+    x: 1.181in"]
    after = element_add(layout, "band", "color", "paper", None).decode("utf-8")
    assert _diff(before, after) == ["+    color: paper"]
    assert '    fill: "#aa3300"\n    color: paper\n  - id: title' in after


def test_an_element_the_file_does_not_name_is_added_as_one_item(tmp_path: Path, layout: Path):
    parent = tmp_path / "parent.yaml"
    parent.write_text("elements:\n  - {id: cost, type: text, x: 3mm, y: '5mm'}\n", encoding="utf-8")
    before = layout.read_text(encoding="utf-8")
    inherited = inherited_value(parent, "cost", "y")
    assert inherited == ("5mm", "'5mm'")
    after = element_add(layout, "cost", "y", 10.575, inherited, precise=True).decode("utf-8")
    assert _diff(before, after) == ["+  - id: cost", "+    y: '10.575mm'"]  # block items: a block item, quoted as was
    bare = tmp_path / "bare.yaml"
    bare.write_text("extends: parent  # no elements of its own", encoding="utf-8")
    assert element_add(bare, "cost", "x", 4.0, ("3mm", "3mm")) == \
        b"extends: parent  # no elements of its own\nelements:\n  - {id: cost, x: 4mm}\n"
    with pytest.raises(EditRefused, match="already writes"):
        element_add(layout, "badge", "x", 1.0, None)


def test_a_length_bound_to_a_field_is_refused(tmp_path: Path):
    path = tmp_path / "l.yaml"
    path.write_text('elements:\n  - {id: a, type: rect, x: "{left}"}\n', encoding="utf-8")
    with pytest.raises(EditRefused, match="card field"):
        element_edit(path, "a", "x", 3.0)


def test_a_csv_cell_changes_and_every_other_byte_stays(tmp_path: Path):
    data = (b'name,text,cost\r\n'
            b'Lantern,"A lantern, lit",2\r\n'
            b'Rope,A coil of rope.,1\r\n'
            b'"Map","An ""old"" map",3\r\n')
    path = tmp_path / "cards.csv"
    path.write_bytes(data)
    after = field_edit(path, 3, 6, "A coil, frayed")  # Rope's text: line 3, column 6
    assert after == data.replace(b"Rope,A coil of rope.,1", b'Rope,"A coil, frayed",1')
    path.write_bytes(after)
    after = field_edit(path, 4, 7, 'A "new" map')  # a quoted cell stays quoted; its quotes doubled
    assert after.replace(b'"A ""new"" map"', b'"An ""old"" map"') == data.replace(b"Rope,A coil of rope.,1",
                                                                                   b'Rope,"A coil, frayed",1')
    path.write_bytes(after)
    assert field_edit(path, 2, 1, "Torch") == after.replace(b"Lantern,", b"Torch,")


def test_a_card_field_in_a_component_yaml(tmp_path: Path):
    folder = write_game(tmp_path / "tiny")
    deck = folder / "deck.yaml"
    before = deck.read_text(encoding="utf-8")
    after = field_edit(deck, 12, 11, "A coil of rope: tied").decode("utf-8")  # Rope's text
    assert _diff(before, after) == ["-    text: A coil of rope.", '+    text: "A coil of rope: tied"']


def test_an_edit_that_would_not_load_is_refused_with_its_location_and_writes_nothing(tmp_path: Path):
    folder = write_game(tmp_path / "tiny")
    back = folder / "layouts" / "tiny" / "back.yaml"
    before = back.read_bytes()
    new = element_edit(back, "name", "color", "#12345")
    with pytest.raises(EditRefused) as refused:
        validated(folder, back, new, load_game)
    message = str(refused.value)
    assert "layouts/tiny/back.yaml:3:" in message and "#12345" in message, message
    assert "punchboard-edit-" not in message  # the real file, not the copy it was checked in
    assert back.read_bytes() == before
    validated(folder, back, element_edit(back, "name", "color", "#123456"), load_game)  # a good one passes
    assert back.read_bytes() == before  # and checking writes nothing either


def test_a_text_with_a_line_break_is_written_double_quoted_and_reads_back(tmp_path: Path):
    from ruamel.yaml import YAML

    path = tmp_path / "l.yaml"
    path.write_text("elements:\n  - {id: a, type: text, text: 'Old\u2028text'}\n  - {id: b, type: text, text: 'x'}\n",
                    encoding="utf-8")
    after = element_edit(path, "b", "text", "two\nlines").decode("utf-8")
    assert after.endswith('text: "two\\nlines"}\n')  # the unicode line separator above counts as no line end
    assert YAML(typ="safe").load(after)["elements"][1]["text"] == "two\nlines"


def test_a_font_written_as_a_mapping_is_refused(tmp_path: Path):
    path = tmp_path / "l.yaml"
    path.write_text("elements:\n  - id: a\n    type: text\n    font: {family: Vera, weight: bold}\n", encoding="utf-8")
    with pytest.raises(EditRefused, match="collection"):
        element_edit(path, "a", "font", "Vera")
