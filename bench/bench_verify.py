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
PLAYOUTS = 1_000  # whole STEAMARK games per variant × player count
ROUND_GAMES = 2_000  # games of the 10- and 100-round drain models
WORK = ROOT / "bench" / ".work"


def _drain_game(rounds: int) -> Path:
    """One player, a pile of 1,000 tokens, a d6 drawn from it every round for ``rounds`` rounds."""
    folder = WORK / f"playout_{rounds}_rounds"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text("id: drain\ntitle: Drain\nplayers: {min: 1, max: 1}\nsetup: setup.yaml\n"
                                      "components: [tokens.yaml]\n", encoding="utf-8")
    (folder / "tokens.yaml").write_text("id: tokens\nkind: supply\nname: Tokens\nitems:\n"
                                        "  - {name: Token, count: 1000}\n", encoding="utf-8")
    (folder / "setup.yaml").write_text(
        "variants:\n  - id: main\n    players: [1]\n    steps:\n      - take: {component: tokens, to: pile}\n"
        f"    playout:\n      rounds: {rounds}\n      each_round:\n"
        "        - gain: {from: pile, to: used, count: {roll: \"d6\"}}\n"
        "        - return: {from: used, to: pile, count: {roll: \"d3\"}}\n", encoding="utf-8")
    return folder


def _playouts(target: Path | str, games: int) -> list[str]:
    return punchboard("verify", str(target), "--trials", "0", "--playouts", str(games), "--jobs", "1",
                      "--out", str(WORK / "verify"))


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
    steamark = Series([execute(_playouts("steamark", PLAYOUTS)).wall for _ in range(HEAVY_REPEATS)])
    ten, hundred = _drain_game(10), _drain_game(100)
    short = Series([execute(_playouts(ten, ROUND_GAMES)).wall for _ in range(HEAVY_REPEATS)])
    long = Series([execute(_playouts(hundred, ROUND_GAMES)).wall for _ in range(HEAVY_REPEATS)])
    per_round = (long.median - short.median) / 90 / ROUND_GAMES * 1e6
    return [
        row(f"`verify --playouts {PLAYOUTS:,}` STEAMARK (4 cells × {PLAYOUTS:,} six-turn games, --jobs 1)",
            steamark.spread(), "", ""),
        row(f"`verify --playouts {ROUND_GAMES:,}`, a 10-round model (one pile, dice in and out, --jobs 1)",
            short.spread(), "", ""),
        row(f"`verify --playouts {ROUND_GAMES:,}`, the same model over 100 rounds", long.spread(),
            f"{long.median / short.median:.1f} × the 10-round run; {per_round:.1f} µs a game-round", "linear in rounds"),
        row("`verify` Steam Court, default (exact figures, no Monte Carlo needed), one core, CLI", default.spread(), "", ""),
        row("`verify` Steam Court, default, the verifier's own work on one core (in-process)", work.spread(),
            f"{work.median / 0.3:.2f} × the 0.3 s target", "≤ 0.3 s"),
        row(f"`verify --cross-check` Steam Court (every count, {TRIALS:,} whole-setup re-runs each)", monte_carlo.spread(),
            f"{monte_carlo.median:.2f} × the 1 s target", "≤ 1 s"),
        row("`verify` all bundled games, static (--trials 0)", static.spread(), "", ""),
    ]
