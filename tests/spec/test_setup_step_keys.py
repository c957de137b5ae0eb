"""A key of the step written inside the step's kind (``remove: {…, when: …}``) says where it belongs."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.spec.test_setup_language import DECK, GAME, VISITORS

SETUP = """\
variants:
  - id: standard
    players: {min: 2, max: 4}
    steps:
      - take: {component: deck, where: "type == 'number'", to: numbers}
      - remove: {from: numbers, count: 3, face: up, when: "players == 2"}
"""


def _game(tmp_path: Path, setup: str) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    for name, text in (("game.yaml", GAME), ("deck.yaml", DECK), ("visitors.yaml", VISITORS), ("setup.yaml", setup)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_when_inside_remove_says_it_belongs_on_the_step(tmp_path: Path) -> None:
    done = run_cli("check", str(_game(tmp_path, SETUP)))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    line = next(x for x in done.stderr.splitlines() if "setup.yaml:6:" in x)
    assert "'when' belongs on the step, not inside 'remove'" in line
    assert "did you mean 'where'" not in done.stderr
    assert '{remove: {…}, when: "players == 2"}' in line


def test_other_unknown_keys_beside_it_keep_their_message(tmp_path: Path) -> None:
    setup = SETUP.replace("face: up,", "fase: up,")
    done = run_cli("check", str(_game(tmp_path, setup)))
    assert done.returncode == 2
    assert "'when' belongs on the step, not inside 'remove'" in done.stderr
    assert "unknown key 'fase' (did you mean 'face'?)" in done.stderr


def test_the_documented_form_checks(tmp_path: Path) -> None:
    setup = SETUP.replace(', when: "players == 2"}', '}\n        when: "players == 2"')
    done = run_cli("check", str(_game(tmp_path, setup)))
    assert done.returncode == 0, done.stderr
