"""Colour figures remembered across runs: a preflight that checks colours seen before does not import coloraide.

generator/preflight/colours.py works out each figure (a contrast, a simulated colour, a ΔE2000) per colour; this
module keeps them in the user's cache folder (beside the schema verdicts, validated.py), in one sealed JSON file
(sealed.py) named by its format and the installed coloraide's version, written back once at exit. A file that
does not read back, or holds more than :data:`FIGURES_MAX` figures, starts afresh.
"""

from __future__ import annotations

import atexit
import json
from collections.abc import Callable
from pathlib import Path

from . import validated
from .sealed import read_sealed_strict, write_sealed

FIGURES_FORMAT = 1  # the layout of the remembered figures and what their keys mean
FIGURES_MAX = 20_000  # figures remembered before the file starts afresh
_figures: dict[str, float] | None = None
_new: list[bool] = []  # set once something was worked out that the file does not hold


def _figures_path() -> Path:
    version = validated.installed_version("coloraide")
    return validated.folder().parent / "colours" / f"figures-{FIGURES_FORMAT}-coloraide-{version}.json"


def remembered(key: str, work_out: Callable[[], float]) -> float:
    """The figure remembered under ``key``, else ``work_out()``, remembered (and written back at exit)."""
    global _figures
    if _figures is None:
        try:
            data = json.loads(read_sealed_strict(_figures_path()).decode("utf-8"))
            _figures = {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
            if len(_figures) > FIGURES_MAX:
                _figures = {}
        except (OSError, ValueError, TypeError, AttributeError):
            _figures = {}
    found = _figures.get(key)
    if found is None:
        found = _figures[key] = work_out()
        if not _new:
            _new.append(True)
            atexit.register(_save)
    return found


def _save() -> None:
    """Write the figures back (at exit, once): atomically, and not at all where the folder cannot be written."""
    if _figures is None:
        return
    try:
        write_sealed(_figures_path(), json.dumps(_figures, sort_keys=True).encode("utf-8"))
    except OSError:
        pass
