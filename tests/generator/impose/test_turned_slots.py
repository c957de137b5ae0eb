"""Turned slots: a portrait card lies turned 90° on its sheet when that fits more a sheet (mini cards
on A4: 18 turned against 16 upright; 36 cards, so turning saves a sheet). Read back from the PDFs and cut files a user gets: the slots'
size and count, crop marks in line with the cuts and between the unprintable margin and the cards,
every back exactly behind its front (0.000 mm) and turned to match, in every back mode, and the
Silhouette cut lines on the printed card outlines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber
import pytest
from punchboard.generator.impose.style import load_style

from tests.conftest import run_cli

MM = 72 / 25.4
TOL = 0.1 * MM
UNPRINTABLE = load_style().unprintable
FACE_TRIM, BACK_TRIM = (0x12, 0x34, 0x56), (0x65, 0x43, 0x21)
FACE_TOP, BACK_TOP = (0xCC, 0x33, 0x33), (0x33, 0xCC, 0x33)  # a band along each side's top edge

GAME = """\
id: mini
title: Mini Game
players: {min: 2, max: 4}
components: [deck.yaml]
"""
DECK = """\
id: deck
kind: deck
size: mini
layout: face
back: {layout: back}
fields: [label]
cards:
  - range: {field: label, from: 1, to: 36}  # turned 18-up saves a sheet on A4 (upright 16-up: 3 sheets)
"""
FACE = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#eeeeee"}
  - {id: top, type: rect, x: 0, y: 0, width: 100%, height: 15%, fill: "#cc3333"}
  - {id: trim, type: rect, x: 0, y: 0, width: 100%, height: 100%, stroke: "#123456", stroke_width: 0.2pt}
  - {id: label, type: text, x: 10%, y: 40%, width: 80%, height: 10%, text: "F{label}", font: Vera-Bold, size: 12pt, align: center}
"""
BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#333333"}
  - {id: top, type: rect, x: 0, y: 0, width: 100%, height: 15%, fill: "#33cc33"}
  - {id: trim, type: rect, x: 0, y: 0, width: 100%, height: 100%, stroke: "#654321", stroke_width: 0.2pt}
  - {id: label, type: text, x: 10%, y: 40%, width: 80%, height: 10%, text: "B{label}", font: Vera-Bold, size: 12pt, align: center, color: "#ffffff"}
