"""The ``punchboard`` command: list, check, build, verify, bom."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from .bom import bill_of_materials, format_bom
from .errors import Problem, SpecError
from .limits import DEFAULT_LIMITS, FLAGS, LIMIT_HELP, Limits
from .loader import load_game
from .model import Game
from .paths import bundled_games, resolve_target

EXIT_OK, EXIT_FAIL, EXIT_INPUT = 0, 1, 2


def _targets(names: Sequence[str]) -> list[Path]:
    if not names:
        return bundled_games()
    folders, problems = [], []
    for name in names:
        folder = resolve_target(name)
        if folder is None:
            known = ", ".join(p.name for p in bundled_games())
            problems.append(
                Problem(name, 1, 1, f"no game '{name}': expected a bundled game id ({known}) or a folder with a game.yaml")
            )
        else:
            folders.append(folder)
    if problems:
        raise SpecError(problems)
    return folders


def load_targets(names: Sequence[str], limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """Load every target, collecting the problems of all of them before failing."""
    games, problems = [], []
    for folder in _targets(names):
        try:
            games.append(load_game(folder, limits))
        except SpecError as err:
            problems.extend(err.problems)
    if problems:
        raise SpecError(problems)
    return games


def cmd_list(args: argparse.Namespace) -> int:
    rows = []
    for folder in bundled_games():
        try:
            game = load_game(folder)
            players = f"{game.players_min}–{game.players_max}" if game.players_min != game.players_max else str(game.players_min)
            rows.append((game.id, game.title, players))
        except SpecError:
            rows.append((folder.name, "(invalid: run punchboard check)", ""))
    width = max((len(r[0]) for r in rows), default=2)
    for game_id, title, players in rows:
        print(f"{game_id:<{width}}  {title:<28} {players} players" if players else f"{game_id:<{width}}  {title}")
    return EXIT_OK


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got '{text}'")
    return value


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    for name, flag in FLAGS.items():
        default = getattr(DEFAULT_LIMITS, name)
        parser.add_argument(flag, type=_positive, default=default, metavar="N", help=f"{LIMIT_HELP[name]} (default: {default})")


def limits_of(args: argparse.Namespace) -> Limits:
    return Limits(**{name: getattr(args, name, getattr(DEFAULT_LIMITS, name)) for name in FLAGS})


def cmd_check(args: argparse.Namespace) -> int:
    for game in load_targets(args.targets, limits_of(args)):
        pieces = sum(c.count for c in game.components)
        print(f"{game.id}: ok ({len(game.components)} components, {pieces} pieces)")
        for warning in game.warnings:
            print(f"warning: {warning}")
    return EXIT_OK


def cmd_bom(args: argparse.Namespace) -> int:
    games = load_targets([args.target], limits_of(args))
    bom = bill_of_materials(games[0])
    if args.json:
        print(json.dumps(bom, indent=2, ensure_ascii=False))
    else:
        print(format_bom(bom))
    return EXIT_OK


def _duplex_offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in millimetres such as 1.5,-0.5, got '{text}'") from None
    return x, y


def _build_options(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from generator.options import BuildOptions

    return BuildOptions(
        paper=args.paper,
        backs=args.backs,
        duplex_offset=args.duplex_offset,
        print_shop=args.print_shop,
        proof=args.proof,
        packing=args.packing,
        force=args.force,
        quiet=args.quiet,
    )


def cmd_build(args: argparse.Namespace) -> int:
    from generator.build import build_games

    games = load_targets(args.targets, limits_of(args))
    return build_games(games, Path(args.out), _build_options(args))


def cmd_watch(args: argparse.Namespace) -> int:
    """Rebuild on every save; bad input is reported and watching goes on."""
    from dataclasses import replace

    from generator.build import build_game, summary

    from .paths import LAYOUTS
    from .watch import watch

    folders = _targets(args.targets)
    options = replace(_build_options(args), quiet=True)
    out = Path(args.out)
    limits = limits_of(args)
    cycles = {"left": args.max_rebuilds}

    def rebuild(changed: list[Path]) -> None:
        if changed:
            names = ", ".join(sorted({p.name for p in changed}))
            print(f"changed: {names}", flush=True)
        problems = []
        for folder in folders:
            try:
                game = load_game(folder, limits)
            except SpecError as err:
                problems.extend(err.problems)
                continue
            report = build_game(game, out, options)
            for message in report.warnings:
                print(f"warning: {message}", flush=True)
            print(summary(report, out), flush=True)
        for problem in problems:
            print(problem, flush=True)
        if problems:
            print("fix the problems above; still watching", flush=True)
        cycles["left"] -= 1

    rebuild([])
    print(f"watching {', '.join(str(f) for f in folders)} and {LAYOUTS} (Ctrl-C to stop)", flush=True)
    watch(
        lambda: [*folders, LAYOUTS],
        rebuild,
        interval=args.interval,
        should_stop=lambda: args.max_rebuilds is not None and cycles["left"] <= 0,
    )
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from verifier.cli import run_verify

    games = load_targets(args.targets, limits_of(args))
    return run_verify(games, args)


def _add_build_flags(p: argparse.ArgumentParser) -> None:
    from generator.options import BACK_MODES

    p.add_argument("--out", default="output", help="output folder (default: output)")
    p.add_argument("--paper", default="letter", help="paper from layouts/paper/: letter, a4, a3, tabloid (default: letter)")
    p.add_argument("--backs", default="duplex-long", choices=BACK_MODES, help="how backs are printed (default: duplex-long)")
    p.add_argument("--duplex-offset", default=(0.0, 0.0), type=_duplex_offset, metavar="X,Y", help="shift back pages by X,Y mm to correct duplex misregistration")
    p.add_argument("--print-shop", action="store_true", help="one card per page at trim + bleed, fronts and backs alternating, no marks")
    p.add_argument("--proof", action="store_true", help="draw trim and safe-zone guides")
    p.add_argument("--packing", default="spaced", choices=("spaced", "touching"), help="cards spaced with their own bleed, or touching on shared cut lines")
    p.add_argument("--force", action="store_true", help="rebuild everything, ignoring the cache")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    add_limit_flags(p)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="punchboard",
        description="Print-and-play pipeline: YAML components → print-accurate PDFs, and a verifier for every setup and deal.",
    )
    sub = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    p = sub.add_parser("list", help="list the bundled games", description="List the bundled games with title and player range.")
    p.set_defaults(func=cmd_list)

    target_help = "a bundled game id or a path to a game folder; none means every bundled game"
    p = sub.add_parser("check", help="validate games without building", description="Validate the YAML of games; exit 0 when valid, 2 otherwise.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=target_help)
    add_limit_flags(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("build", help="write print-ready PDFs", description="Lay out every printed component as PDFs under OUT/<game_id>/. Only components whose inputs changed since the last build into OUT are drawn again.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=target_help)
    _add_build_flags(p)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("watch", help="rebuild on every save", description="Build, then rebuild whatever changed each time a YAML, layout, CSV, font or image is saved. Bad input is reported and watching goes on. Ctrl-C stops.")
    p.add_argument("targets", nargs="+", metavar="TARGET", help="a bundled game id or a path to a game folder")
    _add_build_flags(p)
    p.add_argument("--interval", type=float, default=0.5, help="seconds between checks for changes (default: 0.5)")
    p.add_argument("--max-rebuilds", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("verify", help="simulate every setup and deal", description="Check that the components support every variant and player count the rules promise. Exit 0 if nothing fails, 1 if something fails, 2 on invalid input.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=target_help)
    p.add_argument("--variant", help="only this variant")
    p.add_argument("--players", type=int, help="only this player count")
    p.add_argument("--trials", type=int, default=2000, help="Monte Carlo re-runs of the whole setup per variant and player count (default: 2000)")
    p.add_argument("--seed", type=int, default=1, help="random seed for Monte Carlo (default: 1)")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    p.add_argument("--out", default="output", help="where verify.md and the matrix picture go (default: output)")
    add_limit_flags(p)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("bom", help="bill of materials", description="Every component with its counts, and the bought supplies.")
    p.add_argument("target", metavar="TARGET", help="a bundled game id or a path to a game folder")
    p.add_argument("--json", action="store_true", help="print as JSON")
    add_limit_flags(p)
    p.set_defaults(func=cmd_bom)

    from generator.export_cli import add_export_verbs

    add_export_verbs(sub, target_help)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except SpecError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
