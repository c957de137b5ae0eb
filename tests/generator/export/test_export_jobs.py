"""``images`` and ``preview`` split their work by component over --jobs processes: the same files for any N."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build_helpers import make_game
from tests.conftest import run_cli


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("verb", ["images", "preview"])
def test_the_files_are_the_same_for_any_number_of_jobs(tmp_path: Path, verb: str):
    game = make_game(tmp_path / "tiny")
    made = {}
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"out-{jobs}"
        result = run_cli(verb, str(game), "--out", str(out), "--jobs", jobs)
        assert result.returncode == 0, result.stderr
        made[jobs] = _files(out / "tiny")
    assert made["1"] and made["1"] == made["2"] == made["3"]
    components = {"cards", "tokens"}
    if verb == "images":
        assert {name.split("/")[1] for name in made["1"] if name.count("/") == 2} == components
        assert "images/manifest.json" in made["1"]
    else:
        assert set(made["1"]) == {f"preview/{c}.png" for c in components}


def test_a_bad_jobs_value_is_a_flag_error(tmp_path: Path):
    result = run_cli("images", str(make_game(tmp_path / "tiny")), "--jobs", "-2")
    assert result.returncode == 2
    assert "punchboard images: --jobs: expected a number of processes (0 = every core), got '-2'" in result.stderr