"""


def make_game(root: Path) -> Path:
    folder = root / "mini"
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "deck.yaml").write_text(DECK)
    (folder / "layouts" / "face.yaml").write_text(FACE)
    (folder / "layouts" / "back.yaml").write_text(BACK)
    return folder


def build(tmp_path: Path, *flags: str) -> tuple[Path, str]:
    out = tmp_path / "out"
    result = run_cli("build", str(make_game(tmp_path)), "--out", str(out), "--quiet", *flags)
    assert result.returncode == 0, result.stderr
    return out / "mini", result.stderr


def _is(colour: object, rgb: tuple[int, int, int]) -> bool:
    return isinstance(colour, (tuple, list)) and len(colour) == 3 and all(abs(a - b / 255) < 0.01 for a, b in zip(colour, rgb, strict=True))


def rects(page: pdfplumber.page.Page, rgb: tuple[int, int, int], stroked: bool) -> list[dict]:
    key = "stroking_color" if stroked else "non_stroking_color"
    return [r for r in page.rects if (r["stroke"] if stroked else r["fill"]) and _is(r.get(key), rgb)]


def label_in(page: pdfplumber.page.Page, card: dict) -> str:
    """The text drawn inside ``card``, in its reading order however it is turned."""
    inside = [c for c in page.chars if card["x0"] <= (c["x0"] + c["x1"]) / 2 <= card["x1"] and card["top"] <= (c["top"] + c["bottom"]) / 2 <= card["bottom"]]
    a, b = inside[0]["matrix"][:2]  # the direction text runs in

    def along(c: dict) -> float:
        return a * c["matrix"][4] + b * c["matrix"][5]

    return "".join(c["text"] for c in sorted(inside, key=along))


def band_side(card: dict, bands: list[dict]) -> str:
    """Which edge of ``card`` its top band lies along: left, right, top or bottom."""
    inside = [b for b in bands if b["x0"] >= card["x0"] - 1 and b["x1"] <= card["x1"] + 1 and b["top"] >= card["top"] - 1 and b["bottom"] <= card["bottom"] + 1]
    assert len(inside) == 1, inside
    band = inside[0]
    gaps = {"left": band["x0"] - card["x0"], "right": card["x1"] - band["x1"], "top": band["top"] - card["top"], "bottom": card["bottom"] - band["bottom"]}
    tall = band["bottom"] - band["top"] > band["x1"] - band["x0"]
    sides = ("left", "right") if tall else ("top", "bottom")
    return min(sides, key=lambda s: gaps[s])


def test_mini_cards_on_a4_lie_turned_18_a_sheet_with_marks_in_line_inside_the_margin(tmp_path: Path) -> None:
    folder, stderr = build(tmp_path, "--paper", "a4", "--backs", "none")
    assert "mini / deck:" not in stderr  # auto's shared cut lines are a note in the BOM, not a warning
    notes = [entry.get("bleed_note", "") for entry in json.loads((folder / "bom.json").read_text())["components"]]
    assert sum("18-up turned 90° on A4" in note for note in notes) == 1  # the note says how the cards lie
    with pdfplumber.open(folder / "deck.pdf") as doc:
        assert len(doc.pages) == 2  # 36 cards, 18 a sheet
        page = doc.pages[0]
        cards = rects(page, FACE_TRIM, stroked=True)
        assert len(cards) == 18
        for card in cards:  # a 41 × 63 mm card in a 63 × 41 mm slot
            assert card["width"] == pytest.approx(63 * MM, abs=TOL) and card["height"] == pytest.approx(41 * MM, abs=TOL)
            assert band_side(card, rects(page, FACE_TOP, stroked=False)) == "left"  # turned anticlockwise: top to the left
        assert len({round(c["x0"], 1) for c in cards}) == 3 and len({round(c["top"], 1) for c in cards}) == 6
        cut_x = sorted({round(v, 3) for c in cards for v in (c["x0"], c["x1"])})
        cut_y = sorted({round(v, 3) for c in cards for v in (c["top"], c["bottom"])})
        art = (min(cut_x), max(cut_x), min(cut_y), max(cut_y))
        marks = [line for line in page.lines if abs(line["linewidth"] - 0.3) < 0.01]
        vertical = [m for m in marks if abs(m["x0"] - m["x1"]) < 0.01]
        horizontal = [m for m in marks if abs(m["top"] - m["bottom"]) < 0.01]
        worst = 0.0
        for x in cut_x:  # a mark above and below every vertical cut, in line with it
            hits = [m for m in vertical if abs(m["x0"] - x) < TOL]
            assert any(m["bottom"] <= art[2] for m in hits) and any(m["top"] >= art[3] for m in hits), x
            worst = max(worst, *(abs(m["x0"] - x) for m in hits))
        for y in cut_y:
            hits = [m for m in horizontal if abs(m["top"] - y) < TOL]
            assert any(m["x1"] <= art[0] for m in hits) and any(m["x0"] >= art[1] for m in hits), y
            worst = max(worst, *(abs(m["top"] - y) for m in hits))
        assert worst < TOL
        for m in marks:  # between the unprintable margin and the cards
            assert UNPRINTABLE - 0.01 <= m["x0"] and m["x1"] <= page.width - UNPRINTABLE + 0.01
            assert UNPRINTABLE - 0.01 <= m["top"] and m["bottom"] <= page.height - UNPRINTABLE + 0.01
            assert m["bottom"] <= art[2] or m["top"] >= art[3] or m["x1"] <= art[0] or m["x0"] >= art[1]
        for obj in (*page.rects, *page.chars):
            assert UNPRINTABLE - 0.01 <= obj["x0"] and obj["x1"] <= page.width - UNPRINTABLE + 0.01
            assert UNPRINTABLE - 0.01 <= obj["top"] and obj["bottom"] <= page.height - UNPRINTABLE + 0.01


# a short-edge flip turns the sheet over top to bottom: the back stands turned 180° from a long-edge one on the page
@pytest.mark.parametrize(("mode", "back_top"), [("duplex-long", "right"), ("duplex-short", "left"), ("separate", "right")])
def test_turned_backs_register_exactly_and_are_turned_to_match(tmp_path: Path, mode: str, back_top: str) -> None:
    folder, _ = build(tmp_path, "--paper", "a4", "--backs", mode)
    with pdfplumber.open(folder / "deck.pdf") as doc:
        pairs = [(0, 1)] if mode != "separate" else [(0, 2)]  # separate: both fronts pages, then both backs pages
        worst = 0.0
        for front_index, back_index in pairs:
            front, back = doc.pages[front_index], doc.pages[back_index]
            width, height = front.width, front.height
            face_cards, back_cards = rects(front, FACE_TRIM, True), rects(back, BACK_TRIM, True)
            assert len(face_cards) == len(back_cards) == 18
            backs = {label_in(back, card)[1:]: card for card in back_cards}
            for card in face_cards:
                label = label_in(front, card)
                assert label.startswith("F")
                other = backs[label[1:]]  # this card's own back
                if mode == "duplex-short":  # mirrored top to bottom
                    expected = (card["x0"], card["x1"], height - card["bottom"], height - card["top"])
                else:  # mirrored left to right
                    expected = (width - card["x1"], width - card["x0"], card["top"], card["bottom"])
                got = (other["x0"], other["x1"], other["top"], other["bottom"])
                worst = max(worst, *(abs(a - b) for a, b in zip(got, expected, strict=True)))
                assert band_side(card, rects(front, FACE_TOP, False)) == "left"
                assert band_side(other, rects(back, BACK_TOP, False)) == back_top
        assert worst / MM < 0.0005  # 0.000 mm


def test_gutterfold_turns_mini_cards_and_their_backs_alike(tmp_path: Path) -> None:
    folder, stderr = build(tmp_path, "--paper", "letter", "--backs", "gutterfold")
    assert "mini / deck:" not in stderr  # auto's shared cut lines: a note in the BOM, not a warning
    notes = [entry.get("bleed_note", "") for entry in json.loads((folder / "bom.json").read_text())["components"]]
    assert sum("8-up turned 90° on US Letter" in note for note in notes) == 1  # upright: 6 a landscape sheet
    with pdfplumber.open(folder / "deck.pdf") as doc:
        page = doc.pages[0]
        assert page.width > page.height
        face_cards, back_cards = rects(page, FACE_TRIM, True), rects(page, BACK_TRIM, True)
        assert len(face_cards) == len(back_cards) == 8
        backs = {label_in(page, card)[1:]: card for card in back_cards}
        folds = sorted({round(line["top"], 3) for line in page.lines if abs(line["linewidth"] - 0.5) < 0.01 and abs(line["top"] - line["bottom"]) < 0.01})
        assert folds
        for card in face_cards:
            other = backs[label_in(page, card)[1:]]
            fold = min(folds, key=lambda f: abs(f - (card["bottom"] + other["top"]) / 2))
            # the back is the front mirrored about its fold
            assert other["x0"] == pytest.approx(card["x0"], abs=0.0005 * MM) and other["x1"] == pytest.approx(card["x1"], abs=0.0005 * MM)
            assert other["top"] == pytest.approx(2 * fold - card["bottom"], abs=0.0005 * MM)
            assert band_side(card, rects(page, FACE_TOP, False)) == "left"
            assert band_side(other, rects(page, BACK_TOP, False)) == "left"


def test_silhouette_cut_lines_follow_turned_cards_to_a_tenth_of_a_millimetre(tmp_path: Path) -> None:
    folder, _ = build(tmp_path, "--paper", "a4", "--cut", "silhouette")
    svg = (folder / "deck-silhouette-01.svg").read_text(encoding="utf-8")
    paths = re.findall(r'<path id="piece-\d+" d="([^"]+)"', svg)
    with pdfplumber.open(folder / "deck.pdf") as doc:
        page = doc.pages[0]
        cards = rects(page, FACE_TRIM, True)
        assert len(cards) == len(paths) and cards
        for card in cards:
            assert card["width"] > card["height"]  # turned
        worst = 0.0
        outlines = []
        for d in paths:
            xs = [float(v) for v in re.findall(r"[ML] ([\d.]+) [\d.]+", d)]
            ys = [float(v) for v in re.findall(r"[ML] [\d.]+ ([\d.]+)", d)]
            outlines.append((min(xs), max(xs), min(ys), max(ys)))  # mm, y down from the top
        for card in cards:
            box = (card["x0"] / MM, card["x1"] / MM, card["top"] / MM, card["bottom"] / MM)
            best = min(outlines, key=lambda o: sum(abs(a - b) for a, b in zip(o, box, strict=True)))
            worst = max(worst, *(abs(a - b) for a, b in zip(best, box, strict=True)))
        assert worst < 0.1


def test_turning_changes_no_fingerprint_and_a_turned_reprint_registers_its_backs(tmp_path: Path) -> None:
    """Fingerprints are of the drawing, not the slot: the same deck upright (Letter, 20 a sheet) and
    turned (A4, 18 a sheet) prints the same. A reprint of every card, turned on A4, keeps each back
    exactly behind its front and turned to match."""
    game = make_game(tmp_path)
    records = {}
    for paper in ("letter", "a4"):
        out = tmp_path / paper
        result = run_cli("build", str(game), "--out", str(out), "--quiet", "--paper", paper)
        assert result.returncode == 0, result.stderr
        data = json.loads((out / "mini" / "prints" / "0001.json").read_text(encoding="utf-8"))
        records[paper] = [(row["name"], row["index"], row["count"], row["face"], row["back"]) for row in data["pieces"]]
    assert records["letter"] == records["a4"] and len(records["a4"]) >= 1
    face, back = game / "layouts" / "face.yaml", game / "layouts" / "back.yaml"
    face.write_text(face.read_text().replace("#eeeeee", "#f4f4f4"))  # every face and every back drawn anew
    back.write_text(back.read_text().replace("#333333", "#383838"))
    out = tmp_path / "a4"
    result = run_cli("build", str(game), "--out", str(out), "--quiet", "--paper", "a4", "--changed-since", "last")
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(out / "mini" / "mini-reprint.pdf") as doc:
        sheets = [(page, doc.pages[n + 1]) for n, page in enumerate(doc.pages[:-1]) if len(rects(page, FACE_TRIM, True)) == 18]
        assert sheets, "no sheet of 18 turned cards in the reprint"
        front, reverse = sheets[0]
        width = front.width
        backs = {label_in(reverse, card)[1:]: card for card in rects(reverse, BACK_TRIM, True)}
        worst = 0.0
        for card in rects(front, FACE_TRIM, True):
            assert card["width"] > card["height"] and band_side(card, rects(front, FACE_TOP, False)) == "left"
            other = backs[label_in(front, card)[1:]]
            expected = (width - card["x1"], width - card["x0"], card["top"], card["bottom"])
            worst = max(worst, *(abs(a - b) for a, b in zip((other["x0"], other["x1"], other["top"], other["bottom"]), expected, strict=True)))
            assert band_side(other, rects(reverse, BACK_TOP, False)) == "right"
        assert worst / MM < 0.0005


SIZES_UP = {  # preset: (Letter, A4) under the default policy as (columns, rows, turned)
    "poker": ((3, 3, False), (3, 3, False)),
    "bridge": ((3, 3, False), (2, 5, True)),
    "mini": ((5, 4, False), (3, 6, True)),
    "mini-euro": ((3, 5, True), (4, 4, False)),
    "tarot": ((2, 2, False), (2, 2, False)),
    "square": ((2, 3, False), (2, 4, False)),
    "square-small": ((3, 5, False), (3, 5, False)),
}


@pytest.mark.parametrize("preset", list(SIZES_UP))
def test_every_card_size_preset_gets_its_densest_grid_on_letter_and_a4(preset: str) -> None:
    """layouts/sizes.yaml's presets, planned on Letter and A4 inside the 4.23 mm margin: upright or
    turned, whichever holds more (upright on a tie); poker 9 a sheet on both."""
    from punchboard.generator.impose.grid import plan_grid

    from punchboard.plumbing.paths import LAYOUTS
    from punchboard.plumbing.units import parse_length
    from punchboard.spec.loader import load_paper
    from punchboard.spec.yamlsource import load_yaml

    size = load_yaml(LAYOUTS / "sizes.yaml").data[preset]
    width, height = parse_length(size["width"]), parse_length(size["height"])
    style = load_style()
    for paper, (cols, rows, turned) in zip(("letter", "a4"), SIZES_UP[preset], strict=True):
        grid = plan_grid(load_paper(paper), width, height, 3 * MM, "auto", style)
        assert grid is not None
        assert (grid.cols, grid.rows, grid.turned) == (cols, rows, turned), paper
        other = plan_grid(load_paper(paper), width, height, 3 * MM, "auto", style, turn=False)
        assert other is not None and other.per_page <= grid.per_page  # turning never loses pieces
        if turned:
            assert other.per_page < grid.per_page  # and is chosen only when it gains some
            assert all(slot.frame.rotation == 90 for slot in grid.slots())


def test_tarot_gutterfold_fits_letter_only_turned() -> None:
    """A tarot card and its back one above the other (2 × 120 mm) do not fit a landscape Letter
    sheet's 207 mm; turned (2 × 70 mm) two pairs do, so gutterfold no longer falls back to duplex."""
    from punchboard.generator.impose.grid import gutterfold_sheet

    from punchboard.spec.loader import load_paper

    letter, style = load_paper("letter"), load_style()
    assert gutterfold_sheet(letter, 70 * MM, 120 * MM, 3 * MM, style, "auto", turn=False) is None
    sheet = gutterfold_sheet(letter, 70 * MM, 120 * MM, 3 * MM, style, "auto")
    assert sheet is not None and sheet.turned and sheet.per_page == 2
    assert all(f.rotation == 90 for f in sheet.slots) and sheet.back_slots and all(f.rotation == 90 for f in sheet.back_slots)
