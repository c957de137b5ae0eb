"""One verdict from a cell run once for every combination of its choices (:mod:`.choices`).

**The rule.** A choice the players make (``choose:``) or a value the rulebook leaves open among values it
allows (``open: {N: {choices: ...}}``) must work whichever it is: the cell **fails when any combination
fails**, and the report names the failing ones and how many pass ("fails for 2 of 3: spies = 4, spies =
5; passes for spies = 3"). A cell whose every combination passes passes, except that a value the rulebook
leaves open stays a warning (the rulebook still gives no number; the report says every value it allows
works). Each combination's own verdict is over every deal (:mod:`.verdicts`) and seeded from the cell, so
the outcome never depends on ``--seed``.

The findings of every combination that does not pass follow the summary, worst first (the highest share
of deals that fall short, then the largest shortfall), each step marked with its combination.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .choices import ChoiceSummary, Outcome, Point, label
from .derived import Derived, zone_sizes
from .findings import Finding, Result
from .playout.stats import PlayoutCell

RANK = {"pass": 0, "warn": 1, "fail": 2}


def _badness(result: Result) -> tuple[int, float, int, int]:
    fails = [f for f in result.findings if f.severity == "fail"]
    share = result.fails_on.probability if result.fails_on is not None else float(bool(fails))
    return RANK[result.status], share, sum(f.short_by or 0 for f in fails), len(fails)


def _what(found: list[Point]) -> str:
    """'for every value of spies (3, 4, 5)'"""
    if len(found) == 1:
        point = found[0]
        kind = "value the rulebook allows for" if point.open else "choice of"
        return f"for every {kind} {point.label} ({', '.join(str(v) for v in point.values)})"
    return "for every combination of " + "; ".join(f"{p.label} ({', '.join(str(v) for v in p.values)})" for p in found)


def _listed(choices: list[str], many: bool) -> str:
    """The combinations named in the summary ('; ' between them when each names several counts)."""
    shown = choices if len(choices) <= 12 else choices[:12] + [f"and {len(choices) - 12} more"]
    return ("; " if many else ", ").join(shown)


def _mark(step: str, choice: str) -> str:
    return f"{step} [{choice}]" if step else f"[{choice}]"


def merge(parent: Result, found: list[Point], outcomes: list[tuple[tuple[Any, ...], Result]], runs: list[Any],
          playout_wanted: bool) -> None:
    """Fill ``parent`` (the cell) from its combinations' results."""
    labelled = [(label(found, values), values, result) for values, result in outcomes]
    failing = [c for c, _, r in labelled if r.status == "fail"]
    passing = [c for c, _, r in labelled if r.status != "fail"]
    ordered = sorted(labelled, key=lambda item: _badness(item[2]), reverse=True)
    worst_label, _, worst = ordered[0]
    total = len(labelled)
    reasons = "; ".join(dict.fromkeys(f"{p.label}: {p.why}" for p in found if p.why))
    left_open = [p for p in found if p.open]
    if failing:
        many = len(found) > 1
        head = (f"fails for every one of the {total}: " + _listed(failing, many) if not passing else
                f"fails for {len(failing)} of {total}: {_listed(failing, many)} (worst: {worst_label}); "
                f"passes for {_listed(passing, many)}")
        severity = "fail"
    else:
        head = f"passes for every one of the {total} ({_listed(passing, len(found) > 1)})"
        if left_open:
            head = ("left open by the rulebook; " + head + ", so the components hold whichever it says")
        severity = "warn" if left_open else "info"
    summary = Finding(_what(found), head + (f" — {reasons}" if reasons else ""), severity, unit="choices")
    parent.findings = [summary]
    for choice, _, result in ordered:
        if result.status == "pass":
            continue
        parent.findings.extend(replace(f, step=_mark(f.step, choice), under=_mark(f.under, choice) if f.under else "")
                               for f in result.findings)
    if failing:
        parent.fails_on = worst.fails_on
        parent.random_steps = worst.random_steps if worst.fails_on is not None else ()
    for choice, _, result in labelled:
        parent.events.extend(replace(e, name=f"{e.name} [{choice}]") for e in result.events)
    sums = labelled[0][2].derived.sums if labelled[0][2].derived is not None else ()
    same = all(r.derived is not None and r.derived.sums == sums for _, _, r in labelled)
    parent.derived = Derived(zone_sizes(runs), sums if same else ())
    if playout_wanted:
        parent.playout = PlayoutCell(0, "", None, note=f"not played: the setup has choices ({_what(found)}); "
                                                       "a playout plays one setup: give the value")
    parent.choices = ChoiceSummary(tuple(found), tuple(
        Outcome(choice, values, result.status,
                result.fails_on.as_json() if result.fails_on is not None else None) for choice, values, result in labelled), worst_label
        if failing else "")
