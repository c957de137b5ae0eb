"""Deal events of one simulated setup: exact probability and seeded Monte Carlo estimate."""

from __future__ import annotations

import random

from punchboard.spec.setup_model import Event

from .findings import EventStat, Finding
from .simulate import Run
from .stats import exact_probability, monte_carlo, wilson


def event_stats(run: Run, trials: int, seed: int) -> tuple[list[EventStat], list[Finding]]:
    stats: list[EventStat] = []
    findings: list[Finding] = []
    for index, event in enumerate(run.variant.events):
        deals = [d for d in run.deals if d.zone == event.zone]
        if not deals:
            findings.append(Finding(f'event "{event.name}"', f"not computed: no deal filled '{event.zone}'", "warn"))
            continue
        for deal in deals:
            stats.append(_one(run, event, deal, trials, seed, index))
    for stat in stats:
        if not stat.agrees:
            findings.append(Finding(f'event "{stat.name}"', f"Monte Carlo {stat.estimate:.5f} [{stat.low:.5f}, {stat.high:.5f}] "
                                    f"disagrees with the exact {stat.exact:.5f} (seed {stat.seed})", "warn"))
    return stats, findings


def _one(run: Run, event: Event, deal, trials: int, seed: int, index: int) -> EventStat:  # type: ignore[no-untyped-def]
    flags = [run.matches(i, event.where, (), run.env) for i in deal.pool]
    players = max(deal.owner, default=-1) + 1
    sizes = [deal.owner.count(p) for p in range(players)]
    exact = float(exact_probability(sizes, len(deal.pool), sum(flags), event.low, event.high, event.who))
    seed_text = f"{seed}:{run.variant.id}:{run.players}:{deal.scope}:{index}"
    hits = monte_carlo(deal.owner, players, flags, event.low, event.high, event.who, trials, random.Random(seed_text))
    low, high = wilson(hits, trials)
    return EventStat(event.name, deal.scope, exact, hits / trials if trials else 0.0, low, high, trials, hits, seed_text)
