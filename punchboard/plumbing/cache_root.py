"""The user's cache folder for punchboard: ``$PUNCHBOARD_CACHE_DIR``, else ``$XDG_CACHE_HOME/punchboard``, else
``~/.cache/punchboard``. Every memo kept between runs lives in a folder of its own under it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib is imported when a path is asked for: the hand-off to a build server needs only text
    from pathlib import Path

CACHE_ENV = "PUNCHBOARD_CACHE_DIR"


def cache_root_text(explicit: str | None = None, xdg: str | None = None) -> str:
    """The cache folder for the given ``$PUNCHBOARD_CACHE_DIR`` and ``$XDG_CACHE_HOME`` (None: not set), as text
    (plumbing/handoff.py names a build server by it before anything else is imported)."""
    if explicit:
        return explicit
    return os.path.join(xdg or os.path.join(os.path.expanduser("~"), ".cache"), "punchboard")


def cache_root(explicit: str | None = None, xdg: str | None = None) -> Path:
    """:func:`cache_root_text` as a path."""
    from pathlib import Path

    return Path(cache_root_text(explicit, xdg))


def current_cache_root() -> Path:
    """The cache folder this process's environment names."""
    return cache_root(os.environ.get(CACHE_ENV), os.environ.get("XDG_CACHE_HOME"))
