"""What ``punchboard check`` keeps of its preflight for the next check: drawn sides and pieces' looks.

``check`` draws every distinct side of a game to run the preflight on it, and works
out every piece's look for the colour check: for Steam Court that was most of the
command, on every run, though a build keeps both (punchboard/incremental/side_store.py,
punchboard/incremental/look_store.py). ``check`` writes no outputs, so it keeps them in the user's
cache folder (beside the remembered verdicts, validated.py), one
folder per game folder: ``check/<digest of the game's resolved folder>/``, in the
files a build would write. A side is found again by everything its drawing depends on
(sides.py), preflight included, and gives the findings it gave when drawn; a
look by its layouts, palette and fields. So a check finds exactly what drawing would
find, and an edit draws only the sides it changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from punchboard.plumbing.paths import resolved
from punchboard.spec.model import Component, Game

from . import validated
from .look_store import LookStore
from .side_store import SideStore
from .sides import FontSet, KeptSide, Store

SUBFOLDER = "check"


def folder(game: Game) -> Path:
    """Where the checks of this game folder keep their sides and looks."""
    name = hashlib.sha256(str(resolved(game.folder)).encode()).hexdigest()[:32]
    return validated.folder().parent / SUBFOLDER / name


class CheckStores:
    """Each component's kept sides and looks for one check of ``game`` (see the module's docstring). When the
    folder cannot be written, nothing is kept and the check draws as it would without it. ``salt``: what every
    side and look is keyed under (build_cache.side_salt of the game's build digest); ``fonts``: each component's
    fixed fonts (draw/kept.py's ``font_set``)."""

    def __init__(self, game: Game, salt: str, fonts: Callable[[Component], FontSet | None]):
        self.folder = folder(game)
        self.fonts = fonts
        self.salt = salt
        self._sides: dict[str, _Sides] = {}
        self._looks: dict[str, LookStore] = {}

    def sides(self, component: Component) -> Store:
        store = self._sides[component.id] = _Sides(self.folder, component.id, self.salt,  # reads what it can
                                                   fonts=self.fonts(component))
        return store

    def looks(self, component: Component) -> LookStore:
        looks = self._looks[component.id] = LookStore(self.folder, component.id, self.salt)
        return looks

    def done(self, component: Component, finished: bool) -> None:
        """The component's preflight ran (``finished``: to its end): keep what it drew and looked at for the
        next check, or leave what was kept as it was."""
        sides, looks = self._sides.pop(component.id, None), self._looks.pop(component.id, None)
        try:
            if sides is not None and finished and not sides.broken:
                sides.save()
            elif sides is not None:
                sides.discard()
            if looks is not None and finished:
                looks.save()
        except OSError:
            pass  # a cache folder that cannot be written: the next check draws again


class _Sides(SideStore):
    """A side store that stops keeping when its file cannot be written, rather than failing the check."""

    broken = False

    def put(self, key: str, kept: KeptSide) -> None:
        if self.broken:
            return
        try:
            super().put(key, kept)
        except OSError:
            self.broken = True
