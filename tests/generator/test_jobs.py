"""``--jobs``: components drawn in several processes give the same files as one process."""

from __future__ import annotations

import json
from pathlib import Path

from tests.build_helpers import build, make_game, outputs


def _drawn(folder: Path) -> dict[str, bytes]:
    """The PDFs and the bill of materials (print records carry the time they were made)."""
    return {name: data for name, data in outputs(folder).items() if name.endswith((".pdf", ".json")) and "/" not in name}


def test_jobs_2_writes_byte_identical_files_to_jobs_1(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    one = build(game, tmp_path / "one", "--jobs", "1", "--force")
    two = build(game, tmp_path / "two", "--jobs", "2", "--force")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    first = _drawn(tmp_path / "one" / "tiny")
    assert {"cards.pdf", "tokens.pdf", "tiny-print-and-play.pdf", "bom.json"} <= set(first)
    assert _drawn(tmp_path / "two" / "tiny") == first
    assert one.stderr == two.stderr  # the same warnings, in the same order


def test_jobs_must_be_a_count(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    result = build(game, tmp_path / "out", "--jobs", "many")
    assert result.returncode == 2
    assert "--jobs" in result.stderr and "many" in result.stderr


def _pieces(folder: Path) -> list[dict[str, object]]:
    """A print record's pieces and their drawing digests (its date aside)."""
    return json.loads((folder / "prints" / "0001.json").read_text())["pieces"]


def test_jobs_2_fingerprints_a_big_deck_in_runs_and_records_the_same_print(tmp_path: Path):
    # 90 cards, each its own face: with --jobs 2 the fingerprints are taken in two runs of pieces
    game = make_game(tmp_path / "tiny")
    rows = "".join(f"Card {n},{n},Text {n},1\n" for n in range(90))
    (game / "cards.csv").write_text("name,value,text,count\n" + rows)
    one = build(game, tmp_path / "one", "--jobs", "1", "--force")
    two = build(game, tmp_path / "two", "--jobs", "2", "--force")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    pieces = _pieces(tmp_path / "one" / "tiny")
    assert pieces == _pieces(tmp_path / "two" / "tiny")
    faces = [row["face"] for row in pieces if row["component"] == "cards"]
    assert len(faces) == 90 and len(set(faces)) == 90
    assert _drawn(tmp_path / "two" / "tiny") == _drawn(tmp_path / "one" / "tiny")


def test_the_pool_works_with_the_spawn_start_method_as_on_macos_and_windows(tmp_path: Path):
    """With ``spawn`` the model and build state are pickled to each worker: the same files as one process,
    for a real game (every kind of component) and for the prints' fingerprint runs."""
    import pickle
    import shutil

    from punchboard.plumbing.pool import START_METHOD_ENV
    from punchboard.spec.loader import load_game
    from tests.conftest import ROOT

    game = tmp_path / "steamark"
    shutil.copytree(ROOT / "components" / "steamark", game)
    model = load_game(game)
    assert pickle.loads(pickle.dumps(model)) == model
    one = build(game, tmp_path / "one", "--jobs", "1")
    spawned = build(game, tmp_path / "two", "--jobs", "2", env={START_METHOD_ENV: "spawn"})
    assert one.returncode == 0, one.stderr
    assert spawned.returncode == 0, spawned.stderr
    first = _drawn(tmp_path / "one" / "steamark")
    assert len([name for name in first if name.endswith(".pdf")]) > 3
    assert _drawn(tmp_path / "two" / "steamark") == first
    assert _pieces(tmp_path / "two" / "steamark") == _pieces(tmp_path / "one" / "steamark")
