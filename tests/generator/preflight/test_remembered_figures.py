"""Colour figures remembered across runs (generator/preflight/colours.py, kept by punchboard/incremental/colour_figures.py):
the same numbers, without coloraide."""

from __future__ import annotations

from pathlib import Path

import pytest
from punchboard.generator.preflight import colours

from punchboard.incremental import colour_figures, validated


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(validated.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(colour_figures, "_figures", None)
    return tmp_path / "cache"


PAIRS = [((0.8, 0.2, 0.2), (0.2, 0.6, 0.2)), ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)), ((0.913, 0.85, 0.71), (0.72, 0.53, 0.16))]


def test_a_later_run_reads_the_figures_it_would_work_out(cache: Path, monkeypatch: pytest.MonkeyPatch):
    worked = [(colours.contrast(a, b), *(colours.delta_e(a, b, v) for v in ("normal", "protan", "deutan", "tritan", "grayscale")))
              for a, b in PAIRS]
    colour_figures._save()
    assert list((cache / "colours").glob("figures-*.json"))
    monkeypatch.setattr(colour_figures, "_figures", None)  # a new run

    def no_coloraide(*args: object) -> float:
        raise AssertionError("worked out again")

    monkeypatch.setattr(colours, "_contrast", no_coloraide)
    monkeypatch.setattr(colours, "_delta", no_coloraide)
    again = [(colours.contrast(a, b), *(colours.delta_e(a, b, v) for v in ("normal", "protan", "deutan", "tritan", "grayscale")))
             for a, b in PAIRS]
    assert again == worked  # exactly: JSON keeps a float's every digit


def test_figures_equal_coloraide_s_own(cache: Path):
    for a, b in PAIRS:
        assert colours.contrast(a, b) == colours._contrast(colours._key(a), colours._key(b))
        assert colours.delta_e(a, b, "deutan") == colours._delta(colours._key(a), colours._key(b), "deutan")


def test_a_cache_folder_that_cannot_be_written_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(validated.CACHE_ENV, str(blocker / "cache"))  # no folder can be made under a file (root too)
    monkeypatch.setattr(colour_figures, "_figures", None)
    assert colours.contrast(*PAIRS[1]) > 20
    colour_figures._save()  # nothing written, nothing raised
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_a_damaged_figures_file_is_worked_out_again(cache: Path):
    path = colour_figures._figures_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    assert colours.contrast(*PAIRS[1]) == pytest.approx(21.0)
