"""``punchboard verify``: run the verifier on games and write the reports."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from punchboard.plumbing import atomicio
from punchboard.plumbing.errors import UsageError
from punchboard.plumbing.outlock import output_lock

if TYPE_CHECKING:  # the verifier loads when verify runs, not when the parser is built
    from punchboard.spec.model import Game
    from punchboard.verifier.findings import Finding, Result
    from punchboard.verifier.report import Marks

from .common import (
    TARGET_HELP,
    add_common_flags,
    add_limit_flags,
    jobs_count,
    jobs_of,
    limits_of,
    load_targets,
    non_negative_int,
    positive_int,
    progress,
)
from .players import check_selection, expectations

MAX_TRIALS = 10_000_000
MAX_PLAYERS = 1000


def _players(text: str) -> int:
    value = positive_int(text)
    if value > MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"expected a player count from 1 to {MAX_PLAYERS}, got {value}")
    return value


def _trials(text: str) -> int:
    value = non_negative_int(text)
    if value > MAX_TRIALS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_TRIALS} trials, got {value}")
    return value


MAX_PLAYOUTS = 1_000_000


def _games(text: str) -> int:
    value = non_negative_int(text)
    if value > MAX_PLAYOUTS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_PLAYOUTS} games, got {value}")
    return value


def run_verify(games: list[Game], args: argparse.Namespace) -> int:
    """Verify each game, write its reports and print what the flags ask; the exit code (see ``exit_code``)."""
    from punchboard.verifier import report
    from punchboard.verifier.engine import verify_game

    trials = getattr(args, "trials", 2000)
    seed = getattr(args, "seed", 1)
    if trials < 0:
        raise UsageError(f"--trials: expected a whole number, 0 or more, got {trials}")
    if args.players is not None and args.players < 1:
        raise UsageError(f"--players: expected a positive whole number, got {args.players}")
    games = _selected(games, args)
    declared = {game.id: expectations(game) for game in games}  # a wrong expected: entry: exit 2 before any work
    out = Path(getattr(args, "out", "output"))
    everything: list[Result] = []
    codes = [0]
    every_mark: list[Marks] = []
    whole = args.variant is None and args.players is None  # every cell ran: an expected: entry matching nothing is stale
    for game in progress(games, lambda g: f"verify {g.id}", getattr(args, "quiet", False) or args.json):
        results = verify_game(game, variant=args.variant, players=args.players, trials=trials, seed=seed,
                              jobs=jobs_of(args), cross_check=getattr(args, "cross_check", False),
                              playouts=getattr(args, "playouts", 0))
        everything.extend(results)
        marks = report.Marks(results, declared[game.id])
        every_mark.append(marks)
        folder = out / game.id
        atomicio.write_text(folder / "verify.md", report.markdown(game.id, game.title, results, trials, seed, _reason(marks)))
        atomicio.write_text(folder / "verify.svg", report.svg(game.title, results))
        atomicio.write_bytes(folder / "verify.png", report.png(game.title, results))
        codes.append(exit_code(results, marks, args, whole))
        if not args.json:
            _say(game, results, marks, args, folder, whole)
    if args.json:
        sys.stdout.write(report.as_json(everything, _reason(*every_mark)))
    return max(codes)


def _selected(games: list[Game], args: argparse.Namespace) -> list[Game]:
    """The games that have what --variant/--players ask for. One game (or none of several) without it is refused
    (UsageError, exit 2, naming the range) before anything runs or is written; of several, those without it
    are left out, each said in one line."""
    kept, refused = [], []
    for game in games:
        try:
            check_selection(game, args.variant, args.players)
        except UsageError as err:
            refused.append(err)
            continue
        kept.append(game)
    if refused and not kept:
        raise refused[0]
    for refusal in refused:
        print(f"punchboard verify: left out: {refusal}", file=sys.stderr)
    return kept


def exit_code(results: list[Result], marks: Marks, args: argparse.Namespace, whole: bool) -> int:
    """1 when the verifier found a failure (with --strict: or a warning), expected or not: an expected finding is
    a defect of the game as printed, still there. With --allow-expected only unexpected ones count (and, with
    --strict, an expected: entry that matched nothing in a whole run)."""
    strict = getattr(args, "strict", False)
    if getattr(args, "allow_expected", False):
        return marks.exit_code(results, strict, stale=whole)
    return 1 if any(r.status == "fail" or (strict and r.status == "warn") for r in results) else 0


def _reason(*marks: Marks) -> Callable[[Finding], str | None]:
    """Why a finding is expected (its ``expected:`` entry's reason), or None."""

    def reason(finding: Finding) -> str | None:
        entry = next((e for m in marks if (e := m.of(finding)) is not None), None)
        return entry.reason if entry is not None else None

    return reason


def _say(game: Game, results: list[Result], marks: Marks, args: argparse.Namespace, folder: Path, whole: bool) -> None:
    """The terminal's report of one game: by default the matrix, each failure or warning once by root cause and
    the key numbers; --verbose adds every cell's findings, the deal events and the sizes; --quiet only problems."""
    from punchboard.verifier import derived_report, report

    if getattr(args, "quiet", False):  # only what is wrong
        for line in report.summary_lines(results, marks, stale=whole)[:-1]:
            print(f"{game.id}{line}")
        return
    if sys.stdout.isatty():
        from rich.console import Console

        Console().print(report.rich_table(game.id, results))
    else:
        print(report.matrix_text(game.id, results))
    if getattr(args, "verbose", False):
        lines = (report.findings_text(results, _reason(marks)) + (report.stale_lines(marks) if whole else [])
                 + report.events_text(results) + derived_report.text(results))
    else:
        lines = report.summary_lines(results, marks, stale=whole) + derived_report.playouts_text(results)
    print("\n".join(lines))
    print(f"  report: {folder / 'verify.md'}, matrix: {folder / 'verify.svg'} and {folder / 'verify.png'}"
          + ("" if getattr(args, "verbose", False) else " (every finding, deal event and size: --verbose prints them)"))
    if getattr(args, "verbose", False):
        print(report.key_numbers(results, marks))
        trials, seed = getattr(args, "trials", 2000), getattr(args, "seed", 1)
        print(f"  {len(results)} checks, {sum(len(r.events) for r in results)} deal statistics, {trials} trials from seed {seed}")


def cmd_verify(args: argparse.Namespace) -> int:
    games = load_targets(args.targets, limits_of(args), getattr(args, "out", None))
    with output_lock(Path(args.out)):
        return run_verify(games, args)


def register(sub: Any) -> None:
    p = sub.add_parser("verify", help="simulate every setup and deal", description="Check that the components support every variant and player count the rules promise. Exit 0 if nothing fails, 1 if something fails (or, with --strict, warns), 2 on invalid input.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=TARGET_HELP)
    p.add_argument("--variant", help="only this variant")
    p.add_argument("--players", type=_players, help="only this player count")
    p.add_argument("--trials", type=_trials, default=2000, help=f"Monte Carlo re-runs of the whole setup per variant and player count for events without an exact figure and verdicts that depend on the deal, at most {MAX_TRIALS} (default: 2000)")
    p.add_argument("--seed", type=non_negative_int, default=1, help="random seed for Monte Carlo (default: 1)")
    p.add_argument("--jobs", type=jobs_count, default=0, metavar="N", help="run the Monte Carlo in up to N processes, 0 = every core; the results are the same for any N (default: 0)")
    p.add_argument("--playouts", type=_games, default=0, metavar="K", help="also play K whole games per variant and player count with the variant's round model (playout: in setup.yaml) and report when piles run out; never changes the exit code (default: 0, none)")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    p.add_argument("--cross-check", action="store_true", help="run the Monte Carlo for events with an exact figure "
                   "too, and check that they agree (by default only events without one are estimated)")
    p.add_argument("--strict", action="store_true", help="exit 1 on any warning too: rulebook contradictions, "
                   "counts the rulebook leaves open, worst cases that fail")
    p.add_argument("--allow-expected", action="store_true", help="exit 0 when every failure (and, with --strict, "
                   "every warning) is one setup.yaml's expected: declares, a known defect of the game as printed; "
                   "by default every failure counts, expected or not")
    add_common_flags(p, out="where verify.md and the matrix picture go")
    add_limit_flags(p)
    p.set_defaults(func=cmd_verify)
