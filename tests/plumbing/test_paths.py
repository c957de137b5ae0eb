"""Path confinement: every file a game names resolves inside the game folder (or punchboard's layouts/).

Absolute paths and ``..`` escapes are covered by the bad-input corpus; here real
symlinks, which cannot live in the repository, point out of the game folder.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from punchboard.cli import EXIT_INPUT, EXIT_OK, main

GAME = """\
id: mini
title: Mini
players: {min: 2, max: 4}
components: [cards.yaml]
"""
CARDS = """\
id: cards
kind: deck
size: poker
layout: mini/card
fields: [value, art]
cards:
  - {name: One, value: 1, art: one.png}
"""
LAYOUT = """\
elements:
  - {id: art, type: image, x: 0, y: 0, width: 100%, height: 50%, src: "{art}"}
  - {id: name, type: text, x: 0, y: 60%, width: 100%, height: 10mm, text: "{name} {value}"}
"""


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A valid game folder ``mini`` and, beside it, an ``outside`` folder holding look-alike files."""
    monkeypatch.chdir(tmp_path)
    game, outside = tmp_path / "mini", tmp_path / "outside"
    (game / "layouts" / "mini").mkdir(parents=True)
    outside.mkdir()
    (game / "game.yaml").write_text(GAME)
    (game / "cards.yaml").write_text(CARDS)
    (game / "layouts" / "mini" / "card.yaml").write_text(LAYOUT)
    (game / "one.png").write_bytes(_png())
    for name, text in (("cards.yaml", CARDS), ("card.yaml", LAYOUT), ("cards.csv", "name,value\nTwo,2\n"), ("setup.yaml", "variants: []\n")):
        (outside / name).write_text(text)
    (outside / "one.png").write_bytes(_png())
    (outside / "font.ttf").write_bytes(b"\x00\x01\x00\x00")
    return game, outside


def _check(capsys: pytest.CaptureFixture[str], game: Path) -> tuple[int, str]:
    code = main(["check", str(game), "--preflight", "off"])  # where files may live is tested here, not the preflight
    return code, capsys.readouterr().err


def test_the_valid_game_checks(world, capsys):
    game, _ = world
    assert _check(capsys, game) == (EXIT_OK, "")


def test_a_symlink_inside_the_game_folder_is_fine(world, capsys):
    game, _ = world
    (game / "art").mkdir()
    (game / "one.png").rename(game / "art" / "real.png")
    os.symlink(game / "art" / "real.png", game / "one.png")
    assert _check(capsys, game) == (EXIT_OK, "")


def test_component_file_linked_from_outside_is_refused(world, capsys):
    game, outside = world
    (game / "cards.yaml").unlink()
    os.symlink(outside / "cards.yaml", game / "cards.yaml")
    assert _check(capsys, game) == (
        EXIT_INPUT,
        "mini/game.yaml:4:14: component file 'cards.yaml' lies outside the game folder\n",
    )


def test_csv_linked_from_outside_is_refused(world, capsys):
    game, outside = world
    (game / "cards.yaml").write_text(CARDS.replace("cards:\n  - {name: One, value: 1, art: one.png}\n", "csv: cards.csv\n"))
    os.symlink(outside / "cards.csv", game / "cards.csv")
    assert _check(capsys, game) == (
        EXIT_INPUT,
        "mini/cards.yaml:6:6: csv file 'cards.csv' lies outside the game folder mini\n",
    )


def test_layout_linked_from_outside_is_refused(world, capsys):
    game, outside = world
    (game / "layouts" / "mini" / "card.yaml").unlink()
    os.symlink(outside / "card.yaml", game / "layouts" / "mini" / "card.yaml")
    code, err = _check(capsys, game)
    assert code == EXIT_INPUT
    assert err.startswith("mini/cards.yaml:4:9: layout 'mini/card' lies outside the layouts folders;")


def test_layouts_folder_linked_from_outside_is_refused(world, capsys):
    game, outside = world
    (outside / "mini").mkdir()
    (outside / "mini" / "card.yaml").write_text(LAYOUT)
    (game / "layouts" / "mini" / "card.yaml").unlink()
    (game / "layouts" / "mini").rmdir()
    os.symlink(outside / "mini", game / "layouts" / "mini")
    code, err = _check(capsys, game)
    assert code == EXIT_INPUT
    assert err.startswith("mini/cards.yaml:4:9: layout 'mini/card' lies outside the layouts folders;")


