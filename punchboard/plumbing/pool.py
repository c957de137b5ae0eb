"""``--jobs N``: independent pieces of work in a pool of forked processes, results in order.

Used by ``build`` (one item per component) and ``verify`` (one item per block of Monte Carlo trials).
Workers are forked where the system can (else spawned, with the state pickled to each), so they start
with the caller's state already in memory and only an item and its result cross a process boundary. The caller gets the results in the items' order, so what it writes
does not depend on N.

A worker never outlives its use: the pool is shut down before the last result is handed over, and a
worker dies with its parent (Linux ``PR_SET_PDEATHSIG``), so a parent killed mid-build leaves no
orphan holding the output lock or the caller's pipes. A worker that dies (``kill -9``, the
out-of-memory killer) raises :class:`~punchboard.plumbing.errors.WorkerDied`, which the CLI reports
as an internal error (exit 3), instead of leaving the pool waiting.

The same interface would carry a cluster: :func:`ordered_map` is the only place that knows about
processes (see README, "Scaling out").
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from .errors import WorkerDied

State = TypeVar("State")
Item = TypeVar("Item")
Result = TypeVar("Result")

_STATE: Any = None
_PR_SET_PDEATHSIG = 1


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


START_METHOD_ENV = "PUNCHBOARD_START_METHOD"  # tests: run the pool as macOS and Windows do ("spawn")


def start_method() -> str:
    """``fork`` where the system has it (workers inherit the state), else ``spawn`` (the state is
    pickled to each worker: the model and build state pickle for this)."""
    import multiprocessing

    wanted = os.environ.get(START_METHOD_ENV, "")
    methods = multiprocessing.get_all_start_methods()
    if wanted in methods:
        return wanted
    return "fork" if "fork" in methods else "spawn"


def _die_with_parent(parent: int) -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown is all there is
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _adopt(state: Any, parent: int) -> None:
    global _STATE
    # The parent handles Ctrl-C and SIGTERM (its handlers turn them into "interrupted"); a worker just
    # stops. It was forked with both blocked (see ordered_map), so the parent's handlers, which raise
    # in Python, never run here: a stop that came early is delivered now, to these.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    _STATE = state
    _die_with_parent(parent)


def _call(work: Callable[[Any, Any], Any], item: Any) -> Any:
    return work(_STATE, item)


def ordered_map(work: Callable[[State, Item], Result], state: State, items: Sequence[Item], jobs: int) -> Iterator[Result]:
    """``work(state, item)`` for every item, yielded in the items' order.

    With ``jobs`` > 1 and more than one item, the calls run in up to ``jobs`` worker processes that
    inherit ``state`` (forked) or receive it pickled (``spawn``, see :func:`start_method`); ``work``
    must be a module-level function and its results picklable. Otherwise they run here, one by one.
    """
    if jobs <= 1 or len(items) <= 1:  # (multiprocessing is imported only when it is used)
        for item in items:
            yield work(state, item)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    from itertools import repeat

    pool = ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=multiprocessing.get_context(start_method()),
                               initializer=_adopt, initargs=(state, os.getpid()))
    finished = False
    try:
        # The workers are forked by map's first submission: with Ctrl-C and SIGTERM blocked until they
        # have their own handlers, so a stop in that moment cannot raise inside a worker's start-up.
        unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            results = pool.map(_call, repeat(work), items)
            workers = list(pool._processes.values())  # all started by map's submissions
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        try:
            for _ in range(len(items) - 1):
                yield next(results)
            last = next(results)
        except BrokenProcessPool:
            raise WorkerDied(_how_they_died(workers)) from None
        pool.shutdown(wait=True)  # every worker has exited before the caller goes on with the last result
        finished = True
    finally:
        if not finished:  # a worker died, the work raised, or the caller stopped early: stop every worker now
            for worker in list(pool._processes.values()):
                worker.kill()
            pool.shutdown(wait=True, cancel_futures=True)
    yield last


def _how_they_died(workers: Sequence[Any]) -> str:
    import time

    deadline = time.monotonic() + 5
    for worker in workers:
        worker.join(timeout=max(0.0, deadline - time.monotonic()))
        # The pool's own thread may be reaping the same process: its waitpid wins, ours sees
        # "no such child" and join returns before the exit code is recorded. Wait for the record.
        while worker.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.005)
    codes = sorted({w.exitcode for w in workers if w.exitcode not in (None, 0)})
    signals = sorted({-c for c in codes if c < 0} - {signal.SIGTERM})  # SIGTERM: the pool stopping the others
    if signals:
        names = ", ".join(signal.Signals(s).name for s in signals)
        cause = f"was killed ({names}{', out of memory?' if signal.SIGKILL in signals else ''})"
    elif codes:
        cause = f"exited with status {', '.join(str(c) for c in codes)}"
    else:
        cause = "stopped unexpectedly"
    return (f"a worker process {cause}; the files written so far are complete (each is the old or the new one). "
            "Run again, or with fewer --jobs")
