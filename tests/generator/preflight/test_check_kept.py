"""``punchboard check`` keeps what its preflight drew (punchboard/incremental/check_stores.py): a second check replays
the sides and looks the first one worked out, and says exactly what a check with nothing kept says."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from punchboard.generator.draw import side

from punchboard.cli import main

from .flawed_game import FIXES, FLAWS, write_game

CODES = sorted(code for code in FLAWS if code != "low_dpi")  # a raster picture is drawn every time, not kept
NAMES = ["Red Five", "Green Five", "Red 5", "Crimson Five"]


def _game(folder: Path, fixed: tuple[str, ...], names: tuple[str, str]) -> Path:
    """The flawed game without its picture (so every side can be kept), some flaws fixed, cards named."""
    write_game(folder, fixed)
    layout = folder / "layouts" / "flawed.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace(FIXES["low_dpi"] + "\n", "").replace(FLAWS["low_dpi"] + "\n", ""), encoding="utf-8")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Red Five", names[0]).replace("Green Five", names[1]),
                     encoding="utf-8")
    return folder


def _check(game: Path, cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(cache))
    capsys.readouterr()
    code = main(["check", str(game)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sides drawn (not replayed), by the piece they were drawn for."""
    names: list[str] = []
    real = side._draw_side_now

    def counting(canvas, layout, fields, frame, ctx, spans=None, how=None):  # type: ignore[no-untyped-def]
        names.append(ctx.where)
        return real(canvas, layout, fields, frame, ctx, spans, how)

    monkeypatch.setattr(side, "_draw_side_now", counting)
    return names


def test_a_second_check_draws_nothing_and_says_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch, drawn: list[str]) -> None:
    game = _game(tmp_path / "flawed", (), ("Red Five", "Green Five"))
    first = _check(game, tmp_path / "cache", capsys, monkeypatch)
    assert first[0] == 0 and first[2].count(": preflight ") == 4, first
    assert len(drawn) == 2
    second = _check(game, tmp_path / "cache", capsys, monkeypatch)
    assert second == first
    assert len(drawn) == 2  # both sides replayed, with their findings

    cards = game / "cards.yaml"  # one card's colour edited: that card alone is drawn again
    cards.write_text(cards.read_text(encoding="utf-8").replace("#2ca02c", "#1f77b4"), encoding="utf-8")
    third = _check(game, tmp_path / "cache", capsys, monkeypatch)
    assert drawn[2:] == ["flawed / cards / card 'Green Five'"]
    assert third == _check(game, tmp_path / "cold", capsys, monkeypatch)


EDITS = st.one_of(st.tuples(st.just("toggle"), st.sampled_from(CODES)),
                  st.tuples(st.just("name"), st.sampled_from([0, 1]), st.sampled_from(NAMES)),
                  st.just(("again",)))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(EDITS, min_size=1, max_size=6))
def test_every_check_after_edits_says_what_a_check_from_nothing_says(
        tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        edits: list[tuple[object, ...]]) -> None:
    """One edit at a time, as a designer saves: a flaw fixed or brought back, a card renamed, nothing."""
    root = tmp_path_factory.mktemp("edits")
    game, kept = root / "flawed", root / "kept"
    fixed: set[str] = set()
    names = ["Red Five", "Green Five"]
    for number, edit in enumerate([("again",), *edits]):
        if edit[0] == "toggle":
            fixed ^= {edit[1]}
        elif edit[0] == "name":
            names[edit[1]] = edit[2]  # type: ignore[index, call-overload]
        _game(game, tuple(sorted(fixed)), (names[0], names[1]))
        warm = _check(game, kept, capsys, monkeypatch)
        cold = _check(game, root / f"cold{number}", capsys, monkeypatch)
        assert warm == cold


def test_a_cache_folder_that_cannot_be_written_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(tmp_path / "flawed", (), ("Red Five", "Green Five"))
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    assert _check(game, blocked, capsys, monkeypatch) == _check(game, tmp_path / "cold", capsys, monkeypatch)
