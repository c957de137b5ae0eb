"""``--jobs``: components drawn in several processes give the same files as one process."""

from __future__ import annotations

from pathlib import Path

from tests.build_helpers import build, make_game, outputs


def _drawn(folder: Path) -> dict[str, bytes]:
    """The PDFs and the bill of materials (print records carry the time they were made)."""
    return {name: data for name, data in outputs(folder).items() if name.endswith((".pdf", ".json")) and "/" not in name}


def test_jobs_2_writes_byte_identical_files_to_jobs_1(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    one = build(game, tmp_path / "one", "--jobs", "1", "--force")
    two = build(game, tmp_path / "two", "--jobs", "2", "--force")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    first = _drawn(tmp_path / "one" / "tiny")
    assert {"cards.pdf", "tokens.pdf", "tiny-print-and-play.pdf", "bom.json"} <= set(first)
    assert _drawn(tmp_path / "two" / "tiny") == first
    assert one.stderr == two.stderr  # the same warnings, in the same order


def test_jobs_must_be_a_count(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    result = build(game, tmp_path / "out", "--jobs", "many")
    assert result.returncode == 2
    assert "--jobs" in result.stderr and "many" in result.stderr
