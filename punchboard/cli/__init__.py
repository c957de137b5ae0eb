"""The ``punchboard`` command. Every verb is one module here with a ``register(sub)``; nothing below imports it."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from punchboard import __version__
from punchboard.plumbing.errors import SpecError, UsageError, WorkerDied

from . import bom, build, check, export, init, serve, verify, watch
from . import list as list_verb
from .common import EXIT_FAIL, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, CliParser
from .crash import report_crash

__all__ = ["EXIT_FAIL", "EXIT_INPUT", "EXIT_INTERNAL", "EXIT_OK", "build_parser", "main"]

VERBS = (init, list_verb, check, build, watch, verify, bom, export, serve)

EXIT_CODES = """\
exit codes:
  0    success
  1    the verifier found a failing variant
  2    invalid input: a file:LINE:COL problem or a bad command-line value
  3    internal error: a bug in punchboard (the traceback is saved and its path printed)
  130  interrupted (Ctrl-C or SIGTERM)
  141  the output was closed early (as by `| head`); nothing else went wrong"""

EXIT_PIPE_CLOSED = 141  # 128 + SIGPIPE, what a shell reports for a pipeline stage cut short


def build_parser() -> argparse.ArgumentParser:
    parser = CliParser(
        prog="punchboard",
        description="Print-and-play pipeline: YAML components → print-accurate PDFs, and a verifier for every setup and deal.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"punchboard {__version__}")
    sub = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    for verb in VERBS:
        verb.register(sub)
    return parser


# A command allocates a great many small objects (a 2,000-card deck's model, its pages' objects) and frees few of
# them until it ends: with the collector's default first threshold (700) it ran about 4 % of a one-card edit of
# that deck (paired runs: 0.95 x with these; peak memory the same).
GC_THRESHOLDS = (50_000, 20, 20)


def main(argv: Sequence[str] | None = None) -> int:
    gc.set_threshold(*GC_THRESHOLDS)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, or a bad flag (already reported by CliParser)
        return stop.code if isinstance(stop.code, int) else EXIT_INPUT
    func: Callable[[argparse.Namespace], int] = args.func
    previous = _stop_on_sigterm()
    try:
        return func(args)
    except SpecError as err:
        for problem in err.problems:
            if problem.file.startswith("--"):  # a flag's value found wrong only once the game is loaded
                print(f"punchboard {args.verb}: {problem.file}: {problem.message}", file=sys.stderr)
            else:
                print(problem, file=sys.stderr)
        return EXIT_INPUT
    except UsageError as err:
        print(f"punchboard {args.verb}: {err}", file=sys.stderr)
        return EXIT_INPUT
    except WorkerDied as err:  # not a bug to report: the machine took a worker away
        print(f"punchboard {args.verb}: internal error: {err}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE_CLOSED
    except Exception as exc:  # the last line of defence: a bug, reported once, never a bare traceback
        print(report_crash(exc, getattr(args, "out", None), argv), file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _silence_stdout() -> None:
    """The reader went away (``| head``): point stdout at /dev/null so the exit flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stop_on_sigterm() -> Any:
    """SIGTERM stops a verb as Ctrl-C does: outputs being written are discarded, no traceback."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _interrupt)


if __name__ == "__main__":
    sys.exit(main())
