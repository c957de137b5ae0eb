"""watch and serve keep parsed YAML by its text (yamlsource.keep_parsed): the same model as a fresh
parse, a changed file parsed again, and no load sees what another did to its data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from punchboard.plumbing.errors import SpecError
from punchboard.spec import yamlsource
from punchboard.spec.loader import load_game
from tests.conftest import ROOT


@pytest.fixture
def kept(monkeypatch, tmp_path):
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(tmp_path / "cache"))  # nothing parsed by an earlier command
    monkeypatch.setattr(yamlsource, "_parsed", None)
    yamlsource.keep_parsed()
    parses: list[Path] = []
    real = yamlsource.parse_yaml

    def counting(text: str, path: Path, **kwargs: object) -> yamlsource.Document:
        parses.append(path)
        return real(text, path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(yamlsource, "parse_yaml", counting)
    return parses


def test_unchanged_files_are_not_parsed_again_and_give_the_same_model(tmp_path: Path, kept: list[Path]):
    game = tmp_path / "steam_court"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    first = load_game(game)
    parsed_first = len(kept)
    assert parsed_first > 5
    again = load_game(game)
    assert again == first
    assert len(kept) == parsed_first  # nothing parsed the second time

    characters = game / "characters.yaml"
    characters.write_text(characters.read_text().replace(
        "Give one undesirable card to any player.", "Give one undesirable card to any other player.", 1))
    changed = load_game(game)
    assert kept[parsed_first:] == [characters]  # only the saved file
    assert changed != first
    assert any("any other player" in str(piece.fields) for piece in changed.component("characters").pieces)

    characters.write_text("cards: [unclosed\n" + characters.read_text())
    with pytest.raises(SpecError):  # a broken save is reported, every time
        load_game(game)
    with pytest.raises(SpecError):
        load_game(game)


def test_each_load_gets_its_own_copy_of_the_data(tmp_path: Path, kept: list[Path]):
    path = tmp_path / "thing.yaml"
    path.write_text("a: [1, 2]\nb: {c: text}\n")
    one = yamlsource.load_yaml(path)
    one.data["a"].append(3)
    one.data["b"]["c"] = "changed"
    two = yamlsource.load_yaml(path)
    assert two.data == {"a": [1, 2], "b": {"c": "text"}}
    assert two.where(("b", "c")) == one.where(("b", "c")) == (2, 8)
    assert kept == [path]
