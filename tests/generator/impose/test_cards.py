"""Card sheets read back from real PDFs: page size, n-up, trim size, crop marks, backs, fonts, determinism."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from punchboard.generator.impose.bleed_notes import bleed_notes
from punchboard.generator.impose.cards import render_cards
from punchboard.generator.impose.context import BuildContext
from punchboard.generator.impose.style import load_style
from punchboard.generator.options import BuildOptions
from pypdf import PdfReader

from punchboard.cli import main
from punchboard.plumbing.paths import COMPONENTS
from punchboard.spec.loader import load_game, load_paper

MM = 72 / 25.4
TOL = 0.1 * MM  # 0.1 mm
TRIM_COLOUR = "#123456"
UNPRINTABLE = load_style().unprintable  # layouts/sheet.yaml: 4.23 mm (1/6 in)

GAME = """\
id: tiny
title: Tiny Game
players: {min: 2, max: 4}
components: [deck.yaml]
"""
DECK = """\
id: deck
kind: deck
size: poker
layout: face
back: {layout: back}
fields: [label, blurb]
cards:
  - range: {field: label, from: 1, to: 11}
"""
FACE = f"""\
elements:
  - {{id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#eeeeee"}}
  - {{id: trim, type: rect, x: 0, y: 0, width: 100%, height: 100%, stroke: "{TRIM_COLOUR}", stroke_width: 0.2pt}}
  - {{id: label, type: text, x: 10%, y: 40%, width: 80%, height: 10%, text: "F{{label}}", font: Vera-Bold, size: 12pt, align: center}}
  - {{id: blurb, type: text, box: safe, x: 0, y: 60%, width: 100%, height: 8mm, text: "{{blurb}}", size: 9pt, min_size: 8pt, when: blurb}}
"""
BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#333333"}
  - {id: label, type: text, x: 10%, y: 40%, width: 80%, height: 10%, text: "B{label}", font: Vera-Bold, size: 12pt, align: center, color: "#ffffff"}
"""


def make_game(root: Path, deck: str = DECK) -> Path:
    folder = root / "tiny"
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "deck.yaml").write_text(deck)
    (folder / "layouts" / "face.yaml").write_text(FACE)
    (folder / "layouts" / "back.yaml").write_text(BACK)
    return folder


def build(folder: Path, out: Path, *flags: str) -> Path:
    assert main(["build", str(folder), "--out", str(out), "--quiet", *flags]) == 0
    return out / "tiny" / "deck.pdf"


def trims(page: pdfplumber.page.Page) -> list[dict]:
    def is_trim(rect: dict) -> bool:
        colour = rect.get("stroking_color")
        return rect.get("stroke") and colour is not None and len(colour) == 3 and all(
            abs(a - b / 255) < 0.01 for a, b in zip(colour, (0x12, 0x34, 0x56), strict=True)
        )

    return [r for r in page.rects if is_trim(r)]


def words(page: pdfplumber.page.Page, prefix: str, turned: bool = False) -> dict[str, tuple[float, float]]:
    """Labels by number with their centres; ``turned``: the text stands upside down (read right to left, bottom up)."""
    found = {}
    for w in page.extract_words(**({"char_dir": "rtl", "line_dir": "btt"} if turned else {})):
        if re.fullmatch(prefix + r"\d+", w["text"]):
            found[w["text"][1:]] = ((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2)
    return found


@pytest.mark.parametrize(
    ("paper", "policy", "size", "grid", "turned"),
    [
        ("a4", "auto", (595.28, 841.89), (2, 4), True),  # 11 cards take 2 sheets 9-up or 8-up: the full bleed
        ("a4", "shared", (595.28, 841.89), (3, 3), False),  # a gutter would cost cards: shared cut lines
        ("a4", "squeeze", (595.28, 841.89), (3, 3), False),
        ("letter", "auto", (612.0, 792.0), (2, 3), True),  # 2 sheets 9-up or 6-up: the full bleed
        ("letter", "shared", (612.0, 792.0), (3, 3), False),  # 3 rows leave 2.1 mm for marks and bleed inside 4.23 mm
        ("letter", "gutter", (612.0, 792.0), (2, 3), True),  # upright: 2 × 2; turned 90°: 2 across, 3 down
        ("a4", "gutter", (595.28, 841.89), (2, 4), True),  # upright: 2 × 2; turned 90°: 2 across, 4 down
    ],
)
def test_poker_sheets_have_exact_page_and_trim_size_inside_the_unprintable_margin(
    tmp_path: Path, paper: str, policy: str, size: tuple[float, float], grid: tuple[int, int], turned: bool
) -> None:
    pdf = build(make_game(tmp_path), tmp_path / "out", "--paper", paper, "--backs", "none", "--bleed-policy", policy)
    cols, rows = grid
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == -(-11 // (cols * rows))  # 11 cards
        page = doc.pages[0]
        assert page.width == pytest.approx(size[0], abs=0.01)
        assert page.height == pytest.approx(size[1], abs=0.01)
        cards = trims(page)
        assert len(cards) == cols * rows
        assert len({round(r["x0"]) for r in cards}) == cols and len({round(r["top"]) for r in cards}) == rows
        across, down = (88.9, 63.5) if turned else (63.5, 88.9)
        for r in cards:
            assert r["width"] == pytest.approx(across * MM, abs=TOL)
            assert r["height"] == pytest.approx(down * MM, abs=TOL)
        margin = UNPRINTABLE
        for obj in page.lines + page.rects:  # crop marks and art alike
            assert margin - TOL <= obj["x0"] and obj["x1"] <= page.width - margin + TOL
            assert margin - TOL <= obj["top"] and obj["bottom"] <= page.height - margin + TOL


@pytest.mark.parametrize(("paper", "packing"), [("a4", "spaced"), ("a4", "touching"), ("letter", "touching")])
def test_crop_marks_line_up_with_every_cut_and_stay_off_the_art(tmp_path: Path, paper: str, packing: str) -> None:
    pdf = build(make_game(tmp_path), tmp_path / "out", "--paper", paper, "--backs", "none", "--packing", packing)
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        cards = trims(page)
        cut_x = sorted({v for r in cards for v in (r["x0"], r["x1"])})
        cut_y = sorted({v for r in cards for v in (r["top"], r["bottom"])})
        art = (min(r["x0"] for r in cards), max(r["x1"] for r in cards), min(r["top"] for r in cards), max(r["bottom"] for r in cards))
        marks = [line for line in page.lines if abs(line["linewidth"] - 0.3) < 0.01]  # crop marks, not scale bars
        vertical = [m for m in marks if abs(m["x0"] - m["x1"]) < 0.01]
        horizontal = [m for m in marks if abs(m["top"] - m["bottom"]) < 0.01]
        assert vertical and horizontal
        for m in vertical:
            assert min(abs(m["x0"] - x) for x in cut_x) < TOL
            assert m["bottom"] <= art[2] or m["top"] >= art[3]  # above or below the card grid
        for m in horizontal:
            assert min(abs(m["top"] - y) for y in cut_y) < TOL
            assert m["x1"] <= art[0] or m["x0"] >= art[1]
        for x in cut_x:  # every cut has a mark above and below
            hits = [m for m in vertical if abs(m["x0"] - x) < TOL]
            assert any(m["bottom"] <= art[2] for m in hits) and any(m["top"] >= art[3] for m in hits)
        for y in cut_y:
            hits = [m for m in horizontal if abs(m["top"] - y) < TOL]
            assert any(m["x1"] <= art[0] for m in hits) and any(m["x0"] >= art[1] for m in hits)
        if packing == "touching":
            assert len({round(x, 2) for x in cut_x}) == 4 and len({round(y, 2) for y in cut_y}) == 4  # shared cuts
        for m in marks:  # between the unprintable margin and the cards (Letter: 2.1 mm above and below)
            assert UNPRINTABLE - 0.01 <= m["top"] and m["bottom"] <= page.height - UNPRINTABLE + 0.01
            assert UNPRINTABLE - 0.01 <= m["x0"] and m["x1"] <= page.width - UNPRINTABLE + 0.01


@pytest.mark.parametrize("mode", ["duplex-long", "duplex-short"])
def test_backs_are_mirrored_for_the_flip(tmp_path: Path, mode: str) -> None:
    # shared cut lines: 9 upright cards a sheet, their labels reading across
    pdf = build(make_game(tmp_path), tmp_path / "out", "--paper", "letter", "--backs", mode, "--bleed-policy", "shared")
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 4  # fronts, backs, fronts, backs
        for front_page, back_page in ((doc.pages[0], doc.pages[1]), (doc.pages[2], doc.pages[3])):
            fronts, backs = words(front_page, "F"), words(back_page, "B", turned=mode == "duplex-short")
            assert fronts and fronts.keys() == backs.keys()
            width, height = front_page.width, front_page.height
            cards = trims(front_page)
            for label, (fx, fy) in fronts.items():
                card = next(r for r in cards if r["x0"] < fx < r["x1"] and r["top"] < fy < r["bottom"])
                cx = (card["x0"] + card["x1"]) / 2
                bx, by = backs[label]
                # the card moves to its mirror image across the page; its back is drawn upright for a long-edge flip,
                # turned 180° for a short-edge one (the sheet turned over top to bottom: the same back, the same way up
                # on the cut card; tests/generator/impose/test_duplex_short.py)
                if mode == "duplex-long":
                    assert bx == pytest.approx(width - cx + (fx - cx), abs=TOL) and by == pytest.approx(fy, abs=TOL)
                else:
                    assert bx == pytest.approx(cx - (fx - cx), abs=TOL) and by == pytest.approx(height - fy, abs=TOL)


def test_duplex_offset_shifts_back_pages_only(tmp_path: Path) -> None:
    folder = make_game(tmp_path)
    plain = build(folder, tmp_path / "a", "--paper", "a4")
    shifted = build(folder, tmp_path / "b", "--paper", "a4", "--duplex-offset", "2,-1")
    with pdfplumber.open(plain) as a, pdfplumber.open(shifted) as b:
        assert words(a.pages[0], "F") == words(b.pages[0], "F")
        before, after = words(a.pages[1], "B"), words(b.pages[1], "B")
        for label, (x, y) in before.items():
            assert after[label][0] == pytest.approx(x + 2 * MM, abs=TOL)
            assert after[label][1] == pytest.approx(y + 1 * MM, abs=TOL)  # Y −1 mm: down, pdfplumber's top grows down
    assert (tmp_path / "b" / "tiny" / "duplex-calibration.pdf").is_file()


def test_gutterfold_puts_turned_backs_below_their_fronts(tmp_path: Path) -> None:
    pdf = build(make_game(tmp_path), tmp_path / "out", "--paper", "letter", "--backs", "gutterfold")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        assert page.width > page.height  # landscape
        fronts = words(page, "F")
        backs_chars = [c for c in page.chars if c["matrix"][0] < 0]  # drawn turned 180°
        assert backs_chars and fronts
        fold = page.height / 2
        assert all(y < fold + 30 for _, y in fronts.values())
        assert all(c["top"] > min(y for _, y in fronts.values()) for c in backs_chars)
        assert len(doc.pages) == 3  # 11 cards, 4 a landscape Letter page


def test_print_shop_is_one_card_per_page_with_trim_and_bleed_boxes(tmp_path: Path) -> None:
    """The 1/8 in bleed print services ask for (layouts/print_shops.yaml), whatever the layouts declare."""
    pdf = build(make_game(tmp_path), tmp_path / "out", "--print-shop")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 22  # front and back of 11 cards
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx((63.5 + 6.35) * MM, abs=TOL)
    assert float(page.trimbox.width) == pytest.approx(63.5 * MM, abs=TOL)
    assert float(page.trimbox.left) == pytest.approx(3.175 * MM, abs=TOL)
    assert float(page.bleedbox.width) == pytest.approx((63.5 + 6.35) * MM, abs=TOL)
    with pdfplumber.open(pdf) as doc:
        assert not doc.pages[0].lines  # no marks
        assert words(doc.pages[0], "F") and words(doc.pages[1], "B")


def fonts_of(pdf: Path) -> list[tuple[str, bool]]:
    found = []
    for page in PdfReader(pdf).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            embedded = descriptor is not None and any(k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.append((str(font["/BaseFont"]), embedded))
    return found


def test_every_font_is_embedded_viewer_does_not_scale_and_rebuilds_are_identical(tmp_path: Path) -> None:
    folder = make_game(tmp_path)
    first = build(folder, tmp_path / "one", "--paper", "a4")
    second = build(folder, tmp_path / "two", "--paper", "a4")
    for name in ("deck.pdf", "tiny-print-and-play.pdf", "duplex-calibration.pdf"):
        a, b = (tmp_path / d / "tiny" / name for d in ("one", "two"))
        assert a.read_bytes() == b.read_bytes(), name
        fonts = fonts_of(a)
        assert fonts and all(embedded for _, embedded in fonts), fonts
        assert not any("Helvetica" in font for font, _ in fonts)
    reader = PdfReader(first)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    combined = PdfReader(tmp_path / "one" / "tiny" / "tiny-print-and-play.pdf")
    cover = combined.pages[0].extract_text()
    assert "Contents" in cover and "Printing" in cover and "100 %" in cover
    footer = PdfReader(second).pages[0].extract_text()
    assert "Tiny Game" in footer and "page 1/4" in footer and "50mm" in footer


def test_text_that_cannot_fit_warns_naming_game_component_and_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = DECK + "  - {name: Wordy, label: 99, blurb: " + "many words that will never fit " * 20 + "}\n"
    pdf = build(make_game(tmp_path, deck), tmp_path / "out", "--backs", "none")
    err = capsys.readouterr().err
    assert re.search(r"tiny / deck / card 'Wordy'.*does not fit.*face\.yaml:\d+", err)
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[-1]  # the 12th card is the last
        words = [c for c in page.chars if c["text"] in "manywordsthatwillneverfit" and c["top"] < page.height - 20 * MM]
        assert words
        card = next(r for r in trims(page) if r["x0"] <= words[0]["x0"] <= r["x1"] and r["top"] <= words[0]["top"] <= r["bottom"])
        safe = 3 * MM  # the blurb's box: the safe area, 60 % down, 8 mm tall
        top = card["top"] + safe + 0.6 * (card["height"] - 2 * safe)
        words = [c for c in words if c["fontname"].endswith("Vera") and c["size"] < 10]  # the blurb, not label or footer
        for c in words:  # kept inside its box: not past the card, not down over the rest of the layout
            assert card["x0"] + safe - 0.5 <= c["x0"] and c["x1"] <= card["x1"] - safe + 0.5
            assert top - 0.5 <= c["top"] and c["bottom"] <= top + 8 * MM + 0.5


def test_a_card_larger_than_the_paper_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_game(tmp_path, DECK.replace("size: poker", "size: {width: 300mm, height: 100mm}"))
    assert main(["build", str(folder), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    assert re.search(r"deck\.yaml:3:7: .*does not fit on US Letter", capsys.readouterr().err)


@pytest.mark.parametrize(("paper", "rows"), [("letter", 3), ("a4", 3)])
def test_steam_court_gear_deck_is_planned_as_poker_sheets_3_wide(paper: str, rows: int) -> None:
    # Plans the pages without drawing them (the full game build is exercised by the benchmark).
    game = load_game(COMPONENTS / "steam_court")
    options = BuildOptions(paper=paper)
    ctx = BuildContext(game, load_paper(paper), options, load_style())
    pages = render_cards(ctx, game, game.component("gear_deck"), options)
    per_page = 3 * rows
    assert len(pages) == 2 * -(-168 // per_page)  # 168 cards, each sheet followed by its backs
    assert [p.role for p in pages[:2]] == ["front", "back"]
    slots = pages[0].meta["slots"]
    assert len(slots) == per_page and len({round(s.x, 3) for s in slots}) == 3
    assert all(abs(s.width - 63.5 * MM) < TOL and abs(s.height - 88.9 * MM) < TOL for s in slots)
    margin = UNPRINTABLE
    assert all(margin <= s.x and s.right <= pages[0].width - margin and margin <= s.y and s.top <= pages[0].height - margin for s in slots)
    assert not any("gear_deck: bleed" in w for w in ctx.warnings)  # auto's choice is not a warning but a note
    assert "cards share cut lines" in bleed_notes(game, options)["gear_deck"]
