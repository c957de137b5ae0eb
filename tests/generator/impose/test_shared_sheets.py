"""One-sided tiles of different components share sheets when that saves one (generator/impose/shared_sheets.py).

Built as a user builds: the shared sheets' cut outlines are read back from the PDF and compared with the
outlines the same tiles get on their own components' sheets; the bill of materials says which parts share.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

from pypdf import PdfReader

from punchboard.plumbing.paths import COMPONENTS
from tests.conftest import run_cli
from tests.pdf_geometry import page_geometry

MM = 72 / 25.4
CUT_STROKE = 0.4  # generator/impose/tiles.py: tiles' cut lines
UNPRINTABLE = 4.23 * MM  # layouts/sheet.yaml unprintable
STEAMARK_SHEETS_BEFORE = 27  # Letter, before one-sided parts shared sheets (issue #39)


def outlines(pdf: Path) -> list[list[tuple[float, float, float, float]]]:
    """Per page, the bounding box (points) of every closed tile cut outline."""
    pages = []
    for page in PdfReader(pdf).pages:
        found = []
        for stroke in page_geometry(page).strokes:
            if abs(stroke.width - CUT_STROKE) < 0.01 and any(closed for _, closed in stroke.subpaths):
                area = stroke.area()
                if area.area > 0:
                    found.append(area.bounds)
        pages.append(found)
    return pages


def shape(bounds: tuple[float, float, float, float]) -> tuple[float, float]:
    """An outline's box size in mm, either way round (tiles may lie turned)."""
    w, h = (bounds[2] - bounds[0]) / MM, (bounds[3] - bounds[1]) / MM
    return (round(min(w, h), 1), round(max(w, h), 1))


def test_steamarks_one_sided_tiles_share_sheets_and_the_bom_says_how_to_keep_them_apart(tmp_path: Path) -> None:
    result = run_cli("build", "steamark", "--out", str(tmp_path), "--quiet")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "steamark"
    bom = json.loads((folder / "bom.json").read_text(encoding="utf-8"))
    groups = {group["name"]: group for group in bom["print_groups"]}
    shared = groups["shared_tiles"]
    assert shared["components"] == ["rides", "starting_ground", "stands"]  # the one-sided tiles, in the game's order
    assert groups["tokens"]["components"] == ["turn_order_tokens", "turn_counter", "dirt_tokens"]  # print_group still works
    apart = {entry["id"]: entry["sheets"] for entry in bom["components"]}
    assert shared["sheets"] == 3 < apart["rides"] + apart["starting_ground"] + apart["stands"] == 4
    assert bom["total_sheets"] == STEAMARK_SHEETS_BEFORE - 1
    assert all(re.search(rf"{name} \(\d+\)", shared["keep_apart"]) for name in ("Rides", "Starting Ground Tiles", "Stands"))

    # every member's tiles, and only those, on the shared sheets: the same cut outlines as on their own sheets
    together = outlines(folder / "shared_tiles.pdf")
    assert len(together) == 3
    alone = Counter(shape(b) for member in shared["components"] for page in outlines(folder / f"{member}.pdf") for b in page)
    assert Counter(shape(b) for page in together for b in page) == alone and sum(alone.values()) == 18 + 4 + 20
    reader = PdfReader(folder / "shared_tiles.pdf")
    for page, boxes in zip(reader.pages, together, strict=True):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        for n, (x0, y0, x1, y1) in enumerate(boxes):
            assert UNPRINTABLE <= x0 and x1 <= width - UNPRINTABLE and UNPRINTABLE <= y0 and y1 <= height - UNPRINTABLE
            for u0, v0, u1, v1 in boxes[n + 1:]:  # no two tiles overlap
                assert x1 <= u0 + 0.01 or u1 <= x0 + 0.01 or y1 <= v0 + 0.01 or v1 <= y0 + 0.01

    # the combined PDF prints the shared sheets in the members' place, and its bill of materials says so
    combined = PdfReader(folder / "steamark-print-and-play.pdf")
    texts = [page.extract_text() or "" for page in combined.pages]
    footers = Counter(m.group(1) for text in texts for m in re.finditer(r"STEAMARK · (.+?) · page \d+/\d+", text))
    assert footers["Shared tiles (print group)"] == 3 and not {"Rides", "Stands", "Starting Ground Tiles"} & set(footers)
    assert any("sortthembackinto" in "".join(text.split()) for text in texts[:3])


