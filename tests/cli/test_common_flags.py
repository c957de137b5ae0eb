"""Every verb takes --quiet and --verbose, every verb that writes files takes --out, and long work shows progress."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from punchboard.cli import build_parser
from tests.conftest import ROOT, run_cli

WRITES_FILES = {"build", "watch", "serve", "verify", "bom", "images", "tts", "preview"}


def _verbs() -> dict[str, object]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "verb")
    return dict(action.choices)  # type: ignore[arg-type]


@pytest.mark.parametrize("verb", sorted(_verbs()))
def test_every_verb_has_quiet_and_verbose_and_writers_have_out(verb):
    options = {flag for action in _verbs()[verb]._actions for flag in action.option_strings}  # type: ignore[attr-defined]
    assert {"--quiet", "-q", "--verbose", "-v"} <= options, verb
    if verb in WRITES_FILES:
        assert "--out" in options, verb


def test_quiet_and_verbose_exclude_each_other():
    result = run_cli("check", "steam_court", "--quiet", "--verbose")
    assert result.returncode == 2 and "not allowed with" in result.stderr


@pytest.fixture
def game(tmp_path: Path) -> Path:
    assert run_cli("init", "flags", "--quiet", cwd=tmp_path).returncode == 0
    return tmp_path / "flags"


def test_check_quiet_prints_nothing_and_verbose_names_every_component(game: Path):
    quiet = run_cli("check", str(game), "-q")
    assert (quiet.returncode, quiet.stdout) == (0, "")
    verbose = run_cli("check", str(game), "-v")
    assert verbose.returncode == 0
    assert [line.split(":")[0].strip() for line in verbose.stdout.splitlines()[1:]] == ["deck", "coins", "board"]


def test_build_progress_lines_when_not_a_terminal_and_quiet_silences_them(game: Path, tmp_path: Path):
    plain = run_cli("build", str(game), "--out", str(tmp_path / "a"), "--backs", "none")
    assert plain.returncode == 0, plain.stderr
    # only progress: the auto bleed policy's shared cut lines are a note in the BOM, not a warning (README, "Bleed")
    assert [line.split()[0] for line in plain.stderr.splitlines()] == ["[1/3]", "[2/3]", "[3/3]"]
    assert "flags: deck" in plain.stderr and plain.stdout.startswith("flags: rendered deck, coins, board")

    quiet = run_cli("build", str(game), "--out", str(tmp_path / "b"), "--backs", "none", "--quiet")
    assert (quiet.returncode, quiet.stdout) == (0, "")
    assert quiet.stderr.splitlines() == []
    assert (tmp_path / "b" / "flags" / "deck.pdf").is_file()

    verbose = run_cli("build", str(game), "--out", str(tmp_path / "b"), "--backs", "none", "--verbose")
    listed = [Path(line.split()[1]) for line in verbose.stdout.splitlines() if line.startswith("  reused ")]
    assert sorted(p.name for p in listed) == ["board.pdf", "coins.pdf", "deck.pdf"]
    assert all(p.is_file() for p in listed)


def test_build_shows_a_progress_bar_on_a_terminal(game: Path, tmp_path: Path):
    leader, follower = os.openpty()
    env = dict(os.environ, COLUMNS="100", TERM="xterm")
    process = subprocess.Popen(
        [sys.executable, "-m", "punchboard", "build", str(game), "--out", str(tmp_path / "out"), "--backs", "none"],
        stdout=follower, stderr=follower, cwd=ROOT, env=env,
    )
    os.close(follower)
    shown = b""
    try:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the build is done
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert process.wait(timeout=300) == 0
    text = shown.decode("utf-8", "replace")
    assert "━" in text and "[1/3]" not in text, text  # a bar, not the plain lines
    assert "flags: rendered deck, coins, board" in text


def test_bom_out_writes_json_and_markdown(tmp_path: Path):
    out = tmp_path / "bom"
    result = run_cli("bom", "steam_court", "--out", str(out), "--quiet")
    assert (result.returncode, result.stdout) == (0, "")
    printed = json.loads(run_cli("bom", "steam_court", "--json").stdout)
    assert json.loads((out / "bom.json").read_text(encoding="utf-8")) == printed
    markdown = (out / "bom.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Steam Court: bill of materials")
    assert "| 168 (2 × 84) | Gear deck | deck | two |" in markdown


def test_verify_quiet_prints_only_failures(game: Path, tmp_path: Path):
    passing = run_cli("verify", str(game), "--out", str(tmp_path / "out"), "--quiet", "--trials", "0")
    assert (passing.returncode, passing.stdout) == (0, "")
    setup = game / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("count: 5}", "count: 12}"), encoding="utf-8")
    failing = run_cli("verify", str(game), "--out", str(tmp_path / "out"), "--quiet", "--trials", "0")
    assert failing.returncode == 1
    assert failing.stdout and all(line.startswith("flags") for line in failing.stdout.splitlines())
    assert "FAIL" in failing.stdout and "short by" in failing.stdout
