"""A print group's members as one component, and the group's title: what the group's sheets
(groups.py), the auto bleed policy's notes (bleed_notes.py) and the build share, kept apart from the
renderers so reading them imports no drawing code."""

from __future__ import annotations

from dataclasses import replace

from punchboard.spec.model import Component


def group_title(name: str) -> str:
    """The group's name as its sheets' footer and the contents show it."""
    return f"{name.replace('_', ' ').capitalize()} (print group)"


def merged_component(name: str, members: tuple[Component, ...]) -> Component:
    """The group's pieces as one component: the first member's kind, size and layouts, every member's pieces."""
    pieces = tuple(piece for member in members for piece in member.pieces)
    return replace(members[0], id=name, name=group_title(name), pieces=pieces)
