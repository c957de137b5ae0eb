"""punchboard as a user installs it: a wheel in a fresh virtual environment outside the repository.

The wheel is built from a copy of the source tree, installed with its dependencies into a new
venv, and every command runs from a third folder, so nothing can be found relative to the
repository or picked up from the editable install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from tests.conftest import ROOT

SKIP_DIRS = {".venv", ".git", "output", "build", "dist", ".pytest_cache", ".ruff_cache", "__pycache__", "tests", "bench"}


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1), f"{args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONHASHSEED"] = "0"
    return env


@pytest.mark.slow
def test_wheel_installs_and_works_from_anywhere(tmp_path: Path):
    env = _clean_env()
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=lambda _d, names: [n for n in names if n in SKIP_DIRS or n.endswith(".egg-info")])
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(wheels)], tmp_path, env)
    (wheel,) = wheels.glob("punchboard-*.whl")

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(wheel)], tmp_path, env)
    punchboard = str(env_dir / "bin" / "punchboard")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert _run([punchboard, "--version"], elsewhere, env).stdout.strip() == f"punchboard {version}"

    # the game folder the user starts is built and verified from here, into an output folder here
    assert "wrote a starter game" in _run([punchboard, "init", "newgame"], elsewhere, env).stdout
    build = _run([punchboard, "build", "newgame", "--out", "out"], elsewhere, env)
    assert build.returncode == 0, build.stderr
    for name in ("deck.pdf", "coins.pdf", "board.pdf", "newgame-print-and-play.pdf"):
        assert (elsewhere / "out" / "newgame" / name).read_bytes().startswith(b"%PDF"), name
    verify = _run([punchboard, "verify", "newgame", "--out", "out"], elsewhere, env)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "pass" in verify.stdout and "fail" not in verify.stdout

    # the bundled games ship inside the package
    listed = _run([punchboard, "list"], elsewhere, env).stdout
    bundled = sorted(p.parent.name for p in (ROOT / "components").glob("*/game.yaml"))
    assert len(bundled) == 6  # the five games and the showcase
    assert sorted(line.split()[0] for line in listed.splitlines() if line.strip()) == bundled
    assert _run([punchboard, "check", "steam_court"], elsewhere, env).returncode == 0

    # the studio page's assets ship as package data
    assets = _run([str(python), "-c", "from punchboard.studio.server import static_file; "
                   "print(*(len(static_file(n)) > 0 for n in ('index.html', 'studio.js', 'studio.css')))"], elsewhere, env)
    assert assets.stdout.split() == ["True", "True", "True"]

    # punchboard comes from the venv, and the generic names are not installed
    where = _run([str(python), "-c", "import punchboard.generator as g, punchboard.verifier as v; print(g.__file__); print(v.__file__)"], elsewhere, env)
    for line in where.stdout.split():
        assert Path(line).is_relative_to(env_dir), line
    for generic in ("generator", "verifier"):
        result = subprocess.run([str(python), "-c", f"import {generic}"], cwd=elsewhere, env=env, capture_output=True, text=True)
        assert result.returncode != 0 and "ModuleNotFoundError" in result.stderr, generic
