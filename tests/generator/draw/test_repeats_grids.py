"""Repeat and grid elements (issue #41 item 3), built through the CLI and read back from the PDF with pdfplumber:
a card's cost drawn as that many coins at their places, a 31-cell score track numbered 0..30 clockwise around a
board's edge, a 5 × 5 hex map whose centres form the hex lattice and whose fills come from a CSV; bad counts and
bad CSV cells are located errors."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from punchboard.cli import main

MM = 72 / 25.4
GAME = "id: rg\ntitle: Repeats\nplayers: {min: 1, max: 2}\ncomponents: [%s]\n"
DECK = "id: deck\nkind: deck\nsize: poker\nlayout: card\nback: none\nfields: [cost]\ncards:\n%s"
CARD = """\
elements:
  - {id: bg, type: rect, box: bleed, fill: "#ddeeff"}
  - {id: name, type: text, text: "{name}", x: 5mm, y: 30mm, width: 50mm, height: 10mm, size: 10pt}
  - id: coins
    type: repeat
    count: "{cost}"
    x: 5mm
    y: 10mm
    width: 50mm
    height: 8mm
    gap: 1mm
    child: {type: icon, icon: coin, fill: "#d4a017"}
"""
BOARD = "id: board\nkind: board\nsize: {width: 150mm, height: 150mm}\nlayout: board\n"


def _colour(hexa: str) -> tuple[float, ...]:
    return tuple(int(hexa[i:i + 2], 16) / 255 for i in (1, 3, 5))


def _same(found: Any, hexa: str) -> bool:
    return isinstance(found, tuple) and len(found) == 3 and all(abs(a - b) < 0.002 for a, b in zip(found, _colour(hexa), strict=True))


def _game(tmp_path: Path, files: dict[str, str]) -> Path:
    game = tmp_path / "game"
    for name, text in files.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_text(text, encoding="utf-8")
    return game


def _build(game: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["build", str(game), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "warning" not in err, err
    return err


def _bounds(page: Any, hexa: str) -> list[Any]:
    """The filled shapes (rects and curves) of colour ``hexa`` on ``page``."""
    return [s for s in (*page.rects, *page.curves) if s.get("fill") and _same(s.get("non_stroking_color"), hexa)]


def test_a_cost_field_draws_that_many_coins_at_their_places(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = "  - {name: Three, cost: 3}\n  - {name: Free, cost: 0}\n  - {name: Seven, cost: 7}\n"
    game = _game(tmp_path, {"game.yaml": GAME % "deck.yaml", "deck.yaml": DECK % cards, "layouts/card.yaml": CARD})
    _build(game, tmp_path / "out", capsys)
    with pdfplumber.open(tmp_path / "out" / "rg" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        backgrounds = sorted(_bounds(page, "#ddeeff"), key=lambda s: (round(s["top"]), s["x0"]))
        assert len(backgrounds) == 3
        coins = [c for c in _bounds(page, "#d4a017") if abs(c["width"] - 8 * MM) < 0.05]  # each coin's outer disc
        words = page.extract_words()
        seen = {}
        for card in backgrounds:
            name = [w["text"] for w in words if card["x0"] <= w["x0"] <= card["x1"] and card["top"] <= w["top"] <= card["bottom"]]
            inside = sorted(c["x0"] for c in coins if card["x0"] <= c["x0"] <= card["x1"] and card["top"] <= c["top"] <= card["bottom"])
            seen[name[0]] = (card, inside)
    three_card, three = seen["Three"]
    trim_left = (three_card["x0"] + three_card["x1"]) / 2 - 90  # a poker card is 2.5 in wide; its background runs into the bleed
    assert three == pytest.approx([trim_left + (5 + 9 * i) * MM for i in range(3)], abs=0.05)  # 8 mm coins, 1 mm apart
    assert seen["Free"][1] == []
    seven_card, seven = seen["Seven"]
    seven_left = (seven_card["x0"] + seven_card["x1"]) / 2 - 90
    # 7 coins 1 mm apart need 62 mm: fitted into the 50 mm box, they are drawn 7 mm apart (overlapping)
    assert seven == pytest.approx([seven_left + (5 + 7 * i) * MM for i in range(7)], abs=0.05)


@pytest.mark.parametrize(("value", "said"), [("2.5", "'2.5' is not a count"), ("-1", "'-1' is not a count")])
def test_a_count_that_is_not_a_whole_number_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 value: str, said: str) -> None:
    cards = f"  - {{name: Odd, cost: '{value}'}}\n"
    game = _game(tmp_path, {"game.yaml": GAME % "deck.yaml", "deck.yaml": DECK % cards, "layouts/card.yaml": CARD})
    assert main(["check", str(game)]) == 2
    err = capsys.readouterr().err
    line = next(line for line in err.splitlines() if said in line)
    assert line.startswith(f"{game / 'deck.yaml'}:8:")
    assert "piece 'Odd'" in line and "element 'coins'" in line and "Traceback" not in err


TRACK = """\
elements:
  - {id: bg, type: rect, box: bleed, fill: "#f0f0e0"}
  - id: track
    type: repeat
    box: safe
    along: edge
    start: top-left
    count: 31
    first: 0
    cell_size: 12mm
    stroke: "#333333"
    child: {type: text, text: "{number}", align: center, valign: middle, size: 10pt}
