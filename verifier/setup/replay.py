"""What a Monte Carlo replay needs to run: the steps that can change the zones it reads, and the leading
steps that come out the same every time."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from punchboard.spec.setup_model import Step, Variant

from .effects import zones_changed, zones_read, zones_written


@dataclass(frozen=True)
class Plan:
    """Which steps a Monte Carlo replay may leave out, by (table, step index), '' for the variant's own steps.

    A replay only reads some zones (the hands its events count). A step is left out when nothing it changes
    is read later by the zones' own chain of steps: every arrangement of the read zones is then exactly as
    likely as in the whole setup. A shuffle right before a deal from the same zone is left out too, since
    the deal shuffles again. Randomness drawn differs from the whole setup's, the distribution does not.
    """

    skip: frozenset[tuple[str, int]]
    before_deal: Mapping[tuple[str, int], int]  # a shuffle → the deal right after it that shuffles again


def _changes(step: Step) -> set[str]:
    return set(zones_changed(step))


def replay_plan(variant: Variant, zones: frozenset[str]) -> Plan:
    """The steps a replay that reads only ``zones`` (names in any scope) must run."""
    order = [("", i, s) for i, s in enumerate(variant.steps)]
    order += [(t.name, i, s) for t in variant.tables for i, s in enumerate(t.steps)]
    in_tables = {name for t in variant.tables for s in t.steps for name in (*zones_read(s), *_changes(s), s.seats)}
    needed = set(zones)
    skip: set[tuple[str, int]] = set()
    for table, index, step in reversed(order):
        changed = _changes(step)
        if changed & needed or (not table and set(zones_written(step)) & in_tables):
            # what it adds to keeps what was there, so a step that changes a needed zone needs all it touches
            needed |= changed | set(zones_read(step))
        else:
            skip.add((table, index))
    before_deal: dict[tuple[str, int], int] = {}
    for table, steps in [("", variant.steps), *((t.name, t.steps) for t in variant.tables)]:
        kept = [i for i in range(len(steps)) if (table, i) not in skip]
        for here, after in zip(kept, kept[1:], strict=False):
            shuffle, deal = steps[here], steps[after]
            if (shuffle.kind == "shuffle" and deal.kind == "deal" and deal.when is None
                    and deal.from_zone == shuffle.from_zone):
                before_deal[(table, here)] = after
    return Plan(frozenset(skip), before_deal)


def fixed_prefix(steps: tuple[Step, ...], plan: Plan | None, table: str = "") -> int:
    """How many leading steps use no randomness (no shuffle, deal, draw, random pick or random give) or are
    left out by the plan."""
    for index, step in enumerate(steps):
        if plan is not None and (table, index) in plan.skip:
            continue
        if (step.kind in ("shuffle", "deal", "draw_keep") or step.pick == "random" or (step.kind == "give" and step.same)
                or (step.kind == "split" and step.shuffle_in is not None)):
            return index
    return len(steps)
