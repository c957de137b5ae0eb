"""`punchboard verify`: run the verifier on games and write the reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from punchboard import atomicio
from punchboard.errors import Problem, SpecError
from punchboard.model import Game

from . import report
from .engine import verify_game
from .findings import Result


def run_verify(games: list[Game], args: argparse.Namespace) -> int:
    trials = getattr(args, "trials", 2000)
    seed = getattr(args, "seed", 1)
    if trials < 0:
        raise SpecError([Problem("--trials", 1, 1, f"--trials must be 0 or more, got {trials}")])
    if args.players is not None and args.players < 1:
        raise SpecError([Problem("--players", 1, 1, f"--players must be a positive integer, got {args.players}")])
    out = Path(getattr(args, "out", "output"))
    everything: list[Result] = []
    tty = sys.stdout.isatty() and not args.json
    for game in games:
        results = verify_game(game, variant=args.variant, players=args.players, trials=trials, seed=seed)
        everything.extend(results)
        folder = out / game.id
        atomicio.write_text(folder / "verify.md", report.markdown(game.id, game.title, results, trials, seed))
        atomicio.write_text(folder / "verify.svg", report.svg(game.id, results))
        if args.json:
            continue
        if tty:
            from rich.console import Console

            console = Console()
            console.print(report.rich_table(game.id, results))
            print("\n".join(report.findings_text(results)))
        else:
            print(report.plain_text(game.id, results))
        print(f"  report: {folder / 'verify.md'}, matrix: {folder / 'verify.svg'}")
    if args.json:
        sys.stdout.write(report.as_json(everything))
    return 1 if any(r.status == "fail" for r in everything) else 0
