"""Cut-outline geometry remembered on disk (punchboard/incremental/geometry_memo.py) is the geometry worked out afresh.

The oracle: for generated token shapes, sizes, slots and bleeds, the answer worked out with nothing
remembered, the answer that was just remembered, and the answer read back from its file by a process
that holds nothing in memory are the same values of the same types (compared by ``repr``: floats exactly).
"""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from punchboard.generator.draw import outlines
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.draw.outlines import token_outline
from punchboard.generator.draw.side import SideFrame
from punchboard.generator.impose import tokens

from punchboard.incremental import geometry_memo
from punchboard.spec.model import TokenShape

MM = 72 / 25.4
FIXTURE = Path(__file__).parents[2] / "fixtures" / "shaped_tokens"
SPLAT = ((0.50, 0.00), (0.62, 0.14), (0.80, 0.06), (0.82, 0.26), (1.00, 0.36), (0.88, 0.52), (0.98, 0.72), (0.76, 0.78),
         (0.70, 1.00), (0.52, 0.86), (0.32, 0.98), (0.28, 0.78), (0.04, 0.76), (0.14, 0.56), (0.00, 0.38), (0.20, 0.28),
         (0.18, 0.06), (0.38, 0.14))

shapes = st.one_of(
    st.sampled_from([TokenShape("circle"), TokenShape("square"), TokenShape("rounded"), TokenShape("hexagon"),
                     TokenShape("custom", outline=SPLAT)]),
    st.builds(lambda teeth: TokenShape("gear", teeth=teeth), st.integers(6, 16)),
)
sizes = st.floats(10, 40).map(lambda v: round(v * MM, 3))
bleeds = st.sampled_from([0.0, 1 * MM, 3 * MM, 2.5])


@pytest.fixture
def memo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder, nothing held in memory."""
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(tmp_path / "cache"))
    _forget()
    yield tmp_path / "cache" / geometry_memo.SUBFOLDER
    _forget()


def _forget() -> None:
    geometry_memo._answers.clear()
    outlines._grown_rings.cache_clear()


def _worked_out(call: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``call()`` with nothing remembered or read: every answer worked out."""
    def afresh(kind: str, question: Any, sources: Any, answer: Any, valid: Any) -> Any:
        return answer()

    with monkeypatch.context() as patch:
        patch.setattr(outlines, "remembered", afresh)
        patch.setattr(tokens, "remembered", afresh)
        _forget()
        return call()


def _three_ways(call: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str]:
    afresh = repr(_worked_out(call, monkeypatch))
    _forget()
    remembered = repr(call())
    _forget()  # as a new process: only the files are left
    read_back = repr(call())
    return afresh, remembered, read_back


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, width=sizes, height=sizes, bleed=bleeds, x=st.floats(0, 400), y=st.floats(0, 600),
       cut=st.floats(0, 1))
def test_a_grown_outline_cut_to_its_slot_is_the_one_worked_out(memo: Path, monkeypatch: pytest.MonkeyPatch,
                                                                shape: TokenShape, width: float, height: float,
                                                                bleed: float, x: float, y: float, cut: float) -> None:
    def call() -> tuple[Any, Any]:
        outline = token_outline(shape, x, y, width, height)
        grown = outline.grown(bleed)
        slot = (x - bleed * cut, y - bleed * cut, width + 2 * bleed * cut, height + 2 * bleed * cut)
        return grown, grown.within(slot)

    afresh, remembered, read_back = _three_ways(call, monkeypatch)
    assert remembered == afresh
    assert read_back == afresh


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes, size=sizes, bleed=bleeds, gap=st.floats(0, 12), count=st.integers(1, 5), squeeze=st.floats(0, 1))
def test_the_bleed_tokens_keep_on_a_sheet_is_the_one_measured(memo: Path, monkeypatch: pytest.MonkeyPatch,
                                                              shape: TokenShape, size: float, bleed: float, gap: float,
                                                              count: int, squeeze: float) -> None:
    pitch = size + gap
    frames = []
    for n in range(count):
        trim = Rect(20 + n * pitch, 30, size, size)
        reach = min(bleed, gap / 2 + bleed * squeeze)  # slots cut back where neighbours are near
        frames.append(SideFrame(trim, bleed, bleed, trim.inset(-reach, -reach)))

    def call() -> float | None:
        return tokens.kept_on(frames, [shape] * count, bleed)

    afresh, remembered, read_back = _three_ways(call, monkeypatch)
    assert remembered == afresh
    assert read_back == afresh


