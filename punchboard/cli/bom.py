"""``punchboard bom``: the bill of materials of one game."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from punchboard.plumbing import atomicio

from .common import EXIT_OK, Voice, add_common_flags, add_limit_flags, limits_of, load_targets


def cmd_bom(args: argparse.Namespace) -> int:
    from punchboard.spec.bom import bill_of_materials, format_bom, markdown_bom

    games = load_targets([args.target], limits_of(args), getattr(args, "out", None))
    bom = bill_of_materials(games[0])
    as_json, as_text = json.dumps(bom, indent=2, ensure_ascii=False) + "\n", format_bom(bom) + "\n"
    voice = Voice(args)
    if args.out is not None:
        out = Path(args.out)
        atomicio.write_text(out / "bom.json", as_json)
        atomicio.write_text(out / "bom.md", markdown_bom(bom) + "\n")
        voice.detail(f"wrote {out / 'bom.json'} and {out / 'bom.md'}")
    if not voice.quiet:
        print(as_json if args.json else as_text, end="")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("bom", help="bill of materials", description="Every component with its counts, and the bought supplies.")
    p.add_argument("target", metavar="TARGET", help="a bundled game id or a path to a game folder")
    p.add_argument("--json", action="store_true", help="print as JSON")
    add_common_flags(p, out="also write bom.json and bom.md into this folder", out_default=None)
    add_limit_flags(p)
    p.set_defaults(func=cmd_bom)
