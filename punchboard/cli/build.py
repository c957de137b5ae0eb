"""``punchboard build``: print-ready PDFs; the build flags ``watch`` shares."""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from punchboard.generator.options import BACK_MODES, BuildOptions
from punchboard.plumbing.limits import Limits
from punchboard.plumbing.outlock import output_lock
from punchboard.plumbing.paths import LAYOUTS

if TYPE_CHECKING:
    from punchboard.spec.model import Game

from .common import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    TARGET_HELP,
    add_common_flags,
    add_language_flag,
    add_limit_flags,
    add_preflight_flag,
    by_language,
    in_languages,
    limits_of,
    load_targets,
    target_folders,
)

MAX_DUPLEX_OFFSET = 50.0  # mm; a printer that misregisters by more than 5 cm needs fixing, not correcting


def _duplex_offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in millimetres such as 1.5,-0.5, got '{text[:40]}'") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_DUPLEX_OFFSET for v in (x, y)):
        raise argparse.ArgumentTypeError(
            f"expected X,Y in millimetres, each from -{MAX_DUPLEX_OFFSET:g} to {MAX_DUPLEX_OFFSET:g}, got '{text[:40]}'"
        )
    return x, y


def _millimetres(text: str) -> float:
    try:
        value = float(text.removesuffix("mm"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected millimetres such as 4.23 or 6.35, got '{text}'") from None
    if not 0 <= value <= 50:
        raise argparse.ArgumentTypeError(f"expected 0 to 50 mm, got {value:g}")
    return value


def _bleed(text: str) -> float:
    """A bleed length such as 3mm, 0.125in or 9pt (a bare number is millimetres), in millimetres."""
    from punchboard.plumbing.units import UnitError, parse_length, to_mm

    try:
        points = parse_length(text)
    except UnitError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    value = to_mm(points)
    if not 0 <= value <= 25:
        raise argparse.ArgumentTypeError(f"expected a bleed of 0 to 25 mm, got '{text[:40]}'")
    return value


def _print_shop(text: str) -> str:
    from punchboard.generator.impose.print_shops import load_print_shops

    known = sorted(load_print_shops().presets)
    if text not in known:
        raise argparse.ArgumentTypeError(f"unknown print-shop preset '{text[:40]}'; expected one of {', '.join(known)}")
    return text


def _paper(text: str) -> str:
    known = sorted(p.stem for p in (LAYOUTS / "paper").glob("*.yaml"))
    if text not in known:
        raise argparse.ArgumentTypeError(f"unknown paper '{text[:40]}'; expected one of {', '.join(known)}")
    return text


def _print_number(text: str) -> str:
    if text == "last" or (text.isdigit() and len(text) <= 9 and int(text) > 0):
        return text if text == "last" else str(int(text))
    raise argparse.ArgumentTypeError(f"expected 'last' or a print number such as 3, got '{text[:40]}'")


def build_options(args: argparse.Namespace) -> BuildOptions:
    return BuildOptions(
        paper=args.paper,
        backs=args.backs,
        duplex_offset=args.duplex_offset,
        print_shop=args.print_shop or getattr(args, "shop", None) is not None,
        print_shop_preset=getattr(args, "shop", None),
        proof=args.proof,
        packing=args.bleed_policy or args.packing,
        bleed_mm=args.bleed,
        unprintable_mm=args.unprintable,
        cut=args.cut,
        force=args.force,
        quiet=args.quiet,
        verbose=args.verbose,
        changed_since=args.changed_since,
        stamp=args.stamp,
        jobs=getattr(args, "jobs", 1) or _all_cores(),
        jobs_auto=getattr(args, "jobs", 1) == 0,
        preflight=args.preflight,
        colour=getattr(args, "colour", None),
        pdfx=getattr(args, "pdfx", None),
        icc=getattr(args, "icc", None),
        rich_black=getattr(args, "rich_black", False),
    )


def _all_cores() -> int:
    from punchboard.generator.jobs import default_jobs

    return default_jobs()


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0 = every core), got '{text}'")
    return value


def cmd_build(args: argparse.Namespace) -> int:
    from punchboard.incremental import up_to_date

    out = Path(args.out)
    options = replace(build_options(args), record_print=True)
    if options.pdfx == "1a" and options.colour == "rgb":
        print("error: --pdfx 1a: PDF/X-1a files are CMYK; drop --colour rgb", file=sys.stderr)
        return EXIT_INPUT
    if options.icc:  # checked here rather than by the parser, so a docs page may show a profile the reader has
        from punchboard.generator.press.profile import profile_problem

        if problem := profile_problem(Path(options.icc)):
            print(f"error: --icc: {problem}", file=sys.stderr)
            return EXIT_INPUT
    limits = limits_of(args)
    folders = target_folders(args.targets)
    invocation = up_to_date.key(folders, out, replace(options, lang=args.lang), limits)  # --lang all among them
    from punchboard.generator.press.settings import wanted

    pressing = wanted(options)[0] == "cmyk"  # press files are checked against their sources on every build
    if not options.force and not options.changed_since and not pressing and out.is_dir():
        with output_lock(out):
            code = up_to_date.replay(out, invocation, options.quiet)
        if code is not None:
            return code
    return _build(args, out, options, limits, invocation)


def _build(args: argparse.Namespace, out: Path, options: BuildOptions, limits: Limits, invocation: str) -> int:
    """The ordinary build: load, draw what changed, and remember an unchanged one (punchboard/incremental/up_to_date.py)."""
    from punchboard.generator.build import STRICT_FAILED, build_games, drew_nothing
    from punchboard.generator.press.pdfx import PressError
    from punchboard.generator.press.run import press_games
    from punchboard.generator.prints import PrintError
    from punchboard.incremental import up_to_date
    from punchboard.incremental.reads import now_ns, recording

    started = now_ns()
    with recording() as reads:
        games = load_targets(args.targets, limits, getattr(args, "out", None))
        fetched = any(game.fetch_warnings for game in games)
        reports: list[Any] = []
        chosen = in_languages(games, args.lang, echo=False)
        if refused := _unwritable(chosen):  # a translation with characters its font lacks: nothing is built
            print("\n".join(refused), file=sys.stderr)
            return EXIT_INPUT
        try:
            with output_lock(out):
                code, press_failed = 0, False
                press: list[tuple[str, str]] = []
                for lang, group in by_language(chosen):  # the source language first
                    asked = replace(options, lang=lang)
                    code = max(code, build_games(group, out, asked, reports))
                    said, failed = press_games(group, out, asked)  # shop sizes, CMYK/PDF/X files (generator/press/)
                    press, press_failed = [*press, *said], press_failed or failed
                if press_failed and code == 0:
                    print(STRICT_FAILED, file=sys.stderr)
                    code = 1
                if not fetched and not options.changed_since:
                    tail = [*press, *([("stderr", STRICT_FAILED)] if code == 1 else [])]
                    up_to_date.remember(out, invocation, games, reports, tail, code, reads, started,
                                        drew_nothing(games, reports))
                return code
        except PrintError as err:
            print(f"error: {err}", file=sys.stderr)
            return EXIT_INPUT
        except PressError as err:  # Ghostscript missing or failing: not the user's input
            print(f"error: {err}", file=sys.stderr)
            return EXIT_INTERNAL


def _unwritable(chosen: list[tuple[Game, str | None]]) -> list[str]:
    """``file:LINE:COL: … (in pl)`` for each translated text asked for whose font lacks some of its characters."""
    from punchboard.generator.draw.glyphs import glyph_problems

    return [f"{problem} (in {problem.language})" for game, lang in chosen if lang
            for problem in glyph_problems(game, translations=False) if problem.is_error]


def add_build_flags(p: argparse.ArgumentParser) -> None:
    add_common_flags(p, out="output folder")
    p.add_argument("--paper", default="letter", type=_paper, help="paper from layouts/paper/: letter, a4, a3, tabloid (default: letter)")
    p.add_argument("--backs", default="duplex-long", choices=BACK_MODES, help="how backs are printed (default: duplex-long)")
    p.add_argument("--duplex-offset", default=(0.0, 0.0), type=_duplex_offset, metavar="X,Y", help="shift back pages by X,Y mm to correct duplex misregistration")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--print-shop", action="store_true", help="one piece per page at trim + bleed (1/8 in unless --bleed), boards unsplit, fronts and backs alternating, TrimBox/BleedBox set, CutContour die lines on shaped pieces")
    output.add_argument("--shop", default=None, type=_print_shop, metavar="PRESET", help="--print-shop with a service's conventions from layouts/print_shops.yaml: generic (the default), drivethrucards (backs first), thegamecrafter (fronts and backs also as separate PDFs)")
    output.add_argument("--cut", default=None, choices=("silhouette", "cricut"), help="print-and-cut: cards and tokens laid out for a Silhouette (registration marks, .svg/.dxf cut files) or Cricut Print Then Cut (.png images with .svg outlines)")
    p.add_argument("--proof", action="store_true", help="draw trim and safe-zone guides")
    p.add_argument("--bleed", default=None, type=_bleed, metavar="LENGTH", help="bleed for every piece, e.g. 3mm or 0.125in (default: each layout's bleed, else layouts/sheet.yaml's)")
    p.add_argument("--bleed-policy", default=None, choices=("auto", "gutter", "shared", "squeeze"), help="how cards keep their bleed: gutter (full bleed, fewer a page), shared (cards touch on shared cut lines), squeeze (most a page, bleed shrunk), auto (gutter unless it costs cards a page; default: layouts/sheet.yaml)")
    p.add_argument("--packing", default=None, choices=("spaced", "touching"), help="older name: spaced = --bleed-policy squeeze, touching = shared")
    p.add_argument("--unprintable", default=None, type=_millimetres, metavar="MM", help="keep crop marks and card sheets this far from the paper edge (default: layouts/sheet.yaml, 4.23 mm = 1/6 in, what office lasers print to; raise it if your printer leaves more blank, e.g. 6.35 for 1/4 in)")
    p.add_argument("--force", action="store_true", help="rebuild everything, ignoring the cache")
    p.add_argument("--jobs", type=_jobs, default=0, metavar="N", help="draw up to N components (and fingerprint runs of pieces) at once in separate processes; 0 = every core when there are at least 1,000 pieces to draw, else one; output is identical for any N (default: 0)")
    p.add_argument("--changed-since", type=_print_number, metavar="PRINT", help="also write <game>-reprint.pdf: only the pieces drawn differently since print PRINT ('last' or a number from OUT/<game>/prints/), after a swap list")
    add_preflight_flag(p)
    p.add_argument("--stamp", action="store_true", help="print the print number (P3) small in a corner of every piece, to tell prints apart once cut")
    add_limit_flags(p)


def register(sub: Any) -> None:
    p = sub.add_parser("build", help="write print-ready PDFs", description="Lay out every printed component as PDFs under OUT/<game_id>/. Only components whose inputs changed since the last build into OUT are drawn again. Each build records what it drew as a numbered print in OUT/<game_id>/prints/.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=TARGET_HELP)
    add_build_flags(p)
    add_language_flag(p)
    add_press_flags(p)
    p.set_defaults(func=cmd_build)


def add_press_flags(p: argparse.ArgumentParser, icc: bool = True) -> None:
    """The press flags (generator/press/) of build, watch and serve, read by ``build_options`` (``icc``: with
    ``--icc``; serve has its own, which its proof shares)."""
    p.add_argument("--colour", default=None, choices=("rgb", "cmyk"), help="cmyk: also write OUT/<game>/press/: each component PDF converted to CMYK through an ICC profile (black text and lines 100 %% K), with the press preflight (ink coverage, colours outside the press gamut) (default: the --shop preset's, else rgb)")
    p.add_argument("--pdfx", default=None, choices=("1a", "none"), help="1a: the press files are PDF/X-1a:2003 (implies --colour cmyk; default: the --shop preset's: drivethrucards asks for it)")
    if icc:
        p.add_argument("--icc", default=None, metavar="PATH", help="the CMYK output profile (your shop's, e.g. FOGRA39 or GRACoL) for --colour cmyk (default: Ghostscript's Artifex SWOP profile, layouts/press.yaml)")
    p.add_argument("--rich-black", action="store_true", help="with --colour cmyk: large black areas print as the rich black of layouts/press.yaml (60/40/40/100 %%); black text under 12 pt and thin black shapes stay 100 %% K")
