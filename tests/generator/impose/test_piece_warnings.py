"""Warnings about tiles, sheets and boards name their piece the way card warnings do, so the studio can place them."""

from __future__ import annotations

from pathlib import Path

from punchboard.spec.loader import load_game
from punchboard.studio.concerns import place_warnings
from tests.conftest import run_cli

LONG = " ".join(["words"] * 40)


def _game(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("id: tw\ntitle: Tile warnings\nplayers: {min: 1, max: 2}\ncomponents: [tiles.yaml]\n")
    (folder / "tiles.yaml").write_text(
        "id: tiles\nkind: tiles\ncell: 20mm\nlayout: base/card\nback: none\nfields: [text]\ntiles:\n"
        f"  - {{name: Long, count: 1, cells: [XX], text: '{LONG}'}}\n"
        "  - {name: Short, count: 1, cells: [X], text: ok}\n"
        f"  - {{count: 1, cells: [X], text: '{LONG}'}}\n")
    return folder


def test_a_tile_warning_names_the_tile_and_lands_on_it(tmp_path: Path):
    game = _game(tmp_path / "tw")
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    # (tile #3's overflowing text box also reaches past the safe zone: a preflight finding, not this test's)
    warnings = [line.removeprefix("warning: ") for line in result.stderr.splitlines() if ": preflight " not in line]
    assert [w.split(": text of")[0] for w in warnings] == ["tw / tiles / tile 'Long'", "tw / tiles / tile #3"], result.stderr
    loaded = load_game(game)
    (component,) = loaded.components
    placed = place_warnings(loaded, {"tiles": [[piece] for piece in component.pieces]}, warnings)
    assert placed.pieces == {("tiles", 0): [warnings[0]], ("tiles", 2): [warnings[1]]}
    assert placed.components == {} and placed.game == []
