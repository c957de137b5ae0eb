"""What every verb shares: exit codes, targets, limit flags."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from punchboard.plumbing.errors import SpecError, UsageError
from punchboard.plumbing.limits import DEFAULT_LIMITS, FLAGS, LIMIT_HELP, Limits
from punchboard.plumbing.paths import bundled_games, resolve_target

if TYPE_CHECKING:  # the loader (and jsonschema, yaml) load when a verb reads a game, not when the parser is built
    from punchboard.spec.model import Game

EXIT_OK, EXIT_FAIL, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
TARGET_HELP = "a bundled game id or a path to a game folder; none means every bundled game"


def target_folders(names: Sequence[str]) -> list[Path]:
    if not names:
        return bundled_games()
    folders, unknown = [], []
    for name in names:
        folder = resolve_target(name)
        if folder is None:
            unknown.append(f"'{name[:80]}'")
        else:
            folders.append(folder)
    if unknown:
        known = ", ".join(p.name for p in bundled_games())
        raise UsageError(
            f"TARGET: no game {', '.join(unknown)}; expected a bundled game id ({known}) or a folder with a game.yaml"
        )
    return folders


def load_targets(names: Sequence[str], limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """Load every target, collecting the problems of all of them before failing."""
    from punchboard.spec.loader import load_game

    games, problems = [], []
    for folder in target_folders(names):
        try:
            games.append(load_game(folder, limits))
        except SpecError as err:
            problems.extend(err.problems)
    if problems:
        raise SpecError(problems)
    return games


MAX_FLAG_DIGITS = 18  # a flag's whole number beyond 10**18 is a typo, and would only exhaust something


def _whole(text: str, least: int) -> int:
    digits = text.strip().lstrip("+-")
    if len(digits) > MAX_FLAG_DIGITS or not digits.isdigit():
        value = None
    else:
        value = int(text)
    if value is None or value < least:
        shown = text if len(text) <= 40 else f"{text[:20]}… ({len(text)} characters)"
        kind = "a positive whole number" if least > 0 else "a whole number, 0 or more"
        raise argparse.ArgumentTypeError(f"expected {kind} (at most {MAX_FLAG_DIGITS} digits), got '{shown}'")
    return value


def positive_int(text: str) -> int:
    """``--flag N`` for N ≥ 1: refuses 0, negatives, fractions, NaN, infinity and absurdly long numbers."""
    return _whole(text, 1)


def non_negative_int(text: str) -> int:
    return _whole(text, 0)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most 3600, got '{text[:40]}'")
    return value


_positive = positive_int


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    for name, flag in FLAGS.items():
        default = getattr(DEFAULT_LIMITS, name)
        parser.add_argument(flag, type=_positive, default=default, metavar="N", help=f"{LIMIT_HELP[name]} (default: {default})")


def limits_of(args: argparse.Namespace) -> Limits:
    return Limits(**{name: getattr(args, name, getattr(DEFAULT_LIMITS, name)) for name in FLAGS})


class CliParser(argparse.ArgumentParser):
    """Bad flags are reported as ``punchboard VERB: --flag: what is wrong`` and exit 2, without the usage dump."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("argument "):
            message = message[len("argument ") :]
        self.exit(EXIT_INPUT, f"{self.prog}: {message} (see '{self.prog} --help')\n")
