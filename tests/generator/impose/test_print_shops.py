"""Print-shop presets (layouts/print_shops.yaml) through `punchboard build --print-shop / --shop`, read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from punchboard.generator.impose.print_shops import load_print_shops
from pypdf import PdfReader

from punchboard.cli import main
from punchboard.plumbing.errors import SpecError

DECK = """\
id: deck
kind: deck
size: poker
layout: face
back: {layout: back}
fields: [label]
cards:
  - range: {field: label, from: 1, to: 3}
"""
FACE = """\
elements:
  - {id: label, type: text, x: 0, y: 40%, width: 100%, height: 20%, text: "F{label}", font: Vera-Bold, size: 20pt, align: center}
"""
BACK = FACE.replace('"F{label}"', '"B{label}"')


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "cardy"
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text("id: cardy\ntitle: Cardy\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n")
    (folder / "deck.yaml").write_text(DECK)
    (folder / "layouts" / "face.yaml").write_text(FACE)
    (folder / "layouts" / "back.yaml").write_text(BACK)
    return folder


def labels(pdf: Path) -> list[str]:
    return [page.extract_text().strip() for page in PdfReader(pdf).pages]


def test_print_shop_pages_are_poker_size_with_an_eighth_inch_bleed(game: Path, tmp_path: Path) -> None:
    """2.75 × 3.75 in: 825 × 1125 px at 300 dpi, the size card-printing services' templates ask for."""
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--print-shop"]) == 0
    page = PdfReader(tmp_path / "out" / "cardy" / "deck.pdf").pages[0]
    assert (round(float(page.mediabox.width) / 72 * 300, 6), round(float(page.mediabox.height) / 72 * 300, 6)) == (825, 1125)
    assert float(page.trimbox.left) == pytest.approx(9.0)  # 1/8 in
    assert labels(tmp_path / "out" / "cardy" / "deck.pdf") == ["F1", "B1", "F2", "B2", "F3", "B3"]


@pytest.mark.parametrize(("bleed", "points"), [("3mm", 3 * 72 / 25.4), ("0.125in", 9.0), ("2", 2 * 72 / 25.4)])
def test_bleed_overrides_the_preset(game: Path, tmp_path: Path, bleed: str, points: float) -> None:
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--print-shop", "--bleed", bleed]) == 0
    page = PdfReader(tmp_path / "out" / "cardy" / "deck.pdf").pages[0]
    assert float(page.trimbox.left) == pytest.approx(points, abs=1e-3)
    assert float(page.mediabox.width) == pytest.approx(2.5 * 72 + 2 * points, abs=1e-3)


def test_drivethrucards_puts_each_back_before_its_front(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--shop", "drivethrucards"]) == 0
    assert labels(tmp_path / "out" / "cardy" / "deck.pdf") == ["B1", "F1", "B2", "F2", "B3", "F3"]
    # the base card's safe zone is 3 mm, within safe_slack of the 3.175 mm: a note, not a warning (tests/generator/preflight/test_shop_safe.py)
    assert "warning" not in capsys.readouterr().err


def test_thegamecrafter_also_writes_fronts_and_backs_apart(game: Path, tmp_path: Path) -> None:
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--shop", "thegamecrafter"]) == 0
    folder = tmp_path / "out" / "cardy"
    assert labels(folder / "deck-fronts.pdf") == ["F1", "F2", "F3"]
    assert labels(folder / "deck-backs.pdf") == ["B1", "B2", "B3"]
    assert labels(folder / "deck.pdf") == ["F1", "B1", "F2", "B2", "F3", "B3"]


@pytest.mark.parametrize(("flags", "message"), [
    (["--shop", "kinkos"], "--shop: unknown print-shop preset 'kinkos'; expected one of drivethrucards, generic, thegamecrafter"),
    (["--print-shop", "--bleed", "1/8in"], "--bleed: expected a length such as 63.5mm"),
    (["--print-shop", "--bleed", "40mm"], "--bleed: expected a bleed of 0 to 25 mm"),
])
def test_bad_print_shop_flags_exit_2_with_the_reason(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     flags: list[str], message: str) -> None:
    assert main(["build", str(game), "--out", str(tmp_path / "out"), *flags]) == 2
    assert message in capsys.readouterr().err


def test_a_bad_preset_file_is_reported_at_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "print_shops.yaml"
    bad.write_text("default: generic\npresets:\n  generic:\n    bleed: 1/8in\n    safe: 3mm\n    dpi: 300\n"
                   "    order: sideways\n    files: component\n")
    with pytest.raises(SpecError) as err:
        load_print_shops(bad)
    text = str(err.value)
    assert "print_shops.yaml:4:12: bleed:" in text and "print_shops.yaml:7:12: order: expected one of front-first, back-first" in text


def test_every_bundled_preset_loads_with_its_source() -> None:
    shops = load_print_shops()
    assert shops.default == "generic"
    for shop in shops.presets.values():
        assert shop.bleed == pytest.approx(9.0) and shop.dpi == 300 and shop.source
