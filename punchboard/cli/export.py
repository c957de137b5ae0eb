"""The export verbs of ``punchboard``: images, tts and preview.

The heavy imports (pypdfium2, the renderers) happen when a verb runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import UsageError
from punchboard.plumbing.outlock import output_lock
from punchboard.plumbing.paths import game_output
from punchboard.plumbing.units import UnitError, parse_length

from .common import (
    TARGET_HELP,
    Voice,
    add_common_flags,
    add_language_flag,
    add_limit_flags,
    in_languages,
    jobs_count,
    jobs_of,
    limits_of,
    load_targets,
)

JOBS_HELP = "draw up to N components at once in separate processes, 0 = every core; the files are the same for any N (default: 0)"

MAX_BLEED = 72.0  # points: 1in, far beyond any print service
MAX_DPI = 1200  # a 1200-dpi board is already a ~20000 px wide bitmap


def _dpi(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a resolution in dots per inch such as 300, got '{text}'") from None
    if not 1 <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"expected a resolution from 1 to {MAX_DPI} dpi, got {text}")
    return value


def _bleed(text: str) -> float:
    try:
        value = parse_length(text)
    except UnitError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if not 0 <= value <= MAX_BLEED:
        raise argparse.ArgumentTypeError(f"expected a bleed from 0 to 1in, got '{text[:40]}'")
    return value


def _games(args: argparse.Namespace) -> list[tuple[Any, str | None]]:
    """Each target game in each language ``--lang`` asks for, with the language its files go under."""
    return in_languages(load_targets(args.targets, limits_of(args), getattr(args, "out", None)), args.lang)


def _warner(lang: str | None) -> Any:
    """What drawing the pieces said (text that does not fit, a missing picture), as ``build`` says it: ending
    ``(in de)`` for a language asked for with ``--lang``."""
    tail = f" (in {lang})" if lang else ""

    def warn(message: str) -> None:
        print(f"warning: {message}{tail}", file=sys.stderr, flush=True)

    return warn


def _label(verb: str) -> Any:
    return lambda chosen: f"{verb} {chosen[0].id}" + (f" ({chosen[1]})" if chosen[1] else "")


def cmd_images(args: argparse.Namespace) -> int:
    from punchboard.generator.export.images import export_images

    settings = _proof_settings(args)  # a bad --icc is said before anything is written
    with output_lock(Path(args.out)):
        return _images(args, export_images, settings)


def _images(args: argparse.Namespace, export_images: Any, settings: Any = None) -> int:
    voice = Voice(args)
    for game, lang in voice.progress(_games(args), _label("images")):
        images = export_images(game, Path(args.out), args.dpi, args.bleed, args.unique, jobs_of(args), warn=_warner(lang), lang=lang)
        home = game_output(Path(args.out), game.id, lang)
        for image in images:
            voice.detail(f"  {image.path}")
        voice.say(f"{game.id}: {len(images)} images in {home / 'images'}")
        if settings is not None:
            from punchboard.generator.press.profile import description
            from punchboard.generator.press.proof import PROOF_FOLDER, write_proofs

            target = home / PROOF_FOLDER
            proofs = write_proofs([image.path for image in images], home / "images", target, settings)
            for proof in proofs:
                voice.detail(f"  {proof}")
            voice.say(f"{game.id}: {len(proofs)} soft proofs through {description(settings.profile)} in {target}")
    return 0


def _proof_settings(args: argparse.Namespace) -> Any:
    """The press settings for ``--proof-cmyk`` (None without it); a UsageError when ``--icc`` is unusable."""
    if args.icc and not args.proof_cmyk:
        raise UsageError("--icc: the profile of the soft proof; expected --proof-cmyk with it")
    if not args.proof_cmyk:
        return None
    from punchboard.generator.press.proof import proof_settings

    if args.icc:
        from punchboard.generator.press.profile import profile_problem

        if problem := profile_problem(Path(args.icc)):
            raise UsageError(f"--icc: {problem}")
    return proof_settings(args.icc)


def cmd_tts(args: argparse.Namespace) -> int:
    from punchboard.generator.export.tts import export_tts

    with output_lock(Path(args.out)):
        return _tts(args, export_tts)


def _tts(args: argparse.Namespace, export_tts: Any) -> int:
    voice = Voice(args)
    for game, lang in voice.progress(_games(args), _label("tts")):
        files = export_tts(game, Path(args.out), args.base_url, warn=_warner(lang), lang=lang)
        for file in files:
            voice.detail(f"  {file}")
        voice.say(f"{game.id}: {files[-1]} ({len(files)} files)")
    return 0


def cmd_preview(args: argparse.Namespace) -> int:
    from punchboard.generator.export.preview import export_previews

    with output_lock(Path(args.out)):
        return _previews(args, export_previews)


def _previews(args: argparse.Namespace, export_previews: Any) -> int:
    voice = Voice(args)
    for game, lang in voice.progress(_games(args), _label("preview")):
        sheets = export_previews(game, Path(args.out), jobs=jobs_of(args), warn=_warner(lang), lang=lang)
        for sheet in sheets:
            voice.detail(f"  {sheet}")
        voice.say(f"{game.id}: {len(sheets)} contact sheets in {game_output(Path(args.out), game.id, lang) / 'preview'}")
    return 0


def register(sub: Any) -> None:
    """Register ``images``, ``tts`` and ``preview`` on the CLI's subparsers."""
    target_help = TARGET_HELP
    p = sub.add_parser("images", help="a PNG per card face and back",
                       description="Write a PNG of every piece's face and back, with bleed, for print-on-demand services, under OUT/<game_id>/images/.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=target_help)
    add_common_flags(p, out="output folder")
    p.add_argument("--dpi", type=_dpi, default=300.0, help="resolution (default: 300)")
    p.add_argument("--bleed", type=_bleed, default=9.0, metavar="LENGTH", help="bleed on every edge, e.g. 0.125in or 3mm (default: 0.125in)")
    p.add_argument("--unique", action="store_true", help="one image per distinct piece; manifest.json gives the counts")
    p.add_argument("--proof-cmyk", action="store_true", help="also write a soft proof of every image under OUT/<game_id>/soft-proof/: "
                   "the image converted to CMYK through the press profile and back, as the press prints it (a pure green dulls)")
    p.add_argument("--icc", default=None, metavar="PATH", help="with --proof-cmyk: the CMYK profile the press files use (the build's "
                   "--icc; default: layouts/press.yaml's, Ghostscript's Artifex SWOP profile)")
    p.add_argument("--jobs", type=jobs_count, default=0, metavar="N", help=JOBS_HELP)
    add_language_flag(p)
    add_limit_flags(p)
    p.set_defaults(func=cmd_images)

    p = sub.add_parser("tts", help="Tabletop Simulator deck sheets and saved objects",
                       description="Write Tabletop Simulator deck sheets, tile and token images and saved-object JSON under OUT/<game_id>/tts/.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=target_help)
    add_common_flags(p, out="output folder")
    p.add_argument("--base-url", metavar="URL", help="URL the tts folder's images will be hosted at (default: file:/// paths)")
    add_language_flag(p)
    add_limit_flags(p)
    p.set_defaults(func=cmd_tts)

    p = sub.add_parser("preview", help="contact sheets of every distinct face",
                       description="Write a contact-sheet PNG per component, one thumbnail per distinct face, under OUT/<game_id>/preview/.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=target_help)
    add_common_flags(p, out="output folder")
    p.add_argument("--jobs", type=jobs_count, default=0, metavar="N", help=JOBS_HELP)
    add_language_flag(p)
    add_limit_flags(p)
    p.set_defaults(func=cmd_preview)
