"""The physical inventory: every card, token, board and bought item as one instance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from punchboard.spec.model import Game


@dataclass(frozen=True)
class Instance:
    id: int
    component: str
    name: str
    env: Mapping[str, Any]  # what conditions see: fields, name, component, copy


def build_inventory(game: Game) -> tuple[Instance, ...]:
    instances: list[Instance] = []
    for component in game.components:
        if component.kind == "supply":
            for item in component.supplies:
                for copy in range(item.count):
                    env = {**item.fields, "name": item.name, "component": component.id, "copy": copy}
                    instances.append(Instance(len(instances), component.id, item.name, env))
            continue
        for piece in component.pieces:
            env = {**piece.fields, "name": piece.name, "component": component.id, "copy": piece.copy}
            instances.append(Instance(len(instances), component.id, piece.name, env))
    return tuple(instances)