def test_image_linked_from_outside_is_refused_per_piece(world, capsys):
    game, outside = world
    (game / "one.png").unlink()
    os.symlink(outside / "one.png", game / "one.png")
    assert _check(capsys, game) == (
        EXIT_INPUT,
        "mini/layouts/mini/card.yaml:2:71: src: image 'one.png' links to a file outside its folder; "
        "expected a file inside the game folder (from '{art}' for cards 'One')\n",
    )


def test_image_in_a_linked_folder_is_refused(world, capsys):
    game, outside = world
    os.symlink(outside, game / "art")
    (game / "layouts" / "mini" / "card.yaml").write_text(LAYOUT.replace('"{art}"', "art/one.png"))
    code, err = _check(capsys, game)
    assert code == EXIT_INPUT
    assert err == (
        "mini/layouts/mini/card.yaml:2:71: src: image 'art/one.png' links to a file outside its folder; "
        "expected a file inside the game folder\n"
    )


@pytest.mark.parametrize("src", ["../outside/one.png", "/etc/hostname", "art/../../outside/one.png"])
def test_image_paths_escaping_the_game_are_refused(world, capsys, src):
    game, _ = world
    (game / "layouts" / "mini" / "card.yaml").write_text(LAYOUT.replace('"{art}"', src))
    code, err = _check(capsys, game)
    assert code == EXIT_INPUT
    assert f"src: image '{src}' lies outside the game folder" in err


def test_templated_image_escaping_the_game_is_refused(world, capsys):
    game, _ = world
    (game / "cards.yaml").write_text(CARDS.replace("art: one.png", "art: ../outside/one.png"))
    code, err = _check(capsys, game)
    assert code == EXIT_INPUT
    assert "src: image '../outside/one.png' lies outside the game folder" in err


def test_font_linked_from_outside_is_refused(world, capsys):
    game, outside = world
    os.symlink(outside / "font.ttf", game / "layouts" / "mini" / "fancy.ttf")
    (game / "layouts" / "mini" / "card.yaml").write_text("fonts: {Fancy: fancy.ttf}\n" + LAYOUT)
    assert _check(capsys, game) == (
        EXIT_INPUT,
        "mini/layouts/mini/card.yaml:1:16: font file 'fancy.ttf' lies outside the game folder; expected a path inside "
        "it, relative to the layout or to the game folder (e.g. fonts/MyFont.otf)\n",
    )


def test_setup_linked_from_outside_is_refused(world, capsys):
    game, outside = world
    os.symlink(outside / "setup.yaml", game / "setup.yaml")
    (game / "game.yaml").write_text(GAME + "setup: setup.yaml\n")
    assert _check(capsys, game) == (
        EXIT_INPUT,
        "mini/game.yaml:5:8: setup file 'setup.yaml' lies outside the game folder\n",
    )


def test_build_writes_only_inside_the_output_folder(world, tmp_path, capsys):
    game, _ = world
    out = tmp_path / "deep" / "out"
    assert main(["build", str(game), "--out", str(out), "--quiet"]) == EXIT_OK
    written = sorted(p for p in tmp_path.rglob("*") if p.is_file() and not p.is_relative_to(game) and not p.is_relative_to(tmp_path / "outside"))
    # The one file outside OUT/<game id>/ is the output folder's lock (punchboard.plumbing.outlock).
    assert written and all(p.is_relative_to(out / "mini") or p == out / ".punchboard.lock" for p in written)
    assert not [p for p in written if p.name.endswith(".part")], "temporary files left behind"


def test_inside_a_load_each_path_is_resolved_once_and_only_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """resolving_once (one load, one build) asks the file system once per path; outside it, and in the
    next load, a symlink that moved is followed where it points now."""
    from punchboard.plumbing.paths import is_inside, resolving_once

    game, elsewhere = tmp_path / "game", tmp_path / "elsewhere"
    (game / "layouts").mkdir(parents=True)
    elsewhere.mkdir()
    link = game / "layouts" / "card.yaml"
    link.symlink_to(game / "real.yaml")
    asked: list[Path] = []
    resolve = Path.resolve

    def counting(self: Path, strict: bool = False) -> Path:
        asked.append(self)
        return resolve(self, strict)

    monkeypatch.setattr(Path, "resolve", counting)
    with resolving_once():
        assert all(is_inside(link, game) for _ in range(5))
        with resolving_once():  # a build inside a load's scope shares it
            assert is_inside(link, game)
        assert sorted(map(str, asked)) == sorted([str(link), str(game)])
    link.unlink()
    link.symlink_to(elsewhere / "real.yaml")
    with resolving_once():
        assert not is_inside(link, game)
    assert not is_inside(link, game)
    assert len(asked) == 6
