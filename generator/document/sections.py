"""The order of the combined print-and-play PDF, and where blank pages go.

With duplex backs the combined PDF has two sections:

1. **double-sided**: the cover and bill of materials, the calibration sheet, then every
   component with back pages, each starting on an odd page (a front), so every back page
   lands behind its fronts;
2. **single-sided**: every one-sided component (tokens, tiles, sheets, boards, decks without
   backs), one after the other with no blank reverses between them.

The cover says which pages are which: print the first range duplex and the second
single-sided. Two one-sided pages printed back to back would be useless (cutting the pieces
of one cuts through the other), and a blank reverse behind each of them costs a printed page
in the file but saves no paper; so they are gathered where one single-sided print job takes
them all. A blank page appears only where a two-sided component would otherwise start on a
back (after a component with an odd number of pages).

Without duplex backs (``none``, ``gutterfold``, ``separate``, print-shop files) components stay
in the game's order with no blank pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Range = tuple[int, int]  # first and last page, counted from 1


@dataclass(frozen=True)
class CombinedPlan:
    """``order``: component ids in print order, None for a blank page; page ranges for the cover."""

    order: tuple[str | None, ...]
    pages: dict[str, Range]
    double_sided: Range | None = None  # duplex only: from the cover to the last two-sided component
    single_sided: Range | None = None  # duplex only: the one-sided components
    total: int = 0

    @property
    def blanks(self) -> int:
        return sum(1 for key in self.order if key is None)


def two_sided(roles: Sequence[str]) -> bool:
    return "back" in roles


def plan_combined(front_pages: int, components: Sequence[tuple[str, Sequence[str]]], duplex: bool) -> CombinedPlan:
    """Where every component's pages go after ``front_pages`` pages of cover, bill of materials and
    calibration; ``components`` are (id, page roles) in the game's order."""
    order: list[str | None] = []
    pages: dict[str, Range] = {}
    position = front_pages

    def place(key: str, count: int) -> None:
        nonlocal position
        order.append(key)
        pages[key] = (position + 1, position + count)
        position += count

    if not duplex:
        for key, roles in components:
            place(key, len(roles))
        return CombinedPlan(tuple(order), pages, total=position)
    for key, roles in components:
        if two_sided(roles):
            if position % 2:
                order.append(None)  # this component's first front must start a sheet
                position += 1
            place(key, len(roles))
    double = (1, position)
    single_start = position + 1
    for key, roles in components:
        if not two_sided(roles):
            place(key, len(roles))
    single = (single_start, position) if position >= single_start else None
    return CombinedPlan(tuple(order), pages, double, single, position)
