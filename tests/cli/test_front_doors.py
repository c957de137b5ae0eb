"""Every verb as the README shows it, in a real process, on a game kept in a tmp folder, with no other option."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.cli.minigame import write_game
from tests.conftest import run_cli


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return write_game(tmp_path / "my_game")


def _ok(*args: str, cwd: Path) -> str:
    result = run_cli(*args, cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def test_list(tmp_path: Path):
    assert "steam_court" in _ok("list", cwd=tmp_path)


def test_check(game: Path):
    assert _ok("check", str(game), cwd=game.parent) == "mini: ok (2 components, 17 pieces)\n"


def test_build_writes_output_in_the_working_folder(game: Path):
    _ok("build", str(game), cwd=game.parent)
    combined = game.parent / "output" / "mini" / "mini-print-and-play.pdf"
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in PdfReader(combined).pages}
    assert sizes == {(612, 792)}, "letter is the default paper"


def test_verify_without_a_setup_says_there_is_nothing_to_verify(game: Path):
    out = _ok("verify", str(game), cwd=game.parent)
    assert "mini" in out
    assert (game.parent / "output" / "mini" / "verify.md").is_file()


def test_bom(game: Path):
    out = _ok("bom", str(game), "--json", cwd=game.parent)
    assert {c["id"]: c["count"] for c in json.loads(out)["components"]} == {"cards": 5, "chits": 12}


def test_preview(game: Path):
    _ok("preview", str(game), cwd=game.parent)
    assert sorted(p.name for p in (game.parent / "output" / "mini" / "preview").glob("*.png"))


def test_images(game: Path):
    _ok("images", str(game), cwd=game.parent)
    assert len(list((game.parent / "output" / "mini" / "images").rglob("*.png"))) >= 4


def test_tts(game: Path):
    _ok("tts", str(game), cwd=game.parent)
    assert list((game.parent / "output" / "mini" / "tts").glob("*.json"))
