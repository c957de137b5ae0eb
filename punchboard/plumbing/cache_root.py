"""The user's cache folder for punchboard: ``$PUNCHBOARD_CACHE_DIR``, else ``$XDG_CACHE_HOME/punchboard``, else
``~/.cache/punchboard``. Every memo kept between runs lives in a folder of its own under it."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "PUNCHBOARD_CACHE_DIR"


def cache_root(explicit: str | None = None, xdg: str | None = None) -> Path:
    """The cache folder for the given ``$PUNCHBOARD_CACHE_DIR`` and ``$XDG_CACHE_HOME`` (None: not set)."""
    if explicit:
        return Path(explicit)
    return Path(xdg or os.path.join(os.path.expanduser("~"), ".cache")) / "punchboard"


def current_cache_root() -> Path:
    """The cache folder this process's environment names."""
    return cache_root(os.environ.get(CACHE_ENV), os.environ.get("XDG_CACHE_HOME"))
