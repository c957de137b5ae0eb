"""Sheets of paper per component and per game in the bill of materials, set against the area bound
(the pieces' area over one sheet's printable area): the same figures from `punchboard bom` (planned
without drawing), from a build's bom.json and on the bill-of-materials page of the combined PDF."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from punchboard.generator.document.bom_page import planned_bom
from punchboard.generator.options import BuildOptions

from punchboard.plumbing.paths import COMPONENTS
from punchboard.spec.loader import load_game
from tests.conftest import ROOT, run_cli

GAMES = ("astonishing", "belpunk", "knights_vs_steambots", "steam_court", "steamark")
MM = 72 / 25.4
UNPRINTABLE_MM = 4.23  # layouts/sheet.yaml and layouts/paper/*.yaml
DECK = """\
id: deck
kind: deck
size: poker
layout: base/card
back: {layout: base/card}
cards:
  - {name: One, count: 20}
"""
CHITS = """\
id: chits
kind: tokens
shape: circle
size: 30mm
layout: base/card
tokens:
  - {name: Chit, count: 10}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bom") / "parts"
    shutil.copytree(ROOT / "tests" / "fixtures" / "parts", folder)
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    (folder / "chits.yaml").write_text(CHITS, encoding="utf-8")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("  - dice.yaml", "  - dice.yaml\n  - deck.yaml\n  - chits.yaml"), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("paper", "size", "backs"), [("a4", (210.0, 297.0), "duplex-long"), ("letter", (215.9, 279.4), "separate")])
def test_bom_verb_and_build_agree_on_sheets_and_the_area_bound(game: Path, tmp_path: Path, paper: str, size: tuple[float, float], backs: str) -> None:
    build = run_cli("build", str(game), "--out", str(tmp_path), "--quiet", "--paper", paper, "--backs", backs)
    assert build.returncode == 0, build.stderr
    built = json.loads((tmp_path / "parts_fixture" / "bom.json").read_text(encoding="utf-8"))
    verb = run_cli("bom", str(game), "--json", "--paper", paper, "--backs", backs)
    assert verb.returncode == 0, verb.stderr
    planned = json.loads(verb.stdout)
    assert planned == built  # the plan is the build's, sheet for sheet
    room = (size[0] - 2 * UNPRINTABLE_MM) * (size[1] - 2 * UNPRINTABLE_MM)
    by_id = {c["id"]: c for c in planned["components"]}
    sides = 2 if backs == "separate" else 1  # separate backs take sheets of their own; duplex ones the reverse
    deck = by_id["deck"]
    assert deck["area_bound"] == pytest.approx(sides * 20 * 63.5 * 88.9 / room, abs=0.005)
    assert deck["sheets"] == sides * 3  # 20 poker cards, 9 a sheet
    chits = by_id["chits"]  # a token's area is its outline's: a 30 mm circle
    assert chits["area_bound"] == pytest.approx(10 * math.pi * 15**2 / room, abs=0.005)
    rides = by_id["rides"]  # polyomino tiles: their cells
    cells = sum(len(p.cells) for p in load_game(game).component("rides").pieces)
    assert rides["area_bound"] == pytest.approx(cells * 25**2 / room, abs=0.005)
    for entry in planned["components"]:
        assert entry["least_sheets"] == math.ceil(entry["area_bound"] - 1e-6) or entry["area_bound"] == pytest.approx(entry["least_sheets"], abs=0.005)
        assert entry["over_bound"] == entry["sheets"] - entry["least_sheets"] >= 0
    game_bound = sum(c["area_bound"] for c in planned["components"])
    assert planned["area_bound"] == pytest.approx(game_bound, abs=0.01 * len(by_id))
    assert planned["over_bound"] == planned["total_sheets"] - planned["least_sheets"]
    with pdfplumber.open(tmp_path / "parts_fixture" / "parts_fixture-print-and-play.pdf") as pdf:
        page = "".join((pdf.pages[1].extract_text() or "").split())  # its small grey print reads without spaces
    said = f"{planned['total_sheets']} sheets in all · area bound {planned['area_bound']:.2f} sheets (at least {planned['least_sheets']}): {planned['over_bound']} over"
    assert "".join(said.split()) in page, page
    assert f"{deck['sheets']}{deck['area_bound']:.2f}{deck['pages']}Deck(deck,two-sided)" in page, page  # the deck's row


def test_bom_text_and_markdown_give_sheets_and_bound_per_component_and_game(game: Path, tmp_path: Path) -> None:
    result = run_cli("bom", str(game), "--paper", "a4", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert re.search(r"Paper a4, backs duplex-long: \d+ sheets, area bound [\d.]+ \(at least \d+, \d+ over\)", text), text
    assert re.search(r"20  Deck \[deck, two-sided\] — 3 sheets, area bound 1\.94 \(at least 2, 1 over\)", text), text
    markdown = (tmp_path / "bom.md").read_text(encoding="utf-8")
    assert "| count | component | kind | sides | sheets | area bound | over | breakdown |" in markdown
    assert re.search(r"\| 20 \| Deck \| deck \| two \| 3 \| 1\.94 \| 1 \|", markdown), markdown


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("backs", ["duplex-long", "gutterfold"])
def test_no_bundled_component_prints_on_fewer_sheets_than_its_area_bound(paper: str, backs: str) -> None:
    """The bound is a bound: were a piece's area overstated, some component would beat it."""
    for gid in GAMES:
        bom = planned_bom(load_game(COMPONENTS / gid), BuildOptions(paper=paper, backs=backs))
        for entry in [*bom["components"], *bom.get("print_groups", [])]:
            assert entry["sheets"] >= entry["area_bound"] - 1e-9, (gid, entry)
        assert bom["total_sheets"] >= bom["area_bound"]
