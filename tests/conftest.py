from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed CLI as a user would, in a subprocess (``env``: variables set besides this process's)."""
    env = dict(os.environ, PYTHONHASHSEED="0", COLUMNS="120", **(env or {}))
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


@pytest.fixture(autouse=True)
def _loads_kept_only_within_a_test():
    """A test that runs ``watch`` or ``serve`` in-process turns on keeping parsed and loaded files for the rest of
    the process (punchboard/incremental/loads.py, generator/document/merge.py's kept copies); each test starts as a new
    process would, with nothing kept."""
    from punchboard.generator.document import merge

    from punchboard.incremental import loads as kept
    from punchboard.spec import yamlsource

    parsed, loaded, copied = yamlsource._parsed, kept._kept, merge._kept
    yamlsource._parsed, kept._kept, merge._kept = None, None, None
    yield
    yamlsource._parsed, kept._kept, merge._kept = parsed, loaded, copied


@pytest.fixture(autouse=True, scope="session")
def _a_cache_folder_of_the_sessions_own(tmp_path_factory: pytest.TempPathFactory):
    """What punchboard remembers in the user's cache folder (verdicts, parsed YAML, token geometry, ``check``'s
    kept sides) goes to a folder of this test session's own, for the commands it runs in-process and in
    subprocesses alike: the tests leave the developer's cache as it was, and start from an empty one."""
    folder = tmp_path_factory.mktemp("punchboard-cache")
    before = os.environ.get("PUNCHBOARD_CACHE_DIR")
    os.environ["PUNCHBOARD_CACHE_DIR"] = str(folder)
    yield
    if before is None:
        os.environ.pop("PUNCHBOARD_CACHE_DIR", None)
    else:
        os.environ["PUNCHBOARD_CACHE_DIR"] = before
