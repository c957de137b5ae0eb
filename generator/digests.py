"""What each component is drawn from, as digests: the keys the build cache (punchboard/incremental/build_cache.py)
compares to tell a component that must be drawn again.

A component is re-rendered only when something it is drawn from changed: its
YAML and CSV, every layout in its ``extends`` chains, their fonts, the images
its pieces show, the paper and sheet style, the build options, the game's
title and palette, or punchboard's own code. Everything else is reused.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from punchboard.incremental.build_cache import digest_files as _digest_files
from punchboard.plumbing.paths import LAYOUTS, PACKAGE, resolved
from punchboard.spec.binding import bind
from punchboard.spec.images import side_image
from punchboard.spec.model import Component, Game
from punchboard.spec.repeats import input_files

from .options import BuildOptions

STYLE_FILES = ("sheet.yaml", "board_tiling.yaml", "sizes.yaml")
RENDER_OPTIONS = ("paper", "backs", "duplex_offset", "print_shop", "print_shop_preset", "proof", "bleed_mm", "packing", "stamp_label", "unprintable_mm", "cut")


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
