"""``punchboard bom``: the bill of materials of one game."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .common import EXIT_OK, add_limit_flags, limits_of, load_targets


def cmd_bom(args: argparse.Namespace) -> int:
    from punchboard.spec.bom import bill_of_materials, format_bom

    games = load_targets([args.target], limits_of(args))
    bom = bill_of_materials(games[0])
    if args.json:
        print(json.dumps(bom, indent=2, ensure_ascii=False))
    else:
        print(format_bom(bom))
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("bom", help="bill of materials", description="Every component with its counts, and the bought supplies.")
    p.add_argument("target", metavar="TARGET", help="a bundled game id or a path to a game folder")
    p.add_argument("--json", action="store_true", help="print as JSON")
    add_limit_flags(p)
    p.set_defaults(func=cmd_bom)