def test_steamark_with_no_print_group_at_all_takes_fewer_sheets_than_before(tmp_path: Path) -> None:
    """The issue's measure: STEAMARK's Letter build under 27 sheets with no print_group written (its
    token files' print_group lines removed): the one-sided tokens share a sheet by themselves too."""
    game = tmp_path / "steamark"
    shutil.copytree(COMPONENTS / "steamark", game)
    for path in game.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text("".join(line for line in text.splitlines(keepends=True) if not line.startswith("print_group:")))
    assert "print_group" not in "".join(path.read_text() for path in game.glob("*.yaml"))
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "steamark"
    bom = json.loads((folder / "bom.json").read_text(encoding="utf-8"))
    assert [(g["name"], g["components"], g["sheets"]) for g in bom["print_groups"]] == [
        ("shared_tiles", ["rides", "starting_ground", "stands"], 3),
        ("shared_tokens", ["turn_order_tokens", "turn_counter", "dirt_tokens"], 1),
    ]
    assert bom["total_sheets"] == STEAMARK_SHEETS_BEFORE - 1
    texts = [page.extract_text() or "" for page in PdfReader(folder / "steamark-print-and-play.pdf").pages]
    footers = Counter(m.group(1) for text in texts for m in re.finditer(r"STEAMARK · (.+?) · page \d+/\d+", text))
    assert footers["Shared tokens (print group)"] == 1 and not {"Turn Order Tokens", "Turn Counter", "Dirt tokens"} & set(footers)
    # the three token kinds' cut outlines, all of them, on the one shared sheet
    cut = [s for s in page_geometry(PdfReader(folder / "shared_tokens.pdf").pages[0]).strokes if abs(s.width - CUT_STROKE) < 0.01]
    assert len(cut) == 4 + 1 + 48  # turn-order tokens, the turn counter, dirt tokens


GAME = """\
id: tilegame
title: Tile game
players: {min: 1, max: 2}
components: [roads.yaml, rivers.yaml]
"""
TILES = """\
id: {id}
kind: tiles
cell: 40mm
layout: base/card
{back}fields: [value]
tiles:
  - {{value: 1, cells: ["XX", "XX"], count: 2}}
"""


def tile_game(root: Path, rivers_back: str = "") -> Path:
    folder = root / "tilegame"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "roads.yaml").write_text(TILES.format(id="roads", back=""))
    (folder / "rivers.yaml").write_text(TILES.format(id="rivers", back=rivers_back))
    return folder


def test_two_half_empty_tile_sheets_become_one_and_a_two_sided_part_prints_apart(tmp_path: Path) -> None:
    game = tile_game(tmp_path / "one")
    result = run_cli("build", str(game), "--out", str(tmp_path / "one" / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "one" / "out" / "tilegame"
    bom = json.loads((folder / "bom.json").read_text(encoding="utf-8"))
    assert [(g["name"], g["components"], g["sheets"]) for g in bom["print_groups"]] == [("shared_tiles", ["roads", "rivers"], 1)]
    assert bom["total_sheets"] == 1  # 80 mm tiles: two a sheet, so each part alone takes a sheet
    assert [len(page) for page in outlines(folder / "shared_tiles.pdf")] == [4]

    game = tile_game(tmp_path / "two", rivers_back="back: {layout: base/card}\n")
    result = run_cli("build", str(game), "--out", str(tmp_path / "two" / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    bom = json.loads((tmp_path / "two" / "out" / "tilegame" / "bom.json").read_text(encoding="utf-8"))
    assert "print_groups" not in bom and bom["total_sheets"] == 2  # the rivers print two-sided: nothing to share
    assert not (tmp_path / "two" / "out" / "tilegame" / "shared_tiles.pdf").exists()
