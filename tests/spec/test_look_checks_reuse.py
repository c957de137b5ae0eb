"""The look checks pass a side once for every piece reading the same (look_checks.check_component): a common
back is checked once per deck, and a bad value is still reported at every piece's own cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.plumbing.errors import SpecError
from punchboard.spec import look_checks
from punchboard.spec.loader import load_game

GAME = "id: reuse\ntitle: Reuse\nplayers: {min: 1, max: 2}\npalette: {brass: '#b8893a'}\ncomponents: [deck.yaml]\n"
DECK = """\
id: deck
kind: deck
size: poker
layout: face
back: {layout: back}
fields: [colour, text]
csv: cards.csv
"""
LAYOUT = 'elements:\n  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "{colour}"}\n'


def _game(folder: Path, rows: list[str]) -> Path:
    """Face and back: the same layout under two names (each reads the colour, not the text)."""
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    for name in ("face", "back"):
        (folder / "layouts" / f"{name}.yaml").write_text(LAYOUT, encoding="utf-8")
    (folder / "cards.csv").write_text("name,colour,text\n" + "".join(f"{row}\n" for row in rows), encoding="utf-8")
    return folder


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    layouts: list[str] = []
    real = look_checks.LookChecker.check_side

    def counting(self, layout, fields, marks, palette, fonts):  # type: ignore[no-untyped-def]
        layouts.append(layout.name)
        return real(self, layout, fields, marks, palette, fonts)

    monkeypatch.setattr(look_checks.LookChecker, "check_side", counting)
    return layouts


def test_a_back_that_reads_one_field_is_checked_once_per_value(tmp_path: Path, checked: list[str]) -> None:
    rows = [f"Card {n},{'brass' if n % 2 else '#102030'},Text {n}" for n in range(10)]
    load_game(_game(tmp_path / "game", rows))
    assert checked.count("face") == 2 and checked.count("back") == 2  # two colours; the text is not read


def test_a_bad_value_is_reported_at_every_cell_that_holds_it(tmp_path: Path, checked: list[str]) -> None:
    rows = ["One,bras,a", "Two,bras,b", "Three,brass,c", "Four,bras,d"]
    with pytest.raises(SpecError) as failed:
        load_game(_game(tmp_path / "game", rows))
    lines = sorted({f"{p.line}:{p.col}" for p in failed.value.problems if "'bras' is not a colour" in p.message})
    assert lines == ["2:5", "3:5", "5:6"]  # each row's own cell, not only the first row's


def test_a_pass_is_remembered_by_the_next_load_and_an_edited_card_is_checked(tmp_path: Path, checked: list[str]) -> None:
    """look_passes.py: a later load (a new process: nothing in memory) checks only sides it has not seen pass."""
    game = _game(tmp_path / "game", [f"Card {n},{'brass' if n % 2 else '#102030'},Text {n}" for n in range(10)])
    load_game(game)
    assert len(checked) == 4
    checked.clear()
    load_game(game)
    assert checked == []  # every side passed before, with the same values, layouts and palette
    rows = (game / "cards.csv").read_text(encoding="utf-8").splitlines()
    rows[4] = "Card 3,#a0b0c0,Text 3"
    (game / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    load_game(game)
    assert sorted(checked) == ["back", "face"]  # the new colour, on both sides
    rows[6] = "Card 5,bras,Text 5"
    (game / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(SpecError) as failed:
        load_game(game)
    assert {(p.line, p.col) for p in failed.value.problems if "'bras' is not a colour" in p.message} == {(7, 8)}


def test_a_remembered_pass_does_not_survive_a_palette_without_its_colour(tmp_path: Path, checked: list[str]) -> None:
    game = _game(tmp_path / "game", ["One,brass,a", "Two,#102030,b"])
    load_game(game)
    (game / "game.yaml").write_text(GAME.replace("palette: {brass: '#b8893a'}", "palette: {copper: '#a4532b'}"),
                                    encoding="utf-8")
    with pytest.raises(SpecError) as failed:
        load_game(game)
    assert {(p.line, p.col) for p in failed.value.problems if "'brass' is not a colour" in p.message} == {(2, 5)}
