"""``punchboard check``: validate games without building."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import EXIT_OK, TARGET_HELP, Voice, add_common_flags, add_limit_flags, limits_of, load_targets


def cmd_check(args: argparse.Namespace) -> int:
    voice = Voice(args)
    for game in load_targets(args.targets, limits_of(args), getattr(args, "out", None), echo=False):
        pieces = sum(c.count for c in game.components)
        voice.say(f"{game.id}: ok ({len(game.components)} components, {pieces} pieces)")
        for component in game.components:
            voice.detail(f"  {component.id}: {component.kind}, {component.count} pieces ({component.source.name})")
        for warning in game.warnings:
            print(f"warning: {warning}", file=sys.stderr)  # on stderr, as build's and verify's are
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="validate games without building", description="Validate the YAML of games; exit 0 when valid, 2 otherwise.")
    p.add_argument("targets", nargs="*", metavar="TARGET", help=TARGET_HELP)
    add_common_flags(p)
    add_limit_flags(p)
    p.set_defaults(func=cmd_check)
