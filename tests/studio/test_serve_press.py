"""``serve --colour cmyk --pdfx 1a``: the studio writes the press files a build with the same options writes (PDF/X-1a,
no RGB left, read by the structural check of tests/generator/press), on its first build and on every save; ``--pdfx 1a`` with ``--colour rgb`` is refused before serving (exit 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.generator.press.pdfx_check import problems

from .conftest import start_serve
from .tiny_game import write_deck, write_game


def test_serve_writes_the_press_files_with_the_build_options(tmp_path: Path):
    game = write_game(tmp_path / "tiny")
    out = tmp_path / "out"
    served = start_serve(game, out, "--colour", "cmyk", "--pdfx", "1a", cwd=tmp_path)
    try:
        served.wait_for(lambda s: s["status"] == "ok")
        press = sorted((out / "tiny" / "press").glob("*.pdf"))
        assert press, served.lines
        first = {path.name: path.stat().st_mtime_ns for path in press}
        assert {path.name: problems(path) for path in press} == {path.name: [] for path in press}  # PDF/X-1a, no RGB
        write_deck(game, "A lantern that burns all night.")
        served.wait_for(lambda s: s["status"] == "ok" and any(
            (out / "tiny" / "press" / name).stat().st_mtime_ns != stamp for name, stamp in first.items()))
    finally:
        assert served.stop() == 0


def test_serve_refuses_press_options_that_contradict_each_other(tmp_path: Path):
    game = write_game(tmp_path / "tiny")
    result = subprocess.run([sys.executable, "-m", "punchboard", "serve", str(game), "--out", str(tmp_path / "out"),
                             "--colour", "rgb", "--pdfx", "1a"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 2 and "PDF/X-1a files are CMYK" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
