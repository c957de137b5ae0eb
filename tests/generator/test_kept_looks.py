"""Kept looks (punchboard/incremental/look_store.py): the colour-blind check finds an unchanged piece's look in the last
build's file instead of working it out again, and reports exactly what a build that keeps nothing reports.

Through the CLI, on the flawed game (two cards alike but for a red and a green value): a seeded sequence of
card edits (colours that look alike to some eyes, colours anyone tells apart, a value that differs, a third
card) is built on top of the last build and, to compare, with ``build --force`` into another folder, which
reads no kept look; ``check``, which keeps none, must agree too.
"""

from __future__ import annotations

import random
from array import array
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from punchboard.generator.preflight import colour_blind

from punchboard.incremental import look_store
from punchboard.incremental.build_cache import SIDES_FOLDER
from punchboard.incremental.look_store import LookStore
from punchboard.spec.loader import load_game
from punchboard.spec.model import Piece
from tests.conftest import run_cli
from tests.generator.preflight.flawed_game import write_game

COLOURS = ["#d62728", "#2ca02c", "#1f77b4", "#000000", "#d62728", "#ff7f0e"]


def _cards(rng: random.Random) -> str:
    lines = ["id: cards", "kind: deck", "size: poker", "layout: flawed", "fields: [value, colour]", "cards:"]
    names = ["Red", "Green", "Blue"][: rng.choice([2, 2, 3])]
    for name in names:
        lines.append(f'  - {{name: {name} Five, value: {rng.choice([5, 5, 5, 6])}, colour: "{rng.choice(COLOURS)}"}}')
    return "\n".join(lines) + "\n"


def _looks(stderr: str) -> list[str]:
    return sorted(line for line in stderr.splitlines() if "preflight colour_blind" in line or "preflight grayscale" in line)


def _build(game: Path, out: Path, *extra: str) -> list[str]:
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "1", *extra)
    assert result.returncode == 0, result.stderr
    return _looks(result.stderr)


def test_kept_looks_report_what_a_build_that_keeps_none_reports(tmp_path: Path):
    game = write_game(tmp_path / "flawed")
    out, clean = tmp_path / "out", tmp_path / "clean"
    first = _build(game, out)
    assert len(first) == 1 and "#d62728 and #2ca02c" in first[0], first  # red and green: colour_blind
    assert (out / "flawed" / SIDES_FOLDER / "cards.looks").is_file()
    rng = random.Random(7)
    seen = set()
    for _ in range(6):
        (game / "cards.yaml").write_text(_cards(rng), encoding="utf-8")
        kept = _build(game, out)
        assert kept == _build(game, clean, "--force")
        checked = run_cli("check", str(game))
        assert kept == _looks(checked.stderr), checked.stderr
        seen.add(bool(kept))
    assert seen == {True, False}, "the edits should both raise and clear a finding"


def test_a_damaged_looks_file_is_worked_out_again(tmp_path: Path):
    game = write_game(tmp_path / "flawed")
    out = tmp_path / "out"
    first = _build(game, out)
    looks = out / "flawed" / SIDES_FOLDER / "cards.looks"
    data = looks.read_bytes()
    looks.write_bytes(data[: len(data) // 2])  # a torn write
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert _build(game, out) == first
    head, body = data.split(b"\n", 1)
    assert f"looks {look_store.FORMAT} ".encode() in head
    looks.write_bytes(head.replace(f"looks {look_store.FORMAT} ".encode(), b"looks 0 ") + b"\n" + body)
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert _build(game, out) == first



def test_a_kept_look_is_not_worked_out_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    game = load_game(write_game(tmp_path / "flawed"))
    component = game.printed[0]
    looked: list[str | None] = []
    real = colour_blind._look

    def counting(piece: Piece, memo: Any) -> Any:
        looked.append(piece.name)
        return real(piece, memo)

    monkeypatch.setattr(colour_blind, "_look", counting)
    kept = LookStore(tmp_path, "cards", "salt")
    first = colour_blind.check_component(game, component, kept)
    assert len(first) == 1 and looked == ["Red Five", "Green Five"]
    kept.save()
    looked.clear()
    assert colour_blind.check_component(game, component, LookStore(tmp_path, "cards", "salt")) == first
    assert looked == [], "both looks were kept"
    assert colour_blind.check_component(game, component, LookStore(tmp_path, "cards", "other")) == first
    assert looked == ["Red Five", "Green Five"], "kept under another salt (code, options, palette): worked out again"


COLOUR = st.floats(allow_nan=False, width=64) | st.sampled_from([0.0, -0.0, 1.0, 0.5])


@given(st.lists(st.tuples(COLOUR, COLOUR, COLOUR), max_size=4), st.lists(st.tuples(COLOUR, COLOUR, COLOUR), max_size=4))
def test_packed_colours_compare_as_the_numbers_do(first: list[tuple[float, float, float]],
                                                  second: list[tuple[float, float, float]]):
    """A look keeps its colours packed; two pieces colour alike exactly when their colours are equal numbers
    (0.0 and -0.0 too), as comparing the tuples of floats told."""
    if len(first) == len(second) and first:
        second = [second[0], *first[1:]] if len(first) > 1 else second  # often alike but for one colour
    packed = [array("d", [v for rgb in colours for v in rgb]).tobytes() for colours in (first, second)]
    assert [colour_blind._rgbs(p) for p in packed] == [tuple(first), tuple(second)]
    assert (colour_blind._colouring(packed[0]) == colour_blind._colouring(packed[1])) == (first == second)
