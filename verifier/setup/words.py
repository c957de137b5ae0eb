"""Setup steps in report words: the step's own ``say``, or words made from its options."""

from __future__ import annotations

from punchboard.spec.setup_model import Step

from .zones import Scope


def describe_step(step: Step, scope: Scope) -> str:
    words = step.say or _default_words(step)
    where = f"{scope.table} table " if scope.table else ""
    return f'{where}step {step.number} "{words}"'


def _default_words(step: Step) -> str:
    what = ", ".join(step.components) or step.from_zone
    cond = f" where {step.where}" if step.where else ""
    if step.kind == "take":
        amount = f"{step.count.describe()} of " if step.count else ""
        return f"take {amount}{what}{cond}{_matching(step)} to {step.to}"
    if step.kind == "remove":
        amount = f"the top {step.count.describe()} of " if step.count else ""
        face = f" face {step.face}" if step.face else ""
        return f"remove {amount}{what}{cond}{_matching(step)}{face}"
    if step.kind == "shuffle":
        return f"shuffle {step.from_zone}"
    if step.kind == "deal":
        if step.evenly:
            return f"deal {step.from_zone} evenly into {step.to} of each player" + (
                f" and {', '.join(step.extra)}" if step.extra else ""
            )
        return f"deal {step.count.describe() if step.count else '?'} from {step.from_zone} to {step.to} of each player"
    if step.kind == "give":
        return f"give each player {step.count.describe() if step.count else '?'} {what}{cond}"
    if step.kind == "place":
        return f"place {step.each.describe() if step.each else '?'} {what}{cond} into each of {', '.join(step.into)}"
    if step.kind == "split":
        piles = step.piles.describe() if step.piles else "?"
        added = ""
        if step.shuffle_in is not None:
            what_in = ", ".join(step.shuffle_in.components) or step.shuffle_in.from_zone
            cond_in = f" where {step.shuffle_in.where}" if step.shuffle_in.where else ""
            added = f", shuffle {step.shuffle_in.each.describe()} {what_in}{cond_in} into each"
        into = f" into {step.to}" if step.to and step.to != step.from_zone else ""
        return f"split {step.from_zone} into {piles} piles{added}, and stack them{into}"
    if step.kind == "draw_keep":
        return f"each player draws {step.draw.describe() if step.draw else '?'} from {step.from_zone}, keeps {step.keep.describe() if step.keep else '?'}"
    return f"seat every player at {step.seats}"


def _matching(step: Step) -> str:
    """A take's or remove's ``match:`` in words (give says its own)."""
    if step.kind not in ("take", "remove") or not step.match_zone:
        return ""
    return f" whose {step.match_field} is the {step.match_zone_field} of {step.match_zone}"
