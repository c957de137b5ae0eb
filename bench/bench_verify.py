"""Verifier speed: ``punchboard verify`` of Steam Court (every player count, the default 2,000 Monte Carlo
trials, each a re-run of the whole setup from scratch) from the CLI, against the 1 s target set when a trial
only re-dealt one deck, and static verification of every bundled game."""

from __future__ import annotations

from bench.measure import HEAVY_REPEATS, REPEATS, Series, execute, punchboard, row

TRIALS = 2_000


def run() -> list[dict[str, str]]:
    verify = punchboard("verify", "steam_court", "--trials", str(TRIALS), "--out", "bench/.work/verify")
    monte_carlo = Series([execute(verify).wall for _ in range(HEAVY_REPEATS)])
    static = Series([execute(punchboard("verify", "--trials", "0", "--out", "bench/.work/verify")).wall for _ in range(REPEATS)])
    return [
        row(f"`verify` Steam Court (every count, {TRIALS:,} whole-setup re-runs each)", monte_carlo.spread(),
            f"{monte_carlo.median:.2f} × the 1 s target", "≤ 1 s"),
        row("`verify` all bundled games, static (--trials 0)", static.spread(), "", ""),
    ]
