"""``follow(..., at_once=True)``: a save is built on its first event and confirmed after; the report of a
build that began on a half-written file is dropped, and the finished file is built again.

The order of things is read from a log that the notification batches themselves write (a spy around
watchfiles), never from the wall clock: "built before the quiet window ended" means no quiet batch
came between the save's first batch and the build. Each quiet window is wide (QUIET_MS below), so a
loaded machine only makes the tests slower, never wrong; every wait has a timeout.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from punchboard.plumbing.watch import PATIENCE_S, Report, follow
from tests.plumbing.test_watch import _saved_by

QUIET_MS = 500  # far above how late a notification comes on a loaded machine, and above any pause below
WAIT_S = 30.0  # the longest any test waits for anything


class Follower:
    """``follow`` on a folder in a thread, with ``at_once``; ``log`` holds, in order, each batch the
    notifications gave (``"events"`` or ``"quiet"``) and whatever the test's callbacks add."""

    def __init__(self, folder: Path, on_change: Callable[[list[Path]], Report | None], monkeypatch: pytest.MonkeyPatch,
                 *, after_batch: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.monotonic):
        import watchfiles

        self.log: list[Any] = []
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.failed: list[BaseException] = []
        real = watchfiles.watch

        def spied(*args: Any, **kwargs: Any) -> Iterator[set[Any]]:
            for batch in real(*args, **kwargs):
                self.log.append("events" if batch else "quiet")
                if batch:
                    after_batch()
                yield batch

        monkeypatch.setattr(watchfiles, "watch", spied)

        def run() -> None:
            try:
                follow([folder], on_change, on_ready=self.ready.set, stop=self.stop, at_once=True,
                       quiet_ms=QUIET_MS, clock=clock)
            except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
                self.failed.append(exc)

        self.thread = threading.Thread(target=run, daemon=True)

    def __enter__(self) -> Follower:
        self.thread.start()
        assert self.ready.wait(WAIT_S), "the notifications never came on"
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(WAIT_S)
        assert not self.thread.is_alive(), "follow did not stop"
        if self.failed:
            raise self.failed[0]

    def wait_until(self, done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + WAIT_S
        while not done() and time.monotonic() < deadline and self.thread.is_alive():
            time.sleep(0.01)
        assert done(), f"timed out; log: {self.log}"

    def story(self) -> list[Any]:
        """The log without the quiet batches before the first save and after the last entry that is not one."""
        log = list(itertools.dropwhile(lambda entry: entry == "quiet", self.log))
        while log and log[-1] == "quiet":
            log.pop()
        return log


def _replace(card: Path, text: str) -> None:
    """A save in one event: a temporary file (not watched) renamed over the card."""
    temp = card.with_name(".cards.yaml.tmp")
    temp.write_text(text)
    os.replace(temp, card)


def test_a_save_is_built_at_once_and_its_report_runs_once_the_files_are_quiet(tmp_path: Path, monkeypatch):
    card = tmp_path / "cards.yaml"
    card.write_text("id: cards\n")
    follower: Follower

    def on_change(paths: list[Path]) -> Report:
        text = card.read_text()
        follower.log.append(("built", [p.name for p in paths], text))
        return lambda: follower.log.append(("report", text))

    with Follower(tmp_path, on_change, monkeypatch) as follower:
        _replace(card, "id: cards\nkind: deck\n")
        follower.wait_until(lambda: any(entry[0] == "report" for entry in follower.log if isinstance(entry, tuple)))
    # built straight after the save's one batch, with no quiet window between; the report after the quiet one
    assert follower.story() == ["events", ("built", ["cards.yaml"], "id: cards\nkind: deck\n"), "quiet",
                                ("report", "id: cards\nkind: deck\n")]


def test_a_failed_build_of_a_half_written_file_is_never_reported_and_the_finished_file_is(tmp_path: Path,
                                                                                         monkeypatch):
    card = tmp_path / "cards.yaml"
    finished = "id: cards\nkind: deck\ncards: [one, two]\n"
    card.write_text(finished.replace("one", "zero"))
    follower: Follower

    def on_change(paths: list[Path]) -> Report | None:
        text = card.read_text()
        follower.log.append(("built", [p.name for p in paths], text))
        if text == "":  # the editor truncated the file; 10 ms into this build it writes the new text
            time.sleep(0.01)
            with card.open("r+") as handle:
                handle.write(finished)
            return lambda: follower.log.append(("problems", "empty file"))
        return lambda: follower.log.append(("problems", "none, but said once the save is finished"))

    with Follower(tmp_path, on_change, monkeypatch) as follower:
        os.truncate(card, 0)
        follower.wait_until(lambda: any(entry[0] == "problems" for entry in follower.log if isinstance(entry, tuple)))
    story = follower.story()
    builds = [entry for entry in story if isinstance(entry, tuple) and entry[0] == "built"]
    assert builds == [("built", ["cards.yaml"], ""), ("built", ["cards.yaml"], finished)], story
    assert [entry for entry in story if isinstance(entry, tuple) and entry[0] == "problems"] == [
        ("problems", "none, but said once the save is finished")], story
    # the half-written build began straight after the first batch; the finished one waited for quiet
    assert story[:2] == ["events", builds[0]] and story[-3:] == ["quiet", builds[1], story[-1]], story


def test_a_good_build_of_a_half_written_file_is_followed_by_a_build_of_the_finished_file(tmp_path: Path,
                                                                                        monkeypatch):
    card = tmp_path / "cards.yaml"
    half, rest = "id: cards\nkind: deck\n", "cards: [one, two]\n"
    card.write_text("id: cards\n")
    follower: Follower
    builds: list[str] = []

    def on_change(paths: list[Path]) -> None:
        text = card.read_text()
        builds.append(text)
        follower.log.append(("built", [p.name for p in paths], text))
        if text == half:  # valid as it stands; 10 ms into this build the editor writes the rest
            time.sleep(0.01)
            with card.open("a") as handle:
                handle.write(rest)

    with Follower(tmp_path, on_change, monkeypatch) as follower:
        _replace(card, half)
        follower.wait_until(lambda: len(builds) >= 2)
        time.sleep(2 * QUIET_MS / 1000)  # room for a third build, were there one
    assert builds == [half, half + rest]
    story = follower.story()
    assert story[:2] == ["events", ("built", ["cards.yaml"], half)], story
    assert story[-2:] == ["quiet", ("built", ["cards.yaml"], half + rest)], story


def test_a_stop_ends_the_loop_and_drops_a_report_still_held(tmp_path: Path, monkeypatch):
    card = tmp_path / "cards.yaml"
    card.write_text("id: cards\n")
    follower: Follower

    def on_change(paths: list[Path]) -> Report:
        follower.log.append("built")
        follower.stop.set()  # stopped while the save is not yet confirmed
        return lambda: follower.log.append("report")

    with Follower(tmp_path, on_change, monkeypatch) as follower:
        _replace(card, "id: cards\nkind: deck\n")
        follower.thread.join(WAIT_S)
        assert not follower.thread.is_alive()
    assert follower.story() == ["events", "built"]


def test_a_file_that_never_stops_changing_is_built_after_patience_anyway(tmp_path: Path, monkeypatch):
    card = tmp_path / "cards.yaml"
    card.write_text("id: cards\n")
    ticks = itertools.count(0.0, PATIENCE_S * 0.6)  # each look at the clock: 0.6 of the patience later
    writes = itertools.count()
    follower: Follower

    def keep_changing() -> None:  # an event after each batch, until the second build
        if sum(1 for entry in follower.log if entry == "built") < 2:
            card.write_text(f"id: cards\n# {next(writes)}\n")

    def on_change(paths: list[Path]) -> Report:
        follower.log.append("built")
        return lambda: follower.log.append("report")

    with Follower(tmp_path, on_change, monkeypatch, after_batch=keep_changing,
                  clock=lambda: next(ticks)) as follower:
        card.write_text("id: cards\n# start\n")
        follower.wait_until(lambda: "report" in follower.log)
    # built at once (clock 0); two batches later (clock 1.2 patiences) built again, with no quiet batch
    # between: the held report of the first build was dropped, the report of the patient one ran at once
    story = follower.story()
    assert story[:6] == ["events", "built", "events", "events", "built", "report"], story


@pytest.mark.parametrize("pattern", ["write-then-rename", "several-writes", "truncate-then-write"])
def test_at_once_reports_each_finished_save_once_and_never_a_half_written_file(tmp_path: Path, pattern: str,
                                                                               monkeypatch):
    """As tests/plumbing/test_watch.py checks without ``at_once``: builds may see half a save, reports never do."""
    card = tmp_path / "cards.yaml"
    card.write_text("id: cards\nkind: deck\n")
    finals = ["id: cards\nkind: deck\ncards: [one]\n" * 40, "id: cards\nkind: deck\ncards: [two]\n" * 40]
    reported: list[tuple[list[str], str]] = []

    def on_change(paths: list[Path]) -> Report:  # every build "fails": its report says what it read
        names, text = [p.name for p in paths], card.read_text()
        return lambda: reported.append((names, text))

    with Follower(tmp_path, on_change, monkeypatch) as follower:
        for count, text in enumerate(finals, start=1):
            (tmp_path / "notes.txt").write_text(f"not watched {count}")
            _saved_by(pattern, card, text)
            follower.wait_until(lambda count=count: len(reported) >= count)
        time.sleep(2 * QUIET_MS / 1000)  # room for a stray report, were there one
    assert reported == [(["cards.yaml"], text) for text in finals]
