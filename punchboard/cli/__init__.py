"""The ``punchboard`` command. Every verb is one module here with a ``register(sub)``; nothing below imports it."""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from punchboard import __version__
from punchboard.plumbing.errors import SpecError, UsageError, WorkerDied

from . import bom, build, check, export, init, serve, translations, verify, watch
from . import list as list_verb
from .common import EXIT_FAIL, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, CliParser
from .crash import report_crash

__all__ = ["EXIT_FAIL", "EXIT_INPUT", "EXIT_INTERNAL", "EXIT_OK", "build_parser", "main", "run"]

VERBS = (init, list_verb, check, build, watch, verify, bom, export, serve, translations)

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
# that deck (paired runs: 0.95 x with these; peak memory the same). A command that ends when its work is done
# runs without the cycle collector at all: what it frees, reference counting frees, and the few cycles it leaves
# (a build of a 2,000-card deck: about 2,000 objects) go when it exits; the collector's passes over the young
# model cost another 3 % of that edit, and a 20,000-card build peaks at the same memory without them. `watch` and
# `serve` run for hours, rebuilding: they keep the collector, with these thresholds.
GC_THRESHOLDS = (50_000, 20, 20)
LONG_RUNNING = frozenset({"watch", "serve"})


def main(argv: Sequence[str] | None = None) -> int:
    return _main(argv, leaving=False)


def _main(argv: Sequence[str] | None, leaving: bool) -> int:
    """``leaving``: the process ends when this returns (:func:`run`), so the collector is not turned on again (its
    first pass would go over every object the verb made)."""
    gc.set_threshold(*GC_THRESHOLDS)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, or a bad flag (already reported by CliParser)
        return stop.code if isinstance(stop.code, int) else EXIT_INPUT
    func: Callable[[argparse.Namespace], int] = args.func
    previous = _stop_on_sigterm()
    ignored_sigint = _hear_sigint() if args.verb in LONG_RUNNING else None
    collecting = gc.isenabled()
    if args.verb not in LONG_RUNNING:
        gc.disable()
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
        if collecting and not leaving:  # tests call main again in the same process
            gc.enable()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if ignored_sigint is not None:
            signal.signal(signal.SIGINT, ignored_sigint)


def run() -> None:
    """The ``punchboard`` command (``python -m punchboard`` too): :func:`main`, then out of the process without
    tearing the interpreter down. Freeing every object one by one at exit took a one-card edit of a 2,000-card
    deck 20 ms (its model, its pages' records); the exit handlers still run and the standard streams are still
    flushed, and while any other thread runs (none should, once a verb returns) the exit is the usual one."""
    code = _main(None, leaving=True)
    if code != EXIT_INTERRUPTED:
        from punchboard.incremental.cache_bound import trim_user_cache

        trim_user_cache()  # the user's cache folder kept under its bound (measured at most once an hour)
    if threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``| head``)
        code = code or EXIT_PIPE_CLOSED
    except (OSError, ValueError):  # stdout closed, or its disk full: as an exit that tore down would, say nothing
        pass
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


def _silence_stdout() -> None:
    """The reader went away (``| head``): point stdout at /dev/null so the exit flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _hear_sigint() -> Any:
    """A long-running verb started as a background job (``nohup … &``, some IDE and CI runners) inherits SIGINT
    ignored, and Python then installs no handler: it is heard again, as Ctrl-C, so SIGINT stops ``watch`` and
    ``serve`` wherever they were started. Returns the ignored handler to put back, or None when nothing changed."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        return None
    return signal.signal(signal.SIGINT, signal.default_int_handler)


def _stop_on_sigterm() -> Any:
    """SIGTERM stops a verb as Ctrl-C does: outputs being written are discarded, no traceback."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _interrupt)


if __name__ == "__main__":
    sys.exit(main())
