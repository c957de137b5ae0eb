"""A step that cannot be done: its finding, and the zones it leaves short (so later findings fold under it)."""

from __future__ import annotations

from punchboard.spec.setup_model import BOX, REMOVED, Step

from ..findings import Finding
from .effects import zones_read, zones_written
from .words import describe_step
from .zones import Run, Scope


def root_of(run: Run, scope: Scope, zones: list[str]) -> str:
    """The root finding that left one of these zones short, if any."""
    for name in zones:
        for key in [run.key(scope, name), *run.keys(scope, name)]:
            if key in run.short:
                return run.short[key]
    return ""


def fail(run: Run, step: Step, scope: Scope, message: str, *, need: int | None = None, have: int | None = None,
          component: str = "", severity: str = "fail", unit: str = "") -> None:
    label = describe_step(step, scope)
    under = root_of(run, scope, zones_read(step))
    if under == label:
        under = ""
    run.findings.append(Finding(label, message, severity, component, need, have, under, unit))
    if severity == "fail":
        # what the step fills is short, and so is the pile it ran dry on (not the box: other components stay)
        drained = [step.from_zone] if step.kind in ("take", "deal", "draw_keep") and step.from_zone != BOX else []
        for name in zones_written(step) + ([REMOVED] if step.kind == "remove" else []) + drained:
            for key in [run.key(scope, name), *run.keys(scope, name)]:
                run.short.setdefault(key, under or label)
