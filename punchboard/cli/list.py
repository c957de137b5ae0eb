"""``punchboard list``: the bundled games with title and player range."""

from __future__ import annotations

import argparse
from typing import Any

from punchboard.plumbing.errors import SpecError
from punchboard.plumbing.paths import COMPONENTS, bundled_games

from .common import EXIT_OK, Voice, add_common_flags


def cmd_list(args: argparse.Namespace) -> int:
    voice = Voice(args)
    if voice.quiet:  # ids only, for scripts
        print("\n".join(folder.name for folder in bundled_games()))
        return EXIT_OK
    from punchboard.spec.loader import load_game

    rows = []
    for folder in bundled_games():
        try:
            game = load_game(folder)
            players = f"{game.players_min}–{game.players_max}" if game.players_min != game.players_max else str(game.players_min)
            rows.append((game.id, game.title, players))
        except SpecError:
            rows.append((folder.name, "(invalid: run punchboard check)", ""))
    width = max((len(r[0]) for r in rows), default=2)
    for game_id, title, players in rows:
        print(f"{game_id:<{width}}  {title:<28} {players} players" if players else f"{game_id:<{width}}  {title}")
    voice.detail(f"from {COMPONENTS}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("list", help="list the bundled games", description="List the bundled games with title and player range.")
    add_common_flags(p)
    p.set_defaults(func=cmd_list)
