"""Verify one game: every variant × player count, plus the box contents."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.pool import ordered_map
from punchboard.spec.model import Game
from punchboard.spec.setup_loader import load_setup
from punchboard.spec.setup_model import Setup, Variant

from . import choices
from .box import check_box
from .choice_verdict import merge
from .derived import size_seeds
from .derived_check import box_totals, cell_numbers
from .enumeration import enumerate_verdict
from .findings import Finding, Result
from .inventory import Instance, build_inventory
from .numbers import check_numbers
from .playout import runner as playouts_runner
from .probability.events import Study, comparisons, finish, prepare
from .probability.stats import joint_z
from .setup.simulate import simulate
from .setup.zones import Run
from .supply.bounds import check_supply
from .verdicts import VerdictStudy, setup_seed
from .verdicts import finish as finish_verdict


def _count(studies: list[Study | VerdictStudy], item: tuple[int, int, int]) -> object:
    study, block, size = item
    return studies[study].count(block, size)


def _play(studies: list[playouts_runner.Study], item: tuple[int, int, int]) -> playouts_runner.Played:
    study, block, size = item
    return studies[study].play_block(block, size)


@dataclass
class _Cells:
    """Every variant × player count of one verify: each cell's setup run, verdict and derived numbers worked out
    as it is added; its event studies, whole-setup re-runs and playouts queued for the Monte Carlo blocks."""

    game: Game
    setup: Setup
    inventory: tuple[Instance, ...]
    trials: int
    seed: int
    cross_check: bool
    playouts: int
    studies: list[tuple[Result, Study]] = field(default_factory=list)
    verdicts: list[tuple[Result, VerdictStudy]] = field(default_factory=list)
    plays: list[tuple[Result, playouts_runner.Study]] = field(default_factory=list)

    def cell(self, spec: Variant, count: int, play: bool) -> tuple[Result, list[Run]]:
        """One variant × player count (one combination of its choices): the setup run, its verdict and
        derived numbers now; its events, re-runs and playouts queued for the blocks."""
        game, inventory = self.game, self.inventory
        run = simulate(game, spec, count, setup_seed(spec, count), inventory)
        result = Result(game.id, spec.id, count, list(run.findings))
        result.findings.extend(check_supply(run))
        if run.origins.random_reads:
            result.random_steps = tuple(run.origins.random_reads)
            exact = enumerate_verdict(game, spec, count, run, list(result.findings), inventory)
            if exact is not None:
                result.findings[:] = exact.findings
                result.fails_on = exact.fails_on
            else:
                self.verdicts.append((result, VerdictStudy(game, spec, count, run, inventory, self.trials)))
        cache: dict[tuple[object, ...], object] = {}  # the replays of one cell share condition results
        replays = [simulate(game, spec, count, rng, inventory, quiet=True, cache=cache)
                   for rng in size_seeds(spec.id, count)]
        result.derived, wrong = cell_numbers([run, *replays], self.setup.numbers)
        result.findings.extend(wrong)
        if play and self.playouts and spec.playout is not None:
            self.plays.append((result, playouts_runner.prepare(game, spec, count, run.env, self.playouts, self.seed,
                                                               inventory)))
        self.studies.append((result, prepare(game, spec, count, run, self.trials, self.seed, inventory,
                                             self.cross_check)))
        return result, [run, *replays]


_Chosen = tuple[Result, list[choices.Point], list[tuple[tuple[Any, ...], Result]], list[Run]]


def _box_results(game: Game, setup: Setup, inventory: tuple[Instance, ...], whole_box: bool) -> list[Result]:
    """The box contents, the rulebook's numbers and the stated totals (only when the whole game is verified)."""
    if not whole_box:
        return []
    box_result = Result(game.id, "box", None, check_box(game))
    results = [box_result]
    if setup.numbers:
        results.append(Result(game.id, "rulebook numbers", None, check_numbers(game, setup.numbers)))
    box_result.derived, stated, wrong = box_totals(inventory, setup.numbers)  # every numeric field over the box
    if stated.sums:
        results.append(Result(game.id, "stated totals", None, wrong, derived=stated))
    return results


