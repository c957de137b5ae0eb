"""Both watchers (change notifications and polling) report one change per finished save, never a half-written file."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from punchboard.plumbing.watch import NotificationsUnavailable, follow, watch


def test_a_save_seen_half_written_is_reported_once_it_is_finished(tmp_path: Path):
    card = tmp_path / "cards.yaml"
    card.write_text("id: cards\nkind: deck\n")
    # Each sleep is one moment of the editor's save: truncate, write half, write the rest, then quiet.
    steps = [
        lambda: card.write_text(""),
        lambda: card.write_text("id: cards\n"),
        lambda: card.write_text("id: cards\nkind: deck\ncards: []\n"),
    ]
    seen: list[str] = []
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if steps:
            steps.pop(0)()

    def on_change(paths: list[Path]) -> None:
        assert paths == [card]
        seen.append(card.read_text())

    watch(lambda: [tmp_path], on_change, interval=0.5, settle_pause=0.1,
          should_stop=lambda: bool(seen) or len(sleeps) > 20, sleep=sleep)
    assert seen == ["id: cards\nkind: deck\ncards: []\n"]
    assert sleeps[0] == 0.5 and set(sleeps[1:]) == {0.1}


def test_a_deleted_and_a_new_file_are_changes_and_other_suffixes_are_not(tmp_path: Path):
    (tmp_path / "old.yaml").write_text("a: 1\n")
    changes: list[list[str]] = []
    steps = [
        lambda: (tmp_path / "notes.txt").write_text("ignored"),
        lambda: None,
        lambda: ((tmp_path / "old.yaml").unlink(), (tmp_path / "new.csv").write_text("x\n")),
    ]

    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if steps:
            steps.pop(0)()

    watch(lambda: [tmp_path], lambda paths: changes.append(sorted(p.name for p in paths)),
          interval=0.5, should_stop=lambda: bool(changes) or len(sleeps) > 20, sleep=sleep)
    assert changes == [["new.csv", "old.yaml"]]


# ---------------------------------------------------------------- change notifications (follow)

def _saved_by(pattern: str, card: Path, text: str) -> None:
    """One save, as editors make them (bench/save_patterns.py measures the real ones)."""
    if pattern == "write-then-rename":  # sed -i, perl -pi, most IDEs' safe write
        temp = card.with_name(".cards.yaml.tmp123")
        temp.write_text(text)
        os.replace(temp, card)
    elif pattern == "several-writes":  # a program writing in chunks, flushing between them
        with card.open("w") as handle:
            for start in range(0, len(text), 7):
                handle.write(text[start:start + 7])
                handle.flush()
                os.fsync(handle.fileno())
    elif pattern == "truncate-then-write":  # vim, ed, Python's write_text: truncate, then write in place
        with card.open("r+") as handle:
            handle.truncate(0)
            handle.flush()
            os.fsync(handle.fileno())
            handle.write(text)
    else:
        raise AssertionError(pattern)


@pytest.mark.parametrize("pattern", ["write-then-rename", "several-writes", "truncate-then-write"])
def test_follow_reports_each_finished_save_once_and_never_a_half_written_file(tmp_path: Path, pattern: str):
    card = tmp_path / "cards.yaml"
    card.write_text("id: cards\nkind: deck\n")
    finals = ["id: cards\nkind: deck\ncards: [one]\n" * 40, "id: cards\nkind: deck\ncards: [two]\n" * 40]
    seen: list[tuple[list[str], str]] = []
    stop = threading.Event()
    ready = threading.Event()

    def on_change(paths: list[Path]) -> None:
        seen.append(([p.name for p in paths], card.read_text()))
        if len(seen) == len(finals):
            stop.set()

    # a wide quiet window: this test is about what is reported, not how soon, on a loaded machine
    thread = threading.Thread(target=follow, args=([tmp_path], on_change),
                              kwargs={"on_ready": ready.set, "stop": stop, "quiet_ms": 300}, daemon=True)
    thread.start()
    try:
        assert ready.wait(30)
        for count, text in enumerate(finals, start=1):
            (tmp_path / "notes.txt").write_text(f"not watched {count}")
            _saved_by(pattern, card, text)
            deadline = time.monotonic() + 30
            while len(seen) < count and time.monotonic() < deadline:
                time.sleep(0.01)
        thread.join(30)
    finally:
        stop.set()
    assert not thread.is_alive()
    assert seen == [(["cards.yaml"], text) for text in finals]


def test_follow_stops_when_told_and_says_when_the_system_gives_no_notifications(tmp_path: Path, monkeypatch):
    stop = threading.Event()
    readies: list[bool] = []

    def on_ready() -> None:
        readies.append(True)
        stop.set()

    follow([tmp_path], lambda paths: None, on_ready=on_ready, stop=stop)  # returns: stop was set
    assert readies == [True]

    import watchfiles

    def refuse(*_args: object, **_kwargs: object):
        raise OSError("inotify watch limit reached")
        yield set()  # pragma: no cover - a generator, as watchfiles.watch is

    monkeypatch.setattr(watchfiles, "watch", refuse)
    with pytest.raises(NotificationsUnavailable, match="inotify watch limit reached"):
        follow([tmp_path], lambda paths: None, on_ready=lambda: readies.append(False))
    assert readies == [True]
