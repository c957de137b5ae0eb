"""``punchboard bom``: the bill of materials of one game, with the sheets of paper it prints on."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from punchboard.generator.options import BACK_MODES, BuildOptions
from punchboard.plumbing import atomicio
from punchboard.plumbing.words import ENGLISH

from .build import _millimetres, _paper
from .common import EXIT_OK, Voice, add_common_flags, add_limit_flags, limits_of, load_targets


def cmd_bom(args: argparse.Namespace) -> int:
    from punchboard.generator.document.bom_page import planned_bom
    from punchboard.spec.bom import format_bom, markdown_bom

    games = load_targets([args.target], limits_of(args), getattr(args, "out", None))
    options = BuildOptions(paper=args.paper, backs=args.backs, packing=args.bleed_policy, unprintable_mm=args.unprintable)
    bom = planned_bom(games[0], options)  # the sheets `build` with these flags prints, planned without drawing
    lang = args.lang or bom.get("language", ENGLISH)  # the game's own language unless --lang says another
    as_json, as_text = json.dumps(bom, indent=2, ensure_ascii=False) + "\n", format_bom(bom, lang) + "\n"
    voice = Voice(args)
    if args.out is not None:
        out = Path(args.out)
        atomicio.write_text(out / "bom.json", as_json)
        atomicio.write_text(out / "bom.md", markdown_bom(bom, lang) + "\n")
        voice.detail(f"wrote {out / 'bom.json'} and {out / 'bom.md'}")
    if not voice.quiet:
        print(as_json if args.json else as_text, end="")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("bom", help="bill of materials", description="Every component with its counts and the sheets of paper it prints on "
                       "(against its area bound: the pieces' area over one sheet's printable area), and the bought supplies.")
    p.add_argument("target", metavar="TARGET", help="a bundled game id or a path to a game folder")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.add_argument("--paper", default="letter", type=_paper, help="count sheets of this paper, as `build --paper` (default: letter)")
    p.add_argument("--backs", default="duplex-long", choices=BACK_MODES, help="count sheets for this back mode, as `build --backs` (default: duplex-long)")
    p.add_argument("--bleed-policy", default=None, choices=("auto", "gutter", "shared", "squeeze"), help="as `build --bleed-policy`")
    p.add_argument("--lang", default=None, metavar="LANG", help="the language of punchboard's own words in the text and bom.md "
                   "(a language tag such as de; one without a catalogue is English; default: the game's language)")
    p.add_argument("--unprintable", default=None, type=_millimetres, metavar="MM", help="as `build --unprintable` (default: layouts/sheet.yaml, 4.23 mm)")
    add_common_flags(p, out="also write bom.json and bom.md into this folder", out_default=None)
    add_limit_flags(p)
    p.set_defaults(func=cmd_bom)
