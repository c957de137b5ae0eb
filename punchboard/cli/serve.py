"""``punchboard serve``: the studio page of one game, live in the browser."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import Problem, SpecError

from .build import add_build_flags, add_press_flags, build_options
from .common import ONE_TARGET_HELP, Voice, limits_of, target_folders


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535 (0: any free port), got '{text}'")
    return value


def cmd_serve(args: argparse.Namespace) -> int:
    from punchboard.generator.document.merge import keep_copies
    from punchboard.generator.document.pdf_encoding import keep_encoded
    from punchboard.incremental.loads import keep_loaded
    from punchboard.spec.yamlsource import keep_parsed
    from punchboard.studio.server import StudioServer, serve
    from punchboard.studio.state import Studio
    from punchboard.studio.workbench import Workbench, writable

    keep_parsed()  # after a save, only what changed is parsed again (spec/yamlsource.py)
    keep_loaded()  # and loaded again (punchboard/incremental/loads.py)
    keep_encoded()  # and only changed streams and font subsets are compressed again
    keep_copies()  # and only changed component PDFs are read and renumbered into the combined PDF

    if args.trials < 0:
        raise SpecError([Problem("--trials", 1, 1, f"--trials must be 0 or more, got {args.trials}")])
    if args.icc:  # the profile the page's CMYK proof uses: refused now, not on the first proof
        from punchboard.generator.press.profile import profile_problem

        if problem := profile_problem(Path(args.icc)):
            raise SpecError([Problem("--icc", 1, 1, f"{problem}; expected a CMYK ICC profile")])
    options = build_options(args)
    from punchboard.generator.press.run import options_problem

    if problem := options_problem(options):  # --pdfx 1a with --colour rgb: refused before serving
        flag, _, why = problem.partition(": ")
        raise SpecError([Problem(flag, 1, 1, why)])
    folder = target_folders([args.target] if args.target is not None else [], everything=False)[0]
    voice = Voice(args)
    studio = Studio(folder, Path(args.out), options, limits_of(args), args.trials, args.seed,
                    log=voice.say, alert=lambda text: print(text, flush=True))
    studio.workbench = Workbench(folder, studio.load, read_only=args.read_only or not writable(folder))
    try:
        server = StudioServer(studio, args.port, voice.detail if voice.verbose else None)
    except OSError as err:  # the port is taken, or not ours to bind
        raise SpecError([Problem("--port", 1, 1, f"cannot listen on 127.0.0.1:{args.port}: {err.strerror or err}; "
                                 "expected a free port, or 0 for any")]) from None
    return serve(server, args.open, args.interval, voice.say, args.poll)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="a live studio page of one game in the browser",
        description="Serve a page on 127.0.0.1 showing every distinct piece (face and back) with its count, "
                    "fields, layout and build warnings, the verifier's matrix and the bill of materials. "
                    "It rebuilds on every save and the page updates itself; a bad save shows its located "
                    "error while the last good pictures stay. Ctrl-C stops.",
    )
    p.add_argument("target", nargs="?", metavar="TARGET", help=ONE_TARGET_HELP)
    p.add_argument("--port", type=_port, default=0, help="port on 127.0.0.1 (default: 0, any free port)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument("--read-only", action="store_true",
                   help="the page only shows: no edits written to the game's files (the default when the game "
                        "folder is not writable)")
    p.add_argument("--poll", action="store_true",
                   help="check for changes every --interval seconds instead of listening to the system's change "
                        "notifications (for network shares edited from another machine)")
    p.add_argument("--interval", type=float, default=0.5,
                   help="with --poll (or where the system gives no notifications): seconds between checks (default: 0.5)")
    p.add_argument("--trials", type=int, default=200, help="verifier Monte Carlo deals per event (default: 200; `verify` uses more)")
    p.add_argument("--seed", type=int, default=1, help="verifier random seed (default: 1)")
    p.add_argument("--icc", default=None, metavar="PATH",
                   help="the CMYK output profile the page's \"CMYK proof\" shows the pieces through, and the press "
                        "files of --colour cmyk are made with (default: layouts/press.yaml's, Ghostscript's Artifex "
                        "SWOP profile)")
    add_build_flags(p)
    add_press_flags(p, icc=False)
    p.set_defaults(func=cmd_serve)
