"""The bad-input corpus: every case gives its exact ``file:LINE:COL`` problems and exit 2.

Each folder under ``tests/bad_inputs/`` is a small game (or a broken part of one) with
``expected.txt``: the exact stderr, ``{dir}`` standing for the case folder as the
user typed it. ``args.txt`` (optional) holds the command line; the default is
``check {dir}``; ``{out}`` is a fresh output folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.cli import EXIT_INPUT, main
from tests.conftest import ROOT, run_cli

CORPUS = ROOT / "tests" / "bad_inputs"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").is_file())


def _expand(text: str, case: str, out: Path) -> str:
    return text.replace("{dir}", f"tests/bad_inputs/{case}").replace("{out}", str(out))


def _command(case: str, out: Path) -> list[str]:
    args_file = CORPUS / case / "args.txt"
    template = args_file.read_text().strip() if args_file.is_file() else "check {dir}"
    return [_expand(arg, case, out) for arg in template.split()]


def test_corpus_is_large_and_every_case_has_its_expected_output():
    folders = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    assert len(CASES) >= 50
    assert folders == CASES, f"cases without expected.txt: {sorted(set(folders) - set(CASES))}"


@pytest.mark.parametrize("case", CASES)
def test_bad_input_gives_exact_problems_and_exit_2(case: str, tmp_path: Path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    code = main(_command(case, tmp_path / "out"))
    captured = capsys.readouterr()
    expected = _expand((CORPUS / case / "expected.txt").read_text(encoding="utf-8"), case, tmp_path / "out")
    assert captured.err == expected
    assert code == EXIT_INPUT
    assert captured.out == ""
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("case", ["syntax_unclosed_quote", "limit_alias_bomb", "csv_not_utf8", "card_larger_than_paper"])
def test_bad_input_in_a_real_process_has_no_traceback(case: str, tmp_path: Path):
    result = run_cli(*_command(case, tmp_path / "out"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    expected = _expand((CORPUS / case / "expected.txt").read_text(encoding="utf-8"), case, tmp_path / "out")
    assert result.stderr == expected
