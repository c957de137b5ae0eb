"""``trim_edge``: a filled shape or picture that stops exactly at the trim of a piece with bleed, on a realistic
card — a parchment background to the bleed, a title band, art, a rules panel, each card its own name and text.
The finding is checked against the drawing itself: the print-shop PDF (trim + bleed on each page), rendered,
shows the background beyond the band's edge where the check fires, and the band's own colour where it does not."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image
from punchboard.generator.preflight.findings import code_of
from punchboard.generator.preflight.standalone import preflight_game

from punchboard.spec.loader import load_game
from tests.conftest import run_cli

BAND = '{id: band, type: rect, box: trim, x: 0, y: 0, width: 100%, height: 12mm, fill: "#7a1f1f"}'
INTO_BLEED = '{id: band, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 15mm, fill: "#7a1f1f"}'
ART = "{id: art, type: image, src: art.png, box: trim, x: 0, y: 14mm, width: 100%, height: 30mm, fit: cover}"
ART_INSIDE = "{id: art, type: image, src: art.png, box: safe, x: 0, y: 14mm, width: 100%, height: 30mm, fit: cover}"
LAYOUT = """\
safe: 3.5mm
elements:
  - {{id: parchment, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "{background}"}}
  - {band}
  - {{id: title, type: text, box: safe, x: 0, y: 1.5mm, width: 100%, height: 7mm, text: "{{name}}", size: 12pt, color: "#ffffff", align: center}}
  - {art}
  - {{id: panel, type: rect, box: safe, x: 0, y: 48mm, width: 100%, height: 33mm, fill: "#ffffff", radius: 1.5mm}}
  - {{id: rules, type: text, box: safe, x: 2mm, y: 50mm, width: 51mm, height: 29mm, text: "{{text}}", size: 9pt}}
"""
NAMES = ["Archivist", "Bellows", "Cog Knight", "Drover", "Engineer", "Forger", "Gauge", "Hoister", "Ironmonger", "Jobber"]


def _deck(folder: Path, band: str = BAND, art: str = ART, background: str = "#efe3c2") -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "card.yaml").write_text(LAYOUT.format(band=band, art=art, background=background), encoding="utf-8")
    Image.new("RGB", (900, 500), (40, 90, 140)).save(folder / "art.png")  # 900 px over 63.5 mm: above 300 dpi
    cards = "\n".join(f'  - {{name: "{name}", text: "When you play the {name}, draw {n + 1} cards."}}' for n, name in enumerate(NAMES))
    (folder / "game.yaml").write_text("id: trims\ntitle: Trims\nplayers: {min: 2, max: 4}\ncomponents: [deck.yaml]\n", encoding="utf-8")
    (folder / "deck.yaml").write_text(f"id: deck\nkind: deck\nsize: poker\nlayout: card\nfields: [text]\ncards:\n{cards}\n", encoding="utf-8")
    return folder


def _found(folder: Path) -> list[str]:
    return [w for w in preflight_game(load_game(folder)) if code_of(w)]


def _pixel(pdf: Path, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    """The colour at (x, y) mm from the page's top-left corner of the first page, rendered at 300 dpi."""
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=300 / 72).to_pil().convert("RGB")
    return image.getpixel((round(x_mm / 25.4 * 300), round(y_mm / 25.4 * 300)))  # type: ignore[return-value]


def test_a_band_and_a_picture_drawn_to_the_trim_are_each_one_finding_for_the_deck(tmp_path: Path):
    folder = _deck(tmp_path / "g")
    result = run_cli("check", str(folder))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if ": preflight " in line]
    assert len(lines) == 2, result.stderr  # the band and the art; nothing else on this card is a finding
    band, art = sorted(lines)
    assert band.startswith("warning: trims / deck / card 'Archivist' and 9 more: preflight trim_edge: filled rect of "
                           "element 'band' stops at the trim on its left and right and top edges while the piece has "
                           "3.0 mm of bleed"), band
    assert re.search(r"\[.*layouts/card\.yaml:4:5\]$", band), band
    assert "picture of element 'art' stops at the trim on its left and right edges" in art, art


@pytest.mark.parametrize("band, art, background", [
    (INTO_BLEED, ART_INSIDE, "#efe3c2"),  # drawn into the bleed; the art inside the safe area
    (BAND, ART_INSIDE, "#7a1f1f"),  # a band over a background of its own colour: no other colour beyond it
])
def test_art_into_the_bleed_or_carried_on_by_its_own_colour_is_fine(tmp_path: Path, band: str, art: str, background: str):
    assert _found(_deck(tmp_path / "g", band, art, background)) == []


def test_the_finding_is_what_the_print_shows_beyond_the_trim(tmp_path: Path):
    """Read back from the print-shop PDF (page = trim + 1/8 in bleed): past the trim above the band lies the
    parchment when the band stops at the trim (the finding), and the band's red when it runs into the bleed."""
    flawed, fixed = _deck(tmp_path / "flawed"), _deck(tmp_path / "fixed", INTO_BLEED, ART_INSIDE)
    for folder in (flawed, fixed):
        result = run_cli("build", str(folder), "--out", str(tmp_path / f"{folder.name}-out"), "--print-shop", "--jobs", "1", "--quiet")
        assert result.returncode == 0, result.stderr
    beyond, inside = (31.75 + 3, 2.0), (31.75 + 3, 4.0)  # the card's middle: 1.2 mm above the trim, 0.8 mm below it
    red, parchment = (0x7a, 0x1f, 0x1f), (0xef, 0xe3, 0xc2)
    near = lambda a, b: max(abs(p - q) for p, q in zip(a, b, strict=True)) <= 3  # noqa: E731
    assert near(_pixel(tmp_path / "flawed-out" / "trims" / "deck.pdf", *inside), red)
    assert near(_pixel(tmp_path / "flawed-out" / "trims" / "deck.pdf", *beyond), parchment)  # the sliver a drift prints
    assert near(_pixel(tmp_path / "fixed-out" / "trims" / "deck.pdf", *beyond), red)
    found = _found(flawed)  # one per element on each of the ten cards (folded to one line each when printed)
    assert {code_of(w) for w in found} == {"trim_edge"} and len(found) == 20, found
    assert _found(fixed) == []
