"""The workbench's writes: one edit from the page checked, written, and kept for undo and redo.

Every write goes to an existing file inside the game folder being served, never anywhere else and never a new
file. A write names the digest of the file as the page read it: a file changed on disk since then is refused
(409) and nothing is merged. An edit that would not load (an invalid colour, a negative width) is refused with
the loader's located message (422) and nothing is written. The bytes before each write are kept for the
session: undo writes them back byte for byte, redo writes the edit again.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.errors import display_path
from punchboard.plumbing.paths import is_inside
from punchboard.spec.model import Game, Piece

from .edits import EDITABLE_KEYS, Change, EditRefused, csv_column_cell, element_edit, field_edit, validated
from .overrides import element_add, inherited_value
from .provenance import written_at

HISTORY = 200  # undo steps kept per session


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sources(game: Game, folder: Path) -> dict[str, str]:
    """The digest of every file of ``game`` inside ``folder`` that the workbench may write, by display path."""
    paths: set[Path] = set()
    for component in game.components:
        paths.add(component.source)
        paths.update(component.inputs)
    for layout in game.layouts.values():
        paths.update(layout.chain)
    root = folder.resolve()
    found = {}
    for path in sorted(paths):
        if path.is_file() and is_inside(path.resolve(), root):
            found[display_path(path)] = digest(path.read_bytes())
    return found


def _mark(mark: str) -> tuple[Path, int, int]:
    name, line, col = mark.rsplit(":", 2)
    return Path(name), int(line), int(col)


class Workbench:
    """The writes of one ``serve`` session: edits, undo and redo, one at a time."""

    def __init__(self, folder: Path, load: Callable[[Path], Any], read_only: bool = False):
        self.folder = folder.resolve()
        self.load = load  # loads a game folder, raising SpecError (spec.loader.load_game with the serve's limits)
        self.read_only = read_only
        self._lock = threading.Lock()
        self._done: list[Change] = []
        self._undone: list[Change] = []

    def edit(self, request: dict[str, Any], game: Game | None, pieces: dict[str, Piece],
             originals: dict[str, Piece] | None = None) -> dict[str, Any]:
        """Make the edit ``request`` names (see the module docstring); the answer for the page. ``pieces`` are the
        page's pieces as shown (in its language), ``originals`` the same in the source language."""
        if game is None:
            raise EditRefused("the game has not built yet; wait for the first build", 409)
        with self._lock:
            path, new = self._planned(request, game, pieces, originals or {})
            self._check_current(path, request.get("sources"))
            validated(self.folder, path, new, self.load)
            change = Change(path, path.read_bytes(), new)
            self._write(change.path, change.after)
            self._done = (self._done + [change])[-HISTORY:]
            self._undone.clear()
            return self._answer(change.path)

    def step(self, back: bool) -> dict[str, Any]:
        """Undo (``back``) or redo the last edit; refused (409) if the file has changed since."""
        with self._lock:
            taken, given = (self._done, self._undone) if back else (self._undone, self._done)
            if not taken:
                raise EditRefused("nothing to undo" if back else "nothing to redo", 409)
            change = taken[-1]
            expected, wanted = (change.after, change.before) if back else (change.before, change.after)
            if change.path.read_bytes() != expected:
                raise EditRefused(f"{display_path(change.path)} has changed on disk since; reload the page", 409)
            self._write(change.path, wanted)
            given.append(taken.pop())
            return self._answer(change.path)

    def _answer(self, path: Path) -> dict[str, Any]:
        return {"ok": True, "file": display_path(path), "digest": digest(path.read_bytes()),
                "undo": len(self._done), "redo": len(self._undone)}

    def _write(self, path: Path, data: bytes) -> None:
        resolved = path.resolve()
        if not is_inside(resolved, self.folder) or not resolved.is_file():
            raise EditRefused(f"{display_path(path)} is not a file of this game; nothing written", 403)
        write_bytes(resolved, data)

    def _check_current(self, path: Path, read: object) -> None:
        """Refuse (409) when the page read another version of ``path`` than the one on disk."""
        shown = display_path(path)
        if not isinstance(read, dict) or shown not in read:
            raise EditRefused(f"the page did not say which version of {shown} it read; reload the page", 409)
        if read[shown] != digest(path.read_bytes()):
            raise EditRefused(f"{shown} has changed on disk since the page read it; reload the page", 409)

    def _planned(self, request: dict[str, Any], game: Game, pieces: dict[str, Piece],
                 originals: dict[str, Piece]) -> tuple[Path, bytes]:
        """The file an edit request changes and its new bytes."""
        what = request.get("what")
        value = request.get("value")
        if what == "element":
            layout = game.layouts.get(str(request.get("layout")))
            key, element_id = str(request.get("key")), str(request.get("element"))
            if layout is None:
                raise EditRefused(f"no layout {request.get('layout')!r} in this game")
            if key not in EDITABLE_KEYS:
                raise EditRefused(f"'{key}' is not edited on the page; expected one of {', '.join(EDITABLE_KEYS)}")
            if not any(element.id == element_id for element in layout.elements):
                raise EditRefused(f"no element {element_id!r} in layout {layout.name!r}")
            extent = float(request["extent"]) if request.get("extent") else None
            return self._element_write(layout.chain, element_id, key, value, extent, request)
        if what == "field":
            piece = pieces.get(str(request.get("piece")))
            name = str(request.get("field"))
            marks = {} if piece is None else {**(piece.back.marks if piece.back else {}),
                                              **(piece.face.marks if piece.face else {}), **piece.marks}
            if piece is None or name not in marks:
                raise EditRefused(f"no field {name!r} written for piece {request.get('piece')!r}")
            mark = marks[name]
            lang = str(request.get("lang") or "")
            if game.languages and lang and lang != game.languages[0]:
                mark = self._translated(mark, originals.get(str(request.get("piece"))), name, lang)
            path, line, col = _mark(mark)
            if not is_inside(path.resolve(), self.folder):
                raise EditRefused(f"{display_path(path)} is not a file of this game; nothing written", 403)
            return path, field_edit(path, line, col, str(value))
        raise EditRefused(f"unknown edit {what!r}; expected 'element' or 'field'")

    def _translated(self, mark: str, original: Piece | None, name: str, lang: str) -> str:
        """Where field ``name`` of a piece is written in ``lang``: its translated cell when it has one (``mark``),
        else the ``name@lang`` cell of the card's CSV row, empty until written."""
        source = original.marks.get(name) if original is not None else None
        if source is None or mark != source:
            return mark
        path, line, col = _mark(source)
        if path.suffix.lower() == ".csv":
            cell = csv_column_cell(path, line, col, f"{name}@{lang}")
            if cell is None:
                raise EditRefused(f"{display_path(path)} has no column '{name}@{lang}'; add it to translate "
                                  f"'{name}' on the page")
            return f"{path}:{cell[0]}:{cell[1]}"
        raise EditRefused(f"{source}: no {name}@{lang} is written for this card; add it there to translate it on the page")

    def _element_write(self, chain: tuple[Path, ...], element_id: str, key: str, value: Any, extent: float | None,
                       request: dict[str, Any]) -> tuple[Path, bytes]:
        """Where an element's value is written and the new bytes: the file that writes it when that is the side's
        own layout, or the page asks to edit there (``place: "there"``); else an override added to the side's own
        layout (a value inherited along ``extends``, or a default)."""
        precise = bool(request.get("precise"))  # a snap onto a guide: kept to 0.001 mm, not rounded to 0.1 mm
        found = written_at(chain, element_id, key)
        if found is not None and (found[0] == 0 or request.get("place") == "there"):
            path = self._ours((found[1],))[0]
            return path, element_edit(path, element_id, key, value, extent, precise)
        path = self._ours(chain[:1])[0]
        if "#" in element_id:
            raise EditRefused(f"element {element_id!r} has no id: give it an id in its layout to override it here")
        inherited = inherited_value(found[1], element_id, key) if found is not None else None
        return path, element_add(path, element_id, key, value, inherited, extent, precise)

    def _ours(self, paths: Iterable[Path]) -> tuple[Path, ...]:
        """The files of ``paths`` inside the game folder (a bundled layout is not the designer's to rewrite)."""
        kept = tuple(p for p in paths if is_inside(p.resolve(), self.folder))
        if not kept:
            raise EditRefused("this comes from a layout bundled with punchboard, outside the game folder; extend it "
                              "in a layout of your game to edit it here", 403)
        return kept


def writable(folder: Path) -> bool:
    """Whether the serve may write into ``folder`` (``--read-only`` is the default when it may not)."""
    return os.access(folder, os.W_OK)
