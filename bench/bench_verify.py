"""Verifier speed: ``punchboard verify`` of Steam Court (every player count) from the CLI, by default (every
event there has an exact figure, so no Monte Carlo runs) and with ``--cross-check`` (the default 2,000
whole-setup re-runs per cell for every event), against the 1 s target set when a trial only re-dealt one
deck; the verify work itself on one core (in-process, after loading), against issue #22's 0.3 s; and static
verification of every bundled game."""

from __future__ import annotations

import time
from pathlib import Path

from bench.measure import HEAVY_REPEATS, REPEATS, ROOT, Series, execute, punchboard, row

TRIALS = 2_000


def _in_process() -> float:
    """``verify_game`` of Steam Court with the defaults on one core (``jobs=1``), the game already loaded."""
    from punchboard.verifier.engine import verify_game

    from punchboard.spec.loader import load_game

    game = load_game(Path(ROOT / "components" / "steam_court"))
    verify_game(game, jobs=1)  # warm: imports and the schema check are the CLI's, not the verifier's
    start = time.perf_counter()
    verify_game(game, jobs=1)
    return time.perf_counter() - start


def run() -> list[dict[str, str]]:
    default = Series([execute(punchboard("verify", "steam_court", "--jobs", "1", "--out", "bench/.work/verify")).wall for _ in range(REPEATS)])
    work = Series([_in_process() for _ in range(REPEATS)])
    cross = punchboard("verify", "steam_court", "--cross-check", "--trials", str(TRIALS), "--out", "bench/.work/verify")
    monte_carlo = Series([execute(cross).wall for _ in range(HEAVY_REPEATS)])
    static = Series([execute(punchboard("verify", "--trials", "0", "--out", "bench/.work/verify")).wall
                     for _ in range(REPEATS)])
    return [
        row("`verify` Steam Court, default (exact figures, no Monte Carlo needed), one core, CLI", default.spread(), "", ""),
        row("`verify` Steam Court, default, the verifier's own work on one core (in-process)", work.spread(),
            f"{work.median / 0.3:.2f} × the 0.3 s target", "≤ 0.3 s"),
        row(f"`verify --cross-check` Steam Court (every count, {TRIALS:,} whole-setup re-runs each)", monte_carlo.spread(),
            f"{monte_carlo.median:.2f} × the 1 s target", "≤ 1 s"),
        row("`verify` all bundled games, static (--trials 0)", static.spread(), "", ""),
    ]
