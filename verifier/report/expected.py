"""Findings grouped by root cause, and which of them setup.yaml's ``expected:`` declares (``punchboard.spec.expected``).

A root finding carries what follows from it (``Finding.under``, and a step skipped because the rulebook leaves
a count open, which follows from that open count). An expected root makes what follows from it expected too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..findings import Finding, Result
from .text import folded

if TYPE_CHECKING:
    from punchboard.spec.expected import Expected

SKIPPED = "skipped: it depends on what the rulebook leaves open"
OPEN = "left open by the rulebook"


def roots(findings: Sequence[Finding]) -> list[tuple[Finding, list[Finding]]]:
    """:func:`folded`, with each step skipped for a count the rulebook leaves open folded under that count."""
    out: list[tuple[Finding, list[Finding]]] = []
    for root, consequences in folded(findings):
        if out and SKIPPED in root.message and OPEN in out[-1][0].message:
            out[-1][1].extend([root, *consequences])
            continue
        out.append((root, list(consequences)))
    return out


class Marks:
    """Which findings of ``results`` the ``expectations`` declare, and which expectations matched nothing."""

    def __init__(self, results: Sequence[Result], expectations: Sequence[Expected] = ()):
        self._of: dict[int, Expected] = {}
        used: set[int] = set()
        for result in results:
            for root, consequences in roots(result.findings):
                entry = next((e for e in expectations if e.covers(result.variant, result.players, root.text())), None)
                if entry is None:
                    continue
                used.add(id(entry))
                for finding in (root, *consequences):
                    self._of[id(finding)] = entry
        self.unused = [e for e in expectations if id(e) not in used]

    def of(self, finding: Finding) -> Expected | None:
        """The entry that declares ``finding`` expected, or None."""
        return self._of.get(id(finding))

    def status(self, result: Result) -> str:
        """``result``'s status from its unexpected findings alone: pass, warn or fail."""
        severities = {f.severity for f in result.findings if id(f) not in self._of}
        if "fail" in severities:
            return "fail"
        return "warn" if severities & {"warn", "contradiction"} else "pass"

    def exit_code(self, results: Sequence[Result], strict: bool, stale: bool = True) -> int:
        """1 when an unexpected finding fails (with ``strict``: or warns, or, with ``stale`` (every cell ran),
        an expectation matched nothing)."""
        statuses = {self.status(r) for r in results}
        if "fail" in statuses or (strict and ("warn" in statuses or (stale and self.unused))):
            return 1
        return 0


__all__ = ["OPEN", "SKIPPED", "Marks", "roots"]
