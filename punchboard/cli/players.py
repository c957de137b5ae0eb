"""Which player counts a game's variants cover: ``--players``/``--variant`` checked against them before any work
(exit 2 naming the range), and ``check``'s finding for a count game.yaml promises that no variant covers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from punchboard.plumbing.errors import UsageError

if TYPE_CHECKING:
    from punchboard.spec.expected import Expected
    from punchboard.spec.model import Game


def spans(counts: Iterable[int]) -> str:
    """Player counts as runs: ``1, 3–6``."""
    ordered = sorted(set(counts))
    runs: list[list[int]] = []
    for n in ordered:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _players(counts: Iterable[int]) -> str:
    """``2–6 players``, ``1 player``."""
    ordered = sorted(set(counts))
    return f"{spans(ordered)} player{'' if ordered == [1] else 's'}"


def _expected(counts: Iterable[int]) -> str:
    ordered = sorted(set(counts))
    if len(ordered) > 1 and ordered[-1] - ordered[0] + 1 == len(ordered):
        return f"a count from {ordered[0]} to {ordered[-1]}"
    return f"one of {spans(ordered)}" if len(ordered) > 1 else f"exactly {ordered[0]}"


def coverage(game: Game) -> Mapping[str, tuple[int, ...]] | None:
    """Each variant's player counts, in setup.yaml's order; None for a game without a setup.yaml."""
    if game.setup is None:
        return None
    from punchboard.spec.setup_loader import load_setup

    setup = load_setup(game.setup, game.components, (game.players_min, game.players_max))
    return {variant.id: variant.players for variant in setup.variants}


def check_selection(game: Game, variant: str | None, players: int | None) -> None:
    """Refuse (UsageError, exit 2) a ``--variant`` the game does not have, a ``--players`` outside game.yaml's
    range, or one that no variant (or the ``--variant`` asked for) covers."""
    if players is None and variant is None:
        return
    low, high = game.players_min, game.players_max
    if players is not None and not low <= players <= high:
        raise UsageError(f"--players {players}: {game.id} is for {_players(range(low, high + 1))}; "
                         f"expected {_expected(range(low, high + 1))}")
    covered = coverage(game)
    if covered is None:
        return  # nothing to simulate at any count: the verifier says so (and refuses a --variant)
    if variant is not None and variant not in covered:
        raise UsageError(f"--variant: {game.id} has no variant '{variant}'; expected one of {', '.join(covered)}")
    if players is None:
        return
    if variant is not None:
        if players not in covered[variant]:
            raise UsageError(f"--players {players}: {game.id}'s variant '{variant}' is for "
                             f"{_players(covered[variant])}; expected {_expected(covered[variant])}")
        return
    every = {n for counts in covered.values() for n in counts}
    if players not in every:
        each = "; ".join(f"{v}: {spans(c)}" for v, c in covered.items())
        raise UsageError(f"--players {players}: no variant of {game.id} covers {_players([players])} ({each}); "
                         f"expected {_expected(every)}")


def uncovered(game: Game) -> list[str]:
    """``check``'s finding, at game.yaml's ``players`` key: counts inside its range that no variant covers."""
    covered = coverage(game)
    if covered is None:
        return []
    every = {n for counts in covered.values() for n in counts}
    missing = [n for n in range(game.players_min, game.players_max + 1) if n not in every]
    if not missing:
        return []
    from punchboard.spec.yamlsource import load_yaml

    doc = load_yaml(game.folder / "game.yaml")
    message = (f"players: {game.id} is for {_players(range(game.players_min, game.players_max + 1))}, but no "
               f"variant in setup.yaml covers {_players(missing)} (variants cover {spans(every) or 'none'}); "
               "expected a variant for every count in this range, or a narrower range")
    return [str(doc.problem(("players",), message, key=True))]


def expectations(game: Game) -> tuple[Expected, ...]:
    """The game's ``expected:`` entries (setup.yaml), checked against its variants (SpecError, exit 2, for an
    entry naming a variant or player count the setup does not have); none without a setup."""
    from punchboard.spec.expected import load_expected

    covered = coverage(game)
    return load_expected(game.setup, covered) if covered is not None else ()
