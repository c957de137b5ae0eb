"""The Python API used in-process, as from a notebook: load, build, verify, export images."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from PIL import Image

import punchboard
from punchboard.plumbing.errors import SpecError
from tests.conftest import ROOT, run_cli


@pytest.fixture
def game_folder(tmp_path: Path) -> Path:
    assert run_cli("init", "tinygame", cwd=tmp_path).returncode == 0
    return tmp_path / "tinygame"


def test_load_build_verify_export_in_process(tmp_path: Path, game_folder: Path):
    game = punchboard.load_game(game_folder)
    assert (game.id, [c.id for c in game.components]) == ("tinygame", ["deck", "coins", "board"])

    out = tmp_path / "out"
    report = punchboard.build(game, out, backs="none")
    assert report.rendered == ("deck", "coins", "board")
    # no warning: the auto bleed policy's shared cut lines (40 cards, 9 a Letter page: 5 pages, against 7 at 6 a
    # page with the full bleed) are a note in the BOM and the cover, not a warning
    assert not report.warnings, report.warnings
    deck = pypdf.PdfReader(out / "tinygame" / "deck.pdf")
    assert len(deck.pages) == 5  # 40 cards, 9 per Letter page, fronts only
    assert punchboard.build(str(game_folder), out, backs="none").reused == ("deck", "coins", "board")

    results = punchboard.verify(game_folder, trials=500, out=out)
    assert {(r.variant, r.players, r.status) for r in results if r.variant == "standard"} == {
        ("standard", n, "pass") for n in (2, 3, 4)
    }
    assert "standard" in (out / "tinygame" / "verify.md").read_text(encoding="utf-8")
    assert (out / "tinygame" / "verify.png").read_bytes().startswith(b"\x89PNG")
    assert {r.players for r in punchboard.verify(game, players=3, trials=0)} == {3}

    images = punchboard.export_images(game, out, dpi=40, bleed="1mm", unique=False)
    faces = [i for i in images if i.piece.component == "deck" and i.side == "front"]
    assert len(faces) == 40
    with Image.open(faces[0].path) as picture:
        width_mm = picture.width / 40 * 25.4
    assert width_mm == pytest.approx(63.5 + 2, abs=1.5)


def test_invalid_input_raises_spec_error_with_located_problems(tmp_path: Path, game_folder: Path):
    deck = game_folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("size: poker", "size: pokr"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        punchboard.build(game_folder, tmp_path / "out")
    assert any(p.file.endswith("deck.yaml") and "pokr" in p.message and "poker" in p.message for p in caught.value.problems)
    assert not (tmp_path / "out").exists()
    with pytest.raises(SpecError, match="no game '.*nowhere'"):
        punchboard.load_game(tmp_path / "nowhere")
    with pytest.raises(TypeError, match="papre"):
        punchboard.build(ROOT / "components" / "steam_court", tmp_path / "out", papre="a4")


def test_the_api_is_documented_and_importing_punchboard_stays_cheap():
    for name in ("load_game", "build", "verify", "export_images"):
        function = getattr(punchboard, name)
        assert function.__doc__ and len(function.__doc__) > 100, name
        assert name in dir(punchboard) and name in punchboard.__all__
    with pytest.raises(AttributeError):
        punchboard.no_such_thing  # noqa: B018
    probe = "import sys, punchboard; print(sorted(m for m in ('reportlab', 'jsonschema', 'yaml', 'punchboard.api') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


def test_export_images_passes_on_what_drawing_said(tmp_path: Path):
    """Text that does not fit is said by the API's export as by ``punchboard images``: to ``warn``, once."""
    import shutil

    game = tmp_path / "steam_court"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    characters = game / "characters.yaml"
    characters.write_text(characters.read_text(encoding="utf-8").replace(
        "Give one undesirable card to any player.", "Give one undesirable card to any player. " + "Then again, forever. " * 30, 1),
        encoding="utf-8")
    heard: list[str] = []
    punchboard.export_images(game, tmp_path / "out", dpi=20, warn=heard.append)
    overflow = [message for message in heard if "does not fit" in message]
    assert len(overflow) == 1 and "characters" in overflow[0], heard
    cli = run_cli("images", str(game), "--out", str(tmp_path / "cli"), "--dpi", "20")
    assert [line.removeprefix("warning: ") for line in cli.stderr.splitlines() if line.startswith("warning: ")] == heard
    assert punchboard.export_images(game, tmp_path / "quiet", dpi=20)  # without warn, nothing is said and it still works
