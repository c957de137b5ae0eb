"""Run every benchmark module and print one table.

Each ``bench/bench_*.py`` exposes ``run() -> list[dict]``; a row has at least
``benchmark`` and ``result`` (text), and may add ``ratio`` and ``target``.
Figures are ratios measured side by side in the same run, because the machines
are shared and noisy.
"""

from __future__ import annotations

import importlib
import platform
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    modules = sorted(p.stem for p in here.glob("bench_*.py"))
    only = set(sys.argv[1:])
    rows: list[dict[str, str]] = []
    for name in modules:
        if only and name not in only:
            continue
        module = importlib.import_module(f"bench.{name}")
        print(f"running {name} …", file=sys.stderr, flush=True)
        rows.extend(module.run())
    cpu = platform.processor() or platform.machine()
    print(f"\nmachine: {platform.system()} {platform.machine()} ({cpu}), Python {platform.python_version()}, "
          f"{_cores()} cores\n")
    headers = ["benchmark", "result", "ratio", "target"]
    table = [[_cell(row, h) for h in headers] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in table)) if table else len(h) for i, h in enumerate(headers)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in table:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")
    return 0


def _cell(row: dict, header: str) -> str:
    """Rows name their benchmark 'benchmark' or 'name'; other keys become the result."""
    if header == "benchmark":
        return str(row.get("benchmark", row.get("name", "")))
    if header == "result" and "result" not in row:
        return ", ".join(f"{k}={v}" for k, v in row.items() if k not in ("benchmark", "name", "ratio", "target"))
    return str(row.get(header, ""))


def _cores() -> int:
    import os

    return os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
