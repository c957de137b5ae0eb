"""The output folder: one build at a time, clean messages when it cannot be written, earlier outputs kept."""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

from tests.cli.minigame import write_game
from tests.conftest import ROOT, run_cli

CAP_DAC_OVERRIDE, PR_CAPBSET_DROP = 1, 24
PAPER_POINTS = {"letter": (612, 792), "a4": (595, 842)}


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONHASHSEED="0")


def _build(*args: str, preexec_fn=None, cwd: Path = ROOT) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "punchboard", "build", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=_env(), preexec_fn=preexec_fn,
    )


def _page_sizes(pdf: Path) -> set[tuple[int, int]]:
    return {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in PdfReader(pdf).pages}


def _problems(stderr: str) -> list[str]:
    """stderr without the ``[i/n] component`` progress lines a build prints when stderr is not a terminal."""
    return [line for line in stderr.splitlines() if not line.startswith("[")]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_concurrent_builds_into_one_folder_never_mix_paper_sizes(tmp_path: Path):
    game = write_game(tmp_path / "game", extra_decks=8)  # long enough for two unlocked builds to interleave
    out = tmp_path / "out"
    runs = [_build(str(game), "--out", str(out), "--paper", paper) for paper in ("letter", "a4")]
    results = [(run.wait(timeout=300), *run.communicate()) for run in runs]
    for code, _stdout, stderr in results:
        assert code == 0, stderr
        assert "Traceback" not in stderr
    pdfs = sorted((out / "mini").glob("*.pdf"))
    assert {p.name for p in pdfs} >= {"cards.pdf", "chits.pdf", "mini-print-and-play.pdf"}
    sizes = set().union(*(_page_sizes(pdf) for pdf in pdfs))
    assert sizes in ({PAPER_POINTS["letter"]}, {PAPER_POINTS["a4"]}), f"mixed paper sizes in one output folder: {sizes}"


def test_a_second_build_waits_for_the_first_and_says_so(tmp_path: Path):
    game = write_game(tmp_path / "game")
    out = tmp_path / "out"
    out.mkdir()
    # Another writer holds the lock until told to let go (its stdin closes).
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT);"
         " fcntl.flock(fd, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()",
         str(out / ".punchboard.lock")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        build = _build(str(game), "--out", str(out))
        assert build.stderr is not None
        first = build.stderr.readline()  # blocks until the build says something, or ends
        assert not (out / "mini").exists(), "the build wrote while another held the folder"
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
    code = build.wait(timeout=300)
    _stdout, rest = build.communicate()
    assert first == f"waiting: another punchboard is writing into {out}; this one starts when it ends\n", first + rest
    assert code == 0, rest
    assert (out / "mini" / "mini-print-and-play.pdf").is_file()


def test_out_naming_a_file_is_a_flag_error(tmp_path: Path):
    game = write_game(tmp_path / "game")
    (tmp_path / "notes.txt").write_text("keep me")
    result = run_cli("build", str(game), "--out", str(tmp_path / "notes.txt"))
    assert result.returncode == 2
    assert result.stderr == (
        f"punchboard build: --out: '{tmp_path / 'notes.txt'}' is a file, not a folder; "
        "expected a folder or a path where one can be made\n"
    )
    assert (tmp_path / "notes.txt").read_text() == "keep me"
    result = run_cli("build", str(game), "--out", str(tmp_path / "notes.txt" / "sub"))
    assert result.returncode == 2 and result.stderr.startswith("punchboard build: --out: cannot write")


def _obey_file_permissions() -> None:
    """Root writes into read-only folders (CAP_DAC_OVERRIDE); drop that power, for this process and what it
    executes, so 0o555 means read-only as it does for every other user."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_read_only_output_folder_is_a_clean_error_and_keeps_earlier_outputs(tmp_path: Path):
    game = write_game(tmp_path / "game")
    out = tmp_path / "out"
    first = _build(str(game), "--out", str(out))
    assert first.wait(timeout=300) == 0, first.communicate()
    before = _snapshot(out)
    for folder in (out, out / "mini"):
        folder.chmod(0o555)
    run = _build(str(game), "--out", str(out), "--force", preexec_fn=_obey_file_permissions)
    code = run.wait(timeout=300)
    _stdout, stderr = run.communicate()
    for folder in (out, out / "mini"):
        folder.chmod(0o755)
    assert code == 2, stderr
    assert len(_problems(stderr)) == 1, stderr
    problem = _problems(stderr)[0]
    assert problem.startswith(f"punchboard build: --out: cannot write '{out / 'mini'}/"), stderr
    assert "permission denied; expected a writable folder" in problem and "earlier outputs are kept" in problem
    assert ".part" not in problem, "the message names the output, not its temporary file"
    assert _snapshot(out) == before


def _small_disk() -> None:
    """Files may grow to 20 kB only, as on a full disk (writes fail with EFBIG instead of ENOSPC)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))


def test_full_disk_is_a_clean_error_and_keeps_earlier_outputs(tmp_path: Path):
    game = write_game(tmp_path / "game")
    out = tmp_path / "out"
    first = _build(str(game), "--out", str(out))
    assert first.wait(timeout=300) == 0, first.communicate()
    before = _snapshot(out)
    run = _build(str(game), "--out", str(out), "--force", "--paper", "a4", preexec_fn=_small_disk)
    code = run.wait(timeout=300)
    _stdout, stderr = run.communicate()
    assert code == 2, stderr
    assert len(_problems(stderr)) == 1, stderr
    problem = _problems(stderr)[0]
    assert problem.startswith(f"punchboard build: --out: cannot write '{out / 'mini'}/"), stderr
    assert "disk or quota full?" in problem and "earlier outputs are kept" in problem
    assert "Traceback" not in stderr
    assert _snapshot(out) == before, "a failed build changed earlier outputs or left temporary files"
