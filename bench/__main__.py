"""Run the benchmarks and print one table: ``python -m bench [--quick] [bench_x ...]``.

Each ``bench/bench_*.py`` exposes ``run() -> list[dict]`` with ``benchmark``,
``result``, ``ratio`` and ``target``. Figures are medians of interleaved runs
against a reference measured in the same run (min, max and n shown), because
these machines are shared and noisy. Naming modules runs only those;
``--quick`` (1,000-card large deck, 3 runs per pair) is for iterating, not for
the published table. The table is also written to ``bench/.work/results.md``;
``python -m bench.readme`` copies it into docs/benchmarks.md between its markers (``make bench`` does).
"""

from __future__ import annotations

import importlib
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / ".work" / "results.md"


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    if quick:
        os.environ["BENCH_QUICK"] = "1"
        os.environ.setdefault("BENCH_REPEATS", "3")
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    only = {a for a in argv if not a.startswith("--")}
    unknown = only - set(modules)
    if unknown:
        print(f"unknown benchmark(s): {', '.join(sorted(unknown))}; expected some of {', '.join(modules)}", file=sys.stderr)
        return 2
    rows: list[dict[str, str]] = []
    load_before = os.getloadavg()
    for name in modules:
        if only and name not in only:
            continue
        print(f"running {name} …", file=sys.stderr, flush=True)
        rows.extend(importlib.import_module(f"bench.{name}").run())
    table = render(rows, quick, (load_before, os.getloadavg()))
    print(table)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(table, encoding="utf-8")
    return 0


def render(rows: list[dict[str, str]], quick: bool,
           loads: tuple[tuple[float, ...], tuple[float, ...]] | None = None) -> str:
    """The table, headed by the machine and, when given, its load average before and after the run."""
    cpu = platform.processor() or platform.machine()
    repeats = os.environ.get("BENCH_REPEATS", "5")
    head = (f"machine: {platform.system()} {platform.machine()} ({cpu}), Python {platform.python_version()}, "
            f"{os.cpu_count() or 1} cores; {repeats} interleaved runs per pair{' (quick mode)' if quick else ''}")
    if loads is not None:
        before, after = loads
        head += (f"; load average (1, 5, 15 min) {before[0]:.2f} {before[1]:.2f} {before[2]:.2f} before the run, "
                 f"{after[0]:.2f} {after[1]:.2f} {after[2]:.2f} after")
    lines = [head, ""]
    headers = ["benchmark", "result (median, min, max)", "ratio", "target"]
    keys = ["benchmark", "result", "ratio", "target"]
    table = [[_cell(row, k) for k in keys] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in table)) if table else len(h) for i, h in enumerate(headers)]
    lines.append("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    lines.extend("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in table)
    return "\n".join(lines) + "\n"


def _cell(row: dict, key: str) -> str:
    """Rows name their benchmark 'benchmark' or 'name'; without a 'result', the other keys are the result."""
    if key == "benchmark":
        return str(row.get("benchmark", row.get("name", "")))
    if key == "result" and "result" not in row:
        return ", ".join(f"{k}={v}" for k, v in row.items() if k not in ("benchmark", "name", "ratio", "target"))
    return str(row.get(key, ""))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