def test_answers_are_kept_by_question_code_and_versions(tmp_path: Path) -> None:
    source = tmp_path / "answering.py"
    source.write_text("A = 1\n", encoding="utf-8")
    first = geometry_memo.key("grown", ((0.0, 1.0),), [str(source)])
    assert geometry_memo.key("grown", ((0.0, 1.0),), [str(source)]) == first
    assert geometry_memo.key("grown", ((0.0, 1.000001),), [str(source)]) != first
    assert geometry_memo.key("within", ((0.0, 1.0),), [str(source)]) != first
    source.write_text("A = 2\n", encoding="utf-8")  # the code that answers changed
    assert geometry_memo.key("grown", ((0.0, 1.0),), [str(source)]) != first


def test_a_damaged_or_foreign_answer_is_worked_out_again(memo: Path) -> None:
    gear = token_outline(TokenShape("gear", teeth=12), 10.0, 10.0, 60.0, 60.0)
    expected = repr(gear.grown(8.5))
    files = sorted(memo.rglob("*"))
    answer = next(path for path in files if path.is_file())
    for damage in (b"", b"\x00garbage", marshal.dumps("a string, not rings"), marshal.dumps(((1, 2),))):
        answer.write_bytes(damage)
        _forget()
        assert repr(gear.grown(8.5)) == expected
        assert geometry_memo.is_rings(marshal.loads(answer.read_bytes()))  # replaced by the answer


def test_a_folder_that_cannot_be_written_remembers_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(blocked))
    _forget()
    gear = token_outline(TokenShape("gear", teeth=10), 0.0, 0.0, 50.0, 50.0)
    assert gear.grown(6.0).rings
    assert blocked.is_file()
    _forget()


def test_a_token_rebuild_does_not_import_shapely_and_draws_the_same_bytes(tmp_path: Path) -> None:
    """Through the installed command: a token component edited and built again reads its geometry back and
    writes what a build that worked it all out writes."""
    game = tmp_path / "tokens"
    shutil.copytree(FIXTURE, game)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PUNCHBOARD_CACHE_DIR"] = str(tmp_path / "cache")
    script = ("import sys; from punchboard.cli import main; code = main(sys.argv[1:]); "
              "print('shapely' if 'shapely' in sys.modules else 'no shapely', code)")

    def build(out: Path, cache: str) -> str:
        run = subprocess.run([sys.executable, "-c", script, "build", str(game), "--out", str(out), "--quiet"],
                             capture_output=True, text=True, env={**env, "PUNCHBOARD_CACHE_DIR": cache}, timeout=300)
        return run.stdout.splitlines()[-1]

    assert build(tmp_path / "out", env["PUNCHBOARD_CACHE_DIR"]) == "shapely 0"
    gears = game / "gears.yaml"
    gears.write_text(gears.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert build(tmp_path / "out", env["PUNCHBOARD_CACHE_DIR"]) == "no shapely 0"
    assert build(tmp_path / "fresh", str(tmp_path / "empty-cache")) == "shapely 0"
    pdfs = sorted(p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*.pdf"))
    assert pdfs and pdfs == sorted(p.relative_to(tmp_path / "fresh") for p in (tmp_path / "fresh").rglob("*.pdf"))
    for pdf in pdfs:
        assert (tmp_path / "out" / pdf).read_bytes() == (tmp_path / "fresh" / pdf).read_bytes(), pdf
