"""The process pool behind --jobs: results in order, and a killed worker is named as killed, every time."""

from __future__ import annotations

import os
import signal

import pytest

from punchboard.plumbing.errors import WorkerDied
from punchboard.plumbing.pool import ordered_map


def _square(offset: int, item: int) -> int:
    return item * item + offset


def _killed_at_one(state: None, item: int) -> int:
    if item == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_results_come_in_the_items_order_for_any_number_of_jobs():
    items = list(range(23))
    expected = [i * i + 5 for i in items]
    for jobs in (1, 2, 3):
        assert list(ordered_map(_square, 5, items, jobs)) == expected


def test_a_killed_worker_is_reported_as_killed_not_as_the_others_being_stopped():
    # The pool's own thread reaps the dead worker at the same moment: once in twenty runs the
    # report read "exited with status -15" (the others, stopped) before the reaping was waited for.
    for _ in range(40):
        with pytest.raises(WorkerDied) as died:
            list(ordered_map(_killed_at_one, None, [0, 1, 2, 3], 2))
        assert "a worker process was killed (SIGKILL, out of memory?)" in str(died.value)


def _signal_state(state: None, item: int) -> tuple[object, object, bool]:
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), bool(mask & {signal.SIGTERM, signal.SIGINT})


def test_workers_stop_quietly_on_signals_and_the_caller_keeps_its_own_handlers():
    def parents_handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, parents_handler)
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        states = list(ordered_map(_signal_state, None, [0, 1, 2], 2))
        # in a worker: SIGTERM just ends it, Ctrl-C is the parent's to handle, neither is left blocked
        assert states == [(signal.SIG_DFL, signal.SIG_IGN, False)] * 3
        assert signal.getsignal(signal.SIGTERM) is parents_handler
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
    finally:
        signal.signal(signal.SIGTERM, previous)
