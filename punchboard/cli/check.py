"""``punchboard check``: validate games without building, and run the preflight on every piece."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import (
    EXIT_FAIL,
    EXIT_INPUT,
    EXIT_OK,
    TARGET_HELP,
    Voice,
    add_common_flags,
    add_language_flag,
    add_limit_flags,
    add_preflight_flag,
    limits_of,
    load_targets,
    written_in,
)
from .players import expectations, uncovered


def cmd_check(args: argparse.Namespace) -> int:
    voice = Voice(args)
    failed = failed_input = False
    if getattr(args, "icc", None):
        from pathlib import Path

        from punchboard.generator.press.profile import profile_problem

        if problem := profile_problem(Path(args.icc)):
            print(f"error: --icc: {problem}", file=sys.stderr)
            return EXIT_INPUT
    for game in load_targets(args.targets, limits_of(args), getattr(args, "out", None), echo=False):
        pieces = sum(c.count for c in game.components)
        source = _preflight(game, args.preflight)
        findings = source + _press(game, args) + _translations(game, args, set(source))
        said = f", preflight: {len(findings)} finding{'' if len(findings) == 1 else 's'}" if findings else ""
        voice.say(f"{game.id}: ok ({len(game.components)} components, {pieces} pieces{said})")
        for component in game.components:
            voice.detail(f"  {component.id}: {component.kind}, {component.count} pieces ({component.source.name})")
        expectations(game)  # an expected: entry naming a variant or count the setup does not have: exit 2
        for warning in (*game.warnings, *uncovered(game)):
            print(f"warning: {warning}", file=sys.stderr)  # on stderr, as build's and verify's are
        for warning in findings:
            print(f"warning: {warning}", file=sys.stderr)
        failed_input = _glyphs_and_notes(game, args) or failed_input
        failed = failed or (args.preflight == "strict" and bool(findings))
    if failed_input:
        return EXIT_INPUT
    if failed:
        print("error: --preflight strict: the preflight found problems (the warnings above)", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _glyphs_and_notes(game: Any, args: argparse.Namespace) -> bool:
    """Say the characters a text's font lacks (generator/draw/glyphs.py: a warning in the source text, a located
    error in a translation, for ``--lang``'s language or every one) and, as information, each installed font the
    game depends on; True when there was an error."""
    from punchboard.generator.draw.glyphs import glyph_problems
    from punchboard.spec.loader.font_files import system_font_notes

    lang = getattr(args, "lang", None)
    errors = False
    for problem in glyph_problems(game):
        if not problem.is_error:
            print(f"warning: {problem}", file=sys.stderr)
        elif lang in (None, "all", problem.language):
            print(f"{problem} (in {problem.language})", file=sys.stderr)
            errors = True
    for note in system_font_notes(game):
        print(f"note: {note}", file=sys.stderr)
    return errors


def _translations(game: Any, args: argparse.Namespace, source: set[str]) -> list[str]:
    """Each translation checked as its build draws it (``--lang``'s, or every one of the game's other languages):
    the pieces that lack it, and the preflight's findings its text has and the ``source`` text's has not."""
    from punchboard.spec.languages import in_language, missing_translations

    written_in(game, args.lang)  # a language the game is not written in: refused, exit 2
    said: list[str] = []
    for lang in game.languages[1:]:
        if args.lang not in (None, "all", lang):
            continue
        own = [finding for finding in _preflight(in_language(game, lang), args.preflight) if finding not in source]
        said.extend(f"{line} (in {lang})" for line in (*missing_translations(game, lang), *own))
    return said


def _preflight(game: Any, mode: str) -> list[str]:
    """The preflight's findings on every piece, one line for a finding many pieces share; none with ``off``."""
    if mode == "off":
        return []
    from punchboard.generator.digests import build_digest
    from punchboard.generator.draw.kept import font_set
    from punchboard.generator.options import BuildOptions
    from punchboard.generator.preflight.findings import code_of, summarise
    from punchboard.generator.preflight.standalone import preflight_game
    from punchboard.incremental.build_cache import side_salt
    from punchboard.incremental.check_stores import CheckStores

    options = BuildOptions()
    stores = CheckStores(game, side_salt(build_digest(game, options)), lambda component: font_set(game, component))
    return summarise(w for w in preflight_game(game, options, stores) if code_of(w) is not None)


def _press(game: Any, args: argparse.Namespace) -> list[str]:
    """With ``--colour cmyk``: the layout colours outside the press gamut (generator/press/design_colours.py)."""
    if getattr(args, "colour", None) != "cmyk" or args.preflight == "off":
        return []
    from punchboard.generator.options import BuildOptions
    from punchboard.generator.press.design_colours import gamut_warnings
    from punchboard.generator.press.settings import press

    return gamut_warnings(game, press(BuildOptions(colour="cmyk", icc=args.icc)))


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="validate games without building", description="Validate the YAML of games and run the preflight on every piece (its findings are warnings); exit 0 when valid, 2 otherwise, 1 when --preflight strict finds problems.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=TARGET_HELP)
    add_common_flags(p)
    add_preflight_flag(p)
    add_language_flag(p)
    p.add_argument("--colour", default=None, choices=("rgb", "cmyk"), help="cmyk: also name each layout colour the press cannot print (ΔE2000 to its CMYK round trip over layouts/press.yaml's limit), with the element and pieces")
    p.add_argument("--icc", default=None, metavar="PATH", help="the CMYK output profile for --colour cmyk (default: layouts/press.yaml's)")
    add_limit_flags(p)
    p.set_defaults(func=cmd_check)
