"""``punchboard init DIR``: write a starter game that builds and verifies at once."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.paths import SCHEMAS

from .common import EXIT_OK, Voice, add_common_flags

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

TEMPLATE = "starter"


def _template() -> Traversable:
    from importlib.resources import files  # only init reads the template: every command imports this module

    return files("punchboard") / "templates" / TEMPLATE


def game_id_for(folder: Path) -> str:
    """A valid game id (lower_case) from a folder name: ``My Game!`` → ``my_game``."""
    text = re.sub(r"[^a-z0-9]+", "_", folder.name.lower()).strip("_")
    if not text or not text[0].isalpha():
        text = f"game_{text}".rstrip("_")
    return text


def title_for(game_id: str) -> str:
    return " ".join(word.capitalize() for word in game_id.split("_") if word)


def _files(node: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    found: list[tuple[str, Traversable]] = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.name.startswith((".", "__")):
            continue
        if child.is_dir():
            found.extend(_files(child, f"{prefix}{child.name}/"))
        else:
            found.append((prefix + child.name, child))
    return found


def schemas_from(folder: Path) -> str:
    """The schemas folder as a path relative to ``folder`` (where a written file lives), so an editor finds it
    on any machine with the same checkout beside the game; absolute only where no relative path exists
    (another drive on Windows)."""
    import os

    try:
        return Path(os.path.relpath(SCHEMAS.resolve(), folder.resolve())).as_posix()
    except ValueError:
        return SCHEMAS.as_posix()


def write_starter(folder: Path) -> list[Path]:
    """Write the starter game into ``folder`` (created if missing); refuse a non-empty folder."""
    if folder.exists() and not folder.is_dir():
        raise SpecError([Problem(str(folder), 1, 1, "exists and is not a folder; expected a new or empty folder for the game")])
    if folder.is_dir() and any(folder.iterdir()):
        raise SpecError([Problem(str(folder), 1, 1, "folder is not empty; punchboard init writes a new game only into a new or empty folder, so nothing is overwritten")])
    game_id = game_id_for(folder.resolve())
    title = title_for(game_id)
    replacements = {
        "__GAME_ID__": game_id,
        "__GAME_TITLE__": title,
    }
    written = []
    for relative, source in _files(_template()):
        text = source.read_text(encoding="utf-8")
        target = folder / relative
        text = text.replace("__SCHEMAS__", schemas_from(target.parent))
        for key, value in replacements.items():
            text = text.replace(key, value)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def cmd_init(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    written = write_starter(folder)
    voice = Voice(args)
    voice.say(f"wrote a starter game in {folder} ({len(written)} files)")
    for path in written:
        voice.detail(f"  {path}")
    voice.say(f"next: punchboard build {folder} && punchboard verify {folder}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser(
        "init",
        help="start a new game from a template",
        description="Write a starter game into DIR (new or empty): a deck kept in a CSV, a layout extending the base card, "
        "a common back, tokens, a board and a setup for 2-4 players, with comments that teach the format. "
        "It builds and verifies as it is.",
    )
    p.add_argument("dir", metavar="DIR", help="the folder to write the game into (must not exist or be empty)")
    add_common_flags(p)
    p.set_defaults(func=cmd_init)


__all__ = ["game_id_for", "register", "write_starter"]
