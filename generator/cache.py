"""Incremental builds: a content fingerprint per component, remembered beside the outputs.

A component is re-rendered only when something it is drawn from changed: its
YAML and CSV, every layout in its ``extends`` chains, their fonts, the images
its pieces show, the paper and sheet style, the build options, the game's
title and palette, or punchboard's own code. Everything else is reused.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from punchboard.plumbing.file_digest import file_digest
from punchboard.plumbing.paths import LAYOUTS, PACKAGE, resolved
from punchboard.plumbing.sealed import read_sealed, write_sealed
from punchboard.spec.binding import bind
from punchboard.spec.images import side_image
from punchboard.spec.model import Component, Game
from punchboard.spec.repeats import input_files

from .options import BuildOptions

CACHE_FILE = ".punchboard-cache.json"
SIDES_FOLDER = ".punchboard-sides"  # each component's kept sides (side_store.py)
CACHE_VERSION = 1
STYLE_FILES = ("sheet.yaml", "board_tiling.yaml", "sizes.yaml")
RENDER_OPTIONS = ("paper", "backs", "duplex_offset", "print_shop", "print_shop_preset", "proof", "bleed_mm", "packing", "stamp_label", "unprintable_mm", "cut")


def _digest_files(paths: list[Path]) -> str:
    """One digest of the files' names and contents (each file's read only when it may have changed)."""
    sha = hashlib.sha256()
    for path in paths:
        sha.update(f"{path.name}\0{file_digest(path) or '<missing>'}\0".encode())
    return sha.hexdigest()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """punchboard's and the generator's own source: a code change invalidates every output."""
    import punchboard.generator

    generator = Path(punchboard.generator.__file__).resolve().parent
    sources = sorted(PACKAGE.rglob("*.py")) + sorted(generator.rglob("*.py"))
    return _digest_files(sources)


def _options_key(options: BuildOptions) -> dict[str, Any]:
    values = asdict(options)
    return {name: values[name] for name in RENDER_OPTIONS}


def build_digest(game: Game, options: BuildOptions) -> str:
    """What every component of a game shares: code, sheet style, paper, options, title, palette."""
    paper = LAYOUTS / "paper" / f"{options.paper}.yaml"
    files = [LAYOUTS / name for name in STYLE_FILES] + [paper]
    shared = {
        "code": code_digest(),
        "files": _digest_files(files),
        "options": _options_key(options),
        "game": [game.id, game.title, sorted(game.palette.items()), list(game.designers)],
        "icons": [sorted(game.icons), _digest_files([game.icons[name] for name in sorted(game.icons)])],
    }
    return hashlib.sha256(json.dumps(shared, sort_keys=True).encode()).hexdigest()


def component_inputs(game: Game, component: Component) -> list[Path]:
    """Every file the component's pages are drawn from."""
    files: list[Path] = list(component.inputs)
    for name in sorted(component.layouts()):
        layout = game.layouts[name]
        files.extend(layout.chain)
        files.extend(sorted(layout.fonts.values()))
        if any(e.type in ("repeat", "grid") for e in layout.elements):  # their CSV files and pictures (spec/repeats.py)
            files.extend(path for piece in component.pieces for side in (piece.face, piece.back)
                         if side is not None and side.layout == name
                         for path in input_files(layout, {**piece.fields, **side.fields}, game.folder))
        sources = {str(e.props["src"]) for e in layout.elements if e.type == "image" and "src" in e.props}
        if not sources:
            continue
        for piece in component.pieces:
            for side in (piece.face, piece.back):
                if side is None or side.layout != name:
                    continue
                fields = {**piece.fields, **side.fields}
                for src in sources:
                    found = side_image(bind(src, fields).strip(), layout, (game.folder,))
                    if found is not None:
                        files.append(found)
    return sorted({resolved(path) for path in files})  # resolved: 'game' and '/abs/game' are one game


def group_fingerprint(name: str, members: dict[str, str], shared: str) -> str:
    """A print group's shared sheets: redrawn when any member (id → fingerprint, in order) changes."""
    sha = hashlib.sha256(shared.encode())
    sha.update(f"group:{name}".encode())
    for member, fingerprint in members.items():
        sha.update(f"{member}:{fingerprint}".encode())
    return sha.hexdigest()


def side_salt(shared: str) -> str:
    """What every side is drawn from besides its layout, fonts, pictures and fields (draw/kept.py), given the
    :func:`build_digest` every component shares (code, sheet style, paper, options, title, palette, icons)."""
    return "sides:" + shared


def component_fingerprint(game: Game, component: Component, shared: str) -> str:
    sha = hashlib.sha256(shared.encode())
    sha.update(component.id.encode())
    sha.update(_digest_files(component_inputs(game, component)).encode())
    sha.update(_translated_into(game, component).encode())
    return sha.hexdigest()


def _translated_into(game: Game, component: Component) -> str:
    """The model's language when ``component`` has text of its own in it (its files hold every language, so they
    cannot tell a translated component from its source); "" when it reads as in the source language, so a
    component no language changes has one fingerprint in every language and is drawn once (generator/languages.py)."""
    translations = component.translations
    if translations is None or not game.languages or game.language in ("", game.languages[0]):
        return ""
    return game.language if game.language in translations.entries or game.language in translations.names else ""


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
        try:  # a sealed record (plumbing/sealed.py): a damaged one is no cache, and everything is made again
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
