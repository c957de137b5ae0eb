"""Measuring commands side by side: wall time, CPU time and peak memory of a child process.

Every figure in the benchmark table is a median over interleaved runs of a
measured command and its reference (A, ref, A, ref, …), so both see the same
machine load; min and max are shown so the spread is visible.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
# runs of the slow single-command rows (10,000-card deck, tts, verify); the table shows n
HEAVY_REPEATS = int(os.environ.get("BENCH_HEAVY_REPEATS", str(REPEATS)))
# Pairs for a cheap row judged against a ratio near its target (a one-card edit, about half a second a pair):
# with 5 pairs its median of pair ratios moved by ±0.05 from one full run to the next.
CLOSE_REPEATS = max(15, REPEATS)


@dataclass(frozen=True)
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child
    peak_mb: float  # peak resident set size


def execute(command: Sequence[str], cwd: Path = ROOT, check: bool = True) -> Run:
    """Run ``command`` to completion and measure it (rusage of exactly that child)."""
    # Bytecode caching as users have it: this environment sets PYTHONDONTWRITEBYTECODE, which makes
    # every run recompile punchboard's (editable) sources while reportlab loads its installed .pyc files.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    child = subprocess.Popen(list(command), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if check and child.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {child.returncode}: {err.decode(errors='replace')[-2000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def punchboard(*args: str) -> list[str]:
    return [sys.executable, "-m", "punchboard", *args]


@dataclass(frozen=True)
class Series:
    values: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def spread(self, unit: str = "s", digits: int = 2) -> str:
        return (f"{self.median:.{digits}f} {unit} (min {min(self.values):.{digits}f}, "
                f"max {max(self.values):.{digits}f}, n={len(self.values)})")


def paired(measured: Callable[[], float], reference: Callable[[], float], repeats: int = REPEATS) -> tuple[Series, Series]:
    """Interleave ``repeats`` runs of each; each callable returns one figure."""
    ours, theirs = [], []
    for _ in range(repeats):
        ours.append(measured())
        theirs.append(reference())
    return Series(ours), Series(theirs)


def ratio(ours: Series, theirs: Series) -> float:
    """The median of the pair-by-pair ratios (each run over the reference run beside it)."""
    return statistics.median(a / b for a, b in zip(ours.values, theirs.values, strict=True))


def reference_import() -> float:
    """The rebuild reference: a Python start-up that imports reportlab's canvas."""
    return execute([sys.executable, "-c", "import reportlab.pdfgen.canvas"]).wall


def row(benchmark: str, result: str, ratio: str, target: str) -> dict[str, str]:
    return {"benchmark": benchmark, "result": result, "ratio": ratio, "target": target}
