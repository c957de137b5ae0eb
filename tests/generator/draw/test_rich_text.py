"""Rich text in a text element (issue #41 item 2): spans, lists, tables, justified hyphenated text, outline and
shadow, bad tags. Each card is built through the CLI from YAML and a CSV cell, and read back from the PDF with
pdfplumber: glyph positions, sizes and colours.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from pathlib import Path
from typing import Any

import pdfplumber
import pyphen
import pytest

from tests.conftest import run_cli

GAME = """\
id: aid
title: Aid
players: {min: 1, max: 4}
palette: {crimson: "#b22222"}
components: [deck.yaml]
"""
DECK = """\
id: deck
kind: deck
size: poker
layout: aid
back: none
fields: [body]
csv: cards.csv
"""
TABLE = (
    "5 | **Herald** | A player discards a card and draws two :coin: more.\n"
    "4 | **Knight** | Compare hands.\n"
    "12 | **Guard** | Name a card; if right, that player is out."
)
LIST = "1. Draw a card from the deck, then look at it carefully.\n2. Play one card.\n10. Pass the turn to the left."
PROSE = ("Hyphenation demonstrates extraordinarily incomprehensible typographical considerations "
         "throughout the documentation of unbelievably complicated games.")
SPANS = "Gain [color=crimson]two red[/color] and [color=#1f4e79]**blue**[/color] [size=5]tiny[/size] [u]under[/u] [s]out[/s]"
MM = 72 / 25.4
Char = dict[str, Any]


def _build(folder: Path, element: str, body: str, verb: str = "build") -> tuple[list[Char], str]:
    """A one-card deck whose layout is ``element`` (a flow mapping) with ``body`` in its CSV cell: the card's
    characters and the CLI's stderr."""
    folder.mkdir(parents=True, exist_ok=True)
    cells = io.StringIO()
    csv.writer(cells, lineterminator="\n").writerows([["name", "body"], ["Aid", body]])
    files = {"game.yaml": GAME, "deck.yaml": DECK, "cards.csv": cells.getvalue(), "layouts/aid.yaml": f"elements:\n  - {element}\n"}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    out = folder.parent / f"{folder.name}-out"
    args = (verb, str(folder)) if verb == "check" else (verb, str(folder), "--out", str(out), "--backs", "none", "--quiet")
    result = run_cli(*args)
    if verb == "check":
        return [], result.stderr
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(out / "aid" / "deck.pdf") as pdf:
        page = pdf.pages[0]  # one card on the sheet; the sheet's own words are in its bottom margin
        return [c for c in page.chars if c["top"] < page.height * 0.9], result.stderr


def _lines(chars: list[Char]) -> list[list[Char]]:
    """Characters grouped into lines by their baseline, top to bottom, each left to right."""
    rows: dict[float, list[Char]] = defaultdict(list)
    for char in chars:
        rows[round(char["bottom"], 1)].append(char)
    return [sorted(rows[key], key=lambda c: c["x0"]) for key in sorted(rows)]


def _words(line: list[Char]) -> list[list[Char]]:
    """A line's characters split into words where a gap wider than a quarter of the size opens."""
    words: list[list[Char]] = [[line[0]]]
    for char in line[1:]:
        if char["text"] == " " or char["x0"] - words[-1][-1]["x1"] > char["size"] * 0.25:
            words.append([])
        if char["text"] != " ":
            words[-1].append(char)
    return [w for w in words if w]


def _text(chars: list[Char]) -> str:
    return "".join(c["text"] for c in chars)


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _same_colour(found: Any, want: tuple[float, float, float]) -> bool:
    return len(found) == 3 and max(abs(a - b) for a, b in zip(found, want, strict=True)) < 0.005


def test_player_aid_table_in_three_columns(tmp_path: Path) -> None:
    element = ("{id: body, type: text, x: 4mm, y: 4mm, width: 55mm, height: 40mm, size: 8pt, text: '{body}', "
               "columns: [right, left, left], rules: true}")
    chars, _ = _build(tmp_path / "game", element, TABLE)
    lines = [_words(line) for line in _lines(chars)]
    numbers = [words[0] for words in lines if _text(words[0]).isdigit()]
    assert [_text(w) for w in numbers] == ["5", "4", "12"]
    assert max(w[-1]["x1"] for w in numbers) - min(w[-1]["x1"] for w in numbers) < 0.05  # right-aligned
    names = {_text(words[1]): words[1][0]["x0"] for words in lines if _text(words[0]).isdigit()}
    assert set(names) == {"Herald", "Knight", "Guard"} and max(names.values()) - min(names.values()) < 0.05
    assert all(c["fontname"].endswith("Bold") for words in lines if _text(words[0]).isdigit() for c in words[1])
    effect = next(words for words in lines if _text(words[0]) == "5")[2][0]["x0"]
    assert effect > max(names.values())
    wrapped = lines[1]  # the Herald's effect wrapped under its own column, not under the number
    assert not _text(wrapped[0]).isdigit() and abs(wrapped[0][0]["x0"] - effect) < 0.05
    assert _text(wrapped[0]) + " " + _text(wrapped[1]) == "and draws"


