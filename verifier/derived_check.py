"""Derived numbers for one game's results, and the stated totals they check (``numbers: … sum:``).

A total setup.yaml states that differs from the sum of the pieces is a failure naming the file:line:col
of the stated number: the designer's note and the box disagree, and one of them is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from punchboard.spec.setup_model import RuleNumber

from .derived import Derived, FieldSum, box_sums, stated_box_sum, stated_zone_sum, zone_sizes
from .findings import Finding
from .inventory import Instance
from .numbers import number_values


def _finding(number: RuleNumber, found: FieldSum) -> Finding:
    return Finding(f"stated total {number.name}", f"setup.yaml states {number.value} ({number.source}), but the "
                   f"{found.field} of the {found.pieces} pieces ({found.over}) adds up to {found.value}", "fail")


def box_totals(inventory: Sequence[Instance], numbers: Sequence[RuleNumber]) -> tuple[Derived, Derived, list[Finding]]:
    """(every numeric field summed over the box, the stated box totals, a failure per stated total that differs)."""
    env = number_values(numbers)
    stated: list[FieldSum] = []
    findings: list[Finding] = []
    for number in numbers:
        if number.total is None or number.total.zone:
            continue
        found = stated_box_sum(inventory, number.name, number.value, number.total, number.source, env)
        stated.append(found)
        if not found.agrees:
            findings.append(_finding(number, found))
    return Derived(sums=box_sums(inventory)), Derived(sums=tuple(stated)), findings


def cell_numbers(runs: Sequence[Any], numbers: Sequence[RuleNumber]) -> tuple[Derived, list[Finding]]:
    """Sizes after setup over ``runs`` (the verdict's run first) and the stated totals over its zones."""
    sums: list[FieldSum] = []
    findings: list[Finding] = []
    for number in numbers:
        if number.total is None or not number.total.zone:
            continue
        found = stated_zone_sum(runs[0], number.name, number.value, number.total, number.source)
        if found is None:
            continue
        sums.append(found)
        if not found.agrees:
            findings.append(_finding(number, found))
    return Derived(zone_sizes(runs), tuple(sums)), findings