"""


def test_a_score_track_of_31_cells_is_numbered_0_to_30_clockwise_along_the_edge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD, "layouts/board.yaml": TRACK})
    _build(game, tmp_path / "out", capsys)
    with pdfplumber.open(tmp_path / "out" / "rg" / "board.pdf") as pdf:
        page = pdf.pages[0]
        (bg,) = _bounds(page, "#f0f0e0")
        words = [w for w in page.extract_words() if bg["x0"] <= w["x0"] <= bg["x1"] and bg["top"] <= w["top"] <= bg["bottom"]]
    numbers = {int(w["text"]): ((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2) for w in words if w["text"].isdigit()}
    assert sorted(numbers) == list(range(31))
    cx, cy = (bg["x0"] + bg["x1"]) / 2, (bg["top"] + bg["bottom"]) / 2
    safe_half = 150 * MM / 2 - 3 * MM  # the safe box: the trim inset by 3 mm
    for x, y in numbers.values():  # each number sits in the 12 mm band along the safe box's edge
        reach = max(abs(x - cx), abs(y - cy))
        assert safe_half - 12 * MM < reach < safe_half
    # clockwise on the page (y down): the angle from the centre grows from 0 (top-left) to 30
    angles = [math.atan2(numbers[n][1] - cy, numbers[n][0] - cx) for n in range(31)]
    turned = [(a - angles[0]) % (2 * math.pi) for a in angles]
    assert turned == sorted(turned) and len(set(turned)) == 31
    x0, y0 = numbers[0]
    assert x0 < cx - safe_half + 12 * MM and y0 < cy - safe_half + 12 * MM  # 0 in the top-left corner cell


HEXES = """\
elements:
  - {id: bg, type: rect, box: bleed, fill: "#fafafa"}
  - id: map
    type: grid
    shape: hex
    orientation: pointy
    rows: 5
    cols: 5
    x: 10mm
    y: 10mm
    width: 130mm
    height: 130mm
    csv: board/map.csv
    fill: "{terrain}"
    stroke: "#222222"
    cell:
      - {type: text, text: "{label}", align: center, valign: middle, size: 9pt, color: "#000000", when: "label"}
