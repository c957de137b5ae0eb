"""``punchboard init``: a starter game that builds and verifies as it is, and never overwrites."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber

from tests.conftest import run_cli


def test_init_writes_a_game_that_checks_builds_and_verifies(tmp_path: Path):
    result = run_cli("init", "My Game", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    game = tmp_path / "My Game"
    game_yaml = (game / "game.yaml").read_text(encoding="utf-8")
    assert "id: my_game" in game_yaml and "title: My Game" in game_yaml
    assert "__" not in "".join(p.read_text(encoding="utf-8") for p in game.rglob("*.*"))  # every placeholder filled
    assert "extends: base/card" in (game / "layouts" / "card.yaml").read_text(encoding="utf-8")
    assert (game / "cards.csv").read_text(encoding="utf-8").startswith("name,suit,value,count,text")

    check = run_cli("check", "My Game", cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert check.stdout.startswith("my_game: ok (3 components, 71 pieces)")
    build = run_cli("build", "My Game", "--out", "out", cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    # the only warning: poker cards 9 a Letter sheet share their cut lines (README, "Bleed"); no preflight finding
    warnings = [line for line in build.stderr.splitlines() if line.startswith("warning")]
    assert all(re.match(r"warning: my_game / deck: bleed 0 mm left/right, 0 mm top/bottom \(.*\) of the declared 3 mm \(9-up on US Letter", w) for w in warnings)
    with pdfplumber.open(tmp_path / "out" / "my_game" / "deck.pdf") as pdf:
        fronts = (pdf.pages[0], pdf.pages[2])  # the first two sheets of fronts (9 cards a Letter sheet)
        words = "".join(page.extract_text() for page in fronts)
        fills = {tuple(round(v * 255) for v in o["non_stroking_color"]) for page in fronts for o in page.rects + page.curves
                 if o.get("non_stroking_color")}
    # the band and emblem take the suit's colour through fill: "{suit}" (shield, gear, dragon on the first sheets)
    assert {(0x3F, 0x5D, 0x8C), (0x3D, 0x6F, 0x39), (0xB0, 0x45, 0x1F)} <= fills
    assert "Guard" in words and "Apprentice" in words and "Hatchling" in words
    verify = run_cli("verify", "My Game", "--out", "out", cwd=tmp_path)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "standard pass pass pass" in " ".join(verify.stdout.split())


def test_init_refuses_a_folder_that_is_not_empty(tmp_path: Path):
    game = tmp_path / "mine"
    game.mkdir()
    (game / "notes.txt").write_text("keep me", encoding="utf-8")
    result = run_cli("init", str(game), cwd=tmp_path)
    assert result.returncode == 2
    assert "not empty" in result.stderr and "Traceback" not in result.stderr
    assert [p.name for p in game.iterdir()] == ["notes.txt"]
    assert (game / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_init_into_an_empty_folder_and_version(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    assert run_cli("init", "empty", cwd=tmp_path).returncode == 0
    assert (tmp_path / "empty" / "setup.yaml").is_file()
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("punchboard ")
