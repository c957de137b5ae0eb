"""``--jobs N``: independent pieces of work (a game's components) in a pool of processes.

Work is split by component: each worker draws whole components and writes
their PDFs; the parent keeps the order, the cache and everything shared (the
combined PDF). Workers are forked, so they start with the loaded game already
in memory and nothing but a component id and the result cross a process
boundary. A worker draws a component exactly as the parent would, so the
files are byte-identical for any N (tests/generator/test_jobs.py).

The same interface would carry a cluster: :func:`ordered_map` is the only
place that knows about processes (see README, "Scaling out").
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import repeat
from typing import Any, TypeVar

State = TypeVar("State")
Item = TypeVar("Item")
Result = TypeVar("Result")

_STATE: Any = None


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _adopt(state: Any) -> None:
    global _STATE
    _STATE = state


def _call(work: Callable[[Any, Any], Any], item: Any) -> Any:
    return work(_STATE, item)


def ordered_map(work: Callable[[State, Item], Result], state: State, items: Sequence[Item], jobs: int) -> Iterator[Result]:
    """``work(state, item)`` for every item, yielded in the items' order.

    With ``jobs`` > 1 and more than one item, the calls run in up to ``jobs``
    forked processes that inherit ``state``; ``work`` must be a module-level
    function and its results picklable. Otherwise they run here, one by one.
    """
    if jobs <= 1 or len(items) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for item in items:
            yield work(state, item)
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=context,
                             initializer=_adopt, initargs=(state,)) as pool:
        results = pool.map(_call, repeat(work), items)
        workers = list(pool._processes.values())  # all started by map's submissions
        try:
            yield from results
        except BrokenProcessPool:
            _die_like(workers)
            raise


def _die_like(workers: Sequence[Any]) -> None:
    """A worker killed by a signal (kill -9, the out-of-memory killer) kills the build with the
    same signal, as it would have killed a one-process build; outputs stay whole (atomic writes)."""
    for worker in workers:
        worker.join(timeout=5)
    signals = {-w.exitcode for w in workers if w.exitcode is not None and w.exitcode < 0}
    signals.discard(signal.SIGTERM)  # what the pool sends the other workers once one has died
    if signals:
        os.kill(os.getpid(), min(signals))