"""


def _terrain(row: int, col: int) -> str:
    return f"#{0x90 + 0x10 * row:02x}{0xf0 - 0x10 * col:02x}{0xd0:02x}"  # light: black labels read on it


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_a_hex_grid_from_a_csv_forms_the_lattice_with_the_csv_fills(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   orientation: str) -> None:
    rows = "".join(f"{r},{c},{_terrain(r, c)},{r}{c}\n" for r in range(1, 6) for c in range(1, 6))
    layout = HEXES.replace("orientation: pointy", f"orientation: {orientation}")
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD, "layouts/board.yaml": layout,
                            "board/map.csv": "row,col,terrain,label\n" + rows})
    _build(game, tmp_path / "out", capsys)
    with pdfplumber.open(tmp_path / "out" / "rg" / "board.pdf") as pdf:
        page = pdf.pages[0]
        centres = {}
        for r in range(1, 6):
            for c in range(1, 6):
                (shape,) = _bounds(page, _terrain(r, c))
                points = shape["pts"][:-1] if shape["pts"][0] == shape["pts"][-1] else shape["pts"]
                assert len(points) == 6
                centres[(r, c)] = (sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6)
                tall, wide = (2, math.sqrt(3)) if orientation == "pointy" else (math.sqrt(3), 2)  # in radii
                assert shape["height"] == pytest.approx(shape["width"] * tall / wide, abs=0.01)
        labels = {w["text"]: w for w in page.extract_words() if w["text"].isdigit()}
    # fitted into 130 × 130 mm: across the flats w = min(130 / 5.5, 130 · √3 / 8) mm (5 × 5: the same either way)
    w = min(130 / 5.5, 130 * math.sqrt(3) / 8) * MM
    radius = w / math.sqrt(3)
    x11, y11 = centres[(1, 1)]
    for (r, c), (x, y) in centres.items():
        if orientation == "pointy":  # rows 1.5 R apart, every 2nd row half a hex to the right
            assert x == pytest.approx(x11 + (c - 1) * w + (w / 2 if r % 2 == 0 else 0), abs=0.02)
            assert y == pytest.approx(y11 + (r - 1) * 1.5 * radius, abs=0.02)
        else:  # columns 1.5 R apart, every 2nd column half a hex down (y grows downwards in pdfplumber)
            assert x == pytest.approx(x11 + (c - 1) * 1.5 * radius, abs=0.02)
            assert y == pytest.approx(y11 + (r - 1) * w + (w / 2 if c % 2 == 0 else 0), abs=0.02)
        label = labels[f"{r}{c}"]
        assert (label["x0"] + label["x1"]) / 2 == pytest.approx(x, abs=0.5)


@pytest.mark.parametrize(("csv", "where", "said"), [
    ("row,col,terrain\n1,1,#aabbcc\nx,2,#aabbcc\n", "3:1", "row 'x' is not a row of the grid"),
    ("row,col,terrain\n1,9,#aabbcc\n", "2:3", "col '9' is not a col of the grid; expected a whole number 1 to 5"),
    ("row,col,terrain\n1,1,#aabbcc\n2,2,blurple\n", "3:5", "'blurple' is not a colour, for cell row 2, col 2"),
    ("r,c,terrain\n1,1,#aabbcc\n", "1:1", "a grid's CSV needs a row and a col column"),
])
def test_a_bad_grid_csv_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], csv: str, where: str, said: str) -> None:
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD,
                            "layouts/board.yaml": HEXES.replace("{label}", "{row}"), "board/map.csv": csv})
    assert main(["build", str(game), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"map.csv:{where}: {said}" in err, err
    assert "Traceback" not in err


def test_repeats_and_grids_build_the_same_bytes_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = "".join(f"{r},{c},{_terrain(r, c)},{r}{c}\n" for r in range(1, 6) for c in range(1, 6))
    layout = HEXES + "\n".join(TRACK.splitlines()[2:]) + "\n"
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD, "layouts/board.yaml": layout,
                            "board/map.csv": "row,col,terrain,label\n" + rows})
    _build(game, tmp_path / "one", capsys)
    assert main(["build", str(game), "--out", str(tmp_path / "two"), "--jobs", "2"]) == 0
    one = (tmp_path / "one" / "rg" / "board.pdf").read_bytes()
    assert one == (tmp_path / "two" / "rg" / "board.pdf").read_bytes()


@pytest.mark.parametrize(("change", "said"), [
    (('count: "{cost}"', 'count: "{cots}"'), "count: unknown field '{cots}' (did you mean 'cost'?)"),
    (('fill: "#d4a017"', 'fill: "goldish"'), "fill: 'goldish' is not a colour, in element 'coins.child'"),
    (('icon: coin,', 'icon: coins,'), "unknown icon 'coins' (did you mean 'coin'?)"),
    (('icon: coin,', 'font: Nope, icon: coin,'), "unknown font 'Nope'"),
    (('icon: coin,', 'box: safe, icon: coin,'), "card.yaml:12:30: an element inside a repeat or grid is placed in its cell"),
    (('icon: coin,', 'icon: "{kind}",'), "icon: unknown field '{kind}'"),
])
def test_a_repeats_own_elements_are_checked_like_the_layouts(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              change: tuple[str, str], said: str) -> None:
    cards = "  - {name: Three, cost: 3}\n"
    game = _game(tmp_path, {"game.yaml": GAME % "deck.yaml", "deck.yaml": DECK % cards, "layouts/card.yaml": CARD.replace(*change)})
    assert main(["check", str(game)]) == 2
    err = capsys.readouterr().err
    assert f"{game / 'layouts' / 'card.yaml'}:" in err and said in err, err
    assert "Traceback" not in err


def test_a_repeated_picture_is_drawn_in_every_cell_and_follows_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A picture inside a repeat: drawn once per item; a rebuild after the file changed draws the new one (a side
    showing it is never kept by the digests of its own pictures only)."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="{}"/></svg>'
    layout = CARD.replace("{type: icon, icon: coin, fill: \"#d4a017\"}", "{type: image, src: art/gem.svg}")
    cards = "  - {name: Three, cost: 3}\n"
    game = _game(tmp_path, {"game.yaml": GAME % "deck.yaml", "deck.yaml": DECK % cards, "layouts/card.yaml": layout,
                            "art/gem.svg": svg.format("#118833")})
    _build(game, tmp_path / "out", capsys)
    (game / "art" / "gem.svg").write_text(svg.format("#881133"), encoding="utf-8")
    _build(game, tmp_path / "out", capsys)
    with pdfplumber.open(tmp_path / "out" / "rg" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        assert len([s for s in _bounds(page, "#881133") if abs(s["width"] - 8 * MM) < 0.05]) == 3
        assert _bounds(page, "#118833") == []


def test_a_rebuild_after_the_csv_changed_draws_the_new_cells(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CSV is an input of the board like its layout: the second build (same output folder, same process) reads it."""
    rows = "".join(f"{r},{c},{_terrain(r, c)},{r}{c}\n" for r in range(1, 6) for c in range(1, 6))
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD, "layouts/board.yaml": HEXES,
                            "board/map.csv": "row,col,terrain,label\n" + rows})
    _build(game, tmp_path / "out", capsys)
    (game / "board" / "map.csv").write_text("row,col,terrain,label\n" + rows.replace(f"3,3,{_terrain(3, 3)},", "3,3,#fedcba,"),
                                            encoding="utf-8")
    _build(game, tmp_path / "out", capsys)
    with pdfplumber.open(tmp_path / "out" / "rg" / "board.pdf") as pdf:
        page = pdf.pages[0]
        assert len(_bounds(page, "#fedcba")) == 1
        assert _bounds(page, _terrain(3, 3)) == []


