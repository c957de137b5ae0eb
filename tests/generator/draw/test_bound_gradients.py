"""A gradient stop named by a card field (``stops: ["#ffffff", "{colour}"]``): each card's shading ends in its own
colour, and a value that is no colour is a located error at check, not a crash."""

from __future__ import annotations

from pathlib import Path

import pikepdf

from tests.conftest import run_cli
from tests.generator.draw.test_effects import _close, _colours, _rgb

GAME = "id: glow\ntitle: Glow\nplayers: {min: 1, max: 4}\npalette: {sea: \"#1d6fa3\"}\ncomponents: [deck.yaml]\n"
DECK = """\
id: deck
kind: deck
size: poker
layout: glow
back: none
fields: [colour]
cards:
  - {name: Ruby, colour: "#9b2226"}
  - {name: Deep, colour: sea}
  - {name: Plain}
"""
LAYOUT = """\
elements:
  - {id: bg, type: rect, box: bleed, fill: {radial: {center: [50%, 35%]}, stops: ["#ffffff", "{colour}"]}}
  - {id: name, type: text, text: "{name}", x: 5mm, y: 5mm, width: 53mm, height: 10mm, size: 14pt}
"""


def _game(folder: Path, deck: str = DECK) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(deck, encoding="utf-8")
    (folder / "layouts" / "glow.yaml").write_text(LAYOUT, encoding="utf-8")
    return folder


def _shading_ends(pdf_path: Path) -> list[tuple[float, ...]]:
    """The last colour of each side's radial shading, in the order the sides are placed on the first page."""
    ends = []
    with pikepdf.open(pdf_path) as pdf:
        page = pdf.pages[0]
        names = [str(op.operands[0]) for op in pikepdf.parse_content_stream(page) if str(op.operator) == "Do"]
        for name in names:
            form = page.Resources.XObject[name]
            for shading in form.Resources.get("/Shading", {}).values():
                ends.append(_colours(shading.Function)[-1])
    return ends


def test_each_card_ends_its_gradient_in_its_own_colour(tmp_path: Path) -> None:
    game = _game(tmp_path / "glow")
    for command in (["check", str(game)], ["build", str(game), "--out", str(tmp_path / "out"), "--backs", "none"]):
        result = run_cli(*command)
        assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    ends = _shading_ends(tmp_path / "out" / "glow" / "deck.pdf")
    assert len(ends) == 3  # three sides drawn apart: the field's value is part of each side's look
    assert _close(ends[0], _rgb("#9b2226")) and _close(ends[1], _rgb("#1d6fa3")) and _close(ends[2], (0.0, 0.0, 0.0))


def test_a_value_that_is_no_colour_is_located_at_its_card(tmp_path: Path) -> None:
    game = _game(tmp_path / "glow", DECK.replace('colour: "#9b2226"', "colour: rubyish"))
    result = run_cli("check", str(game))
    assert result.returncode == 2, result.stderr
    assert "deck.yaml:8:26:" in result.stderr and "'rubyish' is not a colour" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
