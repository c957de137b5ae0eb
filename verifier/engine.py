"""Verify one game: every variant × player count, plus the box contents."""

from __future__ import annotations

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.pool import ordered_map
from punchboard.spec.model import Game
from punchboard.spec.setup_loader import load_setup

from .box import check_box
from .findings import Finding, Result
from .inventory import Instance, build_inventory
from .numbers import check_numbers
from .probability.events import Study, comparisons, finish, prepare
from .probability.stats import joint_z
from .setup.simulate import simulate
from .supply.bounds import check_supply


def _count(studies: list[Study], item: tuple[int, int, int]) -> list[int]:
    study, block, size = item
    return studies[study].count(block, size)


def verify_game(game: Game, *, variant: str | None = None, players: int | None = None, trials: int = 2000,
                seed: int = 1, inventory: tuple[Instance, ...] | None = None, jobs: int = 1) -> list[Result]:
    """Every check of one game. The Monte Carlo blocks of every variant × player count run in up to
    ``jobs`` processes; each block has its own seed, so the results are the same for any ``jobs``."""
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
    studies: list[tuple[Result, Study]] = []
    for spec in setup.variants:
        if variant is not None and spec.id != variant:
            continue
        for count in spec.players:
            if players is not None and count != players:
                continue
            run = simulate(game, spec, count, f"{seed}:setup:{spec.id}:{count}", inventory)
            result = Result(game.id, spec.id, count, list(run.findings))
            result.findings.extend(check_supply(run))
            studies.append((result, prepare(game, spec, count, run, trials, seed, inventory)))
            results.append(result)
    plans = [study for _, study in studies]
    blocks = [(n, block, size) for n, study in enumerate(plans) for block, size in study.blocks()]
    counted: list[list[list[int]]] = [[] for _ in plans]
    for (n, _, _), hits in zip(blocks, ordered_map(_count, plans, blocks, jobs), strict=True):
        counted[n].append(hits)
    z = joint_z(sum(comparisons(study) for study in plans))
    for (result, study), block_hits in zip(studies, counted, strict=True):
        stats, notes = finish(study, block_hits, z)
        result.events.extend(stats)
        result.findings.extend(notes)
    return results
