"""Atomic outputs: a build killed halfway leaves every output complete — the old one or the new one.

The kill is injected, not timed: ``PUNCHBOARD_TEST_KILL_AT_WRITE=N`` makes the build
SIGKILL itself halfway through writing its N-th file (see ``punchboard.plumbing.atomicio``).
With ``--jobs 2`` each process counts its own writes: the tiny game's two components are
written by two workers (their first writes), then the parent writes the combined PDF and
the rest. A killed worker fails the build with exit 3 and says so; a killed parent leaves
no worker behind holding the output folder's lock or the caller's pipes (that hung once).
"""

from __future__ import annotations

import io
import shutil
import signal
from pathlib import Path

import pytest
from pypdf import PdfReader

from punchboard.plumbing.atomicio import KILL_AT_WRITE_ENV
from tests.build_helpers import build, make_game, outputs


def _complete_pdf(data: bytes) -> bool:
    return data.rstrip().endswith(b"%%EOF") and len(PdfReader(io.BytesIO(data)).pages) > 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_killed_build_leaves_previous_or_new_outputs_never_truncated_ones(tmp_path: Path, jobs: str):
    game = make_game(tmp_path / "tiny")
    first = tmp_path / "first"
    assert build(game, first).returncode == 0
    old = outputs(first / "tiny")
    (game / "cards.csv").write_text((game / "cards.csv").read_text().replace("Hello", "Changed"))
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("Tiny", "Tiny II"))
    reference = tmp_path / "reference"
    assert build(game, reference).returncode == 0
    new = outputs(reference / "tiny")
    assert set(new) == set(old) and new["cards.pdf"] != old["cards.pdf"]

    for kill_at in (1, 3):
        out = tmp_path / f"killed_at_{kill_at}"
        shutil.copytree(first, out)
        result = build(game, out, "--force", "--jobs", jobs, env={KILL_AT_WRITE_ENV: str(kill_at)})
        killed_worker = jobs == "2" and kill_at == 1
        if killed_worker:
            assert result.returncode == 3, result.stderr
            assert "worker process was killed (SIGKILL" in result.stderr and "Traceback" not in result.stderr
        else:
            assert result.returncode == -signal.SIGKILL, result.stderr
        now = outputs(out / "tiny")
        assert set(now) == set(old)
        for name, data in now.items():
            assert data in (old[name], new[name]), f"{name} is neither the old nor the new output"
            if name.endswith(".pdf"):
                assert _complete_pdf(data), name
        replaced = [name for name in now if now[name] != old[name]]
        # each process counts its own writes: with --jobs 2 the workers wrote the two component PDFs first
        assert len(replaced) <= kill_at - 1 + (2 if jobs == "2" and not killed_worker else 0)
        if kill_at > 1:
            assert replaced, "the files written before the kill were not replaced"
        leftovers = [p.name for p in (out / "tiny").iterdir() if p.name.endswith(".part")]
        # both workers may have died mid-write before the parent stopped the pool
        assert 1 <= len(leftovers) <= (2 if killed_worker else 1) and all(n.startswith(".") for n in leftovers)

        assert build(game, out, "--force").returncode == 0
        assert outputs(out / "tiny") == new
        assert not [p.name for p in (out / "tiny").iterdir() if p.name.endswith(".part")], "the next build clears leftovers"


def test_a_failed_build_keeps_the_previous_outputs(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    out = tmp_path / "out"
    assert build(game, out).returncode == 0
    old = outputs(out / "tiny")
    (game / "tokens.yaml").write_text((game / "tokens.yaml").read_text().replace("20mm", "400mm"))
    result = build(game, out, "--force")
    assert result.returncode == 2 and "does not fit" in result.stderr and "Traceback" not in result.stderr
    assert outputs(out / "tiny") == old


def test_a_cache_is_replaced_whole_and_is_not_a_counted_output(tmp_path: Path, monkeypatch):
    """``write_cache`` (kept looks, layout digests, colour figures): renamed over the old file, nothing left
    beside it, and never the write the kill-at-write injection stops at (the outputs' counts stay theirs)."""
    from punchboard.plumbing import atomicio

    target = tmp_path / "cache" / "deck.looks"
    atomicio.write_cache(target, b"old")
    monkeypatch.setenv(KILL_AT_WRITE_ENV, "1")
    monkeypatch.setattr(atomicio, "_writes", 0)
    atomicio.write_cache(target, b"new and longer")
    assert target.read_bytes() == b"new and longer" and atomicio._writes == 0
    assert [p.name for p in target.parent.iterdir()] == ["deck.looks"]
