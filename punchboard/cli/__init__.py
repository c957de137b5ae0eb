"""The ``punchboard`` command. Every verb is one module here with a ``register(sub)``; nothing below imports it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from punchboard import __version__
from punchboard.plumbing.errors import SpecError

from . import bom, build, check, export, init, serve, verify, watch
from . import list as list_verb
from .common import EXIT_FAIL, EXIT_INPUT, EXIT_OK

__all__ = ["EXIT_FAIL", "EXIT_INPUT", "EXIT_OK", "build_parser", "main"]

VERBS = (init, list_verb, check, build, watch, verify, bom, export, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="punchboard",
        description="Print-and-play pipeline: YAML components → print-accurate PDFs, and a verifier for every setup and deal.",
    )
    parser.add_argument("--version", action="version", version=f"punchboard {__version__}")
    sub = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    for verb in VERBS:
        verb.register(sub)
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
