"""What a step reads, writes and depends on, by zone name and expression text."""

from __future__ import annotations

from punchboard.spec.setup_model import REMOVED, Step


def zones_read(step: Step) -> list[str]:
    reads = [step.from_zone]
    if step.match_zone:
        reads.append(step.match_zone)
    if step.shuffle_in is not None:  # split: the pieces shuffled into each pile
        reads.append(step.shuffle_in.from_zone)
    return reads


def zones_written(step: Step) -> list[str]:
    writes = [step.to] if step.to else []
    writes += list(step.into) + list(step.extra)
    if step.remainder:
        writes.append(step.remainder)
    return writes


def zones_changed(step: Step) -> list[str]:
    """Every zone whose contents or order the step can change: what it writes, the zone it takes from or
    shuffles (a seat step only reads), and the removed pile for a removal."""
    if step.kind == "seat":
        return []
    changed = [*zones_written(step), step.from_zone]
    if step.kind == "remove":
        changed.append(REMOVED)
    return list(dict.fromkeys(changed))


def step_texts(step: Step) -> list[str | None]:
    texts: list[str | None] = [step.where, step.when]
    if step.shuffle_in is not None:
        texts.append(step.shuffle_in.where)
    for count in (step.count, step.each, step.draw, step.keep, step.piles,
                  step.shuffle_in.each if step.shuffle_in is not None else None):
        if count is not None and isinstance(count.value, str):
            texts.append(count.value)
    return texts
