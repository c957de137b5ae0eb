"""``verify``'s terminal output by default: each failure or warning once, grouped by root cause, and the key numbers.

Everything else (every cell's findings one by one, the deal events, the sizes after setup) is in verify.md and
printed by ``--verbose``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..findings import Finding, Result
from .expected import Marks, roots
from .text import where

SHOWN = ("fail", "warn", "contradiction")  # info findings are in verify.md and --verbose
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


@dataclass
class Cause:
    """One root cause: the same finding (numbers aside) in every cell it turns up in."""

    root: Finding
    cells: list[tuple[str, int | None]] = field(default_factory=list)
    texts: set[str] = field(default_factory=set)
    follows: int = 0


def spans(counts: Iterable[int]) -> str:
    """Player counts as runs: ``2–4, 6``."""
    runs: list[list[int]] = []
    for n in sorted(set(counts)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def cells_text(cells: Sequence[tuple[str, int | None]]) -> str:
    """``standard, 2–4 players; two_player, 2 players`` (one cell as ``where`` words it: ``seven, 7 players``);
    a check of the whole game by its name alone."""
    counts: dict[str, list[int]] = {}
    for variant, players in cells:
        counts.setdefault(variant, [])
        if players is not None:
            counts[variant].append(players)
    parts = [f"{variant}, {spans(c)} player{'' if c == [1] else 's'}" if c else variant for variant, c in counts.items()]
    return "; ".join(parts)


def causes(results: Sequence[Result], marks: Marks) -> list[Cause]:
    """The root findings that fail or warn, one per cause across cells, in the order first found."""
    found: dict[tuple[str, str, str], Cause] = {}
    for result in results:
        for root, consequences in roots(result.findings):
            if root.severity not in SHOWN:
                continue
            entry = marks.of(root)
            key = (root.severity, _NUMBER.sub("#", root.text()), entry.source if entry is not None else "")
            cause = found.setdefault(key, Cause(root))
            cause.cells.append((result.variant, result.players))
            cause.texts.add(root.text())
            cause.follows += len(consequences)
    return list(found.values())


def cause_lines(cause: Cause, marks: Marks) -> list[str]:
    """One line for a cause (two when it is expected: the reason, and where it is declared)."""
    entry = marks.of(cause.root)
    label = cause.root.severity.upper() + (" (expected)" if entry is not None else "")
    line = f"  {label} {cells_text(cause.cells)}, {cause.root.text()}"
    if len(cause.texts) > 1:
        line += f" [figures for {cells_text(cause.cells[:1])}; each cell's in verify.md]"
    if cause.follows:
        line += f" (+{cause.follows} that follow{'s' if cause.follows == 1 else ''} from it)"
    if entry is None:
        return [line]
    return [line, f"      expected: {entry.reason} ({entry.source})"]


def key_numbers(results: Sequence[Result], marks: Marks) -> str:
    """Cells by status, expected findings, deal events: the numbers one line can hold."""
    cells = [r for r in results if r.players is not None]
    statuses = [r.status for r in cells]
    found = causes(results, marks)
    parts = [f"{len(cells)} cell{'' if len(cells) == 1 else 's'}: "
             + ", ".join(f"{statuses.count(s)} {s}" for s in ("pass", "warn", "fail") if statuses.count(s)),
             f"{len(found)} root cause{'' if len(found) == 1 else 's'} of failures and warnings" if found else ""]
    expected = sum(1 for cause in found if marks.of(cause.root) is not None)
    if expected:
        parts[-1] += f" ({expected} expected: setup.yaml expected:)"
    events = [e for r in results for e in r.events]
    if events:
        parts.append(f"{len(events)} deal event figure{'' if len(events) == 1 else 's'}")
        wrong = sum(1 for e in events if not e.agrees)
        if wrong:
            parts.append(f"{wrong} Monte Carlo estimate{'' if wrong == 1 else 's'} disagreeing with the exact figure")
    return "  " + "; ".join(p for p in parts if p)


def summary_lines(results: Sequence[Result], marks: Marks, stale: bool = True) -> list[str]:
    """On what share of deals each cell whose verdict depends on the deal fails; every failure and warning once,
    by root cause, expected ones marked; entries of ``expected:`` that
    matched nothing (with ``stale``: the run covered every cell); then the key numbers."""
    lines = [f"  FAIL {where(r)}: fails {r.fails_on.text()}; the verdict depends on the deal: " + ", ".join(r.random_steps)
             for r in results if r.fails_on is not None and r.fails_on.probability > 0]
    lines += [line for cause in causes(results, marks) for line in cause_lines(cause, marks)]
    if stale:
        lines.extend(stale_lines(marks))
    return [*lines, key_numbers(results, marks)]


def stale_lines(marks: Marks) -> list[str]:
    """A warning for each ``expected:`` entry that matched no finding (say it only when every cell ran)."""
    return [f"  WARN expected: '{e.finding}' ({e.source}) matched no finding; remove the entry or correct its words"
            for e in marks.unused]


__all__ = ["Cause", "causes", "cells_text", "key_numbers", "spans", "stale_lines", "summary_lines"]
