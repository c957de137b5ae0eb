"""``punchboard watch``: rebuild whatever changed on every save."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import SpecError
from punchboard.plumbing.outlock import output_lock
from punchboard.plumbing.paths import LAYOUTS
from punchboard.plumbing.watch import NotificationsUnavailable, Repeats, Report, follow, unchanged_line, watch

from .build import add_build_flags, add_press_flags, build_options
from .common import EXIT_INPUT, EXIT_OK, limits_of, positive_seconds, target_folders

TARGETS_HELP = "bundled game ids or paths to game folders; none means the game in the current folder (a game.yaml here)"


def cmd_watch(args: argparse.Namespace) -> int:
    """Rebuild on every save; bad input is reported and watching goes on. Ctrl-C or SIGTERM stops it (exit 0).

    With change notifications a save is built on its first event (``follow(..., at_once=True)``); a
    build that fails on bad input holds its problems until the save is known to be finished, so a
    half-written file is never reported: if the save went on, they are dropped and the finished files
    are built (and reported) again. A good build prints its summary at once; a later build of the same
    save prints its own. A build prints only the warnings its game's last good build did not, and a count
    of the others ("… and 11 unchanged warnings"). Each build the user is shown comes under its own
    "changed: …" line; a dropped build shows nothing, that line included.
    """
    from punchboard.generator.build import build_game, summary
    from punchboard.spec.loader import load_game

    _keep_between_builds()

    from punchboard.generator.press.pdfx import PressError
    from punchboard.generator.press.run import options_problem, with_press

    options = replace(build_options(args), quiet=True)
    if problem := options_problem(options):
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_INPUT
    folders = target_folders(args.targets, everything=False)
    out = Path(args.out)
    limits = limits_of(args)
    repeats = Repeats()  # a rebuild says only the warnings the last build of its game did not

    def rebuild(changed: list[Path]) -> Report | None:
        """Build every folder, saying what was drawn; the problems of bad input are handed back, to be
        said once the save is known to be finished."""
        # "changed: …" heads what this build has to say: a build whose problems are dropped (the save
        # went on) says nothing at all, so a save is announced once for each build the user sees.
        heading = [f"changed: {', '.join(sorted({p.name for p in changed}))}"] if changed else []

        def say(line: str) -> None:
            while heading:
                print(heading.pop(), flush=True)
            print(line, flush=True)

        problems = []
        for folder in folders:
            try:
                game = load_game(folder, limits, out)
                with output_lock(out):  # with --colour cmyk (or a shop preset's), the press files too, as build writes them
                    report = with_press(game, out, build_game(game, out, options), options)
            except SpecError as err:
                problems.extend(err.problems)
                continue
            except PressError as err:  # Ghostscript missing or failing: said, and watching goes on
                say(f"error: {err}")
                continue
            fresh, unchanged = repeats.news(folder, report.warnings)
            for message in fresh:
                say(f"warning: {message}")
            if unchanged:
                say(unchanged_line(unchanged))
            say(summary(report, out))
        if not problems:
            return None

        def say_problems() -> None:
            for problem in problems:
                say(str(problem))
            say("fix the problems above; still watching")

        return say_problems

    def ready() -> None:  # the first build, once changes are being watched: a save during it is seen
        problems = rebuild([])
        if problems is not None:
            problems()
        print(f"watching {', '.join(str(f) for f in folders)} and {LAYOUTS} (Ctrl-C to stop)", flush=True)

    try:
        _follow_or_poll(args, folders, rebuild, ready)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (see punchboard.cli.main): the normal way to stop
        print("stopped watching", flush=True)
    return EXIT_OK


def _keep_between_builds() -> None:
    """After a save, only what changed is parsed (spec/yamlsource.py) and loaded again (incremental/loads.py), only
    changed streams and font subsets are compressed again, and only changed component PDFs are read and renumbered
    into the combined PDF."""
    from punchboard.generator.document.merge import keep_copies
    from punchboard.generator.document.pdf_encoding import keep_encoded
    from punchboard.incremental.loads import keep_loaded
    from punchboard.spec.yamlsource import keep_parsed

    keep_parsed()
    keep_loaded()
    keep_encoded()
    keep_copies()


def _follow_or_poll(args: argparse.Namespace, folders: list[Path], rebuild: Callable[[list[Path]], Report | None],
                    ready: Callable[[], None]) -> None:
    """Rebuild on every save, seen through change notifications, or by polling (--poll, or where the system
    gives no notifications); ``ready`` makes the first build once changes are being watched."""
    if args.poll:
        ready()
        watch(lambda: [*folders, LAYOUTS], rebuild, interval=args.interval)
        return
    try:
        follow([*folders, LAYOUTS], rebuild, on_ready=ready, at_once=True)
    except NotificationsUnavailable as err:
        print(f"no change notifications here ({err}); checking every {args.interval:g} s instead", flush=True)
        ready()
        watch(lambda: [*folders, LAYOUTS], rebuild, interval=args.interval)


def register(sub: Any) -> None:
    p = sub.add_parser("watch", help="rebuild on every save", description="Build, then rebuild whatever changed each time a YAML, layout, CSV, font or image is saved (seen through the system's change notifications, or by polling with --poll). Bad input is reported and watching goes on. Ctrl-C (or SIGTERM) stops it with exit code 0.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=TARGETS_HELP)
    add_build_flags(p)
    add_press_flags(p)
    p.add_argument("--poll", action="store_true",
                   help="check for changes every --interval seconds instead of listening to the system's change "
                        "notifications (for network shares edited from another machine)")
    p.add_argument("--interval", type=positive_seconds, default=0.5,
                   help="with --poll (or where the system gives no notifications): seconds between checks (default: 0.5)")
    p.set_defaults(func=cmd_watch)
