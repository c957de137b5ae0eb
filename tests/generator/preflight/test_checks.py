"""Each preflight check on small real games, run in-process through the check's draw pass (standalone.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image
from punchboard.generator.preflight.findings import code_of, summarise
from punchboard.generator.preflight.standalone import preflight_game

from punchboard.spec.loader import load_game

from .flawed_game import FLAWS, write_game


def _codes(warnings: list[str]) -> list[str]:
    return sorted({code for w in warnings if (code := code_of(w))})


@pytest.mark.parametrize("code", sorted(FLAWS))
def test_fixing_one_flaw_removes_exactly_its_finding(tmp_path: Path, code: str):
    game = load_game(write_game(tmp_path / "g", fixed=(code,)))
    assert _codes(preflight_game(game)) == sorted(set(FLAWS) - {code})


def _game(folder: Path, elements: list[str], cards: str = "  - {name: Solo}", fields: str = "[]", safe: str = "3mm") -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "one.yaml").write_text(f"safe: {safe}\nelements:\n" + "\n".join(f"  - {e}" for e in elements) + "\n", encoding="utf-8")
    (folder / "game.yaml").write_text("id: one\ntitle: One\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n", encoding="utf-8")
    (folder / "deck.yaml").write_text(f"id: deck\nkind: deck\nsize: poker\nlayout: one\nfields: {fields}\ncards:\n{cards}\n", encoding="utf-8")
    return folder


def _run(folder: Path) -> list[str]:
    return [w for w in preflight_game(load_game(folder)) if code_of(w)]


def test_an_image_between_150_and_300_dpi_is_reported_less_loudly(tmp_path: Path):
    folder = _game(tmp_path / "g", ["{id: art, type: image, src: art.png, x: 10mm, y: 10mm, width: 25.4mm, height: 25.4mm}"])
    Image.new("RGB", (200, 200), (10, 10, 10)).save(folder / "art.png")
    (found,) = _run(folder)
    assert "prints at 200 dpi" in found and "below the 300 dpi print shops ask for" in found and "blurry" not in found
    Image.new("RGB", (300, 300), (10, 10, 10)).save(folder / "art.png")
    assert _run(folder) == []


def test_a_cover_picture_counts_the_pixels_it_shows(tmp_path: Path):
    """fit: cover enlarges a 2:1 picture to fill a square box: its height sets the dpi."""
    folder = _game(tmp_path / "g", ["{id: bg, type: image, src: wide.png, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fit: cover}"])
    Image.new("RGB", (4000, 1000), (10, 10, 10)).save(folder / "wide.png")  # 1000 px over the bleed's 94.9 mm height
    (found,) = _run(folder)
    assert re.search(r"prints at 26\d dpi", found), found


def test_text_and_icons_outside_the_safe_zone_but_not_the_frame_or_a_bleeding_background(tmp_path: Path):
    folder = _game(tmp_path / "g", [
        "{id: bg, type: image, src: bg.png, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fit: stretch}",
        "{id: frame, type: icon, icon: frame, box: trim, x: 1mm, y: 1mm, width: 61.5mm, height: 86.9mm}",
        "{id: title, type: text, box: trim, x: 1mm, y: 10mm, width: 40mm, height: 8mm, text: Title, size: 10pt}",
        "{id: inner, type: text, box: safe, x: 0, y: 20mm, width: 40mm, height: 8mm, text: Safe, size: 10pt}",
        "{id: star, type: icon, icon: star, box: trim, x: 55mm, y: 40mm, width: 10mm, height: 10mm}",
        "{id: spot, type: image, src: bg.png, box: trim, x: 2mm, y: 60mm, width: 10mm, height: 10mm, fit: stretch}",
    ])
    Image.new("RGB", (2000, 2000), (255, 255, 255)).save(folder / "bg.png")
    found = {re.search(r"element '(\w+)'", w).group(1): w for w in _run(folder)}  # type: ignore[union-attr]
    assert sorted(found) == ["spot", "star", "title"]
    assert "comes within 1.0 mm of the trim, inside the 3.0 mm safe margin" in found["title"]
    assert "runs 1.5 mm past the trim into the bleed" in found["star"]


def test_contrast_reads_the_pixels_of_a_picture_under_the_text(tmp_path: Path):
    elements = [
        "{id: art, type: image, src: art.png, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fit: stretch}",
        '{id: words, type: text, x: 10mm, y: 10mm, width: 40mm, height: 10mm, text: "White words", size: 10pt, color: "#ffffff"}',
    ]
    folder = _game(tmp_path / "g", elements)
    Image.new("RGB", (900, 1200), (20, 20, 60)).save(folder / "art.png")  # dark: fine
    assert _run(folder) == []
    Image.new("RGB", (900, 1200), (230, 230, 200)).save(folder / "art.png")  # pale: not
    (found,) = _run(folder)
    assert "low_contrast" in found and "#ffffff on #e6e6c8" in found


def test_contrast_counts_the_opacity_of_what_lies_under(tmp_path: Path):
    folder = _game(tmp_path / "g", [
        '{id: panel, type: rect, x: 5mm, y: 5mm, width: 50mm, height: 20mm, fill: "#000000", opacity: 0.1}',
        '{id: words, type: text, x: 10mm, y: 10mm, width: 40mm, height: 10mm, text: "Pale words", size: 10pt, color: "#ffffff"}',
    ])
    (found,) = _run(folder)
    assert "#ffffff on #e6e6e6" in found  # 10 % black over white paper
    layout = folder / "layouts" / "one.yaml"
    layout.write_text(layout.read_text().replace("opacity: 0.1", "opacity: 1"), encoding="utf-8")
    assert _run(folder) == []


def test_large_text_needs_three_to_one(tmp_path: Path):
    text = '{id: big, type: text, x: 5mm, y: 10mm, width: 55mm, height: 20mm, text: "Big", size: SIZE, color: "#2ca02c"}'  # 3.4:1 on white
    assert [code_of(w) for w in _run(_game(tmp_path / "a", [text.replace("SIZE", "12pt")]))] == ["low_contrast"]
    assert _run(_game(tmp_path / "b", [text.replace("SIZE", "20pt")])) == []


def test_grayscale_pairs_and_a_symbol_that_tells_them_apart(tmp_path: Path):
    # blue and red of equal lightness: told apart by anyone in colour, not on a grey print
    cards = '  - {name: Blue, suit: "#3c64c8"}\n  - {name: Red, suit: "#c8463c"}'
    disc = '{id: disc, type: ellipse, x: 20mm, y: 30mm, width: 20mm, height: 20mm, fill: "{suit}"}'
    found = _run(_game(tmp_path / "a", [disc], cards, "[suit]"))
    assert [code_of(w) for w in found] == ["grayscale"], found
    assert "the cards' suit is shown only by colour ('disc' fill)" in found[0] and "#3c64c8 and #c8463c (" in found[0]
    named = _run(_game(tmp_path / "b", [disc, '{id: label, type: text, x: 20mm, y: 55mm, width: 30mm, height: 8mm, text: "{name}"}'], cards, "[suit]"))
    assert named == []  # the name printed on each tells them apart


def test_pieces_alike_in_colour_pairs_are_one_finding(tmp_path: Path):
    cards = "\n".join(f'  - {{name: "R{n}", n: {n}, suit: "#d62728"}}\n  - {{name: "G{n}", n: {n}, suit: "#2ca02c"}}' for n in range(1, 6))
    text = '{id: n, type: text, x: 10mm, y: 10mm, width: 30mm, height: 20mm, text: "{n}", size: 30pt, color: "{suit}"}'
    found = _run(_game(tmp_path / "g", [text], cards, "[n, suit]"))
    assert [code_of(w) for w in found] == ["colour_blind"], found
    assert found[0].startswith("one / deck: preflight colour_blind: the cards' suit is shown only by colour ('n' color)")
    assert found[0].count("#d62728 and #2ca02c") == 1  # the pair named once


def test_summarise_folds_pieces_that_share_a_finding():
    lines = [
        "g / deck / card 'A': preflight small_text: text of element 'x' is set at 5 pt [l.yaml:1:1]",
        "g / deck: a component warning",
        "g / deck / card 'B': preflight small_text: text of element 'x' is set at 5 pt [l.yaml:1:1]",
        "g / deck / card #3: preflight small_text: text of element 'x' is set at 5 pt [l.yaml:1:1]",
        "g / deck / card 'B': preflight small_text: text of element 'y' is set at 5 pt [l.yaml:2:1]",
    ]
    assert summarise(lines) == [
        "g / deck / card 'A' and 2 more: preflight small_text: text of element 'x' is set at 5 pt [l.yaml:1:1]",
        "g / deck: a component warning",
        "g / deck / card 'B': preflight small_text: text of element 'y' is set at 5 pt [l.yaml:2:1]",
    ]
