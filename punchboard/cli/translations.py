"""``punchboard translations``: a game's translation into one language as a gettext PO file for a translator's tool.

The file is made from the game as loaded: its ``field@lang`` columns and keys, and the PO file already there (so
writing it again keeps every translation and brings the ``msgid`` source texts up to date). The loader reads
``GAME/translations/<lang>.po`` as the second form of the same translations (spec/translations.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from punchboard.plumbing import atomicio
from punchboard.plumbing.errors import UsageError

from .common import EXIT_OK, Voice, add_common_flags, add_limit_flags, limits_of, load_targets


def cmd_translations(args: argparse.Namespace) -> int:
    """Write (or print, with ``--output -``) the PO file of each language ``--lang`` names; exit 2 for a language
    the game does not declare."""
    from punchboard.spec.translations import po_path, write_po

    game = load_targets([args.target], limits_of(args), echo=False)[0]
    voice = Voice(args)
    if len(game.languages) < 2:
        raise UsageError(f"--lang: game '{game.id}' declares no language to translate into; "
                         "expected languages: [<source>, <other>, …] in its game.yaml")
    others = game.languages[1:]
    wanted = others if args.lang == "all" else (args.lang,)
    for lang in wanted:
        if lang not in others:
            source = f" ({lang} is its source language)" if lang == game.languages[0] else ""
            raise UsageError(f"--lang: game '{game.id}' is not translated into '{lang}'{source}; "
                             f"expected one of {', '.join(others)} or all")
    if args.output == "-" and len(wanted) > 1:
        raise UsageError("--output: '-' prints one language; expected --lang with one language, or no --output")
    for lang in wanted:
        text = write_po(game, lang)
        if args.output == "-":
            sys.stdout.write(text)
            continue
        target = Path(args.output) if args.output else po_path(game.folder, lang)
        atomicio.write_text(target, text)
        voice.say(f"wrote {target}")
    return EXIT_OK


def register(sub: Any) -> None:
    """The ``translations`` verb and its options."""
    p = sub.add_parser("translations", help="write a translation as a PO file",
                       description="Write a game's translation into one of its languages as a gettext PO file "
                       "(msgctxt component/piece/field, msgid the source text, msgstr the translation), "
                       "from its field@lang columns and its PO file, for a translator's tool to edit.")
    p.add_argument("target", metavar="TARGET", help="a bundled game id or a path to a game folder")
    p.add_argument("--lang", required=True, metavar="LANG", help="a language of the game's languages: but the first, or all")
    p.add_argument("--output", default=None, metavar="FILE",
                   help="write here, or - for standard output (default: TARGET/translations/LANG.po)")
    add_common_flags(p)
    add_limit_flags(p)
    p.set_defaults(func=cmd_translations)
