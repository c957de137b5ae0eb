"""Loader rules that the bad-input corpus does not show on its own: what is allowed, and de-duplication."""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.cli import EXIT_INPUT, EXIT_OK, main

GAME = "id: mini\ntitle: Mini\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"


def _game(tmp_path: Path, cards: str, layout: str) -> Path:
    folder = tmp_path / "mini"
    (folder / "layouts" / "mini").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "cards.yaml").write_text(cards)
    (folder / "layouts" / "mini" / "card.yaml").write_text(layout)
    return folder


def _check(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["check", str(folder), "--preflight", "off"])  # loading is tested here; the preflight in tests/generator/preflight
    return code, capsys.readouterr().err


CARDS = "id: cards\nkind: deck\nsize: poker\nlayout: mini/card\nfields: [value, art]\ncards:\n  - {name: One, art: a.png}\n  - {name: Two, art: b.png}\n  - {name: Three, art: a.png}\n"


def test_shared_layouts_may_name_optional_fields(tmp_path, capsys):
    # base/card prints {text}; this deck has no text field, so it stays empty
    folder = _game(tmp_path, CARDS.replace("a.png", "''").replace("b.png", "''"), "extends: base/card\n")
    assert _check(folder, capsys) == (EXIT_OK, "")


def test_overriding_an_inherited_element_id_is_not_a_duplicate(tmp_path, capsys):
    layout = "extends: base/card\nelements:\n  - {id: name, color: '#b00000'}\n  - {id: frame, remove: true}\n"
    folder = _game(tmp_path, CARDS.replace("a.png", "''").replace("b.png", "''"), layout)
    assert _check(folder, capsys) == (EXIT_OK, "")


def test_each_missing_templated_image_is_reported_once(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    layout = "elements:\n  - {id: art, type: image, x: 0, y: 0, width: 100%, height: 50%, src: 'art/{art}'}\n"
    code, err = _check(_game(tmp_path, CARDS, layout), capsys)
    assert code == EXIT_INPUT
    where = "mini/layouts/mini/card.yaml:2:71: src: image"
    assert err.splitlines() == [
        f"{where} 'art/a.png' not found; expected a file in the game folder or next to the layout (from 'art/{{art}}' for cards 'One')",
        f"{where} 'art/b.png' not found; expected a file in the game folder or next to the layout (from 'art/{{art}}' for cards 'Two')",
    ]


def test_an_unknown_field_in_the_games_own_layout_is_reported_once_per_element(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    layout = "elements:\n  - {id: t, type: text, x: 0, y: 0, width: 100%, height: 9mm, text: '{nmae} {nmae} {value}'}\n"
    code, err = _check(_game(tmp_path, CARDS, layout), capsys)
    assert code == EXIT_INPUT
    assert err == (
        "mini/layouts/mini/card.yaml:2:69: text: unknown field '{nmae}' (did you mean 'name'?); "
        "component 'cards' has the fields art, name, value\n"
    )


def test_back_fields_count_as_fields_of_the_layout(tmp_path, capsys):
    layout = "elements:\n  - {id: t, type: text, x: 0, y: 0, width: 100%, height: 9mm, text: '{side}'}\n"
    cards = CARDS.replace("a.png", "''").replace("b.png", "''").replace("layout: mini/card\n", "layout: base/card\nback: {layout: mini/card, fields: {side: back}}\n")
    assert _check(_game(tmp_path, cards, layout), capsys) == (EXIT_OK, "")
