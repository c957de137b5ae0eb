"""Remembered schema verdicts: an unchanged game is not validated again, and nothing invalid gets through."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import PIL

from punchboard.incremental import validated
from punchboard.plumbing.limits import DEFAULT_LIMITS
from tests.build_helpers import make_game
from tests.conftest import ROOT


def _check(game: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PUNCHBOARD_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-m", "punchboard", "check", str(game)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def test_a_valid_game_is_remembered_and_every_change_is_checked_again(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    cache = tmp_path / "cache"
    first = _check(game, cache)
    assert first.returncode == 0, first.stderr
    remembered = sorted(p.name for p in cache.rglob("*") if p.is_file())
    assert remembered, "a successful check should be remembered"
    again = _check(game, cache)
    assert again.returncode == 0 and again.stdout == first.stdout
    assert sorted(p.name for p in cache.rglob("*") if p.is_file()) == remembered

    # the same value as text instead of a number: a different document, checked and refused
    game_yaml = game / "game.yaml"
    valid = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(valid.replace("min: 2", "min: '2'"), encoding="utf-8")
    refused = _check(game, cache)
    assert refused.returncode == 2, refused.stdout
    assert "game.yaml:" in refused.stderr and "min" in refused.stderr
    assert _check(game, cache).returncode == 2  # a refusal is never remembered

    game_yaml.write_text(valid, encoding="utf-8")
    assert _check(game, cache).returncode == 0


def test_a_remembered_component_does_not_cover_an_edited_one(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    cache = tmp_path / "cache"
    assert _check(game, cache).returncode == 0
    tokens = game / "tokens.yaml"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace("shape: hexagon", "shape: hexagonn"), encoding="utf-8")
    refused = _check(game, cache)
    assert refused.returncode == 2
    assert "tokens.yaml:" in refused.stderr and "hexagonn" in refused.stderr


def test_a_remembered_picture_never_covers_a_corrupted_file_of_the_same_name(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    cache = tmp_path / "cache"
    art = game / "art.png"
    good = art.read_bytes()
    assert _check(game, cache).returncode == 0
    remembered = sorted(p.name for p in cache.rglob("*") if p.is_file())
    picture = validated.key(art, hashlib.sha256(good).hexdigest(), "image", DEFAULT_LIMITS.max_image_pixels,
                            DEFAULT_LIMITS.max_file_bytes, PIL.__version__)
    assert picture in remembered
    corrupt = (ROOT / "tests" / "bad_inputs" / "image_corrupt_pixel_data" / "layouts" / "mini" / "art.png").read_bytes()
    art.write_bytes(corrupt)  # same name and path, corrupt pixel data
    refused = _check(game, cache)
    assert refused.returncode == 2
    assert refused.stderr.endswith("src: image 'art.png' is corrupt (broken data stream when reading image file); "
                                   "expected a valid PNG, JPG or SVG\n"), refused.stderr
    assert _check(game, cache).returncode == 2  # a refusal is never remembered
    art.write_bytes(good)
    assert _check(game, cache).returncode == 0
    assert sorted(p.name for p in cache.rglob("*") if p.is_file()) == remembered  # the good picture's verdict was kept
