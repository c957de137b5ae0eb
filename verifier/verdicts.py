"""Verdicts over the whole random process: on what share of deals a setup falls short.

Most setups fall short (or not) on every deal alike: no step chooses among randomly arranged pieces by what
they are, so every zone's size, and so every finding, is the same on every deal. The setup run by
:func:`~.setup.simulate.simulate` records every *random read* (:mod:`.probability.origins`): a step or
check that reads what pieces are where a random step put them and could read something else on another
deal. Without one, the one run's verdict holds on every deal (``fixed``).

With one, the verdict itself is random, and the share of deals each finding happens on is estimated from
``--trials`` re-runs of the whole setup with every check, plus the first run. Their streams are seeded
from the variant and player count alone (``verdict:{variant}:{players}:{block}``), never from ``--seed``,
in blocks of 500 like the event Monte Carlo, so the verdict and the exit code are the same for any
``--seed`` and any ``--jobs``. The rule: **a cell fails when some deal it looked at falls short** — the
first run or any re-run — and the report says on what share of deals, with its interval; a setup that
fails on one deal in a million may pass unnoticed, and the report says how many deals were looked at.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from punchboard.spec.model import Game
from punchboard.spec.setup_model import Variant

from .findings import Chance, Finding
from .inventory import Instance
from .probability.stats import Z_999, wilson
from .setup.simulate import simulate
from .setup.zones import Run
from .supply.bounds import check_supply

BLOCK = 500

Key = tuple[str, str]  # (step, severity): one finding whatever player or count it names on a deal


def _key(finding: Finding) -> Key:
    return finding.step, finding.severity


def setup_seed(variant: Variant, players: int) -> str:
    """The seed of a cell's first setup run: from the variant and the player count, never from ``--seed``."""
    return f"setup:{variant.id}:{players}"


@dataclass
class VerdictStudy:
    """One variant × player count whose verdict depends on the deal, and its re-runs."""

    game: Game
    variant: Variant
    players: int
    run: Run
    inventory: tuple[Instance, ...]
    trials: int

    @property
    def seed_text(self) -> str:
        return f"verdict:{self.variant.id}:{self.players}"

    def blocks(self) -> list[tuple[int, int]]:
        return [(b, min(BLOCK, self.trials - b * BLOCK)) for b in range((self.trials + BLOCK - 1) // BLOCK)]

    def count(self, block: int, size: int) -> tuple[int, dict[Key, int], dict[Key, Finding]]:
        """How many of ``size`` re-runs fall short, how many show each finding, and one example of each."""
        rng = random.Random(f"{self.seed_text}:{block}")
        fails = 0
        seen: dict[Key, int] = {}
        examples: dict[Key, Finding] = {}
        for _ in range(size):
            replay = simulate(self.game, self.variant, self.players, rng, self.inventory, track=False,
                              cache=self.run.cache)
            findings = replay.findings + check_supply(replay)
            fails += any(f.severity == "fail" for f in findings)
            for finding in findings:
                key = _key(finding)
                if key not in examples:
                    examples[key] = finding
            for key in {_key(f) for f in findings}:
                seen[key] = seen.get(key, 0) + 1
        return fails, seen, examples


def finish(study: VerdictStudy, first: list[Finding],
           block_counts: list[tuple[int, dict[Key, int], dict[Key, Finding]]]) -> tuple[list[Finding], Chance]:
    """The cell's findings, each with the share of deals it happens on, and the share that fall short.

    ``first`` is the first run's findings (one deal more, counted with the re-runs)."""
    deals = 1 + study.trials
    fails = int(any(f.severity == "fail" for f in first))
    seen: dict[Key, int] = {}
    for key in {_key(f) for f in first}:
        seen[key] = 1
    extra: dict[Key, Finding] = {}
    for block_fails, block_seen, examples in block_counts:
        fails += block_fails
        for key, hits in block_seen.items():
            seen[key] = seen.get(key, 0) + hits
        for key, finding in examples.items():
            extra.setdefault(key, finding)

    def chance(hits: int) -> Chance:
        low, high = wilson(hits, deals, Z_999)
        return Chance(hits / deals, "estimate", low, high, deals)

    out: list[Finding] = []
    known: set[Key] = set()
    for finding in [*first, *extra.values()]:  # one line per step: which player falls short differs by deal
        key = _key(finding)
        if key in known:
            continue
        known.add(key)
        message = f"for example {finding.message}" if finding.message else "for example on one deal"
        out.append(replace(finding, message=message, chance=chance(seen[key])))
    return out, chance(fails)
