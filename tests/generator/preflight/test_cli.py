"""The preflight through the front doors: ``punchboard check`` and ``punchboard build`` on a game with five flaws."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run_cli

from .flawed_game import ELEMENTS, write_game

FIGURES = {  # what each finding must say besides its element
    "low_dpi": "prints at 120 dpi",
    "small_text": "is set at 5 pt",
    "thin_stroke": "is 0.1 pt",
    "low_contrast": "(#777777 on #888888, 10 pt) has a contrast ratio of 1.3:1",
    "colour_blind": "#d62728 and #2ca02c (5.0 with deuteranopia; 71.8 to normal sight)",
}


def _findings(stderr: str) -> dict[str, str]:
    lines = [line for line in stderr.splitlines() if ": preflight " in line]
    found = {}
    for line in lines:
        match = re.search(r": preflight ([a-z_]+): ", line)
        assert match, line
        assert match.group(1) not in found, f"two {match.group(1)} findings:\n{stderr}"
        found[match.group(1)] = line
    return found


def _assert_the_five(stderr: str) -> None:
    found = _findings(stderr)
    assert sorted(found) == sorted(FIGURES), stderr
    for code, line in found.items():
        # the piece; the colour-blind finding names the decision: the component and its field
        assert line.startswith("warning: flawed / cards: preflight colour_blind: the cards' colour is shown only by colour"
                               if code == "colour_blind" else "warning: flawed / cards / card 'Red Five'"), line
        assert f"element '{ELEMENTS[code]}'" in line or f"'{ELEMENTS[code]}' color" in line, line  # the element
        assert FIGURES[code] in line, line  # the figure
        assert re.search(r"\[.*layouts/flawed\.yaml:\d+:\d+\]$", line), line  # where the element is written
    for code in ("low_dpi", "small_text", "thin_stroke", "low_contrast"):
        assert "card 'Red Five' and 1 more:" in found[code]  # both cards show it: one line


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_game(tmp_path_factory.mktemp("flawed") / "flawed")


def test_check_reports_exactly_the_five_flaws(game: Path):
    result = run_cli("check", str(game))
    assert result.returncode == 0, result.stderr
    _assert_the_five(result.stderr)
    assert "flawed: ok (1 components, 2 pieces, preflight: 5 findings)" in result.stdout


def test_build_reports_the_same_five_and_strict_fails_it(game: Path, tmp_path: Path):
    built = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert built.returncode == 0, built.stderr
    _assert_the_five(built.stderr)
    checked = run_cli("check", str(game))
    assert _findings(built.stderr) == _findings(checked.stderr)  # one preflight, whichever door
    again = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--preflight", "strict")
    assert again.returncode == 1, again.stderr  # reused from the cache: the findings are remembered with it
    _assert_the_five(again.stderr)
    assert "--preflight strict" in again.stderr
    assert (tmp_path / "out" / "flawed" / "flawed-print-and-play.pdf").is_file()


def test_check_strict_fails_and_off_is_silent(game: Path):
    strict = run_cli("check", str(game), "--preflight", "strict")
    assert strict.returncode == 1
    _assert_the_five(strict.stderr)
    off = run_cli("check", str(game), "--preflight", "off")
    assert off.returncode == 0
    assert "preflight" not in off.stderr and "preflight" not in off.stdout


def test_a_clean_game_passes_strict(tmp_path: Path):
    game = write_game(tmp_path / "clean", fixed=tuple(FIGURES))
    result = run_cli("check", str(game), "--preflight", "strict")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "flawed: ok (1 components, 2 pieces)\n"
    assert "warning" not in result.stderr


def test_an_element_silences_one_check(tmp_path: Path):
    game = write_game(tmp_path / "quiet", extra={"art": "preflight: {ignore: [low_dpi]}", "value": "preflight: {ignore: [colour_blind]}"})
    result = run_cli("check", str(game))
    assert result.returncode == 0, result.stderr
    assert sorted(_findings(result.stderr)) == ["low_contrast", "small_text", "thin_stroke"]


def test_an_unknown_check_name_is_bad_input(tmp_path: Path):
    game = write_game(tmp_path / "typo", extra={"art": "preflight: {ignore: [low_dip]}"})
    for verb in ("check", "build"):
        result = run_cli(verb, str(game), "--out", str(tmp_path / "out")) if verb == "build" else run_cli(verb, str(game))
        assert result.returncode == 2, result.stderr
        assert re.search(r"flawed\.yaml:4:\d+: .*low_dip", result.stderr), result.stderr
        assert "Traceback" not in result.stderr


def test_a_bad_mode_is_refused():
    result = run_cli("check", "--preflight", "loud")
    assert result.returncode == 2
    assert "--preflight" in result.stderr and "strict" in result.stderr
