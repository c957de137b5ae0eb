"""Heavy ink named by piece (issue #43): a 400 % CMYK picture on one card of three sharing a sheet is reported with the
page and that card only; in a print shop's one-card-a-page file, with that card's page (generator/press/page_pieces.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tests.build_helpers import build

GAME = "id: heavy\ntitle: Heavy\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = """\
id: cards
kind: deck
size: poker
layout: heavy/card
back: none
fields: [art]
cards:
  - {name: Dawn, art: light.jpg}
  - {name: Night, art: heavy.jpg}
  - {name: Dusk, art: light.jpg}
"""
LAYOUT = """\
bleed: 3mm
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: art, type: image, box: safe, x: 0, y: 10%, width: 100%, height: 50%, src: "{art}"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("heavy")
    (folder / "layouts" / "heavy").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("layouts/heavy/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    Image.new("CMYK", (700, 460), (255, 255, 255, 255)).save(folder / "heavy.jpg", dpi=(300, 300))  # 400 %
    Image.new("CMYK", (700, 460), (50, 50, 50, 50)).save(folder / "light.jpg", dpi=(300, 300))  # 78 %
    return folder


def _heavy(run: subprocess.CompletedProcess[str]) -> list[str]:
    assert run.returncode == 0, run.stderr
    return [line for line in run.stderr.splitlines() if "total ink coverage" in line]


def test_the_heavy_card_is_named_on_its_sheet(game: Path, tmp_path: Path) -> None:
    said = _heavy(build(game, tmp_path, "--colour", "cmyk"))
    assert said == ["warning: heavy / cards.pdf page 1 (card 'Night'): total ink coverage reaches 400 %, over the 300 % "
                    "the press allows; lighten the darkest colours"]


def test_the_heavy_card_is_named_in_a_print_shop_file(game: Path, tmp_path: Path) -> None:
    said = _heavy(build(game, tmp_path, "--shop", "drivethrucards"))
    assert said == ["warning: heavy / cards.pdf page 2 (card 'Night'): total ink coverage reaches 400 %, over the 300 % "
                    "the press allows; lighten the darkest colours"]
