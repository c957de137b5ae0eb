"""The bad-input corpus: every case gives its exact ``file:LINE:COL`` problems and exit 2.

Each folder under ``tests/bad_inputs/`` is a small game (or a broken part of one) with
``expected.txt``: the exact stderr, ``{dir}`` standing for the case folder as the
user typed it. ``args.txt`` (optional) holds the command line; the default is
``check {dir}``; ``{out}`` is a fresh output folder.
"""

from __future__ import annotations

import re
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


# Every line is a located problem, or a flag (or TARGET) problem named after the verb.
LOCATED = re.compile(r"^\{dir\}/[^:\s]+:\d+:\d+: \S")
FLAG = re.compile(r"^punchboard( [a-z]+)?: (--[a-z-]+|TARGET|unrecognized arguments): \S")
# The kinds of input the corpus must cover, each by the files or flags its cases break.
KINDS = {
    "game": lambda case: (CORPUS / case / "expected.txt").read_text().startswith("{dir}/game.yaml:"),
    "component": lambda case: "{dir}/cards.yaml:" in (CORPUS / case / "expected.txt").read_text(),
    "layout": lambda case: "{dir}/layouts/" in (CORPUS / case / "expected.txt").read_text(),
    "setup": lambda case: "{dir}/setup.yaml:" in (CORPUS / case / "expected.txt").read_text(),
    "csv": lambda case: ".csv:" in (CORPUS / case / "expected.txt").read_text(),
    "image": lambda case: case.startswith("image_"),
    "font": lambda case: case.startswith("font_"),
    "svg": lambda case: case.startswith("svg_"),
    "paper": lambda case: "--paper" in (CORPUS / case / "expected.txt").read_text(),
    "flag": lambda case: (CORPUS / case / "expected.txt").read_text().startswith("punchboard "),
}


def test_corpus_is_large_and_every_case_has_its_expected_output():
    folders = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
    assert len(CASES) >= 150
    assert folders == CASES, f"cases without expected.txt: {sorted(set(folders) - set(CASES))}"
    counts = {kind: sum(1 for case in CASES if covers(case)) for kind, covers in KINDS.items()}
    assert all(n >= 2 for n in counts.values()), counts


@pytest.mark.parametrize("case", CASES)
def test_every_expected_line_is_located_or_names_its_flag(case: str):
    lines = (CORPUS / case / "expected.txt").read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        assert LOCATED.match(line) or FLAG.match(line), line
        assert "Traceback" not in line


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


CHECK_CASES = [case for case in CASES if not (CORPUS / case / "args.txt").is_file()]


@pytest.mark.parametrize("case", CHECK_CASES)
def test_build_refuses_what_check_refuses_with_the_same_problems(case: str, tmp_path: Path, monkeypatch, capsys):
    """``check`` rejects everything ``build`` would reject, and ``build`` says so the same way, before writing."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "out"
    code = main(["build", f"tests/bad_inputs/{case}", "--out", str(out), "--quiet"])
    captured = capsys.readouterr()
    assert captured.err == _expand((CORPUS / case / "expected.txt").read_text(encoding="utf-8"), case, out)
    assert code == EXIT_INPUT
    assert not out.exists() or not any(out.rglob("*.pdf"))


@pytest.mark.parametrize("case", [
    "syntax_unclosed_quote", "limit_alias_bomb", "csv_not_utf8", "card_larger_than_paper", "yaml_deep_nesting",
    "font_truncated", "image_corrupt_pixel_data", "svg_billion_laughs", "when_is", "flag_paper_unknown",
    "flag_out_is_a_file", "csv_count_thousands_of_digits",
])
def test_bad_input_in_a_real_process_has_no_traceback(case: str, tmp_path: Path):
    result = run_cli(*_command(case, tmp_path / "out"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    expected = _expand((CORPUS / case / "expected.txt").read_text(encoding="utf-8"), case, tmp_path / "out")
    assert result.stderr == expected
