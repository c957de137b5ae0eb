"""Poll a game's source files and call back when any of them changes.

Polling (every ``interval`` seconds, comparing size and mtime) needs no extra
dependency and works the same on every platform and file system, including
network shares and editors that replace files on save.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

WATCHED_SUFFIXES = {".yaml", ".yml", ".csv", ".xlsx", ".png", ".jpg", ".jpeg", ".svg", ".ttf", ".otf"}

Snapshot = dict[Path, tuple[int, int]]


def watched_files(folders: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            files.extend(
                p for p in folder.rglob("*") if p.suffix.lower() in WATCHED_SUFFIXES and p.is_file()
            )
    return sorted(set(files))


def snapshot(files: Iterable[Path]) -> Snapshot:
    state: Snapshot = {}
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            continue
        state[path] = (stat.st_mtime_ns, stat.st_size)
    return state


def changed(before: Snapshot, after: Snapshot) -> list[Path]:
    paths = set(before) | set(after)
    return sorted(p for p in paths if before.get(p) != after.get(p))


def settle(
    files: Callable[[], Iterable[Path]],
    seen: Snapshot,
    *,
    pause: float,
    sleep: Callable[[float], None],
    patience: int = 50,
) -> Snapshot:
    """Wait until a save is finished: two polls ``pause`` apart that agree.

    Editors and scripts save in steps (truncate, write, rename), so the first poll
    that sees a change may see a half-written file. ``patience`` bounds the wait for
    a file that never stops changing.
    """
    for _ in range(patience):
        sleep(pause)
        again = snapshot(files())
        if again == seen:
            break
        seen = again
    return seen


def watch(
    folders: Callable[[], Iterable[Path]],
    on_change: Callable[[list[Path]], None],
    *,
    interval: float = 0.5,
    settle_pause: float = 0.1,
    should_stop: Callable[[], bool] = lambda: False,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Call ``on_change(changed_paths)`` once per finished save until ``should_stop()``."""

    def files() -> list[Path]:
        return watched_files(folders())

    state = snapshot(files())
    while not should_stop():
        sleep(interval)
        current = snapshot(files())
        if not changed(state, current):
            continue
        current = settle(files, current, pause=settle_pause, sleep=sleep)
        diff = changed(state, current)
        state = current
        if diff:
            on_change(diff)
