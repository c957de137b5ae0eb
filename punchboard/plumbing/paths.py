"""Where bundled games, layouts and schemas live, and how targets are found."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _package_folder(package: str) -> Path:
    """The folder of a data package shipped with punchboard (installed or editable)."""
    return Path(str(files(package))).resolve()


PACKAGE = _package_folder("punchboard")
COMPONENTS = _package_folder("punchboard.games")
LAYOUTS = _package_folder("punchboard.layouts")
SCHEMAS = PACKAGE / "schema"
GAME_FILE = "game.yaml"


def bundled_games() -> list[Path]:
    if not COMPONENTS.is_dir():
        return []
    return sorted(p.parent for p in COMPONENTS.glob(f"*/{GAME_FILE}"))


def resolve_target(target: str) -> Path | None:
    """A game id under components/, or a path to a game folder (or its game.yaml)."""
    candidate = Path(target)
    if candidate.name == GAME_FILE and candidate.is_file():
        return candidate.parent
    if (candidate / GAME_FILE).is_file():
        return candidate
    if "/" not in target and (COMPONENTS / target / GAME_FILE).is_file():
        return COMPONENTS / target
    return None


def is_inside(path: Path, folder: Path) -> bool:
    """True when ``path`` (after resolving symlinks) lies inside ``folder``."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True