def _add_cells(cells: _Cells, variant: str | None, players: int | None, results: list[Result]) -> list[_Chosen]:
    """Every asked variant × player count into ``cells`` and its result onto ``results``; a cell whose counts
    are a choice (a quantifier) is run once per combination of values, returned for merging."""
    chosen: list[_Chosen] = []
    for spec in cells.setup.variants:
        if variant is not None and spec.id != variant:
            continue
        for count in spec.players:
            if players is not None and count != players:
                continue
            found = choices.points(spec, count)
            if not found:
                results.append(cells.cell(spec, count, True)[0])
                continue
            outcomes, runs = [], []
            for values in choices.combinations(found):
                outcome, outcome_runs = cells.cell(choices.resolve(spec, count, found, values), count, False)
                outcomes.append((values, outcome))
                runs.extend(outcome_runs)
            parent = Result(cells.game.id, spec.id, count)
            chosen.append((parent, found, outcomes, runs))
            results.append(parent)
    return chosen


def _finish_studies(cells: _Cells, jobs: int) -> None:
    """Run the event studies' and whole-setup re-runs' Monte Carlo blocks and put their figures in the results."""
    studies, verdicts = cells.studies, cells.verdicts
    plans: list[Study | VerdictStudy] = [study for _, study in studies] + [study for _, study in verdicts]
    blocks = [(n, block, size) for n, study in enumerate(plans) for block, size in study.blocks()]
    counted: list[list[Any]] = [[] for _ in plans]
    for (n, _, _), hits in zip(blocks, ordered_map(_count, plans, blocks, jobs), strict=True):
        counted[n].append(hits)
    z = joint_z(sum(comparisons(study) for _, study in studies))
    for (result, study), block_hits in zip(studies, counted, strict=False):
        stats, notes = finish(study, block_hits, z)
        result.events.extend(stats)
        result.findings.extend(notes)
    for (result, verdict), block_counts in zip(verdicts, counted[len(studies):], strict=True):
        notes = [f for f in result.findings if f.step.startswith("event ")]
        first = [f for f in result.findings if not f.step.startswith("event ")]
        findings, fails_on = finish_verdict(verdict, first, block_counts)
        result.findings[:] = findings + notes
        result.fails_on = fails_on


def _finish_playouts(cells: _Cells, jobs: int) -> None:
    """Play the queued playout blocks and put each cell's playout summary in its result."""
    games = [study for _, study in cells.plays]
    items = [(n, block, size) for n, study in enumerate(games) for block, size in study.blocks()]
    played: list[list[playouts_runner.Played]] = [[] for _ in games]
    for (n, _, _), out in zip(items, ordered_map(_play, games, items, jobs), strict=True):
        played[n].append(out)
    for (result, study), outcomes in zip(cells.plays, played, strict=True):
        result.playout = playouts_runner.finish(study, outcomes)


def verify_game(game: Game, *, variant: str | None = None, players: int | None = None, trials: int = 2000,
                seed: int = 1, inventory: tuple[Instance, ...] | None = None, jobs: int = 1,
                cross_check: bool = False, playouts: int = 0) -> list[Result]:
    """Every check of one game. The Monte Carlo blocks of every variant × player count (event estimates and,
    where the verdict depends on the deal, whole-setup re-runs) run in up to ``jobs`` processes; each block
    has its own seed, so the results are the same for any ``jobs``. ``playouts`` games of each variant's
    round model are played the same way (0: none)."""
    whole_box = variant is None and players is None
    if game.setup is None:
        if variant is not None:
            raise SpecError([Problem("--variant", 1, 1, f"{game.id} has no setup.yaml, so no variant '{variant}'")])
        results = [Result(game.id, "box", None, check_box(game))] if whole_box else []
        results.append(Result(game.id, "setup", None, [Finding("setup", "no setup.yaml: nothing to simulate", "warn")]))
        return results
    setup = load_setup(game.setup, game.components, (game.players_min, game.players_max))
    if variant is not None and variant not in {v.id for v in setup.variants}:
        known = ", ".join(v.id for v in setup.variants)
        raise SpecError([Problem("--variant", 1, 1, f"{game.id} has no variant '{variant}'; expected one of {known}")])
    inventory = inventory if inventory is not None else build_inventory(game)
    results = _box_results(game, setup, inventory, whole_box)
    cells = _Cells(game, setup, inventory, trials, seed, cross_check, playouts)
    chosen = _add_cells(cells, variant, players, results)
    _finish_studies(cells, jobs)
    _finish_playouts(cells, jobs)
    for parent, found, outcomes, runs in chosen:
        merge(parent, found, outcomes, runs, bool(playouts and setup.variant(parent.variant).playout))
    return results
