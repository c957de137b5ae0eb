"""Copy the last benchmark table (bench/.work/results.md) into docs/benchmarks.md between its markers.

``python -m bench.readme`` (``make bench`` runs it after the full run) — the page's figures are never typed
by hand. (The module keeps its name from when the table lived in README.md.)
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench.__main__ import RESULTS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def main() -> int:
    if not RESULTS.is_file():
        print(f"no {RESULTS}: run `make bench` first", file=sys.stderr)
        return 2
    text = PAGE.read_text(encoding="utf-8")
    if START not in text or END not in text:
        print(f"docs/benchmarks.md has no {START} … {END} markers", file=sys.stderr)
        return 2
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{START}\n{RESULTS.read_text(encoding='utf-8')}{END}{tail}", encoding="utf-8")
    print(f"docs/benchmarks.md: benchmark table updated from {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
