"""The default ``--jobs`` against ``--jobs 1`` (issue #22: "no row slower with the default ``--jobs`` than
with ``--jobs 1``"), for every verb that takes the flag, on the jobs people run: the five bundled games
built clean, a 2,000-card deck built clean and with one card edited, ``images`` and ``preview`` of Steam
Court, and ``verify --cross-check`` of Steam Court (its Monte Carlo).

Each row interleaves a run with the default and a run with ``--jobs 1`` (A, B, A, B, …); the ratio is the
median of the pair-by-pair ratios of wall time, and the result column shows the CPU (user + system) both
spent. A job under the default's threshold (``build`` draws in a pool only from 1,000 pieces to draw) runs
the same code either way: its ratio shows the noise of the machine.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from bench.decks import editable_deck
from bench.measure import CLOSE_REPEATS, HEAVY_REPEATS, REPEATS, ROOT, Series, execute, punchboard, ratio, row

WORK = ROOT / "bench" / ".work"
GAMES = ("astonishing", "belpunk", "knights_vs_steambots", "steam_court", "steamark")
DECK = 2000


def _pair(label: str, command: Callable[[list[str]], list[str]], repeats: int = REPEATS,
          before: Callable[[], None] = lambda: None) -> dict[str, str]:
    """``command(extra flags)`` run with the default ``--jobs`` and with ``--jobs 1``, interleaved."""
    walls: dict[str, list[float]] = {"default": [], "one": []}
    cpus: dict[str, list[float]] = {"default": [], "one": []}
    for _ in range(repeats):
        for name, flags in (("default", []), ("one", ["--jobs", "1"])):
            before()
            run = execute(command(flags))
            walls[name].append(run.wall)
            cpus[name].append(run.cpu)
    default, one = Series(walls["default"]), Series(walls["one"])
    cpu_default, cpu_one = Series(cpus["default"]), Series(cpus["one"])
    result = (f"default {default.median:.2f} s, --jobs 1 {one.median:.2f} s (CPU {cpu_default.median:.2f} vs "
              f"{cpu_one.median:.2f} s, n={repeats})")
    return row(label, result, f"{ratio(default, one):.2f} × --jobs 1", "≤ 1 ×")


def run() -> list[dict[str, str]]:
    out = WORK / "out-jobs"
    shutil.rmtree(out, ignore_errors=True)
    work, csv, original = editable_deck(WORK, DECK, f"jobs_deck_{DECK}")
    edits = iter(range(1, 10_000))

    def edit() -> None:
        csv.write_text(original.replace("Card 1000,", f"Card 1000{'!' * next(edits)},", 1), encoding="utf-8")

    def build(*targets: str | Path, force: bool = True) -> Callable[[list[str]], list[str]]:
        def command(flags: list[str]) -> list[str]:
            return punchboard("build", *map(str, targets), *(["--force"] if force else []), "--quiet",
                              "--out", str(out), *flags)
        return command

    execute(build(work, force=False)([]))  # the edit rows start from a built deck
    return [
        _pair("`build --force` the five bundled games (under 1,000 pieces each: no pool)", build(*GAMES)),
        _pair(f"`build --force` a {DECK:,}-card text deck", build(work), HEAVY_REPEATS),
        # the same code runs either way (one component, one side to draw: no pool), so the ratio is the machine's noise
        _pair(f"`build`, one card edited in the {DECK:,}-card deck", build(work, force=False), CLOSE_REPEATS, before=edit),
        _pair("`images steam_court` (300 dpi, every face and back, from nothing)",
              lambda flags: punchboard("images", "steam_court", "--out", str(out), *flags), HEAVY_REPEATS,
              before=lambda: shutil.rmtree(out / "steam_court" / "images", ignore_errors=True)),
        _pair("`preview steam_court` (a contact sheet per component)",
              lambda flags: punchboard("preview", "steam_court", "--out", str(out), *flags)),
        _pair("`verify --cross-check steam_court` (Monte Carlo in blocks of 500 trials)",
              lambda flags: punchboard("verify", "steam_court", "--cross-check", "--out", str(out / "verify"), *flags),
              HEAVY_REPEATS),
    ]
