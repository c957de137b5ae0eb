"""Box contents: the rulebook's contents list against the defined components."""

from __future__ import annotations

from punchboard.spec import expressions
from punchboard.spec.model import Game

from .findings import Finding


def check_box(game: Game) -> list[Finding]:
    findings = []
    for line in game.box:
        have = 0
        for component_id in line.components:
            component = game.component(component_id)
            if component.kind == "supply":
                for item in component.supplies:
                    env = {**item.fields, "name": item.name, "component": component.id, "copy": 0}
                    if line.where is None or expressions.evaluate(line.where, env, lenient=True):
                        have += item.count
                continue
            for piece in component.pieces:
                if line.per_copy and piece.copy != 0:
                    continue
                env = {**piece.fields, "name": piece.name, "component": component.id, "copy": piece.copy}
                if line.where is None or expressions.evaluate(line.where, env, lenient=True):
                    have += 1
        if have != line.count:
            what = "per copy" if line.per_copy else "in the box"
            findings.append(Finding(f'box "{line.text}"', f"the components define {have} {what} ({line.source})",
                                    "fail", ", ".join(line.components), line.count, have))
    return findings
