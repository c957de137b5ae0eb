"""``punchboard tts``: deck sheets within TTS limits and saved-object JSON that ties them together."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image
from punchboard.generator.export.tts import choose_grid

from punchboard.cli import main

GAME = """\
id: tiny
title: Tiny Game
players: {min: 2, max: 4}
components: [big.yaml, duo.yaml, mat.yaml, chips.yaml]
"""
BIG = """\
id: big
kind: deck
name: Big deck
size: poker
layout: face
back: {layout: back}
fields: [label]
cards:
  - range: {field: label, from: 1, to: 74}
  - {name: Copy, label: X, count: 3}
"""
DUO = """\
id: duo
kind: deck
name: Two-sided
size: poker
layout: face
back: {layout: named_back}
fields: [label]
cards:
  - {name: Left, label: L}
  - {name: Right, label: R}
"""
MAT = """\
id: mat
kind: board
name: Mat
size: {width: 200mm, height: 100mm}
layout: back
boards:
  - {name: Mat}
"""
CHIPS = """\
id: chips
kind: tokens
name: Chips
shape: circle
size: 20mm
layout: face
fields: [label]
tokens:
  - {label: C, count: 5}
"""
FACE = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#f0f0f0"}
  - {id: label, type: text, x: 10%, y: 40%, width: 80%, height: 20%, text: "{label}", font: Vera-Bold, size: 14pt, align: center}
"""
BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#1040a0"}
"""
NAMED_BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#1040a0"}
  - {id: label, type: text, x: 10%, y: 40%, width: 80%, height: 20%, text: "back {name}", font: Vera-Bold, size: 14pt, align: center, color: "#ffffff"}
"""
BACK_RGB = (0x10, 0x40, 0xA0)


def make_game(root: Path, game: str = GAME) -> Path:
    folder = root / "tiny"
    (folder / "layouts").mkdir(parents=True)
    for name, text in (("game.yaml", game), ("big.yaml", BIG), ("duo.yaml", DUO), ("mat.yaml", MAT), ("chips.yaml", CHIPS)):
        (folder / name).write_text(text)
    for name, text in (("face", FACE), ("back", BACK), ("named_back", NAMED_BACK)):
        (folder / "layouts" / f"{name}.yaml").write_text(text)
    return folder


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tts")
    assert main(["tts", str(make_game(root)), "--out", str(root / "out")]) == 0
    return root / "out" / "tiny" / "tts"


def objects(folder: Path, name: str) -> list[dict]:  # type: ignore[type-arg]
    return json.loads((folder / f"{name}.json").read_text())["ObjectStates"]


def local(url: str) -> Path:
    assert url.startswith("file:///")
    return Path(unquote(urlparse(url).path))


def test_grid_stays_within_10_by_7_and_4096_px() -> None:
    for slots in (1, 2, 13, 17, 53, 70):
        for width, height in ((180, 252), (252, 130), (198, 340)):
            grid = choose_grid(slots, width, height)
            assert grid.cols <= 10 and grid.rows <= 7 and grid.slots >= slots
            assert max(grid.size) <= 4096
    assert (choose_grid(70, 180, 252).cols, choose_grid(70, 180, 252).rows) == (10, 7)


def test_more_than_69_cards_spill_onto_a_second_sheet(exported: Path) -> None:
    (deck,) = objects(exported, "big")
    assert deck["Name"] == "DeckCustom"
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    first, second = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert first["NumWidth"] * first["NumHeight"] - 1 + second["NumWidth"] * second["NumHeight"] - 1 >= 75
    for entry in (first, second):
        assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
        with Image.open(local(entry["FaceURL"])) as sheet:
            assert sheet.mode == "RGB"
            assert max(sheet.size) <= 4096
            card_w, card_h = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
            assert sheet.size == (card_w * entry["NumWidth"], card_h * entry["NumHeight"])
            # The last slot is the hidden face: the deck's back.
            assert sheet.getpixel((sheet.width - card_w // 2, sheet.height - card_h // 2)) == BACK_RGB
        with Image.open(local(entry["BackURL"])) as back:
            assert back.size == (card_w, card_h)
            assert back.getpixel((card_w // 2, card_h // 2)) == BACK_RGB


def test_deck_ids_card_ids_and_custom_deck_keys_agree(exported: Path) -> None:
    (deck,) = objects(exported, "big")
    cards = deck["ContainedObjects"]
    assert len(cards) == 77
    assert deck["DeckIDs"] == [card["CardID"] for card in cards]
    for card in cards:
        key = str(card["CardID"] // 100)
        entry = deck["CustomDeck"][key]
        assert card["Name"] == "Card"
        assert card["CustomDeck"] == {key: entry}
        assert card["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"] - 1  # never the hidden slot
    copies = [card for card in cards if card["Nickname"] == "Copy"]
    assert len(copies) == 3 and len({card["CardID"] for card in copies}) == 1  # one slot for identical cards
    assert len({card["CardID"] for card in cards}) == 75


def test_different_backs_go_on_a_back_sheet(exported: Path) -> None:
    (deck,) = objects(exported, "duo")
    (entry,) = deck["CustomDeck"].values()
    assert entry["UniqueBack"] is True
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["Left", "Right"]
    with Image.open(local(entry["FaceURL"])) as faces, Image.open(local(entry["BackURL"])) as backs:
        assert faces.size == backs.size
        card_w = faces.width // entry["NumWidth"]
        assert backs.getpixel((4, 4)) == BACK_RGB and backs.getpixel((card_w + 4, 4)) == BACK_RGB
        assert faces.getpixel((4, 4)) == (0xF0, 0xF0, 0xF0)


def test_boards_are_tiles_and_tokens_come_in_a_bag(exported: Path) -> None:
    (mat,) = objects(exported, "mat")
    assert mat["Name"] == "Custom_Tile"
    with Image.open(local(mat["CustomImage"]["ImageURL"])) as image:
        assert abs(image.width / image.height - 2.0) < 0.01
    (bag,) = objects(exported, "chips")
    assert bag["Name"] == "Bag" and len(bag["ContainedObjects"]) == 5
    assert {o["CustomImage"]["CustomTile"]["Type"] for o in bag["ContainedObjects"]} == {2}  # circle tiles
    everything = objects(exported, "tiny")
    assert [o["Name"] for o in everything] == ["DeckCustom", "DeckCustom", "Custom_Tile", "Bag"]


def test_base_url_replaces_file_paths(tmp_path: Path) -> None:
    game = make_game(tmp_path, GAME.replace("big.yaml, ", ""))
    assert main(["tts", str(game), "--out", str(tmp_path), "--base-url", "https://example.org/tiny/"]) == 0
    (deck,) = objects(tmp_path / "tiny" / "tts", "duo")
    (entry,) = deck["CustomDeck"].values()
    assert entry["FaceURL"] == "https://example.org/tiny/duo-faces-1.png"
    assert entry["BackURL"] == "https://example.org/tiny/duo-backs-1.png"
