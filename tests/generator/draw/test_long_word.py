"""One long unbroken word in a field is cut to the room by bisection: the text fitter measures O(log n) starts
of the word per line it cuts, not one start per dropped character (a 30,000-character word took 25 s)."""

from __future__ import annotations

from pathlib import Path

import pytest
from punchboard.generator.draw import fonts, text
from pypdf import PdfReader

from punchboard.cli import main
from tests.cli.minigame import write_game


def _widths(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    measured: list[str] = []
    real = fonts.width

    def counting(chars: str, face: str, size: float) -> float:
        measured.append(chars)
        return real(chars, face, size)

    monkeypatch.setattr(fonts, "width", counting)
    return measured


def test_longest_start_is_the_longest_that_fits(monkeypatch: pytest.MonkeyPatch):
    fonts.register_builtin()
    word = "W" + "i" * 50 + "M" * 50
    room = fonts.width(word[:70], "Vera", 10) + 0.001
    measured = _widths(monkeypatch)
    cut = text._longest_start(word, "Vera", 10, room)
    assert cut == word[:70]
    assert len(measured) <= 8  # log2(101) + 1
    assert text._longest_start(word, "Vera", 10, 0.0) == ""
    assert text._longest_start(word, "Vera", 10, 1e9) == word


def test_a_card_with_a_30000_character_word_builds_measuring_few_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    game = write_game(tmp_path / "mini")
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("The first card", "x" * 30_000), encoding="utf-8")
    measured = _widths(monkeypatch)
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    # the cut is bisected: a few hundred measurements of long starts, where the old loop made one per character
    long_starts = sum(1 for chars in measured if len(chars) > 1000)
    assert 0 < long_starts < 2_000
    pages = PdfReader(tmp_path / "out" / "mini" / "cards.pdf").pages
    assert pages
