"""Watch a game's source files and call back once per finished save.

:func:`follow` listens to the operating system's change notifications (through
watchfiles), so a save is seen within milliseconds. :func:`watch` polls instead
(every ``interval`` seconds, comparing size and mtime): it works the same on
every file system, including network shares that send no notifications, and is
what ``watch --poll`` and the fallback use.

Both call ``on_change(changed_paths)``, which may return a :data:`Report`: a callable that says
what went wrong (bad input), run only once the save is known to be finished. ``follow(...,
at_once=True)`` builds on a save's first event and confirms afterwards, so the report of a build
that began on a half-written file is dropped, never shown; the others run it right after
``on_change``.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from typing import Any

WATCHED_SUFFIXES = {".yaml", ".yml", ".csv", ".xlsx", ".png", ".jpg", ".jpeg", ".svg", ".ttf", ".otf"}

Snapshot = dict[Path, tuple[int, int]]

Report = Callable[[], None]
"""What ``on_change`` hands back to be said once the save it built is known to be finished (its problems)."""


class Repeats:
    """What a rebuild has to say that the last one did not: ``news(key, messages)`` keeps the messages of
    ``key`` (a game) that its last build did not say, in order, and counts those it said then too.

    The first build of a key says everything. A build whose input was bad is not a build: call ``news``
    only for builds that finished, so after a bad save is fixed, the warnings said before it are unchanged.
    """

    def __init__(self) -> None:
        self._last: dict[Hashable, frozenset[str]] = {}

    def news(self, key: Hashable, messages: Iterable[str]) -> tuple[list[str], int]:
        """(the messages new or changed since ``key``'s last build, how many were the same as then)."""
        said = list(dict.fromkeys(messages))
        last = self._last.get(key, frozenset())
        self._last[key] = frozenset(said)
        fresh = [m for m in said if m not in last]
        return fresh, len(said) - len(fresh)


def unchanged_line(count: int, noun: str = "warning") -> str:
    """``… and 11 unchanged warnings``: the one line standing for what a rebuild said the build before too."""
    return f"… and {count} unchanged {noun}{'' if count == 1 else 's'}"

OnChange = Callable[[list[Path]], Report | None]


def _say(report: Report | None) -> None:
    if report is not None:
        report()


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
    on_change: OnChange,
    *,
    interval: float = 0.5,
    settle_pause: float = 0.1,
    should_stop: Callable[[], bool] = lambda: False,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Call ``on_change(changed_paths)`` once per finished save until ``should_stop()``; the save has
    settled before ``on_change`` runs, so a :data:`Report` it returns is run at once."""

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
            _say(on_change(diff))


# ---------------------------------------------------------------- change notifications

# A save is over once its files have been quiet this long. Measured with bench/save_patterns.py:
# vim (swap file; with a backup renamed aside), sed -i and perl -pi (a temporary file renamed over
# the original) and ed (truncate, then write in place) raise every event on the saved file within
# 6 ms, in one or two bursts. PATIENCE_S is how long a file that never stops changing may hold
# back a build before it is built anyway.
# watchfiles hands over an event a step or two after it came (1.5 steps on average): at 4 ms a save is seen
# 5.4 ms after its write (5 ms: 8.4 ms) for the same idle CPU of a waiting watch (0.57 %; 5 ms: 0.50-0.60 %,
# 3 ms: 0.87 %), measured with Steam Court on a 2-core machine.
STEP_MS = 4  # how often the notification thread looks for new events
QUIET_MS = 25  # how long a save's files must stay quiet before it is known to be finished
PATIENCE_S = 5.0  # a file that never stops changing is built after this long anyway
_IGNORED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv"})


class NotificationsUnavailable(OSError):
    """The operating system gives no change notifications for these folders (poll instead)."""


def _wanted(path: str) -> bool:
    p = Path(path)
    return p.suffix.lower() in WATCHED_SUFFIXES and not _IGNORED_DIRS.intersection(p.parts)


Batch = set[tuple[Any, str]]


def _notifications(folders: Iterable[Path], stop: threading.Event | None, quiet_ms: int,
                   step_ms: int) -> tuple[Iterator[Batch], Batch | None]:
    """watchfiles' batches of events in ``folders`` (an empty one after each quiet ``quiet_ms``) and the
    first batch, which comes back once the notifications are on (None: stopped before that). Raises
    :class:`NotificationsUnavailable` when the operating system refuses."""
    from watchfiles import watch as notifications

    roots = [str(folder) for folder in folders if folder.is_dir()]
    batches = notifications(*roots, watch_filter=lambda _change, path: _wanted(path), debounce=int(PATIENCE_S * 1000),
                            step=step_ms, rust_timeout=quiet_ms, yield_on_timeout=True, stop_event=stop,
                            raise_interrupt=True)
    try:
        first = next(batches, None)  # the notifications are on once the first (empty) batch is back
    except Exception as exc:  # noqa: BLE001 - the OS refused (inotify limits, …): the caller polls instead
        raise NotificationsUnavailable(str(exc) or type(exc).__name__) from exc
    return batches, first


def follow(
    folders: Iterable[Path],
    on_change: OnChange,
    *,
    on_ready: Callable[[], None] = lambda: None,
    stop: threading.Event | None = None,
    at_once: bool = False,
    quiet_ms: int = QUIET_MS,
    step_ms: int = STEP_MS,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Call ``on_change(changed_paths)`` for every save, from the operating system's change notifications
    (inotify, FSEvents, ReadDirectoryChangesW, through watchfiles) until ``stop`` is set.

    ``on_ready()`` runs once the notifications are on, so a save made while it runs (the first build)
    is seen. ``on_change`` may return a :data:`Report` (what went wrong); it is run only once the save
    is known to be finished.

    By default changes are gathered until no event has come for ``quiet_ms``: a save made of several
    steps (truncate, write, write; or write a temporary file, rename it over the original) is built
    once, finished, and its report runs right after.

    With ``at_once`` ("start at once, confirm after") the first event after a quiet spell calls
    ``on_change`` straight away, without the quiet wait; the notifications keep gathering meanwhile.
    If no event comes within ``quiet_ms`` of its return, the save was whole: that build stands and its
    report runs. If more events came (the save was not finished: an editor that truncates, then
    writes, or writes in several steps), the report is dropped unseen and, once the files have been
    quiet for ``quiet_ms``, ``on_change`` runs again with every path of both, and its report runs.
    So a save made of several steps has its problems reported once, for the finished files; a build
    may also happen on a half-written file that happened to be valid, and a build of the finished
    files always follows it.

    Either way a file that never stops changing is built (and its report run) at most
    :data:`PATIENCE_S` after its first event. Raises :class:`NotificationsUnavailable` when
    notifications cannot be had (then poll with :func:`watch`); Ctrl-C raises
    :class:`KeyboardInterrupt` as usual. A report still held when ``stop`` is set is dropped.
    """
    batches, first = _notifications(folders, stop, quiet_ms, step_ms)
    if first is None:
        return
    pending: set[Path] = set()  # changed since the last build, built once they have been quiet
    first_seen = 0.0
    settled = True  # no event since the last quiet spell: with at_once, the next one is built at once
    trial: tuple[list[Path], Report | None] | None = None  # a build made at once, with its held report
    on_ready()
    for batch in itertools.chain([first], batches):
        if stop is not None and stop.is_set():
            return
        if batch:
            changes = {Path(path) for _, path in batch}
            if at_once and settled:  # a save begins: build now, confirm after
                settled = False
                first_seen = clock()
                paths = sorted(changes)
                trial = (paths, on_change(paths))
                continue
            settled = False
            if trial is not None:  # the save went on after that build began: drop its report, build again
                pending.update(trial[0])
                trial = None
            elif not pending:
                first_seen = clock()
            pending.update(changes)
            if clock() - first_seen < PATIENCE_S:
                continue  # not quiet yet: wait for the next quiet window
        else:
            settled = True
            if trial is not None:  # quiet since the build made at once: the save was whole, the build stands
                _say(trial[1])
                trial = None
                continue
        if pending:
            paths = sorted(pending)
            pending.clear()
            _say(on_change(paths))
