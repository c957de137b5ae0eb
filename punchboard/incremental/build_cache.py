"""The build cache: what the last build of one game wrote, remembered beside the outputs (``OUT/<game>/.punchboard-cache.json``).

A component is drawn again only when its fingerprint (generator/digests.py: a digest over everything it is drawn
from) is not the one remembered for it, or its file is gone. The record is sealed (sealed.py): a damaged one is no
cache, and everything is made again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from punchboard.incremental.file_digest import file_digest
from punchboard.incremental.sealed import read_sealed, write_sealed

CACHE_FILE = ".punchboard-cache.json"
SIDES_FOLDER = ".punchboard-sides"  # each component's kept sides (punchboard/incremental/side_store.py)
CACHE_VERSION = 1
# the combined PDF's own pages, kept by the cache itself (BuildCache.remember), sealed
FRONT_FILE = ".front.pdf.keep"  # the combined PDF's cover, bill of materials and calibration pages, as last drawn
BLANK_FILE = ".blank.pdf.keep"  # its blank reverse page


def drop_torn_writes(folder: Path) -> None:
    """Remove what a build killed mid-write left in the game's output ``folder`` and its kept sides: files named
    like a write under way (``.NAME.….part``: atomicio's, side_store.py's), which no reader takes."""
    for leftover in [*folder.glob(".*.part"), *(folder / SIDES_FOLDER).glob(".*.part")]:
        leftover.unlink(missing_ok=True)


def digest_files(paths: list[Path]) -> str:
    """One digest of the files' names and contents (each file's read only when it may have changed)."""
    sha = hashlib.sha256()
    for path in paths:
        sha.update(f"{path.name}\0{file_digest(path) or '<missing>'}\0".encode())
    return sha.hexdigest()


def group_fingerprint(name: str, members: dict[str, str], shared: str) -> str:
    """A print group's shared sheets: redrawn when any member (id → fingerprint, in order) changes."""
    sha = hashlib.sha256(shared.encode())
    sha.update(f"group:{name}".encode())
    for member, fingerprint in members.items():
        sha.update(f"{member}:{fingerprint}".encode())
    return sha.hexdigest()


def side_salt(shared: str) -> str:
    """What every side is drawn from besides its layout, fonts, pictures and fields (draw/kept.py), given the
    ``build_digest`` (generator/digests.py) every component shares (code, sheet style, paper, options, title, palette, icons)."""
    return "sides:" + shared


@dataclass
class CachedComponent:
    fingerprint: str
    file: str
    roles: list[str]
    warnings: list[str] = field(default_factory=list)


@dataclass
class BuildCache:
    """What the last build of one game wrote, keyed by component id."""

    path: Path
    components: dict[str, CachedComponent] = field(default_factory=dict)
    combined: str = ""
    saved: str = ""  # the file's text as loaded: an unchanged cache is not written (nor synced) again
    groups: dict[str, CachedComponent] = field(default_factory=dict)  # print groups' shared sheets, by group name
    pages: dict[str, str] = field(default_factory=dict)  # the combined PDF's own pages (cover, …): file → key

    @classmethod
    def load(cls, folder: Path) -> BuildCache:
        path = folder / CACHE_FILE
        try:  # a sealed record (punchboard/incremental/sealed.py): a damaged one is no cache, and everything is made again
            text = (read_sealed(path) or b"").decode("utf-8")
            data = json.loads(text)
            if data.get("version") != CACHE_VERSION:
                return cls(path)
            components = {key: CachedComponent(**value) for key, value in data["components"].items()}
            groups = {key: CachedComponent(**value) for key, value in data.get("groups", {}).items()}
            pages = {str(key): str(value) for key, value in data.get("pages", {}).items()}
            return cls(path, components, data.get("combined", ""), text, groups, pages)
        except (OSError, ValueError, TypeError, KeyError):
            return cls(path)

    def fresh(self, component_id: str, fingerprint: str, group: bool = False) -> CachedComponent | None:
        entry = (self.groups if group else self.components).get(component_id)
        if entry is None or entry.fingerprint != fingerprint:
            return None
        if not (self.path.parent / entry.file).is_file():
            return None
        return entry

    def made(self, name: str, key: str) -> bytes | None:
        """The file ``name`` beside the outputs if it was made from ``key``: its bytes (b"" when it
        was remembered without them); None when it must be made again."""
        if self.pages.get(name) != key:
            return None
        return read_sealed(self.path.parent / name) if name.startswith(".") else b""

    def remember(self, name: str, key: str, data: bytes | None = None) -> None:
        """``name`` was made from ``key``; hidden files (``.front.pdf.keep``) are kept by the cache itself, sealed."""
        if data is not None:
            write_sealed(self.path.parent / name, data)
        self.pages[name] = key

    def save(self) -> None:
        data = {
            "version": CACHE_VERSION,
            "components": {key: asdict(value) for key, value in sorted(self.components.items())},
            "combined": self.combined,
        }
        if self.groups:
            data["groups"] = {key: asdict(value) for key, value in sorted(self.groups.items())}
        if self.pages:
            data["pages"] = dict(sorted(self.pages.items()))
        text = json.dumps(data, indent=1, sort_keys=True) + "\n"
        if text != self.saved or not self.path.is_file():
            write_sealed(self.path, text.encode("utf-8"))
            self.saved = text
