"""The press in the fast loops (issue #43): ``watch GAME --colour cmyk`` writes and rewrites the press files and says
their warnings, as ``build`` does, and ``punchboard.build(game, colour="cmyk")`` does the same from Python."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pikepdf
import pytest

import punchboard
from tests.cli.test_watch import Watcher
from tests.generator.press.pdfx_check import problems

GAME = "id: loop\ntitle: Loop\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = "id: cards\nkind: deck\nsize: poker\nlayout: loop/card\nback: none\ncards:\n  - {name: Leaf}\n"
LAYOUT = """\
bleed: 3mm
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: band, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 30%, fill: "#00ff00"}
"""


def _game(folder: Path) -> Path:
    (folder / "layouts" / "loop").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("layouts/loop/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _cmyk_operators(path: Path) -> list[tuple[str, tuple[float, ...]]]:
    with pikepdf.open(path) as pdf:
        return [(str(i.operator), tuple(float(v) for v in i.operands))
                for i in pikepdf.parse_content_stream(pdf.pages[0]) if str(i.operator) in ("k", "rg")]


def test_watch_writes_the_press_files_and_rewrites_them_on_a_save(tmp_path: Path) -> None:
    game = _game(tmp_path / "game")
    press = tmp_path / "output" / "loop" / "press" / "cards.pdf"
    watcher = Watcher(str(game), "--colour", "cmyk", "--pdfx", "1a", cwd=tmp_path)
    try:
        first = "".join(watcher.wait_for("watching"))
        assert "layout loop/card / band (fill, 1 piece: Leaf): sRGB #00ff00 is outside the press gamut" in first, first
        assert "PDF/X-1a:2003 files for Artifex CMYK SWOP Profile in output/loop/press" in first, first
        assert problems(press) == []
        before = _cmyk_operators(press)
        time.sleep(0.05)
        layout = game / "layouts" / "loop" / "card.yaml"
        layout.write_text(LAYOUT.replace("#00ff00", "#0050ff"), encoding="utf-8")
        saved = "".join(watcher.wait_for("PDF/X-1a:2003 files for Artifex"))
        assert "changed: card.yaml" in saved and "#0050ff is outside the press gamut" in saved, saved
        assert "#00ff00" not in saved
        after = _cmyk_operators(press)
        assert after != before and not any(name == "rg" for name, _ in after)
        assert problems(press) == []
    finally:
        watcher.proc.send_signal(signal.SIGINT)
        watcher.proc.wait(timeout=60)
    assert watcher.proc.returncode == 0


def test_watch_refuses_a_bad_icc_before_building(tmp_path: Path) -> None:
    game = _game(tmp_path / "game")
    watcher = Watcher(str(game), "--colour", "cmyk", "--icc", str(tmp_path / "missing.icc"), cwd=tmp_path)
    assert watcher.proc.wait(timeout=60) == 2
    assert f"error: --icc: no such file: {tmp_path / 'missing.icc'}" in watcher.output()
    assert not (tmp_path / "output").exists()


def test_the_api_builds_the_press_files(tmp_path: Path) -> None:
    game = _game(tmp_path / "game")
    report = punchboard.build(game, tmp_path / "out", colour="cmyk", rich_black=True)
    assert any("#00ff00 is outside the press gamut" in w for w in report.warnings)
    assert any(note.startswith("press: 2 CMYK PDF files for Artifex CMYK SWOP Profile") for note in report.notes)
    inks = _cmyk_operators(tmp_path / "out" / "loop" / "press" / "cards.pdf")
    assert inks and not any(name == "rg" for name, _ in inks)
    with pytest.raises(ValueError, match="--pdfx 1a: PDF/X-1a files are CMYK"):
        punchboard.build(game, tmp_path / "out", colour="rgb", pdfx="1a")
