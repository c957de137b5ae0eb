"""``punchboard preview``: a contact sheet per component with one thumbnail per distinct face."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from punchboard.generator.export.preview import face_thumbnails

from punchboard.cli import main
from punchboard.plumbing.paths import COMPONENTS
from punchboard.spec.loader import load_game

GAME = """\
id: tiny
title: Tiny Game
players: {min: 2, max: 4}
components: [deck.yaml, mat.yaml]
"""
DECK = """\
id: deck
kind: deck
size: poker
layout: face
fields: [label]
cards:
  - {name: Owl, label: A, count: 4}
  - {name: Fox, label: B, count: 2}
  - {name: Elk, label: C}
"""
MAT = """\
id: mat
kind: board
size: {width: 300mm, height: 200mm}
layout: face
boards:
  - {name: Mat, count: 2}
"""
FACE = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ff0000"}
"""
RED = (255, 0, 0)


def make_game(root: Path) -> Path:
    folder = root / "tiny"
    (folder / "layouts").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("deck.yaml", DECK), ("mat.yaml", MAT)):
        (folder / name).write_text(text)
    (folder / "layouts" / "face.yaml").write_text(FACE)
    return folder


def red_runs(image: Image.Image, y: int) -> list[int]:
    """Widths of the runs of the face colour along row ``y``: one per thumbnail crossed."""
    runs, length = [], 0
    for x in range(image.width):
        if image.getpixel((x, y)) == RED:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs + ([length] if length else [])


def test_one_thumbnail_per_distinct_face(tmp_path: Path) -> None:
    assert main(["preview", str(make_game(tmp_path)), "--out", str(tmp_path / "out")]) == 0
    folder = tmp_path / "out" / "tiny" / "preview"
    assert sorted(p.name for p in folder.iterdir()) == ["deck.png", "mat.png"]
    with Image.open(folder / "deck.png") as sheet:
        sheet = sheet.convert("RGB")
        column = [y for y in range(sheet.height) if sheet.getpixel((sheet.width // 6, y)) == RED]
        assert column, "no thumbnail found"
        # three distinct faces of seven cards, poker-sized at 72 dpi: 180 × 252 px each
        assert red_runs(sheet, (column[0] + column[-1]) // 2) == [180, 180, 180]
    with Image.open(folder / "mat.png") as mat:
        mat = mat.convert("RGB")
        middle = [y for y in range(mat.height) if mat.getpixel((mat.width // 2, y)) == RED]
        assert len(red_runs(mat, middle[len(middle) // 2])) == 1  # two identical boards, one thumbnail


def test_steam_court_gear_deck_shows_its_16_faces_and_counts() -> None:
    game = load_game(COMPONENTS / "steam_court")
    thumbs = face_thumbnails(game, game.component("gear_deck"), dpi=20)
    assert len(thumbs) == 16
    assert sum(t.count for t in thumbs) == 168
    assert {t.count for t in thumbs} == {12, 6}  # 6 of each number per deck, 3 of each special, 2 decks
