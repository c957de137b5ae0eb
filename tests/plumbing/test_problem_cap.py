"""A load's problems are capped (plumbing/errors.py ``capped``): the first MAX_SHOWN, then one located line that
counts the rest, so a file with thousands of mistakes prints a screenful, not thousands of lines."""

from __future__ import annotations

from pathlib import Path

from punchboard.cli import EXIT_INPUT, main
from punchboard.plumbing.errors import MAX_SHOWN, Problem, SpecError, capped

GAME = "id: mini\ntitle: Mini\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
DECK = "id: cards\nkind: deck\nsize: poker\nlayout: base/card\nfields: [value, text]\ncards:\n"


def test_a_component_with_300_bad_entries_prints_50_problems_and_counts_the_rest(tmp_path: Path, monkeypatch, capsys):
    game = tmp_path / "many"
    game.mkdir()
    (game / "game.yaml").write_text(GAME)
    (game / "cards.yaml").write_text(DECK + "".join(f"  - {{name: C{i}, value: 1, count: 0}}\n" for i in range(300)))
    monkeypatch.chdir(tmp_path)
    for verb in ("check", "build"):
        code = main([verb, "many", "--out", str(tmp_path / "out")] if verb == "build" else [verb, "many"])
        lines = capsys.readouterr().err.splitlines()
        assert code == EXIT_INPUT
        assert len(lines) == MAX_SHOWN + 1 == 51
        assert lines[0] == "many/cards.yaml:7:33: count must be a positive integer, got 0"
        assert lines[MAX_SHOWN - 1] == "many/cards.yaml:56:34: count must be a positive integer, got 0"
        assert lines[-1] == "many/cards.yaml:57:34: … and 250 more problems not shown"


def _problems(file: str, count: int) -> list[Problem]:
    return [Problem(file, line, 1, f"wrong {line}") for line in range(1, count + 1)]


def test_capped_lists_merged_count_what_each_left_out():
    first = SpecError(_problems("a.yaml", 80)).problems  # 50 shown, 30 counted
    second = SpecError(_problems("b.yaml", 70)).problems  # 50 shown, 20 counted
    merged = capped(first + second)
    assert len(merged) == MAX_SHOWN + 1
    assert merged[:MAX_SHOWN] == _problems("a.yaml", 50)
    assert merged[-1] == Problem("b.yaml", 1, 1, f"… and {30 + 50 + 20:,} more problems not shown")


def test_few_problems_are_all_shown_sorted_once_each():
    problems = _problems("c.yaml", 3)
    assert capped([*reversed(problems), problems[0]]) == problems
    assert capped(_problems("c.yaml", MAX_SHOWN + 1))[-1] == Problem("c.yaml", 51, 1, "… and 1 more problem not shown")
