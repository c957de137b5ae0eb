"""A language's build takes from another language's build of the same game what reads the same in both.

``build --lang de`` writes ``OUT/<game>/de/``. A component that no translation changes has the same
fingerprint in every language (:func:`generator.digests.component_fingerprint`), so its PDF, and its pieces'
print fingerprints, are the ones the game's other builds under ``OUT/<game>/`` already made: they are copied
from there instead of being drawn again. Only a build whose component files are one PDF each borrows (not a
print-shop or print-and-cut build, which write more files a component). A file is taken on the same terms as a
build reuses its own (its sealed cache entry, same fingerprint, the file present), copied whole; one missing is
simply drawn.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from punchboard.incremental.build_cache import CACHE_FILE, BuildCache, CachedComponent

from .options import BuildOptions


def siblings(folder: Path, options: BuildOptions) -> list[Path]:
    """The game's other output folders a ``--lang`` build into ``folder`` may take from: the default build's
    (``OUT/<game>/``) and every other language's, in name order; none for other builds."""
    if not options.lang or options.cut or options.print_shop or options.force:
        return []
    game_folder = folder.parent
    others = sorted(p for p in game_folder.iterdir() if p.is_dir() and p != folder) if game_folder.is_dir() else []
    return [f for f in (game_folder, *others) if (f / CACHE_FILE).is_file()]


class Borrower:
    """Component PDFs taken from sibling folders' builds, each sibling's cache read once."""

    def __init__(self, folder: Path, options: BuildOptions):
        self.folder = folder
        self.caches = [BuildCache.load(sibling) for sibling in siblings(folder, options)]

    def take(self, component_id: str, fingerprint: str) -> CachedComponent | None:
        """The entry of a sibling's PDF of the component drawn from the same inputs, copied into this folder;
        None when no sibling has one."""
        for cache in self.caches:
            entry = cache.fresh(component_id, fingerprint)
            if entry is None or not entry.file.endswith(".pdf") or "/" in entry.file:
                continue
            target = self.folder / entry.file
            part = self.folder / f".{entry.file}.part"
            self.folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cache.path.parent / entry.file, part)
            part.replace(target)
            return CachedComponent(entry.fingerprint, entry.file, list(entry.roles), list(entry.warnings))
        return None
