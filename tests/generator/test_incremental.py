"""Incremental builds and watch mode, through the CLI, on a copy of a real game."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli


def _digests(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.startswith(".")
    }


@pytest.fixture
def belpunk(tmp_path: Path) -> Path:
    game = tmp_path / "belpunk"
    shutil.copytree(ROOT / "components" / "belpunk", game)
    return game


def _build(game: Path, out: Path, *extra: str) -> str:
    result = run_cli("build", str(game), "--out", str(out), *extra)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_unchanged_rebuild_renders_nothing_and_keeps_files_identical(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    first = _build(belpunk, out)
    assert "rendered deck, foreman, machine" in first
    before = _digests(out / "belpunk")
    mtimes = {p.name: p.stat().st_mtime_ns for p in (out / "belpunk").iterdir()}
    second = _build(belpunk, out)
    assert "rendered nothing; reused 3 unchanged" in second
    assert _digests(out / "belpunk") == before
    # nothing was even rewritten
    assert {p.name: p.stat().st_mtime_ns for p in (out / "belpunk").iterdir() if p.name in before} == {
        k: v for k, v in mtimes.items() if k in before
    }


def test_changing_one_card_rerenders_only_its_component_and_matches_a_clean_build(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(belpunk, out)
    before = _digests(out / "belpunk")
    foreman = belpunk / "foreman.yaml"
    text = foreman.read_text()
    assert "Foreman" in text
    foreman.write_text(text.replace("Foreman", "Forewoman", 1))
    third = _build(belpunk, out)
    assert "rendered foreman; reused 2 unchanged" in third
    after = _digests(out / "belpunk")
    assert after["deck.pdf"] == before["deck.pdf"]
    assert after["foreman.pdf"] != before["foreman.pdf"]
    assert after["belpunk-print-and-play.pdf"] != before["belpunk-print-and-play.pdf"]
    clean = tmp_path / "clean"
    _build(belpunk, clean)
    assert _digests(clean / "belpunk") == after


def test_layout_change_invalidates_components_that_use_it(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(belpunk, out)
    layouts = belpunk / "layouts" / "belpunk"
    layouts.mkdir(parents=True)
    # a game-local copy of the Foreman layout shadows the bundled one
    shutil.copy(ROOT / "layouts" / "belpunk" / "foreman.yaml", layouts / "foreman.yaml")
    with (layouts / "foreman.yaml").open("a") as handle:
        handle.write("\n# a comment is a change too\n")
    assert "rendered foreman; reused 2 unchanged" in _build(belpunk, out)


def test_force_rebuilds_everything(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(belpunk, out)
    assert "rendered deck, foreman, machine" in _build(belpunk, out, "--force")


def test_the_same_game_written_relative_or_absolute_is_not_redrawn(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(belpunk, out)
    result = run_cli("build", belpunk.name, "--out", str(out), cwd=belpunk.parent)
    assert result.returncode == 0, result.stderr
    assert "rendered nothing" in result.stdout, result.stdout


def test_cover_bom_and_calibration_pages_are_drawn_again_only_when_what_they_show_changed(tmp_path: Path):
    game = tmp_path / "steam_court"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    out = tmp_path / "out"
    _build(game, out)
    folder = out / "steam_court"
    kept = {name: (folder / name).stat().st_mtime_ns for name in (".front.pdf.keep", "duplex-calibration.pdf", "bom.json")}

    characters = game / "characters.yaml"
    characters.write_text(characters.read_text().replace(
        "Give one undesirable card to any player.", "Give one undesirable card to any other player.", 1))
    assert "rendered characters; reused 5 unchanged" in _build(game, out)
    assert {name: (folder / name).stat().st_mtime_ns for name in kept} == kept  # drawn and written once
    clean = tmp_path / "clean"
    _build(game, clean)
    assert _digests(folder) == _digests(clean / "steam_court")

    # the cover shows the designers (game.yaml): it is drawn again, and still matches a clean build
    game_file = game / "game.yaml"
    text = game_file.read_text()
    assert "designers:" in text
    game_file.write_text(text.replace("designers: [", "designers: [A. Newcomer, ", 1))
    _build(game, out)
    assert (folder / ".front.pdf.keep").stat().st_mtime_ns != kept[".front.pdf.keep"]
    fresh = tmp_path / "fresh"
    _build(game, fresh)
    assert _digests(folder) == _digests(fresh / "steam_court")
    assert _digests(folder)["steam_court-print-and-play.pdf"] != _digests(clean / "steam_court")["steam_court-print-and-play.pdf"]
