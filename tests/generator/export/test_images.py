"""``punchboard images``: a PNG per piece side, rasterised from the PDF drawing, at exact pixel sizes."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image
from punchboard.generator.export.images import pixel_size, rasterise

from punchboard.cli import main

GAME = """\
id: tiny
title: Tiny Game
players: {min: 2, max: 4}
components: [deck.yaml, tokens.yaml]
"""
DECK = """\
id: deck
kind: deck
size: poker
layout: face
back: {layout: back}
fields: [label]
cards:
  - {name: Brass Owl, label: A, count: 2}
  - {name: "Cog & Spring", label: B}
"""
TOKENS = """\
id: tokens
kind: tokens
shape: circle
size: 20mm
layout: token
fields: [label]
tokens:
  - {label: T, count: 3}
"""
FACE = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#2a6f3e"}
  - {id: label, type: text, x: 10%, y: 40%, width: 80%, height: 20%, text: "{name} {label}", font: Vera-Bold, size: 14pt, align: center, color: "#ffffff"}
"""
BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#333333"}
"""
TOKEN = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#c03020"}
"""


def make_game(root: Path) -> Path:
    folder = root / "tiny"
    (folder / "layouts").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("deck.yaml", DECK), ("tokens.yaml", TOKENS)):
        (folder / name).write_text(text)
    for name, text in (("face", FACE), ("back", BACK), ("token", TOKEN)):
        (folder / "layouts" / f"{name}.yaml").write_text(text)
    return folder


def images(game: Path, out: Path, *flags: str) -> Path:
    assert main(["images", str(game), "--out", str(out), *flags]) == 0
    return out / "tiny" / "images"


def test_poker_card_at_300_dpi_with_eighth_inch_bleed_is_825_by_1125(tmp_path: Path) -> None:
    folder = images(make_game(tmp_path), tmp_path / "out")
    names = sorted(p.name for p in (folder / "deck").iterdir())
    assert names == [
        "001-brass-owl-back.png", "001-brass-owl-front.png",
        "002-brass-owl-back.png", "002-brass-owl-front.png",
        "003-cog-spring-back.png", "003-cog-spring-front.png",
    ]
    for name in names:
        with Image.open(folder / "deck" / name) as image:
            assert image.size == (825, 1125)
            assert image.mode == "RGB"
    # A 20 mm token with 1/8 in bleed each side: round((20 mm + 0.25 in) · 300 / 72) px, transparent corners.
    side = round((20 / 25.4 + 0.25) * 300)
    with Image.open(folder / "tokens" / "001-front.png") as token:
        assert token.size == (side, side)
        assert token.mode == "RGBA"
        assert token.getpixel((0, 0))[3] == 0
        assert token.getpixel((side // 2, side // 2)) == (0xC0, 0x30, 0x20, 255)
    assert not (folder / "tokens" / "001-back.png").exists()


def test_dpi_and_bleed_set_the_pixel_size(tmp_path: Path) -> None:
    folder = images(make_game(tmp_path), tmp_path / "out", "--dpi", "100", "--bleed", "3mm")
    expected = pixel_size(180 + 2 * 3 * 72 / 25.4, 252 + 2 * 3 * 72 / 25.4, 100)
    assert expected == (274, 374)  # (2.5 in + 6 mm) · 100, (3.5 in + 6 mm) · 100
    with Image.open(folder / "deck" / "003-cog-spring-front.png") as image:
        assert image.size == expected


def test_png_matches_the_print_shop_pdf_pixel_for_pixel(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    folder = images(game, tmp_path / "png", "--dpi", "72", "--bleed", "3mm")
    assert main(["build", str(game), "--out", str(tmp_path / "pdf"), "--print-shop", "--bleed", "3mm", "--quiet"]) == 0
    pdf = (tmp_path / "pdf" / "tiny" / "deck.pdf").read_bytes()
    with Image.open(folder / "deck" / "003-cog-spring-front.png") as png:
        # print-shop pages alternate front, back: the third card's front is page 5
        pages = list(rasterise(pdf, [png.size] * 5))
        assert pages[4].tobytes() == png.convert("RGB").tobytes()
        assert pages[0].tobytes() != png.convert("RGB").tobytes()
    with Image.open(folder / "deck" / "003-cog-spring-back.png") as back:
        assert pages[3].tobytes() == back.tobytes()


def test_output_is_byte_identical_across_runs(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    first = images(game, tmp_path / "a", "--dpi", "40")
    second = images(game, tmp_path / "b", "--dpi", "40")
    files = sorted(p.relative_to(first) for p in first.rglob("*.png"))
    assert len(files) == 9
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_unique_writes_one_image_per_distinct_piece_and_counts_them(tmp_path: Path) -> None:
    folder = images(make_game(tmp_path), tmp_path / "out", "--dpi", "40", "--unique")
    # the common back is one image standing for all three cards, not one identical back per card
    assert sorted(p.name for p in (folder / "deck").iterdir()) == [
        "001-brass-owl-back.png", "001-brass-owl-front.png", "003-cog-spring-front.png",
    ]
    manifest = json.loads((folder / "manifest.json").read_text())
    fronts = {row["file"]: row["count"] for row in manifest["images"] if row["side"] == "front"}
    assert fronts == {"deck/001-brass-owl-front.png": 2, "deck/003-cog-spring-front.png": 1, "tokens/001-front.png": 3}
    backs = {row["file"]: row["count"] for row in manifest["images"] if row["side"] == "back"}
    assert backs == {"deck/001-brass-owl-back.png": 3}


def test_unique_keeps_backs_apart_when_the_back_shows_a_field(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    (game / "layouts" / "back.yaml").write_text(BACK + '  - {id: tag, type: text, x: 10%, y: 40%, width: 80%, height: 20%, text: "{label}"}\n')
    folder = images(game, tmp_path / "out", "--dpi", "40", "--unique")
    manifest = json.loads((folder / "manifest.json").read_text())
    backs = {row["file"]: row["count"] for row in manifest["images"] if row["side"] == "back"}
    assert backs == {"deck/001-brass-owl-back.png": 2, "deck/003-cog-spring-back.png": 1}
    first, second = (Image.open(folder / name) for name in backs)
    assert first.tobytes() != second.tobytes()


def test_bad_bleed_and_unknown_game_exit_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    game = make_game(tmp_path)
    assert main(["images", str(game), "--bleed", "3parsec", "--out", str(tmp_path)]) == 2
    assert "punchboard images: --bleed: unknown unit 'parsec'" in capsys.readouterr().err
    assert main(["images", str(tmp_path / "missing"), "--out", str(tmp_path)]) == 2
    assert "no game" in capsys.readouterr().err
