"""docs/how-to/repeats-and-grids.md is real: its layouts, components and CSV are written into a game folder, built
without a warning and read back; the error it shows is the one check gives; its pictures exist (docs/images/
repeats_grids.py renders them from this example)."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest

from punchboard.cli import main
from tests.conftest import ROOT

PAGE = ROOT / "docs" / "how-to" / "repeats-and-grids.md"
BLOCK = re.compile(r"```yaml\n# file: (?P<file>\S+)\n(?P<body>.*?)```", re.S)
CSV = re.compile(r"```csv\n(?P<body>.*?)```", re.S)


def write_example(folder: Path) -> None:
    """The page's files, and a game.yaml listing its two components, in ``folder``."""
    text = PAGE.read_text(encoding="utf-8")
    files = {m["file"]: m["body"] for m in BLOCK.finditer(text)}
    assert set(files) == {"layouts/market_card.yaml", "market.yaml", "layouts/board.yaml", "board.yaml"}
    (csv,) = [m["body"] for m in CSV.finditer(text)]
    files["board/map.csv"] = csv
    for name, body in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(body, encoding="utf-8")
    (folder / "game.yaml").write_text("id: realm\ntitle: Realm\nplayers: {min: 2, max: 4}\ncomponents: [market.yaml, board.yaml]\n",
                                      encoding="utf-8")


def test_the_example_builds_without_warnings_and_draws_coins_track_and_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_example(tmp_path / "game")
    assert main(["build", str(tmp_path / "game"), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err, err
    with pdfplumber.open(tmp_path / "out" / "realm" / "market.pdf") as pdf:
        page = pdf.pages[0]
        gold = [c for c in page.curves if c.get("fill") and tuple(round(v, 3) for v in c["non_stroking_color"]) == (0.831, 0.627, 0.09)
                and abs(c["width"] - 8 * 72 / 25.4) < 0.05]
    assert len(gold) == 1 + 3 + 6
    with pdfplumber.open(tmp_path / "out" / "realm" / "board.pdf") as pdf:
        page = pdf.pages[0]
        words = [w["text"] for w in page.extract_words()]
        hexes = [c for c in page.curves if c.get("fill") and len(c["pts"]) in (6, 7)]
    assert {str(n) for n in range(31)} <= set(words)
    assert {"Port", "Wood", "Farm", "Keep", "Pass", "Camp"} <= set(words)
    assert len(hexes) == 25


def test_the_error_the_page_shows_is_the_one_check_gives(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_example(tmp_path / "game")
    market = tmp_path / "game" / "market.yaml"
    market.write_text(market.read_text(encoding="utf-8").replace("{name: Mill, cost: 3}", "{name: Mill, cost: 2.5}"), encoding="utf-8")
    assert main(["check", str(tmp_path / "game")]) == 2
    err = capsys.readouterr().err
    (shown,) = re.findall(r"```text\n(market\.yaml:.*?)\n```", PAGE.read_text(encoding="utf-8"))
    assert shown.replace("layouts/", str(tmp_path / "game" / "layouts") + "/") in err.replace(str(tmp_path / "game") + "/market", "market")


def test_the_page_is_in_the_nav_and_shows_its_pictures() -> None:
    assert "how-to/repeats-and-grids.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = PAGE.read_text(encoding="utf-8")
    for name in ("repeats-grids-board.png", "repeats-grids-cards.png"):
        assert f"](../images/{name})" in text
        assert (ROOT / "docs" / "images" / name).stat().st_size > 1000
