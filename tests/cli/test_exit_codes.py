"""Exit codes as scripts see them: 0 ok, 1 verifier failure, 2 invalid input, 3 internal error (a bug)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import punchboard.generator.build as generator_build
import pytest

from punchboard.cli import EXIT_INPUT, EXIT_INTERNAL, main
from tests.cli.minigame import write_game, write_setup_short_of_cards
from tests.conftest import ROOT, run_cli

CRASH_LINE = re.compile(
    r"^punchboard: internal error \((?P<what>[^)]*)\); this is a bug in punchboard, not in your files; "
    r"the full traceback is saved in (?P<path>\S+) — please report it with that file$"
)


def _crash_report(stderr: str) -> tuple[str, Path]:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    match = CRASH_LINE.match(lines[0])
    assert match, stderr
    return match["what"], Path(match["path"])


def test_help_documents_the_exit_codes():
    result = run_cli("--help")
    assert result.returncode == 0
    for line in ("0    success", "1    the verifier found a failing variant", "2    invalid input", "3    internal error"):
        assert line in result.stdout


def test_an_internal_error_in_process_is_one_line_exit_3_and_a_saved_traceback(tmp_path, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("injected fault")

    monkeypatch.setattr(generator_build, "build_game", broken)
    game = write_game(tmp_path / "game")
    out = tmp_path / "out"
    assert main(["build", str(game), "--out", str(out)]) == EXIT_INTERNAL
    what, saved = _crash_report(capsys.readouterr().err)
    assert what == "RuntimeError: injected fault"
    assert saved.parent == out, "the traceback goes inside the output folder"
    text = saved.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "in broken" in text and "RuntimeError: injected fault" in text


# A real process whose loader has a bug: a function deep in the loader is replaced by one that fails,
# then the CLI's main() runs exactly as the console script runs it.
BUGGY_RUN = """
import sys
import punchboard.spec.loader.game as game
def buggy(*args, **kwargs):
    return {}["no such key"]
game._load_components = buggy
from punchboard.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("with_out", [True, False], ids=["into-out", "no-out-folder"])
def test_an_internal_error_in_a_real_process_exits_3_without_a_traceback(tmp_path: Path, with_out: bool):
    game = write_game(tmp_path / "game")
    temp = tmp_path / "tmp"
    temp.mkdir()
    out = tmp_path / "out"
    argv = ["build", str(game), "--out", str(out)] if with_out else ["check", str(game)]
    result = subprocess.run(
        [sys.executable, "-c", BUGGY_RUN, *argv],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, TMPDIR=str(temp)), timeout=300,
    )
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr
    what, saved = _crash_report(result.stderr)
    assert what == "KeyError: 'no such key'"
    assert saved.parent == (out if with_out else temp)
    assert "in buggy" in saved.read_text(encoding="utf-8")


def test_bad_flags_are_flag_errors_not_file_positions(tmp_path: Path):
    game = write_game(tmp_path / "game")
    cases = {
        ("build", "--paper", "folio"): "punchboard build: --paper: unknown paper 'folio'; expected one of a3,",
        ("build", "--max-pieces", "0"): "punchboard build: --max-pieces: expected a positive whole number",
        ("build", "--duplex-offset", "inf,0"): "punchboard build: --duplex-offset: expected X,Y in millimetres, each from -50 to 50",
        ("images", "--bleed", "nan"): "punchboard images: --bleed: expected a length",
        ("verify", "--trials", "2.5"): "punchboard verify: --trials: expected a whole number, 0 or more",
        ("watch", "--interval", "-1"): "punchboard watch: --interval: expected a number of seconds above 0",
    }
    for (verb, *flags), message in cases.items():
        result = run_cli(verb, str(game), *flags, "--out", str(tmp_path / "out"))
        assert result.returncode == EXIT_INPUT, (flags, result.stderr)
        assert result.stderr.startswith(message), (flags, result.stderr)
        assert len(result.stderr.splitlines()) == 1 and ":1:1:" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_verifier_failure_is_exit_1_and_invalid_input_exit_2(tmp_path: Path):
    game = write_game(tmp_path / "game")
    write_setup_short_of_cards(game)
    result = run_cli("verify", str(game), "--out", str(tmp_path / "out"))
    assert result.returncode == 1, result.stdout + result.stderr
    (game / "cards.yaml").write_text("id: [\n", encoding="utf-8")
    result = run_cli("verify", str(game), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "cards.yaml:" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("verb", [["bom", "steam_court"], ["verify", "steam_court", "--trials", "0"]])
def test_a_reader_that_stops_early_is_not_a_crash(verb, tmp_path):
    """`punchboard … | head`: the pipe closes before the verb has written; no crash report, exit 141."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = ["--out", str(tmp_path)] if verb[0] == "verify" else []
    process = subprocess.Popen(
        [sys.executable, "-m", "punchboard", *verb, *out],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(timeout=300) == 141
    assert "internal error" not in errors and "Traceback" not in errors and "Exception ignored" not in errors
    assert not list(tmp_path.glob("punchboard-crash-*"))


@pytest.mark.parametrize("argv", [["bom", "steam_court"], ["verify", "steam_court", "--trials", "0"], ["check", "nowhere"]])
def test_the_command_leaves_without_tearing_down_yet_flushes_and_runs_exit_handlers(argv, tmp_path):
    """``punchboard`` (cli.run) ends the process without freeing every object: what it printed, its exit code
    and the work of its exit handlers (the remembered colour figures are saved by one) are those of an exit
    that tears the interpreter down."""
    mark = tmp_path / "exit-handler-ran"
    env = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="120")
    out = ["--out", str(tmp_path / "out")] if argv[0] == "verify" else []
    setup = f"import atexit, sys\natexit.register(lambda: open({str(mark)!r}, 'w').write('ran'))\nsys.argv[1:] = {argv + out!r}\n"
    fast = subprocess.run([sys.executable, "-c", setup + "from punchboard.cli import run\nrun()"],
                          capture_output=True, text=True, cwd=ROOT / "components", env=env, timeout=300)
    assert mark.read_text() == "ran"
    mark.unlink()
    slow = subprocess.run([sys.executable, "-c", setup + "from punchboard.cli import main\nsys.exit(main())"],
                          capture_output=True, text=True, cwd=ROOT / "components", env=env, timeout=300)
    assert mark.read_text() == "ran"
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert fast.stdout or fast.stderr
