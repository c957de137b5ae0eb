"""Verify one game: every variant × player count, plus the box contents."""

from __future__ import annotations

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.spec.model import Game
from punchboard.spec.setup_loader import load_setup

from .box import check_box
from .events import event_stats
from .findings import Finding, Result
from .inventory import Instance, build_inventory
from .numbers import check_numbers
from .simulate import simulate
from .supply import check_supply


def verify_game(game: Game, *, variant: str | None = None, players: int | None = None, trials: int = 2000,
                seed: int = 1, inventory: tuple[Instance, ...] | None = None) -> list[Result]:
    results: list[Result] = []
    if variant is None and players is None:
        results.append(Result(game.id, "box", None, check_box(game)))
    if game.setup is None:
        if variant is not None:
            raise SpecError([Problem("--variant", 1, 1, f"{game.id} has no setup.yaml, so no variant '{variant}'")])
        results.append(Result(game.id, "setup", None, [Finding("setup", "no setup.yaml: nothing to simulate", "warn")]))
        return results
    setup = load_setup(game.setup, game.components, (game.players_min, game.players_max))
    if variant is not None and variant not in {v.id for v in setup.variants}:
        known = ", ".join(v.id for v in setup.variants)
        raise SpecError([Problem("--variant", 1, 1, f"{game.id} has no variant '{variant}'; expected one of {known}")])
    if variant is None and players is None and setup.numbers:
        results.append(Result(game.id, "rulebook numbers", None, check_numbers(game, setup.numbers)))
    inventory = inventory if inventory is not None else build_inventory(game)
    for spec in setup.variants:
        if variant is not None and spec.id != variant:
            continue
        for count in spec.players:
            if players is not None and count != players:
                continue
            run = simulate(game, spec, count, f"{seed}:setup:{spec.id}:{count}", inventory)
            result = Result(game.id, spec.id, count, list(run.findings))
            result.findings.extend(check_supply(run))
            stats, notes = event_stats(game, spec, count, run, trials, seed, inventory)
            result.events.extend(stats)
            result.findings.extend(notes)
            results.append(result)
    return results
