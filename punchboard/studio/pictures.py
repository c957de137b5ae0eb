"""The studio's pictures: one PNG per distinct piece side, named by its content hash.

Pieces are grouped as ``images --unique`` groups them (same layout and fields
on both sides, same cells), and each distinct side is rasterised once from the
same PDF drawing the print files use. A file's name is the hash of its bytes,
so an unchanged side keeps its URL and a changed one gets a new URL the
browser cannot have cached. A component whose fingerprint (the build's: its
files, layouts, images, code) has not changed is not drawn again; in a changed
one, a side whose PDF page draws with the same bytes as a side rendered before
(generator/export/kept_images.py's drawing key) is not rendered again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from punchboard.generator.digests import build_digest, component_fingerprint
from punchboard.generator.document.pages import Page
from punchboard.generator.export.images import (
    SHAPED_KINDS,
    DrawnPages,
    export_context,
    piece_key,
    piece_sides,
    side_key,
)
from punchboard.generator.export.kept_images import png_bytes
from punchboard.generator.impose.context import BuildContext
from punchboard.generator.options import BuildOptions
from punchboard.plumbing.atomicio import write_bytes
from punchboard.spec.model import Component, Game, Piece

MAX_DPI = 150.0  # sharp enough for the large view of a card; 200 took 1.8x as long per rebuild
MAX_PIXELS = 900  # longest side: boards are shrunk to this
RENDERED_LIMIT = 20_000  # pictures remembered by their drawing; beyond, the memory starts afresh


@dataclass(frozen=True)
class Picture:
    """One PNG under the studio folder: its path relative to the game's output folder, and its size; the page it
    was rasterised from (points) and the trim on it (x, y from the page's top left, width, height), if known."""

    path: str
    width: int
    height: int
    page: tuple[float, float] = (0.0, 0.0)
    trim: tuple[float, float, float, float] | None = None


def _geometry(page: Page) -> dict[str, object]:
    """The page size and its trim box from the top left, for a Picture."""
    box = page.trim_box
    trim = None if box is None else (box.x, page.height - box.y - box.height, box.width, box.height)
    return {"page": (page.width, page.height), "trim": trim}


@dataclass(frozen=True)
class DistinctPiece:
    """Every piece of a component that looks the same, drawn once."""

    pieces: tuple[Piece, ...]
    front: Picture
    back: Picture | None

    @property
    def first(self) -> Piece:
        return self.pieces[0]

    @property
    def count(self) -> int:
        return len(self.pieces)


def picture_size(page: Page) -> tuple[int, int]:
    """Pixels for a single-piece page: MAX_DPI, or less so the longest side stays within MAX_PIXELS."""
    scale = min(MAX_DPI / 72, MAX_PIXELS / max(page.width, page.height))
    return max(1, round(page.width * scale)), max(1, round(page.height * scale))


class Pictures:
    """The studio folder of one game (``OUT/<game>/studio``) and what was drawn into it."""

    def __init__(self, game_out: Path):
        self.game_out = game_out
        self.root = game_out / "studio"
        self._drawn: dict[str, tuple[str, list[DistinctPiece]]] = {}  # component id -> (fingerprint, pieces)
        # each picture by the drawing it was rendered from (kept_images.drawing_key): a side of a changed
        # component that draws as before is not rendered again
        self._rendered: dict[str, Picture] = {}

    def draw(self, game: Game) -> dict[str, list[DistinctPiece]]:
        """Distinct pieces of every printed component, drawing only components that changed."""
        shared = f"studio:{game.language}:" + build_digest(game, BuildOptions())  # a language is drawn apart
        ctx: BuildContext | None = None
        result: dict[str, list[DistinctPiece]] = {}
        for component in game.printed:
            if not component.pieces:
                continue
            fingerprint = component_fingerprint(game, component, shared)
            known = self._drawn.get(component.id)
            if known is not None and known[0] == fingerprint and self._present(known[1]):
                result[component.id] = known[1]
                continue
            ctx = ctx or export_context(game, 0.0)
            result[component.id] = self._draw_component(ctx, component)
            self._drawn[component.id] = (fingerprint, result[component.id])
        self._drawn = {key: value for key, value in self._drawn.items() if key in result}
        self._prune({p.path for pieces in result.values() for d in pieces for p in (d.front, d.back) if p})
        return result

    def _present(self, pieces: Iterable[DistinctPiece]) -> bool:
        return all((self.game_out / p.path).is_file() for d in pieces for p in (d.front, d.back) if p)

    def _draw_component(self, ctx: BuildContext, component: Component) -> list[DistinctPiece]:
        groups: dict[tuple[object, ...], list[int]] = {}
        sides = piece_sides(ctx, component)
        for n, entry in enumerate(sides):
            groups.setdefault(piece_key(entry.piece), []).append(n)
        # Each distinct side is rasterised once (a deck's common back, for one).
        pages: dict[tuple[object, ...], Page] = {}
        for members in groups.values():
            entry = sides[members[0]]
            pages.setdefault(("front", side_key(entry.piece, entry.piece.face), entry.piece.cells), entry.front)
            if entry.back is not None:
                pages.setdefault(("back", side_key(entry.piece, entry.piece.back), entry.piece.cells), entry.back)
        keys = list(pages)
        sizes = [picture_size(pages[key]) for key in keys]
        alpha = component.kind in SHAPED_KINDS
        pictures: dict[tuple[object, ...], Picture] = {}
        drawn = DrawnPages([pages[key] for key in keys], sizes, alpha, ctx.game.title, None)
        drawings = drawn.keys
        todo = []
        for n, (key, drawing) in enumerate(zip(keys, drawings, strict=True)):
            known = self._rendered.get(drawing) if drawing is not None else None
            if known is not None and (self.game_out / known.path).is_file():
                pictures[key] = replace(known, **_geometry(pages[key]))  # type: ignore[arg-type]
            else:
                todo.append(n)
        for n, image in zip(todo, drawn.rasterised(todo), strict=True):
            data = png_bytes(image)
            name = f"{hashlib.sha256(data).hexdigest()[:16]}.png"
            path = self.root / component.id / name
            if not path.is_file():
                write_bytes(path, data)
            pictures[keys[n]] = Picture(path.relative_to(self.game_out).as_posix(), image.width, image.height,
                                        **_geometry(pages[keys[n]]))  # type: ignore[arg-type]
            if (drawing := drawings[n]) is not None:
                if len(self._rendered) >= RENDERED_LIMIT:
                    self._rendered.clear()
                self._rendered[drawing] = pictures[keys[n]]
        distinct = []
        for members in groups.values():
            entry = sides[members[0]]
            piece = entry.piece
            front = pictures[("front", side_key(piece, piece.face), piece.cells)]
            back = pictures[("back", side_key(piece, piece.back), piece.cells)] if entry.back is not None else None
            distinct.append(DistinctPiece(tuple(sides[n].piece for n in members), front, back))
        return distinct

    def _prune(self, keep: set[str]) -> None:
        """Remove pictures no piece shows any more (the last good ones stay until a good build replaces them)."""
        if not self.root.is_dir():
            return
        for path in self.root.rglob("*.png"):
            if path.relative_to(self.game_out).as_posix() not in keep:
                path.unlink(missing_ok=True)
        for folder in sorted((p for p in self.root.iterdir() if p.is_dir()), reverse=True):
            if not any(folder.iterdir()):
                folder.rmdir()
