"""An unchanged rebuild that loads nothing: ``punchboard build`` run again when nothing it reads has moved.

A build in which nothing was drawn (every component and the combined PDF reused from the build cache)
records, in ``OUT/.punchboard-up-to-date.json`` under a key of its targets and every option, what it read
and what it said: each game's folder tree, every other file it opened and folder it listed (through
:mod:`punchboard.incremental.reads`), the code that ran, the files in ``OUT/<game>``, and the lines it printed
and its exit code. The same command again checks all of that by ``stat`` (by content where a timestamp
cannot tell) and, if nothing moved, prints the same lines and returns the same code without loading the
game. Anything else — an edit, a new file beside one it read, a deleted or touched output, new code, a
spreadsheet link fetched from the network — takes the ordinary build, which checks everything itself.
The first unchanged build after an edit is an ordinary one (it is the one that records).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .reads import Reads, Snapshot, tree
from .sealed import read_sealed, write_sealed

RECORD = ".punchboard-up-to-date.json"
VERSION = 1
KEPT = 8  # invocations remembered per output folder (paper, backs, … each have their own)
SYSTEM = ("/proc/", "/sys/", "/dev/")
NOT_KEYED = ("jobs", "jobs_auto")  # the same files and words for any --jobs


def key(folders: Sequence[Path], out: Path, options: Any, limits: object) -> str:
    """The invocation: which games, into which folder, with which options (the build's options, a dataclass)
    and limits."""
    values = {k: v for k, v in asdict(options).items() if k not in NOT_KEYED}
    text = json.dumps([[str(f.resolve()) for f in folders], str(out.resolve()), values, repr(limits), sys.version],
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _load(out: Path) -> dict[str, Any]:
    try:
        data = json.loads(read_sealed(out / RECORD) or b"")
    except ValueError:
        return {}
    return data.get("entries", {}) if isinstance(data, dict) and data.get("version") == VERSION else {}


def replay(out: Path, invocation: str, quiet: bool) -> int | None:
    """Print what the recorded unchanged build printed and return its exit code; None if anything moved."""
    entry = _load(out).get(invocation)
    if not isinstance(entry, dict):
        return None
    try:
        if Snapshot.from_json(entry["snapshot"]).changed() is not None:
            return None
        for ticks, said in entry["games"]:
            _ticks(ticks, quiet)
            for stream, text in said:
                print(text, file=sys.stderr if stream == "stderr" else sys.stdout)
        for stream, text in entry["tail"]:
            print(text, file=sys.stderr if stream == "stderr" else sys.stdout)
        return int(entry["code"])
    except (KeyError, TypeError, ValueError):
        return None


def _ticks(labels: Sequence[str], quiet: bool) -> None:
    """The progress lines an ordinary build prints on a non-interactive stderr (generator.build._progress)."""
    if quiet or len(labels) < 2 or sys.stderr.isatty():
        return
    for done, label in enumerate(labels, start=1):
        print(f"[{done}/{len(labels)}] {label}", file=sys.stderr, flush=True)


def remember(out: Path, invocation: str, games: Sequence[Any], reports: Sequence[tuple[Any, list[tuple[str, str]]]],
             tail: list[tuple[str, str]], code: int, reads: Reads, started_ns: int, drew_nothing: bool) -> None:
    """Record an ordinary build that drew nothing (``drew_nothing``: generator/build.py's) and read nothing from
    the network; else forget the key."""
    entries = _load(out)
    entries.pop(invocation, None)
    recorded = drew_nothing and not reads.network
    if recorded:
        entries[invocation] = {
            "snapshot": _snapshot(out, games, reads, started_ns).as_json(),
            "games": [[_labels(game, report), said] for game, (report, said) in zip(games, reports, strict=True)],
            "tail": tail,
            "code": code,
        }
    kept = dict(list(entries.items())[-KEPT:])
    if recorded or (out / RECORD).exists():
        write_sealed(out / RECORD, json.dumps({"version": VERSION, "entries": kept}, sort_keys=True).encode())


def _labels(game: Any, report: Any) -> list[str]:
    printed = {c.id for c in game.printed}
    return [f"{game.id}: {cid} (unchanged)" for cid in report.reused if cid in printed]


def _snapshot(out: Path, games: Sequence[Any], reads: Reads, started_ns: int) -> Snapshot:
    outputs = str(out.resolve()) + os.sep
    files: set[str] = set()
    folders: set[str] = set()
    for game in games:
        game_files, game_folders = tree(str(game.folder), skip=[str(out.resolve())])
        files.update(game_files)
        folders.update(game_folders)
    caches = _cache_folder()
    files.update(f for f in reads.files if not _skipped(f, outputs, caches))
    folders.update(f for f in reads.folders if not _skipped(f + os.sep, outputs, caches))
    inputs = Snapshot.take(files, folders, started_ns)
    code = Snapshot.take(_code(), (), started_ns, parents=False)
    made: set[str] = set()
    for game in games:
        made.update(tree(str(out / game.id))[0])
    results = Snapshot.take(made, (), started_ns, parents=False, contents=False)
    return Snapshot({**results.files, **code.files, **inputs.files}, {**inputs.folders})


def _skipped(path: str, outputs: str, caches: str) -> bool:
    """Outputs, the system's files, code (compared on its own) and punchboard's cache folder (schema verdicts,
    colour figures: what a build would work out again, not what it is made from) are not inputs."""
    return path.startswith((outputs, caches, *SYSTEM)) or path.endswith((".py", ".pyc", ".so"))


def _cache_folder() -> str:
    from .validated import folder

    return str(folder().parent.resolve()) + os.sep


def _code() -> Iterable[str]:
    """Every module file this process loaded: punchboard's own, the libraries it draws with, Python's."""
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            yield os.path.abspath(path)
