"""What a piece of work read, recorded through the audit hook, and every way it can change afterwards."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from punchboard.incremental.reads import Snapshot, now_ns, recording, tree


def _snapshot(tmp_path: Path) -> tuple[Path, Snapshot]:
    (tmp_path / "art").mkdir()
    used = tmp_path / "art" / "gear.jpg"
    used.write_bytes(b"jpeg bytes")
    started = now_ns()
    with recording() as reads:
        used.read_bytes()
        os.listdir(tmp_path)
        (tmp_path / "written.txt").write_text("out", encoding="utf-8")
    assert reads.files == {str(used)} and reads.folders == {str(tmp_path)} and not reads.network
    return used, Snapshot.take(reads.files, reads.folders, started)


def test_files_read_and_folders_listed_are_recorded_and_writes_are_not(tmp_path: Path) -> None:
    used, snap = _snapshot(tmp_path)
    assert set(snap.files) == {str(used)} and snap.files[str(used)][2] is not None  # just written: racy, hashed
    assert set(snap.folders) == {str(tmp_path), str(tmp_path / "art")}  # listed, and the folder of a file read
    assert snap.changed() is None
    assert Snapshot.from_json(snap.as_json()) == snap


def test_a_same_size_save_with_the_same_timestamp_is_seen_by_content(tmp_path: Path) -> None:
    used, snap = _snapshot(tmp_path)
    stat = used.stat()
    used.write_bytes(b"JPEG BYTES")  # same size
    os.utime(used, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and a timestamp the file system could not tell apart
    assert snap.changed() == str(used)


def test_an_old_file_is_checked_by_stat_alone(tmp_path: Path) -> None:
    used = tmp_path / "old.yaml"
    used.write_text("a: 1", encoding="utf-8")
    os.utime(used, ns=(0, 10**18))  # 2001: long before the recording
    with recording() as reads:
        used.read_text(encoding="utf-8")
    snap = Snapshot.take(reads.files, (), now_ns())
    assert snap.files[str(used)][2] is None
    os.utime(used, ns=(0, 10**18 + 1))
    assert snap.changed() == str(used)


def test_a_new_file_beside_one_read_a_deleted_file_and_a_file_that_appears(tmp_path: Path) -> None:
    used, snap = _snapshot(tmp_path)
    (tmp_path / "art" / "gear.png").write_bytes(b"png")  # where a lookup by name would now find another file
    assert snap.changed() == str(tmp_path / "art")
    (tmp_path / "art" / "gear.png").unlink()
    assert snap.changed() is None
    used.unlink()
    assert snap.changed() == str(used)
    probe = Snapshot.take([str(tmp_path / "missing.yaml")], (), now_ns(), parents=False)
    assert probe.files == {str(tmp_path / "missing.yaml"): None} and probe.changed() is None
    (tmp_path / "missing.yaml").write_text("now here", encoding="utf-8")
    assert probe.changed() == str(tmp_path / "missing.yaml")


def test_the_network_is_noted(tmp_path: Path) -> None:
    with recording() as reads:
        try:
            socket.create_connection(("127.0.0.1", 9), timeout=0.5).close()
        except OSError:
            pass
    assert reads.network


def test_nothing_is_recorded_outside_the_with(tmp_path: Path) -> None:
    with recording() as reads:
        pass
    (tmp_path / "late.txt").write_text("x", encoding="utf-8")
    (tmp_path / "late.txt").read_text(encoding="utf-8")
    assert reads.files == set()


def test_tree_lists_everything_but_the_skipped_folder(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "out" / "g").mkdir(parents=True)
    (tmp_path / "out" / "g" / "deck.pdf").write_text("x", encoding="utf-8")
    files, folders = tree(str(tmp_path), skip=[str(tmp_path / "out")])
    assert files == [str(tmp_path / "a" / "b" / "f.yaml")]
    assert sorted(folders) == sorted(str(p) for p in (tmp_path, tmp_path / "a", tmp_path / "a" / "b"))
