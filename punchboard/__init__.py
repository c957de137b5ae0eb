"""punchboard: print-and-play pipeline for tabletop game prototypes.

The Python API (see :mod:`punchboard.api`)::

    import punchboard

    game = punchboard.load_game("mygame")           # validate a game folder (or a bundled id)
    report = punchboard.build(game, "output")       # PDFs into output/<game id>/
    results = punchboard.verify(game)               # simulate every setup and deal
    images = punchboard.export_images(game, "output", dpi=150)

The functions are imported on first use, so ``import punchboard`` stays cheap
(no reportlab, no YAML validator) until one of them is called.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_API = ("build", "export_images", "load_game", "verify")
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        from punchboard import api

        return getattr(api, name)
    raise AttributeError(f"module 'punchboard' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
