"""``punchboard check --colour cmyk``: layout colours outside the press gamut named by element and piece (issue #43)."""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.cli import main
from tests.conftest import ROOT

GAME = "id: hues\ntitle: Hues\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = """\
id: cards
kind: deck
size: poker
layout: hues/card
back: none
fields: [band]
cards:
  - {name: Lime, band: "#00ff00"}
  - {name: Moss, band: "#4a6b3a"}
"""
LAYOUT = """\
bleed: 3mm
palette:
  sky: "#0050ff"
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: band, type: rect, box: trim, x: 0, y: 0, width: 100%, height: 30%, fill: "{band}"}
  - {id: rule, type: rect, box: safe, x: 0, y: 50%, width: 100%, height: 1mm, fill: sky}
"""


def _game(folder: Path) -> Path:
    (folder / "layouts" / "hues").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("layouts/hues/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_check_names_the_out_of_gamut_colours_by_element_and_piece(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(tmp_path / "hues")
    assert main(["check", str(game), "--colour", "cmyk"]) == 0
    err = capsys.readouterr().err
    green = [line for line in err.splitlines() if "#00ff00" in line]
    assert green == ["warning: hues / layout hues/card / band (fill, 1 piece: Lime): sRGB #00ff00 is outside the press gamut: it "
                     "prints as CMYK 62/0/100/0 %, which looks like #6abd45 (ΔE2000 16.2), over the 10 the press settings allow"]
    blue = [line for line in err.splitlines() if "#0050ff" in line]
    assert len(blue) == 1 and "layout hues/card / rule (fill, 2 pieces: Lime, Moss)" in blue[0]
    assert "#4a6b3a" not in err and "#ffffff" not in err  # inside the gamut
    assert main(["check", str(game), "--colour", "cmyk", "--preflight", "strict"]) == 1


def test_check_without_cmyk_says_nothing_of_the_press(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(tmp_path / "hues")
    assert main(["check", str(game)]) == 0
    assert "press gamut" not in capsys.readouterr().err


def test_the_bundled_games_are_inside_the_default_press_gamut(capsys: pytest.CaptureFixture[str]) -> None:
    games = [str(p) for p in sorted((ROOT / "components").iterdir()) if (p / "game.yaml").is_file()]
    assert len(games) == 6  # the five games and the showcase
    assert main(["check", *games, "--colour", "cmyk", "--preflight", "warn"]) == 0
    assert "press gamut" not in capsys.readouterr().err


def test_check_refuses_a_missing_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(tmp_path / "hues")
    assert main(["check", str(game), "--colour", "cmyk", "--icc", str(tmp_path / "none.icc")]) == 2
    assert "error: --icc: no such file" in capsys.readouterr().err
