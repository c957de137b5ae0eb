"""What the studio page shows, rebuilt on every save and published as JSON.

One rebuild: load the game (a bad save stops here: its located problems are
published and the last good pieces stay), build the PDFs as ``build`` does
(incremental; its warnings go on the pieces they name), draw the distinct
pieces, publish; then run the verifier and publish again, so the pictures do
not wait for the simulation. Every publish bumps a version number that
``/events`` listeners are woken with.
"""

from __future__ import annotations

import json
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from punchboard.generator.build import build_game
from punchboard.generator.options import BuildOptions
from punchboard.generator.prints import PrintError
from punchboard.plumbing.errors import SpecError, display_path
from punchboard.plumbing.limits import DEFAULT_LIMITS, Limits
from punchboard.plumbing.watch import Repeats, unchanged_line
from punchboard.spec.bom import bill_of_materials
from punchboard.spec.languages import in_language
from punchboard.spec.loader import load_game
from punchboard.spec.model import Game, Piece, Side
from punchboard.verifier import derived_report, report
from punchboard.verifier.engine import verify_game
from punchboard.verifier.findings import Result
from punchboard.verifier.playout import words as playout_words

from .boxes import element_boxes
from .concerns import place_warnings
from .pictures import DistinctPiece, Picture, Pictures
from .provenance import Origins
from .workbench import Workbench, sources

FILES_PREFIX = "/files/"


def say(message: str) -> None:
    print(message, flush=True)


def _silent(message: str) -> None:
    """What the studio says once it is closing: nothing."""


def _url(picture: Picture | None) -> dict[str, Any] | None:
    if picture is None:
        return None
    return {"url": FILES_PREFIX + picture.path, "width": picture.width, "height": picture.height}


def _side(game: Game, piece: Piece, side: Side | None, picture: Picture | None, origins: Origins) -> dict[str, Any] | None:
    if side is None:
        return None
    layout = game.layouts.get(side.layout)
    marks = {**piece.marks, **side.marks}  # where each field the side may bind is written
    return {
        "layout": side.layout,
        "file": display_path(layout.source) if layout is not None else "",
        "fields": dict(side.fields),
        **(element_boxes(layout, picture, marks, origins) if layout is not None and picture is not None else {}),
    }


def _piece_view(game: Game, component_id: str, number: int, distinct: DistinctPiece, warnings: list[str],
                origins: Origins) -> dict[str, Any]:
    piece: Piece = distinct.first
    return {
        "id": f"{component_id}/{number + 1}",
        "name": piece.name or f"#{piece.index + 1}",
        "count": distinct.count,
        "numbers": [p.index + 1 for p in distinct.pieces],
        "front": _url(distinct.front),
        "back": _url(distinct.back),
        "fields": dict(piece.fields),
        "marks": dict(piece.marks),
        "face": _side(game, piece, piece.face, distinct.front, origins),
        "reverse": _side(game, piece, piece.back, distinct.back, origins),
        "warnings": warnings,
    }


def _derived_view(results: Sequence[Result]) -> dict[str, Any]:
    """Zone sizes after setup per variant (one column per player count) and the field sums."""
    tables = []
    grouped: dict[str, list[Result]] = {}
    for result in results:
        if result.players is not None and result.derived is not None and result.derived.sizes:
            grouped.setdefault(result.variant, []).append(result)
    for variant, cells in grouped.items():
        _, rows = derived_report.size_rows(cells)
        tables.append({"variant": variant, "counts": [r.players for r in cells],
                       "rows": [{"zone": row[0], "cells": row[1:]} for row in rows]})
    sums = [{"where": report.where(r), "text": s.text(), "agrees": s.agrees}
            for r in results if r.derived is not None for s in r.derived.sums]
    return {"sizes": tables, "sums": sums}


def _verify_view(results: Sequence[Result], trials: int, seed: int, game: Game | None = None) -> dict[str, Any]:
    variants, counts, cells = report.matrix(results)
    statuses = {r.status for r in results}
    overall = "fail" if "fail" in statuses else "warn" if "warn" in statuses else "pass"
    return {
        "status": overall,
        "trials": trials,
        "seed": seed,
        "counts": counts,
        "rows": [{"variant": v, "cells": [cells.get((v, c), "") for c in counts]} for v in variants],
        "derived": _derived_view(results),
        "playouts": playout_words.studio_view(game, results) if game is not None else [],  # round models, placeholders
        "results": [
            {
                "where": report.where(r),
                "status": r.status,
                "findings": [{"severity": f.severity, "text": f.text()} for f in r.findings],
            }
            for r in results
        ],
    }


