"""Print groups: components that share sheets must be able to (checked once all components are read).

Members of one group are imposed together (generator/impose/groups.py), so they need the same
kind (deck, banknotes or tokens; the schema allows ``print_group`` on nothing else) and the same
declared bleed; decks and banknotes share one sheet grid, so they also need one trim size (tokens
are packed shape by shape, so their sizes and shapes may differ). Backs may differ: a member
without backs leaves its slots' reverse blank. A group's name must not be a component id (both
write ``<name>.pdf``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from punchboard.plumbing.errors import Problem
from punchboard.plumbing.units import to_mm
from punchboard.spec.model import Component, Layout

SIZE_TOLERANCE = 0.01 * 72 / 25.4  # 0.01 mm


def _mm(points: float) -> str:
    return f"{to_mm(points):.2f}".rstrip("0").rstrip(".")


def declared_bleed(component: Component, layout: Callable[[str], Layout | None]) -> float | None:
    """The largest bleed a face layout declares (None: none declares one; the sheet style's applies),
    as the build reads it (generator/impose/context.py ``bleed_for``)."""
    asked = []
    for piece in component.pieces:
        found = layout(piece.face.layout) if piece.face is not None else None
        if found is not None and found.bleed is not None:
            asked.append(found.bleed)
    return max(asked) if asked else None


def check_print_groups(
    components: Sequence[Component], marks: dict[str, tuple[str, int, int]], layout: Callable[[str], Layout | None],
) -> list[Problem]:
    problems: list[Problem] = []
    ids = {c.id: c for c in components}
    first: dict[str, Component] = {}
    for component in components:
        group = component.print_group
        if not group or not component.printed or component.id not in marks:
            continue
        where = marks[component.id]
        if group in ids:
            problems.append(Problem(*where, f"print_group '{group}' has the name of a component ({ids[group].source.name}); "
                                            f"both would write {group}.pdf: expected a name no component uses"))
            continue
        lead = first.setdefault(group, component)
        if lead is component:
            continue
        lead_at = "{}:{}:{}".format(*marks[lead.id])
        why = f"members of print group '{group}' share sheets" if component.kind == "tokens" else \
            f"members of print group '{group}' share one sheet grid"
        assert component.size is not None and lead.size is not None  # decks and banknotes have a size
        if component.kind != lead.kind:
            problems.append(Problem(*where, f"{component.name} is a {component.kind} component but {lead.name} ({lead_at}) "
                                            f"is a {lead.kind} component; {why}, so they need one kind"))
        elif component.kind != "tokens" and (abs(component.size.width - lead.size.width) > SIZE_TOLERANCE
              or abs(component.size.height - lead.size.height) > SIZE_TOLERANCE):
            problems.append(Problem(*where, f"{component.name} are {_mm(component.size.width)} × {_mm(component.size.height)} mm "
                                            f"but {lead.name} ({lead_at}) are {_mm(lead.size.width)} × {_mm(lead.size.height)} mm; "
                                            f"{why}, so they need one trim size"))
        else:
            mine, theirs = declared_bleed(component, layout), declared_bleed(lead, layout)
            if (mine is None) != (theirs is None) or (mine is not None and theirs is not None and abs(mine - theirs) > SIZE_TOLERANCE):
                def said(b: float | None) -> str:
                    return "no bleed (the sheet style's)" if b is None else f"a {_mm(b)} mm bleed"

                problems.append(Problem(*where, f"the layouts of {component.name} declare {said(mine)}, those of {lead.name} "
                                                f"({lead_at}) {said(theirs)}; {why}, so they need one bleed"))
    return problems
