"""Raster art on cards: PNGs embedded as they are, named by content, drawn where the layout says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2
from PIL import Image

from tests.conftest import run_cli

LAYOUT = """\
bleed: 0.125in
elements:
  - {id: art, type: image, box: bleed, x: 0, y: 0, width: 100%, height: 100%, src: "art/{art}.png", fit: stretch}
"""


def _game(folder: Path) -> Path:
    (folder / "art").mkdir(parents=True)
    (folder / "layouts").mkdir()
    colours = {"red": (200, 30, 40), "teal": (20, 140, 130)}
    for name, rgb in colours.items():
        Image.new("RGB", (825, 1125), rgb).save(folder / "art" / f"{name}.png")
    # with an alpha channel: cannot pass through, reportlab decodes it
    Image.new("RGBA", (825, 1125), (250, 200, 0, 255)).save(folder / "art" / "gold.png")
    (folder / "layouts" / "art_card.yaml").write_text(LAYOUT)
    (folder / "game.yaml").write_text(
        "id: art_deck\ntitle: Art deck\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n"
    )
    (folder / "deck.yaml").write_text(
        "id: deck\nkind: deck\nsize: poker\nlayout: art_card\nback: none\nfields: [art]\n"
        "cards:\n  - {name: Red, art: red}\n  - {name: Teal, art: teal}\n  - {name: Gold, art: gold}\n"
    )
    return folder


def _colours_on_the_first_page(pdf: Path) -> set[tuple[int, int, int]]:
    """Every colour on the first sheet (three cards fit one sheet, in one row or two, as the bleed policy plans)."""
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=1.0).to_pil().convert("RGB")
    return {colour for _, colour in image.getcolors(maxcolors=image.width * image.height)}


def test_png_art_is_drawn_with_its_own_colours(tmp_path: Path):
    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--backs", "none")
    assert result.returncode == 0, result.stderr
    colours = _colours_on_the_first_page(out / "art_deck" / "deck.pdf")
    expected = [(200, 30, 40), (20, 140, 130), (250, 200, 0)]
    for want in expected:
        assert any(max(abs(a - b) for a, b in zip(want, got, strict=True)) <= 2 for got in colours), (want, colours)


def test_pdf_does_not_depend_on_where_the_game_folder_lives(tmp_path: Path):
    first = _game(tmp_path / "here")
    second = tmp_path / "somewhere" / "else"
    shutil.copytree(first, second)
    for folder, out in ((first, tmp_path / "out1"), (second, tmp_path / "out2")):
        result = run_cli("build", str(folder), "--out", str(out), "--backs", "none")
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "out1" / "art_deck" / "deck.pdf").read_bytes() == (tmp_path / "out2" / "art_deck" / "deck.pdf").read_bytes()


def test_png_data_is_embedded_without_recompression(tmp_path: Path):
    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--backs", "none").returncode == 0
    data = (out / "art_deck" / "deck.pdf").read_bytes()
    assert data.count(b"/Predictor 15") == 2  # red and teal pass through; gold has alpha and is decoded
