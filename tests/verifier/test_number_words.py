"""Rulebook numbers written as words: "Deal one card to each player" states 1, "twenty-five" 25, "a dozen" 12;
a number the quote does not state, in digits or words, is still a warning."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from punchboard.verifier.number_words import stated_numbers, states

from tests.conftest import ROOT, run_cli


@pytest.mark.parametrize(("quote", "numbers"), [
    ("Deal one card to each player", {1}),
    ("each player takes Seven cards", {7}),
    ("a set of twenty-five coins", {25}),
    ("a set of Twenty five coins", {25}),
    ("twenty players", {20}),
    ("a dozen eggs and 45 trains", {12, 45}),
    ("ninety-nine", {99}),
    ("someone often wins; no number here", set()),
    ("three 3s", {3}),
])
def test_the_numbers_a_quote_states(quote: str, numbers: set[int]):
    assert stated_numbers(quote) == numbers


def test_a_compound_states_its_sum_only():
    assert states("twenty-five coins", 25)
    assert not states("twenty-five coins", 20) and not states("twenty-five coins", 5)
    assert not states("someone", 1) and not states("tenant", 10)


def _verify_numbers(folder: Path, out: Path) -> list[dict]:
    done = run_cli("verify", str(folder), "--json", "--out", str(out), "--trials", "0")
    assert done.returncode in (0, 1), done.stderr
    cells = {(r["variant"], r["players"]): r for r in json.loads(done.stdout)}
    return cells.get(("rulebook numbers", None), {"findings": []})["findings"]


def test_a_quote_in_words_states_its_number_end_to_end(tmp_path: Path):
    folder = tmp_path / "ttr"
    shutil.copytree(ROOT / "tests" / "fixtures" / "games" / "ticket_to_ride", folder)
    setup = folder / "setup.yaml"
    original = setup.read_text(encoding="utf-8")
    setup.write_text(original.replace('quote: "a starting hand of 4 cards"', 'quote: "a starting hand of four cards"'),
                     encoding="utf-8")
    assert not any("does not state" in f["message"] for f in _verify_numbers(folder, tmp_path / "a"))
    setup.write_text(original.replace('quote: "a starting hand of 4 cards"', 'quote: "a starting hand of five cards"'),
                     encoding="utf-8")
    findings = _verify_numbers(folder, tmp_path / "b")
    assert any('the quote "a starting hand of five cards" does not state 4' in f["message"] for f in findings), findings