def test_table_rules_between_rows(tmp_path: Path) -> None:
    element = ("{id: body, type: text, x: 4mm, y: 4mm, width: 55mm, height: 40mm, size: 8pt, text: '{body}', "
               "columns: [right, left, left], rules: true}")
    chars, _ = _build(tmp_path / "game", element, TABLE)
    with pdfplumber.open(tmp_path / "game-out" / "aid" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        rules = sorted(line["top"] for line in page.lines if abs(line["top"] - line["bottom"]) < 0.01 and abs(line["width"] - 55 * MM) < 0.1)
    lines = _lines(chars)
    assert [_text(_words(line)[0]) for line in lines] == ["5", "and", "4", "12", "that"]
    assert len(rules) == 2  # between the three rows, none above the first or below the last
    assert max(c["bottom"] for c in lines[1]) < rules[0] < min(c["top"] for c in lines[2])
    assert max(c["bottom"] for c in lines[2]) < rules[1] < min(c["top"] for c in lines[3])


def test_numbered_list_hangs_its_wrapped_lines(tmp_path: Path) -> None:
    element = "{id: body, type: text, x: 4mm, y: 4mm, width: 50mm, height: 40mm, size: 8pt, text: '{body}'}"
    chars, _ = _build(tmp_path / "game", element, LIST)
    lines = [_words(line) for line in _lines(chars)]
    assert [_text(w[0]) for w in lines] == ["1.", "then", "2.", "10."]
    indent = lines[0][1][0]["x0"]  # where the first item's text starts, after its number
    assert indent > lines[0][0][-1]["x1"]
    assert abs(lines[1][0][0]["x0"] - indent) < 0.05  # the second line starts at the indent, not under the number
    assert abs(lines[2][1][0]["x0"] - indent) < 0.05 and abs(lines[3][1][0]["x0"] - indent) < 0.05
    ends = [lines[i][0][-1]["x1"] for i in (0, 2, 3)]  # "1.", "2.", "10." end at one edge
    assert max(ends) - min(ends) < 0.05


def test_justified_hyphenated_text_ends_flush_right(tmp_path: Path) -> None:
    element = ("{id: body, type: text, x: 4mm, y: 4mm, width: 30mm, height: 60mm, size: 8pt, text: '{body}', "
               "align: justify, hyphenate: en}")
    chars, _ = _build(tmp_path / "game", element, PROSE)
    lines = _lines(chars)
    left = min(c["x0"] for c in chars)
    right = left + 30 * MM
    for line in lines[:-1]:
        assert abs(line[-1]["x1"] - right) < 0.3, _text(line)  # flush right
        assert abs(line[0]["x0"] - left) < 0.05
    last = _words(lines[-1])  # the last line is not stretched: its words one space (Vera, 8 pt) apart
    assert all(abs(b[0]["x0"] - a[-1]["x1"] - 2.543) < 0.01 for a, b in zip(last, last[1:], strict=False))
    dictionary = pyphen.Pyphen(lang="en")
    broken = [(i, _words(line)[-1]) for i, line in enumerate(lines[:-1]) if line[-1]["text"] == "-"]
    assert broken, [_text(line) for line in lines]
    for i, head in broken:
        tail = _words(lines[i + 1])[0]
        word = (_text(head)[:-1] + _text(tail)).rstrip(".,")
        assert word in PROSE.split() or word + "." in PROSE.split()
        assert len(_text(head)) - 1 in dictionary.positions(word)  # split where pyphen splits


def test_coloured_and_sized_spans(tmp_path: Path) -> None:
    element = "{id: body, type: text, x: 4mm, y: 4mm, width: 55mm, height: 20mm, size: 10pt, text: '{body}'}"
    chars, stderr = _build(tmp_path / "game", element, SPANS)
    words = {_text(w): w for line in _lines(chars) for w in _words(line)}
    assert all(_same_colour(c["non_stroking_color"], _rgb("#b22222")) for c in words["two"] + words["red"])
    assert all(_same_colour(c["non_stroking_color"], _rgb("#1f4e79")) for c in words["blue"])
    assert all(c["fontname"].endswith("Bold") for c in words["blue"])
    assert all(tuple(c["non_stroking_color"]) in ((0.0,), (0.0, 0.0, 0.0)) for c in words["Gain"] + words["and"])
    assert {round(c["size"], 2) for c in words["tiny"]} == {5.0}
    assert {round(c["size"], 2) for c in words["Gain"]} == {10.0}
    assert "small_text: a span in the text of element 'body' is set at 5 pt" in stderr


def test_shrinking_text_shrinks_its_spans(tmp_path: Path) -> None:
    element = "{id: body, type: text, x: 4mm, y: 4mm, width: 30mm, height: 6mm, size: 12pt, min_size: 6pt, text: '{body}'}"
    chars, _ = _build(tmp_path / "game", element, "A [size=9]smaller[/size] word and more words to fit")
    sizes = {_text(w): round(w[0]["size"], 3) for line in _lines(chars) for w in _words(line)}
    assert sizes["A"] < 12
    assert abs(sizes["smaller"] / sizes["A"] - 9 / 12) < 0.001


def test_outline_and_shadow(tmp_path: Path) -> None:
    element = ("{id: body, type: text, x: 4mm, y: 4mm, width: 55mm, height: 20mm, size: 10pt, text: '{body}', "
               "outline: {color: '#ffff00', width: 0.6pt}, shadow: {color: '#888888', dx: 0.5mm, dy: 0.4mm}}")
    chars, _ = _build(tmp_path / "game", element, "Title")
    by_colour: dict[tuple[float, ...], list[Char]] = defaultdict(list)
    for char in chars:
        by_colour[tuple(round(v, 3) for v in char["non_stroking_color"])].append(char)
    fill = by_colour[(0.0, 0.0, 0.0)] or by_colour[(0.0,)]
    outline = by_colour[(1.0, 1.0, 0.0)]
    shadow = by_colour[tuple(round(v, 3) for v in _rgb("#888888"))]
    assert _text(fill) == _text(outline) == _text(shadow) == "Title"
    assert all(_same_colour(c["stroking_color"], (1.0, 1.0, 0.0)) for c in outline)
    assert all(abs(a["x0"] - b["x0"]) < 0.01 and abs(a["top"] - b["top"]) < 0.01 for a, b in zip(fill, outline, strict=True))
    for a, b in zip(fill, shadow, strict=True):
        assert abs(b["x0"] - a["x0"] - 0.5 * MM) < 0.01 and abs(b["top"] - a["top"] - 0.4 * MM) < 0.01
    assert chars.index(shadow[0]) < chars.index(outline[0]) < chars.index(fill[0])  # drawn under, then over


def test_inline_icons_inside_spans_and_cells(tmp_path: Path) -> None:
    element = "{id: body, type: text, x: 4mm, y: 4mm, width: 55mm, height: 20mm, size: 10pt, text: '{body}', columns: [left, left]}"
    _build(tmp_path / "game", element, "[color=#b22222]Pay :coin:[/color] | gain :star:")
    with pdfplumber.open(tmp_path / "game-out" / "aid" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        fills = {tuple(round(v, 3) for v in obj["non_stroking_color"]) for obj in page.curves + page.rects if obj["non_stroking_color"]}
    assert tuple(round(v, 3) for v in _rgb("#b22222")) in fills  # the coin drawn in its span's colour


def test_bad_tags_are_located_errors(tmp_path: Path) -> None:
    element = "{id: body, type: text, x: 4mm, y: 4mm, width: 55mm, height: 20mm, size: 10pt, text: '{body}'}"
    _, stderr = _build(tmp_path / "game", element, "[colr=red]x[/colr] [u]open [size=x]q[/size] [color=puce]c[/color]", verb="check")
    cell = f"{tmp_path / 'game' / 'cards.csv'}:2:5: "
    assert f"{cell}unknown tag [colr=red] (did you mean [color=…]?); expected one of [color=#b22222], [size=8], [font=Vera-Bold], [u], [s]" in stderr
    assert f"{cell}[u] is never closed; expected [/u], in the text of element 'body'" in stderr
    assert f"{cell}[size=x]: 'x' is not a size; expected points" in stderr
    assert f"{cell}[color=puce]: 'puce' is not a colour; expected #rrggbb or a palette name" in stderr
    assert "Traceback" not in stderr
    result = run_cli("check", str(tmp_path / "game"))
    assert result.returncode == 2


def test_bad_text_keys_are_located_errors(tmp_path: Path) -> None:
    element = ("{id: body, type: text, text: '{body}', hyphenate: xx, columns: [right, {align: left, width: 150%}], "
               "outline: {color: '#ffffff', width: 0}}")
    _, stderr = _build(tmp_path / "game", element, "a", verb="check")
    layout = tmp_path / "game" / "layouts" / "aid.yaml"
    assert f"{layout}:2:" in stderr
    assert "hyphenate: no hyphenation dictionary for 'xx'" in stderr
    assert "columns: expected a percentage from 0% to 100%, got '150%'" in stderr
    assert "outline: width must be a positive length, got 0" in stderr


def test_rich_text_is_deterministic(tmp_path: Path) -> None:
    element = ("{id: body, type: text, x: 4mm, y: 4mm, width: 55mm, height: 60mm, size: 8pt, text: '{body}', "
               "columns: [right, left, justify], rules: true, hyphenate: en, align: justify, outline: {color: '#ffffff'}}")
    body = "\n".join((TABLE, LIST, PROSE, SPANS))
    _build(tmp_path / "a", element, body)
    _build(tmp_path / "b", element, body)
    first = (tmp_path / "a-out" / "aid" / "deck.pdf").read_bytes()
    assert first == (tmp_path / "b-out" / "aid" / "deck.pdf").read_bytes()


def test_hyphenation_bisects_the_break_and_leaves_very_long_words_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from punchboard.generator.draw import fonts
    from punchboard.generator.draw.markup import Fragment
    from punchboard.generator.draw.text_layout import Metrics, hyphenated

    fonts.register_builtin()
    metrics = Metrics("Vera", 10, 10)
    word = "incomprehensibilities" * 3
    points = pyphen.Pyphen(lang="en").positions(word)
    room = fonts.width(word[: points[len(points) // 2]] + "-", "Vera", 10) + 0.001
    measured: list[str] = []
    real = fonts.width

    def counting(chars: str, face: str, size: float) -> float:
        measured.append(chars)
        return real(chars, face, size)

    monkeypatch.setattr(fonts, "width", counting)
    split = hyphenated((Fragment(word),), room, metrics, "en")
    assert split is not None
    head, tail = ("".join(f.text for f in part) for part in split)
    assert head == word[: points[len(points) // 2]] + "-" and tail == word[points[len(points) // 2]:]
    assert len(measured) <= 2 * (len(points).bit_length() + 1)  # bisected: a head and its hyphen per probe
    assert hyphenated((Fragment("a" * 65),), 1e9, metrics, "en") is None  # over 64 letters: cut, not hyphenated


def test_outline_and_shadow_colours_are_checked(tmp_path: Path) -> None:
    element = "{id: body, type: text, text: '{body}', outline: {color: puce}, shadow: {color: crimsn, dx: 1mm}}"
    _, stderr = _build(tmp_path / "game", element, "a", verb="check")
    layout = tmp_path / "game" / "layouts" / "aid.yaml"
    assert f"{layout}:2:53: outline: unknown colour 'puce'; expected #rrggbb or a palette name (crimson)" in stderr
    assert f"{layout}:2:76: shadow: unknown colour 'crimsn' (did you mean 'crimson'?)" in stderr


def test_a_bad_column_is_a_readable_error(tmp_path: Path) -> None:
    element = "{id: body, type: text, text: '{body}', columns: [middle, {align: left, widht: 20%}]}"
    _, stderr = _build(tmp_path / "game", element, "a", verb="check")
    layout = tmp_path / "game" / "layouts" / "aid.yaml"
    assert f"{layout}:2:54: columns 'middle' is not valid: expected a column's alignment (left, center, right or justify)" in stderr
    assert "unknown key 'widht' (did you mean 'width'?); expected one of: align, width" in stderr


def test_tables_and_lists_shrink_to_fit(tmp_path: Path) -> None:
    element = ("{id: body, type: text, x: 4mm, y: 4mm, width: 50mm, height: 24mm, size: 10pt, min_size: 5pt, text: '{body}', "
               "columns: [right, left, left], rules: true}")
    chars, stderr = _build(tmp_path / "game", element, TABLE + "\n" + LIST)
    sizes = {round(c["size"], 2) for c in chars}
    assert len(sizes) == 1 and 5 <= sizes.pop() < 10  # shrunk, every construct with it
    assert "does not fit" not in stderr
    bottom = max(c["bottom"] for c in chars)
    top = min(c["top"] for c in chars)
    assert bottom - top <= 24 * MM + 0.5  # inside its box
    lines = [_words(line) for line in _lines(chars)]
    assert [_text(w[0]) for w in lines if _text(w[0])[0].isdigit()][-3:] == ["1.", "2.", "10."]
