"""``verify --jobs``: the Monte Carlo split over processes gives the same report as one process.

Trials run in fixed blocks, each with its own seed derived from ``--seed``, so the split over processes
cannot change a count. 1,200 trials make two whole blocks and a short one.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import ROOT, run_cli

LOVE_LETTER = ROOT / "tests" / "fixtures" / "games" / "love_letter"


def _verify(out: Path, *flags: str) -> tuple[str, str]:
    done = run_cli("verify", str(LOVE_LETTER), "--json", "--trials", "1200", "--cross-check", "--out", str(out), *flags)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout, (out / "love_letter" / "verify.md").read_text()


def test_verify_jobs_1_2_and_3_give_byte_identical_results(tmp_path: Path) -> None:
    one = _verify(tmp_path / "one", "--jobs", "1")
    assert _verify(tmp_path / "two", "--jobs", "2") == one
    assert _verify(tmp_path / "three", "--jobs", "3") == one
    events = [e for r in json.loads(one[0]) for e in r["events"]]
    assert events and all(e["trials"] == 1200 for e in events)
    assert len({e["hits"] for e in events}) > 1  # real counts, not one constant


def test_another_seed_gives_other_counts(tmp_path: Path) -> None:
    first = json.loads(_verify(tmp_path / "a", "--jobs", "2")[0])
    other = json.loads(_verify(tmp_path / "b", "--jobs", "2", "--seed", "7")[0])
    hits = [[e["hits"] for e in r["events"]] for r in first]
    assert hits != [[e["hits"] for e in r["events"]] for r in other]


def test_verify_jobs_must_be_a_count(tmp_path: Path) -> None:
    done = run_cli("verify", str(LOVE_LETTER), "--jobs", "-1", "--out", str(tmp_path))
    assert done.returncode == 2 and "--jobs" in done.stderr and "Traceback" not in done.stderr
