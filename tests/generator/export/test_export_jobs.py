"""``images`` and ``preview`` split their work by component over --jobs processes: the same files for any N."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build_helpers import make_game
from tests.conftest import run_cli


def _files(folder: Path) -> dict[str, bytes]:
    """Every output (hidden files are what an export keeps for the next: how they were drawn depends on
    how the work was split, what is made of them does not)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)}


@pytest.mark.parametrize("verb", ["images", "preview"])
def test_the_files_are_the_same_for_any_number_of_jobs(tmp_path: Path, verb: str):
    game = make_game(tmp_path / "tiny")
    made = {}
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"out-{jobs}"
        result = run_cli(verb, str(game), "--out", str(out), "--jobs", jobs)
        assert result.returncode == 0, result.stderr
        made[jobs] = _files(out / "tiny")
    assert made["1"] and made["1"] == made["2"] == made["3"]
    components = {"cards", "tokens"}
    if verb == "images":
        assert {name.split("/")[1] for name in made["1"] if name.count("/") == 2} == components
        assert "images/manifest.json" in made["1"]
    else:
        assert set(made["1"]) == {f"preview/{c}.png" for c in components}


def test_a_bad_jobs_value_is_a_flag_error(tmp_path: Path):
    result = run_cli("images", str(make_game(tmp_path / "tiny")), "--jobs", "-2")
    assert result.returncode == 2
    assert "punchboard images: --jobs: expected a number of processes (0 = every core), got '-2'" in result.stderr


@pytest.mark.parametrize("unique", [False, True], ids=["every piece", "unique"])
def test_one_large_deck_is_split_among_the_workers_and_the_files_are_the_same(tmp_path: Path, unique: bool):
    """``images`` makes a deck's PNGs in runs when there are jobs to spare (a single deck used to be one
    worker's work): each run draws its own PDF, and the images, their names and the manifest (with its
    --unique counts) are the same as one process makes."""
    from punchboard.generator.export import images

    from punchboard.spec.loader import load_game

    game = make_game(tmp_path / "tiny")
    rows = "".join(f"Card {n},{n % 7},Text {n % 5},{1 + n % 2}\n" for n in range(60))
    (game / "cards.csv").write_text("name,value,text,count\n" + rows)
    model = load_game(game)
    state = (images.export_context(model, 9.0), tmp_path, 30.0, unique, images.image_components(model))
    runs = images._runs(state, 2)
    assert len({index for index, _, _ in runs if index == 0}) == 1 and sum(1 for index, _, _ in runs if index == 0) >= 3, runs
    made = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out-{jobs}"
        result = run_cli("images", str(game), "--out", str(out), "--dpi", "30", "--jobs", jobs, *(["--unique"] if unique else []))
        assert result.returncode == 0, result.stderr
        made[jobs] = _files(out / "tiny")
    assert len([name for name in made["1"] if name.startswith("images/cards/")]) > 40
    assert made["1"] == made["2"]


@pytest.mark.parametrize("verb", ["images", "preview", "tts"])
def test_an_export_says_what_drawing_said_as_build_does(tmp_path: Path, verb: str):
    """Text that does not fit is a warning of ``build``; the exports draw the same pieces and must say it
    too (they said nothing), once, and the same for any --jobs."""
    import shutil

    from tests.conftest import ROOT

    game = tmp_path / "steam_court"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    characters = game / "characters.yaml"
    text = characters.read_text(encoding="utf-8")
    assert "Give one undesirable card to any player." in text
    characters.write_text(text.replace("Give one undesirable card to any player.",
                                       "Give one undesirable card to any player. " + "Then again, forever. " * 30, 1),
                          encoding="utf-8")
    built = run_cli("build", str(game), "--out", str(tmp_path / "built"), "--quiet")
    overflow = [line for line in built.stderr.splitlines() if "does not fit" in line]
    assert built.returncode == 0 and len(overflow) == 1, built.stderr
    said = {}
    for jobs in (("1", "2") if verb != "tts" else ("",)):
        flags = ["--dpi", "20"] if verb == "images" else []
        result = run_cli(verb, str(game), "--out", str(tmp_path / f"out{jobs}"), *flags, *(["--jobs", jobs] if jobs else []))
        assert result.returncode == 0, result.stderr
        said[jobs] = result.stderr
        assert [line for line in result.stderr.splitlines() if "does not fit" in line] == overflow, result.stderr
    assert len(set(said.values())) == 1
