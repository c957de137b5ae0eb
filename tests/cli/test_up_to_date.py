"""`punchboard build` again with nothing changed: the same words and exit code, without loading the game.

Each test builds a real game folder through the CLI, builds it again (the ordinary unchanged build, which
records), and then checks when the third build may answer from the record and when it must not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from punchboard.cli import main
from tests.cli.minigame import write_game

RECORD = ".punchboard-up-to-date.json"


def _build(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["build", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return write_game(tmp_path / "mini")


def _recorded(capsys: pytest.CaptureFixture[str], game: Path, out: Path, *flags: str) -> tuple[int, str, str]:
    first = _build(capsys, str(game), "--out", str(out), *flags)
    assert first[0] == 0 and not (out / RECORD).is_file()  # it drew: nothing to record
    second = _build(capsys, str(game), "--out", str(out), *flags)
    assert second[0] == 0 and (out / RECORD).is_file()
    assert "-q" in flags or "rendered nothing" in second[1]
    return second


def _no_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_a: object, **_k: object) -> None:
        raise AssertionError("the game was loaded")

    monkeypatch.setattr("punchboard.spec.loader.load_game", refuse)


def _loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    import punchboard.spec.loader as loader

    seen: list[Path] = []
    real = loader.load_game

    def spy(folder: Path, *rest: object, **kw: object) -> object:
        seen.append(folder)
        return real(folder, *rest, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr("punchboard.spec.loader.load_game", spy)
    return seen


@pytest.mark.parametrize("flags", [(), ("-q",), ("-v",), ("--paper", "a4", "--backs", "gutterfold")])
def test_an_unchanged_rebuild_says_the_same_without_loading(capsys, monkeypatch, game, tmp_path, flags):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    second = _recorded(capsys, game, out, *flags)
    before = {p: p.stat().st_mtime_ns for p in (out / "mini").rglob("*")}
    _no_loading(monkeypatch)
    assert _build(capsys, str(game), "--out", str(out), *flags) == second
    assert {p: p.stat().st_mtime_ns for p in (out / "mini").rglob("*")} == before  # nothing written


def test_strict_preflight_failure_is_replayed_with_its_exit_code(capsys, monkeypatch, tmp_path):  # type: ignore[no-untyped-def]
    from tests.generator.preflight.flawed_game import write_game as write_flawed_game

    game, out = write_flawed_game(tmp_path / "flawed"), tmp_path / "out"
    _build(capsys, str(game), "--out", str(out), "--preflight", "strict")
    second = _build(capsys, str(game), "--out", str(out), "--preflight", "strict")
    assert second[0] == 1 and "--preflight strict" in second[2]
    _no_loading(monkeypatch)
    assert _build(capsys, str(game), "--out", str(out), "--preflight", "strict") == second


def _edit_same_size_same_time(path: Path, old: str, new: str) -> None:
    stat = path.stat()
    text = path.read_text(encoding="utf-8")
    assert len(old) == len(new) and old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_every_kind_of_change_takes_the_ordinary_build(capsys, monkeypatch, game, tmp_path):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    _recorded(capsys, game, out)
    loads = _loads(monkeypatch)

    _edit_same_size_same_time(game / "cards.yaml", "The first card", "The FIRST card")
    code, said, _ = _build(capsys, str(game), "--out", str(out))
    assert code == 0 and "rendered cards" in said and len(loads) == 1

    _build(capsys, str(game), "--out", str(out))  # records again
    (game / "notes.txt").write_text("a new file in the game folder", encoding="utf-8")
    assert "rendered nothing" in _build(capsys, str(game), "--out", str(out))[1] and len(loads) == 3  # and records

    assert "rendered nothing" in _build(capsys, str(game), "--out", str(out))[1] and len(loads) == 3  # replayed
    (out / "mini" / "cards.pdf").unlink()  # an output deleted
    code, said, _ = _build(capsys, str(game), "--out", str(out))
    assert "rendered cards" in said and (out / "mini" / "cards.pdf").is_file() and len(loads) == 4

    _build(capsys, str(game), "--out", str(out))  # records
    _build(capsys, str(game), "--out", str(out), "--paper", "a4")  # other options: their own record
    assert len(loads) == 6
    _build(capsys, str(game), "--out", str(out), "--force")
    assert len(loads) == 7
    _build(capsys, str(game), "--out", str(out))  # the drawing above moved the outputs: ordinary, and records
    assert len(loads) == 8
    _build(capsys, str(game), "--out", str(out), "--jobs", "2")  # the same files for any --jobs: replayed
    assert len(loads) == 8
    _build(capsys, str(game), "--out", str(out), "--changed-since", "last")  # writes a reprint: always ordinary
    assert len(loads) == 9


def test_a_broken_edit_is_still_reported(capsys, game, tmp_path):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    _recorded(capsys, game, out)
    (game / "cards.yaml").write_text("id: cards\nkind: deck\nsize: poker\ncards: [oops\n", encoding="utf-8")
    code, _, err = _build(capsys, str(game), "--out", str(out))
    assert code == 2 and "cards.yaml:" in err
    assert (out / "mini" / "cards.pdf").is_file()  # nothing built is lost


def test_the_installed_command_replays_without_importing_the_loader(game, tmp_path):  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    script = ("import sys; from punchboard.cli import main; code = main(sys.argv[1:]); "
              "print('loaded' if 'punchboard.spec.loader' in sys.modules else 'not loaded', code)")
    runs = [subprocess.run([sys.executable, "-c", script, "build", str(game), "--out", str(out)], capture_output=True,
                           text=True, env=env, timeout=300) for _ in range(3)]
    assert [r.stdout.splitlines()[-1] for r in runs] == ["loaded 0", "loaded 0", "not loaded 0"]
    assert runs[1].stdout == runs[2].stdout.replace("not loaded", "loaded") and runs[1].stderr == runs[2].stderr
