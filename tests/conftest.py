from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed CLI as a user would, in a subprocess."""
    env = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "punchboard", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=600,
    )


@pytest.fixture
def cli():
    return run_cli