def test_the_preflight_sees_each_element_a_repeat_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A track's numbers set at 4 pt are small text, reported for the child element by name."""
    layout = TRACK.replace("size: 10pt", "size: 4pt")
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD, "layouts/board.yaml": layout})
    assert main(["build", str(game), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "preflight small_text" in err and "'track.child'" in err, err


def test_a_changed_csv_cell_is_a_new_print_and_an_unchanged_build_is_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The print fingerprint sees the cells: rebuilding as it was records no print, one changed terrain records one."""
    rows = "".join(f"{r},{c},{_terrain(r, c)},{r}{c}\n" for r in range(1, 6) for c in range(1, 6))
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD, "layouts/board.yaml": HEXES,
                            "board/map.csv": "row,col,terrain,label\n" + rows})
    prints = tmp_path / "out" / "rg" / "prints"
    _build(game, tmp_path / "out", capsys)
    _build(game, tmp_path / "out", capsys)
    assert len(list(prints.glob("*.json"))) == 1
    (game / "board" / "map.csv").write_text("row,col,terrain,label\n" + rows.replace(f"5,5,{_terrain(5, 5)},", "5,5,#fedcba,"),
                                            encoding="utf-8")
    _build(game, tmp_path / "out", capsys)
    assert len(list(prints.glob("*.json"))) == 2


@pytest.mark.parametrize(("direction", "placing"), [("left", "align: right"), ("down", "valign: top"), ("up", "valign: bottom")])
def test_a_line_runs_in_its_direction_from_where_it_is_placed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              direction: str, placing: str) -> None:
    """Items numbered by {index}: the first one where the row starts (right for left, top for down, bottom for up),
    each next one spacing further on; the row placed at its box's end by align or valign."""
    layout = f"""\
elements:
  - {{id: bg, type: rect, box: bleed, fill: "#ddeeff"}}
  - id: digits
    type: repeat
    count: 4
    x: 10mm
    y: 10mm
    width: {"50mm" if direction == "left" else "10mm"}
    height: {"10mm" if direction == "left" else "60mm"}
    direction: {direction}
    spacing: 12mm
    cell_size: 10mm
    {placing}
    child: {{type: text, text: "{{index}}", size: 10pt, align: center, valign: middle}}
"""
    cards = "  - {name: A, cost: 1}\n"
    game = _game(tmp_path, {"game.yaml": GAME % "deck.yaml", "deck.yaml": DECK % cards, "layouts/card.yaml": layout})
    _build(game, tmp_path / "out", capsys)
    with pdfplumber.open(tmp_path / "out" / "rg" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        (bg,) = _bounds(page, "#ddeeff")
        words = {w["text"]: ((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2) for w in page.extract_words()}
    left, top = (bg["x0"] + bg["x1"]) / 2 - 90, (bg["top"] + bg["bottom"]) / 2 - 126  # poker: 2.5 × 3.5 in
    centres = [words[str(n)] for n in range(1, 5)]
    if direction == "left":  # a 46 mm row at the right of its 50 mm box, 1 on the right
        expected = [(left + (10 + 4 + 5 + 12 * (3 - i)) * MM, top + 15 * MM) for i in range(4)]
    elif direction == "down":  # from the top of the 60 mm box
        expected = [(left + 15 * MM, top + (10 + 5 + 12 * i) * MM) for i in range(4)]
    else:  # from the bottom of the box: the row's 46 mm end at 70 mm, 1 at the bottom
        expected = [(left + 15 * MM, top + (10 + 14 + 5 + 12 * (3 - i)) * MM) for i in range(4)]
    for (x, y), (ex, ey) in zip(centres, expected, strict=True):
        assert x == pytest.approx(ex, abs=0.6) and y == pytest.approx(ey, abs=1.0)


def test_a_text_child_takes_a_texts_own_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A child is read as the element it is: a text child's shadow is a text shadow (drawn under each number)."""
    layout = TRACK.replace('size: 10pt}', 'size: 10pt, shadow: {color: "#c04000", dx: 0.4mm, dy: 0.4mm}}')
    assert layout != TRACK
    game = _game(tmp_path, {"game.yaml": GAME % "board.yaml", "board.yaml": BOARD, "layouts/board.yaml": layout})
    _build(game, tmp_path / "out", capsys)
    with pdfplumber.open(tmp_path / "out" / "rg" / "board.pdf") as pdf:
        shadowed = [c for c in pdf.pages[0].chars if _same(c.get("non_stroking_color"), "#c04000")]
    assert sorted({c["text"] for c in shadowed}) == sorted(set("0123456789"))
