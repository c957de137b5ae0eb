"""Where bundled games, layouts and schemas live, and how targets are found."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib.util import find_spec
from pathlib import Path


def _package_folder(package: str) -> Path:
    """The folder of a data package shipped with punchboard (installed or editable): where the import system
    finds it, without importing it (``importlib.resources`` cost every command 7 ms to import and ask)."""
    spec = find_spec(package)
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    if locations:
        return Path(locations[0]).resolve()
    from importlib.resources import files  # a package that does not lie in a folder of its own

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


_resolved: ContextVar[dict[Path, Path] | None] = ContextVar("resolved", default=None)


@contextmanager
def resolving_once() -> Iterator[None]:
    """Within this block (one load of a game), :func:`resolved` resolves each path once.

    Resolving follows every symlink with a system call per part of the path, and a load asks
    again for the same few folders and files many times (is this layout inside the game
    folder? under what name is this check remembered?).
    """
    token = _resolved.set({} if _resolved.get() is None else _resolved.get())
    try:
        yield
    finally:
        _resolved.reset(token)


def resolved(path: Path) -> Path:
    """``path.resolve()``, asked once per path inside :func:`resolving_once`."""
    memo = _resolved.get()
    if memo is None:
        return path.resolve()
    found = memo.get(path)
    if found is None:
        found = memo[path] = path.resolve()
    return found


def game_output(out: Path, game_id: str, lang: str | None = None) -> Path:
    """Where a game's files are written under ``out``: ``OUT/<game>/``, or ``OUT/<game>/<lang>/`` for a build
    asked for in one language (``--lang``)."""
    return out / game_id / lang if lang else out / game_id


def is_inside(path: Path, folder: Path) -> bool:
    """True when ``path`` (after resolving symlinks) lies inside ``folder``."""
    try:
        resolved(path).relative_to(resolved(folder))
    except ValueError:
        return False
    return True
