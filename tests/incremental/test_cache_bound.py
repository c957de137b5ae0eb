"""The user's cache folder stays under its bound: the least recently used files go first, down to 80 % of it;
the folder is measured at most once an hour; a CLI run over the bound trims it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from punchboard.incremental import cache_bound
from punchboard.incremental.cache_bound import DEFAULT_LIMIT, limit_from, trim, trim_now_and_then
from tests.conftest import ROOT, run_cli


def _file(root: Path, name: str, size: int, used: float) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    os.utime(path, (used, used))
    return path


def test_the_least_recently_used_go_first_down_to_80_percent(tmp_path: Path):
    old = [_file(tmp_path, f"parsed/a{n}", 100, 1000 + n) for n in range(5)]
    new = [_file(tmp_path, f"looks/b{n}", 100, 5000 + n) for n in range(5)]
    assert trim(tmp_path, 1000) == 0  # at the bound: nothing goes
    removed = trim(tmp_path, 900)
    assert removed == 300  # 1000 bytes down to at most 720
    assert [p.exists() for p in old] == [False, False, False, True, True]
    assert all(p.exists() for p in new)


def test_a_file_read_lately_is_kept_over_one_written_lately(tmp_path: Path):
    read = _file(tmp_path, "a", 100, 1000)
    os.utime(read, (9000, 1000))  # read at 9000, written at 1000
    written = _file(tmp_path, "b", 100, 5000)
    trim(tmp_path, 150)
    assert read.exists() and not written.exists()


def test_empty_folders_go_and_the_stamp_stays(tmp_path: Path):
    _file(tmp_path, "geometry/deep/a", 500, 1000)
    assert trim_now_and_then(tmp_path, 100, now=10_000) == 500
    assert not (tmp_path / "geometry").exists() and (tmp_path / cache_bound.STAMP).exists()


def test_the_folder_is_measured_at_most_once_an_hour(tmp_path: Path):
    _file(tmp_path, "a", 500, 1000)
    assert trim_now_and_then(tmp_path, 10_000, now=10_000) == 0
    _file(tmp_path, "b", 9_000, 2000)
    newest = _file(tmp_path, "c", 1_000, 3000)
    assert trim_now_and_then(tmp_path, 10_000, now=10_000 + cache_bound.EVERY - 1) == 0
    assert trim_now_and_then(tmp_path, 10_000, now=10_000 + cache_bound.EVERY) == 9_500  # the two older files
    assert newest.exists()
    assert trim_now_and_then(tmp_path, 0, now=99_999) == 0  # 0: no bound


@pytest.mark.parametrize(("text", "limit"), [
    (None, DEFAULT_LIMIT), ("", DEFAULT_LIMIT), ("200MB", 200_000_000), ("1GiB", 2**30), ("0", 0), ("12345", 12345),
    ("lots", DEFAULT_LIMIT), ("5 parsecs", DEFAULT_LIMIT),
])
def test_the_bound_is_read_from_the_environment(text: str | None, limit: int):
    assert limit_from(text) == limit


def test_a_command_trims_a_cache_folder_over_its_bound(tmp_path: Path):
    cache = tmp_path / "cache"
    stale = _file(cache, "parsed/zz/stale", 3_000_000, 1000)
    result = run_cli("check", str(ROOT / "components" / "belpunk"), "--quiet",
                     env={"PUNCHBOARD_CACHE_DIR": str(cache), "PUNCHBOARD_CACHE_LIMIT": "2MB"})
    assert result.returncode == 0, result.stderr
    assert not stale.exists()
    assert sum(p.stat().st_size for p in cache.rglob("*") if p.is_file()) <= 2_000_000