class Studio:
    """One game's studio: rebuilds on demand and holds the last published state."""

    def __init__(self, folder: Path, out: Path, options: BuildOptions | None = None,
                 limits: Limits = DEFAULT_LIMITS, trials: int = 200, seed: int = 1,
                 log: Callable[[str], None] = say, alert: Callable[[str], None] = say):
        self.folder = folder
        self.out = out
        self.options = replace(options or BuildOptions(), quiet=True)
        self.limits = limits
        self.trials = trials
        self.seed = seed
        self.log = log  # what happened (quiet with --quiet)
        self.alert = alert  # problems and warnings: always said
        self.root: Path | None = None  # OUT/<game>: everything the server may hand out
        self.workbench: Workbench | None = None  # the page's edits (None or read-only: the page only shows)
        self.game: Game | None = None  # the last game that built, and its pieces by the page's piece id
        self.pieces: dict[str, Piece] = {}
        self.originals: dict[str, Piece] = {}  # the same pieces in the source language (a field@lang edit's row)
        self.language = ""  # the language the pictures are drawn in ("": the source, or none declared)
        self._rebuilding = threading.Lock()  # one rebuild at a time (the watch loop's, a language switch's)
        self._pictures: Pictures | None = None
        self._repeats = Repeats()
        self._changed = threading.Condition(threading.RLock())  # publish() runs inside it too
        self._loading = threading.Lock()
        self.version = 0
        self._generation = 0  # rebuilds started; the verifier's verdict counts only for the newest
        self._verify_wanted = threading.Condition()
        self._wanted: tuple[int, Game] | None = None
        self._verifier: threading.Thread | None = None
        self.state: dict[str, Any] = {
            "version": 0, "status": "building", "building": True, "problems": [], "internal": "",
            "game": {"id": "", "title": folder.name, "folder": display_path(folder)},
            "components": [], "warnings": [], "verify": None, "bom": None, "files": [], "built": "", "seconds": 0,
            "editable": False, "sources": {}, "languages": [], "language": "",
        }
        self._body = self._encode()

    # -- publishing -------------------------------------------------------------------------------

    def _encode(self) -> bytes:
        return json.dumps(self.state, ensure_ascii=False).encode("utf-8")

    def publish(self, **changes: Any) -> None:
        with self._changed:
            self.version += 1
            self.state = {**self.state, **changes, "version": self.version}
            self._body = self._encode()
            self._changed.notify_all()

    def body(self) -> tuple[int, bytes]:
        with self._changed:
            return self.version, self._body

    def wait(self, seen: int, timeout: float) -> int:
        """Block until a version newer than ``seen`` is published (or ``timeout``); the current version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > seen, timeout)
            return self.version

    # -- one rebuild ------------------------------------------------------------------------------

    def rebuild(self) -> None:
        """Rebuild and publish, then hand the game to the verifier thread; never raises
        (a crash is published as an internal error and serving goes on)."""
        with self._rebuilding:
            with self._changed:
                self._generation += 1
                generation = self._generation
            started = time.perf_counter()
            self.publish(building=True)
            try:
                game = self._rebuild(started)
            except Exception as exc:
                self._failed(exc)
                return
        self.log(f"{game.id}: rebuilt in {time.perf_counter() - started:.1f} s")
        with self._verify_wanted:
            self._wanted = (generation, game)
            self._verify_wanted.notify()
            if self._verifier is None:
                self._verifier = threading.Thread(target=self._verify_forever, name="studio-verify", daemon=True)
                self._verifier.start()

    def _failed(self, exc: Exception, generation: int | None = None) -> None:
        """Publish a failure: located problems for bad input, the exception for anything else."""
        if isinstance(exc, SpecError):
            problems, internal = [str(p) for p in exc.problems], ""
            for line in problems:
                self.alert(line)
        elif isinstance(exc, PrintError):  # --changed-since names a print that is not there
            problems, internal = [f"error: {exc}"], ""
            self.alert(problems[0])
        else:
            problems, internal = [], f"internal error: {exc!r}"
            self.alert("".join(traceback.format_exception(exc)).rstrip())
        with self._changed:
            if generation is not None and generation != self._generation:
                return  # a newer save is being built: this verdict is about an old one
            self.publish(status="error", building=False, problems=problems, internal=internal)

    def close(self, timeout: float = 10.0) -> None:
        """Say nothing more and wait (at most ``timeout`` seconds) for a rebuild under way, so no thread writes to
        the terminal while the interpreter shuts down (a daemon thread caught mid-print aborts the process)."""
        self.log = self.alert = _silent
        if self._rebuilding.acquire(timeout=timeout):
            self._rebuilding.release()

    def choose_language(self, lang: str) -> dict[str, Any]:
        """Draw the pictures in ``lang`` from now on (one of the game's ``languages:``): the answer for the page; the
        rebuild runs beside it and publishes as a save's does."""
        from .edits import EditRefused

        languages = self.game.languages if self.game is not None else ()
        if lang not in languages:
            known = ", ".join(languages) or "none (no languages: in game.yaml)"
            raise EditRefused(f"language '{lang}': expected one of the game's languages: {known}")
        self.language = lang
        threading.Thread(target=self.rebuild, name="studio-language", daemon=True).start()
        return {"ok": True, "language": lang}

    def _in_language(self, game: Game) -> Game:
        """The game as the page shows it: in the chosen language (its source language until one is chosen)."""
        if not game.languages:
            self.language = ""
            return game
        if self.language not in game.languages:
            self.language = game.languages[0]
        return in_language(game, self.language)

    def load(self, folder: Path) -> Game:
        """Load the game in ``folder`` (this game's, or the workbench's copy with an edit) with the serve's limits;
        one load at a time, so a rebuild and an edit's check never share the loader's kept tables at once."""
        with self._loading:
            return load_game(folder, self.limits)

    def _rebuild(self, started: float) -> Game:
        game = self.load(self.folder)
        root = self.out / game.id
        if self._pictures is None or self.root != root:
            self._pictures = Pictures(root)
        self.root = root
        from punchboard.generator.press.run import with_press

        build = with_press(  # with --colour cmyk, the press files as build writes them
            game, self.out, build_game(game, self.out, self.options), self.options)
        source, game = game, self._in_language(game)  # the pictures, pieces and fields in the chosen language
        drawn = self._pictures.draw(game)
        placed = place_warnings(game, {cid: [d.pieces for d in ds] for cid, ds in drawn.items()}, build.warnings)
        components = []
        origins = Origins(self.folder)  # where each layout value is written: read once for every piece
        for component in game.printed:
            if component.id not in drawn:
                continue
            pdf = root / f"{component.id}.pdf"
            components.append({
                "id": component.id,
                "name": component.name,
                "kind": component.kind,
                "count": component.count,
                "file": display_path(component.source),
                "pdf": FILES_PREFIX + pdf.name if pdf.is_file() else None,
                "warnings": placed.components.get(component.id, []),
                "pieces": [
                    _piece_view(game, component.id, n, d, placed.pieces.get((component.id, n), []), origins)
                    for n, d in enumerate(drawn[component.id])
                ],
            })
        files = [
            {"name": path.name, "url": FILES_PREFIX + path.name}
            for path in sorted(root.glob("*.pdf"), key=lambda p: (not p.name.endswith("-print-and-play.pdf"), p.name))
        ]
        fresh, unchanged = self._repeats.news(self.folder, build.warnings)
        for message in fresh:  # on the terminal, only what the last build did not say; the page shows them all
            self.alert(f"warning: {message}")
        if unchanged:
            self.alert(unchanged_line(unchanged))
        previous = self.state.get("verify")
        self.game = game
        self.pieces = {f"{cid}/{n + 1}": d.first for cid, ds in drawn.items() for n, d in enumerate(ds)}
        by_index = {(p.component, p.index): p for c in source.components for p in c.pieces}
        self.originals = {key: by_index.get((piece.component, piece.index), piece) for key, piece in self.pieces.items()}
        bench = self.workbench
        self.publish(
            editable=bench is not None and not bench.read_only,
            sources=sources(game, self.folder) if bench is not None else {},
            status="ok", building=False, problems=[], internal="",
            game={"id": game.id, "title": game.title, "folder": display_path(self.folder),
                  "players": [game.players_min, game.players_max]},
            components=components, warnings=placed.game, bom=bill_of_materials(game), files=files,
            languages=list(game.languages), language=self.language,
            built=time.strftime("%H:%M:%S"), seconds=round(time.perf_counter() - started, 2),
            verify={**previous, "running": True} if previous else {"running": True},
        )
        return source  # the verifier is language-blind: the source game

    # -- the verifier, beside the rebuilds -------------------------------------------------------

    def _verify_forever(self) -> None:
        """Verify the newest built game; a save never waits for a simulation, and a verdict about a
        game that has been rebuilt since is dropped."""
        while True:
            with self._verify_wanted:
                self._verify_wanted.wait_for(lambda: self._wanted is not None)
                assert self._wanted is not None
                generation, game = self._wanted
                self._wanted = None
            started = time.perf_counter()
            try:
                results = verify_game(game, trials=self.trials, seed=self.seed)
            except Exception as exc:
                self._failed(exc, generation)
                continue
            with self._changed:
                if generation == self._generation:
                    self.publish(verify={**_verify_view(results, self.trials, self.seed, game), "running": False})
            self.log(f"{game.id}: verified in {time.perf_counter() - started:.1f} s")
