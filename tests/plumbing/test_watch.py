"""The polling watcher reports one change per finished save, never a half-written file."""

from __future__ import annotations

from pathlib import Path

from punchboard.plumbing.watch import watch


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
