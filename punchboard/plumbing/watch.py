"""Watch a game's source files and call back once per finished save.

:func:`follow` listens to the operating system's change notifications (through
watchfiles), so a save is seen within milliseconds. :func:`watch` polls instead
(every ``interval`` seconds, comparing size and mtime): it works the same on
every file system, including network shares that send no notifications, and is
what ``watch --poll`` and the fallback use.
"""

from __future__ import annotations

import itertools
import threading
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


# ---------------------------------------------------------------- change notifications

# A save is over once its files have been quiet this long. Measured with bench/save_patterns.py:
# vim (swap file; with a backup renamed aside), sed -i and perl -pi (a temporary file renamed over
# the original) and ed (truncate, then write in place) raise every event on the saved file within
# 6 ms, in one or two bursts. PATIENCE_S is how long a file that never stops changing may hold
# back a build before it is built anyway.
STEP_MS = 5  # how often the notification thread looks for new events
QUIET_MS = 25  # how long a save's files must stay quiet before it is built
PATIENCE_S = 5.0  # a file that never stops changing is built after this long anyway
_IGNORED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv"})


class NotificationsUnavailable(OSError):
    """The operating system gives no change notifications for these folders (poll instead)."""


def _wanted(path: str) -> bool:
    p = Path(path)
    return p.suffix.lower() in WATCHED_SUFFIXES and not _IGNORED_DIRS.intersection(p.parts)


def follow(
    folders: Iterable[Path],
    on_change: Callable[[list[Path]], None],
    *,
    on_ready: Callable[[], None] = lambda: None,
    stop: threading.Event | None = None,
    quiet_ms: int = QUIET_MS,
    step_ms: int = STEP_MS,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Call ``on_change(changed_paths)`` once per finished save, from the operating system's change
    notifications (inotify, FSEvents, ReadDirectoryChangesW, through watchfiles) until ``stop`` is set.

    ``on_ready()`` runs once the notifications are on, so a save made while it runs (the first build)
    is seen. Changes are gathered until no event has come for ``quiet_ms``: a save made of several
    steps (truncate, write, write; or write a temporary file, rename it over the original) is
    reported once, finished. Raises :class:`NotificationsUnavailable` when notifications cannot be
    had (then poll with :func:`watch`); Ctrl-C raises :class:`KeyboardInterrupt` as usual.
    """
    from watchfiles import watch as notifications

    roots = [str(folder) for folder in folders if folder.is_dir()]
    pending: set[Path] = set()
    first_seen = 0.0
    batches = notifications(*roots, watch_filter=lambda _change, path: _wanted(path), debounce=int(PATIENCE_S * 1000),
                            step=step_ms, rust_timeout=quiet_ms, yield_on_timeout=True, stop_event=stop,
                            raise_interrupt=True)
    try:
        first = next(batches, None)  # the notifications are on once the first (empty) batch is back
    except Exception as exc:  # noqa: BLE001 - the OS refused (inotify limits, …): the caller polls instead
        raise NotificationsUnavailable(str(exc) or type(exc).__name__) from exc
    if first is None:
        return
    on_ready()
    for batch in itertools.chain([first], batches):
        if stop is not None and stop.is_set():
            return
        if batch:
            if not pending:
                first_seen = clock()
            pending.update(Path(path) for _, path in batch)
            if clock() - first_seen < PATIENCE_S:
                continue  # not quiet yet: wait for the next quiet window
        if pending:
            paths = sorted(pending)
            pending.clear()
            on_change(paths)
