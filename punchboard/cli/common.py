"""What every verb shares: exit codes, targets, limit flags, --out/--quiet/--verbose and progress."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

from punchboard.plumbing.errors import SpecError, UsageError
from punchboard.plumbing.limits import DEFAULT_LIMITS, FLAGS, LIMIT_HELP, Limits
from punchboard.plumbing.paths import bundled_games, resolve_target

if TYPE_CHECKING:  # the loader (and jsonschema, yaml) load when a verb reads a game, not when the parser is built
    from punchboard.spec.model import Game

T = TypeVar("T")

EXIT_OK, EXIT_FAIL, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
TARGET_HELP = (
    "a bundled game id or a path to a game folder; none means the game in the current folder (a game.yaml "
    "here), else every bundled game"
)
ONE_TARGET_HELP = "a bundled game id or a path to a game folder; none means the game in the current folder (a game.yaml here)"


def here() -> Path | None:
    """The current folder when it is a game folder (holds a ``game.yaml``), else None."""
    folder = Path.cwd()
    return folder if (folder / "game.yaml").is_file() else None


def target_folders(names: Sequence[str], everything: bool = True) -> list[Path]:
    """The game folders ``names`` name. No name means the game in the current folder, else (``everything``)
    every bundled game; a verb that needs a target (``everything=False``) refuses none outside a game folder."""
    if not names:
        folder = here()
        if folder is not None:
            return [folder]
        if not everything:
            known = ", ".join(p.name for p in bundled_games())
            raise UsageError(
                f"TARGET: none given and no game.yaml in {Path.cwd()}; expected a bundled game id ({known}), a game "
                "folder, or to be run inside a game folder"
            )
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


def load_targets(names: Sequence[str], limits: Limits = DEFAULT_LIMITS, out: str | Path | None = None, echo: bool = True) -> list[Game]:
    """Load every target, collecting the problems of all of them before failing.

    ``out`` is the verb's output folder (spreadsheet links are cached there); with ``echo``
    a spreadsheet read from its cache because its link could not be fetched is a warning on stderr.
    """
    from punchboard.spec.loader import load_game

    games, problems = [], []
    for folder in target_folders(names):
        try:
            games.append(load_game(folder, limits, Path(out) if out is not None else None))
        except SpecError as err:
            problems.extend(err.problems)
    if problems:
        raise SpecError(problems)
    if echo:
        for game in games:
            for warning in game.fetch_warnings:
                print(f"warning: {warning}", file=sys.stderr)
    return games


LANG_HELP = ("the language to write, one of the game's languages: (game.yaml), its files under OUT/<game>/<LANG>/; "
             "'all' writes every language (default: the source language, under OUT/<game>/)")


def add_language_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", default=None, metavar="LANG", type=_language_code, help=LANG_HELP)


def _language_code(text: str) -> str:
    from punchboard.spec.loader.translated import LANGUAGE

    if text != "all" and not LANGUAGE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected a language code such as de or pt-BR, or all, got '{text[:40]}'")
    return text


def in_languages(games: Sequence[Game], lang: str | None, echo: bool = True) -> list[tuple[Game, str | None]]:
    """Each game in the language ``--lang`` asks for (``all``: each of its languages, the source first), with the
    language its files are written under (None: today's OUT/<game>/). A translation a piece lacks is a warning
    on stderr when ``echo``. Raises UsageError for a language a game is not written in."""
    from punchboard.spec.languages import in_language, missing_translations

    chosen: list[tuple[Game, str | None]] = []
    for game in games:
        if lang is None or (lang == "all" and not game.languages):
            chosen.append((game, None))
            continue
        for code in game.languages if lang == "all" else (lang,):
            written_in(game, code)
            if echo:
                for line in missing_translations(game, code):
                    print(f"warning: {line}", file=sys.stderr)
            chosen.append((in_language(game, code), code))
    return chosen


def written_in(game: Game, lang: str | None) -> None:
    """Raise UsageError when ``--lang``'s ``lang`` (a code; ``all`` and None ask for nothing) is not one of
    ``game``'s languages."""
    if lang in (None, "all") or lang in game.languages:
        return
    declared = ", ".join(game.languages) if game.languages else "no languages (add languages: [en, de] to game.yaml)"
    raise UsageError(f"--lang {lang}: game '{game.id}' is written in {declared}")


def by_language(chosen: Sequence[tuple[Game, str | None]]) -> list[tuple[str | None, list[Game]]]:
    """The games of :func:`in_languages` grouped by the language they are written under, in first-seen order."""
    groups: dict[str | None, list[Game]] = {}
    for game, lang in chosen:
        groups.setdefault(lang, []).append(game)
    return list(groups.items())


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


def jobs_count(text: str) -> int:
    """``--jobs``: a number of processes, 0 meaning every core."""
    try:
        value = _whole(text, 0)
    except argparse.ArgumentTypeError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0 = every core), got '{text[:40]}'")
    return value


def jobs_of(args: argparse.Namespace) -> int:
    """The processes ``--jobs`` asks for, 0 (every core) resolved."""
    from punchboard.plumbing.pool import default_jobs

    return getattr(args, "jobs", 0) or default_jobs()


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    for name, flag in FLAGS.items():
        default = getattr(DEFAULT_LIMITS, name)
        parser.add_argument(flag, type=_positive, default=default, metavar="N", help=f"{LIMIT_HELP[name]} (default: {default})")


PREFLIGHT_HELP = (
    "what to do with the preflight's findings on each piece (low-resolution images, text under 6 pt, hairlines, text or "
    "key art outside the safe zone, low contrast, pieces told apart only by colours colour-blind players or a grey "
    "print cannot tell apart): warn (print them), strict (also exit 1), off (print none) (default: warn)"
)


def add_preflight_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preflight", default="warn", choices=("warn", "strict", "off"), help=PREFLIGHT_HELP)


def limits_of(args: argparse.Namespace) -> Limits:
    return Limits(**{name: getattr(args, name, getattr(DEFAULT_LIMITS, name)) for name in FLAGS})


class CliParser(argparse.ArgumentParser):
    """Bad flags are reported as ``punchboard VERB: --flag: what is wrong`` and exit 2, without the usage dump."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("argument "):
            message = message[len("argument ") :]
        self.exit(EXIT_INPUT, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def add_common_flags(parser: argparse.ArgumentParser, out: str | None = None, out_default: str | None = "output") -> None:
    """``--quiet`` and ``--verbose`` for every verb; ``--out DIR`` for a verb that writes files (``out``: its help)."""
    if out is not None:
        parser.add_argument("--out", default=out_default, metavar="DIR", help=f"{out} (default: {out_default})" if out_default else out)
    loudness = parser.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true", help="print nothing but problems and warnings")
    loudness.add_argument("-v", "--verbose", action="store_true", help="say more: every file written and every step")


class Voice:
    """What a verb prints, as ``--quiet`` and ``--verbose`` ask: ``say`` normally, ``detail`` only when verbose."""

    def __init__(self, args: argparse.Namespace):
        self.quiet = bool(getattr(args, "quiet", False))
        self.verbose = bool(getattr(args, "verbose", False))

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    def detail(self, text: str) -> None:
        if self.verbose:
            print(text, flush=True)

    def progress(self, items: Sequence[T], label: Callable[[T], str]) -> Iterator[T]:
        """Each item in turn, with a progress bar on a terminal and plain lines on stderr otherwise."""
        yield from progress(items, label, self.quiet)


def progress(items: Sequence[T], label: Callable[[T], str], quiet: bool = False) -> Iterator[T]:
    """Iterate ``items``: a transient rich progress bar when stderr is a terminal, a plain
    ``[i/n] label`` line per item otherwise; nothing with ``quiet`` or for a single item."""
    if quiet or len(items) < 2:
        yield from items
        return
    if not sys.stderr.isatty():
        for index, item in enumerate(items, 1):
            print(f"[{index}/{len(items)}] {label(item)}", file=sys.stderr, flush=True)
            yield item
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task("", total=len(items))
        for item in items:
            bar.update(task, description=label(item))
            yield item
            bar.advance(task)
