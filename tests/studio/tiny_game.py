"""A three-card game in a tmp folder: quick to build, draw and verify, with a setup to simulate."""

from __future__ import annotations

from pathlib import Path

GAME = """\
id: tiny
title: Tiny Studio Game
players: {min: 2, max: 3}
components: [deck.yaml]
setup: setup.yaml
box:
  - {text: Three cards, count: 3, components: [deck]}
"""

DECK = """\
id: deck
kind: deck
name: Tiny deck
size: bridge  # fits Letter with its full bleed: no bleed notice (README, "Bleed")
layout: base/card
back: {layout: tiny/back}
fields: [text]
cards:
  - name: Lantern
    text: {lantern}
  - name: Rope
    text: A coil of rope.
  - name: Map
    text: An old map.
"""

BACK = """\
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#24475e"}
  - {id: name, type: text, box: safe, x: 0, y: 40%, width: 100%, height: 12mm, text: "TINY", font: Vera-Bold, size: 20pt, align: center, color: "#efe3c4"}
"""

# The back with a comment on every kind of line the workbench must keep: what the workbench tests edit.
COMMENTED_BACK = """\
# The deck's back: one colour and the game's name.
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#24475e"}
  - {id: name, type: text, box: safe, x: 12mm, y: 40%, width: 30mm, height: 12mm, text: "TINY", font: Vera-Bold, size: 20pt, align: center, color: "#efe3c4"}  # centred
"""

SETUP = """\
variants:
  - id: standard
    name: Standard game
    players: {min: 2, max: 3}
    steps:
      - take: {component: deck, to: deck}
        say: take the three cards
      - deal: {from: deck, to: hand, count: 1}
        say: deal one card to each player
"""


def write_game(folder: Path, lantern: str = "A lantern that never goes out.") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "setup.yaml").write_text(SETUP, encoding="utf-8")
    (folder / "layouts" / "tiny").mkdir(parents=True, exist_ok=True)
    (folder / "layouts" / "tiny" / "back.yaml").write_text(BACK, encoding="utf-8")
    write_deck(folder, lantern)
    return folder


def write_deck(folder: Path, lantern: str) -> None:
    (folder / "deck.yaml").write_text(DECK.replace("{lantern}", lantern), encoding="utf-8")


CSV_DECK = """\
id: deck
kind: deck
name: Tiny deck
size: bridge
layout: base/card
back: {layout: tiny/back}
fields: [text]
csv: cards.csv  # the cards are the rows
"""

CARDS_CSV = b'name,text\r\nLantern,"A lantern, lit"\r\nRope,A coil of rope.\r\nMap,"An ""old"" map"\r\n'


def write_csv_deck(folder: Path) -> Path:
    """The same three cards kept in a CSV (CRLF, some cells quoted); the CSV's path."""
    (folder / "deck.yaml").write_text(CSV_DECK, encoding="utf-8")
    (folder / "cards.csv").write_bytes(CARDS_CSV)
    return folder / "cards.csv"


# A face that extends the bundled base/card, and a back that extends a layout of the game's own: values from
# this layout, from a parent, defaults and card fields (the workbench's provenance tests).
FACE = """\
# The face: the bundled plain card, its name a little lower.
extends: base/card
elements:
  - {id: name, y: 4mm}  # lower than base/card's 2mm
"""

BACK_BASE = """\
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#24475e"}
  - {id: title, type: text, box: safe, x: 0, y: 40%, width: 100%, height: 12mm, text: "TINY", size: 20pt, color: "#efe3c4"}
"""

LAYERED_BACK = """\
extends: tiny/backbase
elements:
  - {id: title, align: center}  # centred on this deck
"""


def write_layered_game(folder: Path) -> Path:
    """The CSV deck with the face and back above."""
    game = write_game(folder)
    write_csv_deck(game)
    (game / "deck.yaml").write_text(CSV_DECK.replace("layout: base/card", "layout: tiny/face"), encoding="utf-8")
    (game / "layouts" / "tiny" / "face.yaml").write_text(FACE, encoding="utf-8")
    (game / "layouts" / "tiny" / "backbase.yaml").write_text(BACK_BASE, encoding="utf-8")
    (game / "layouts" / "tiny" / "back.yaml").write_text(LAYERED_BACK, encoding="utf-8")
    return game


# The CSV deck in two languages: Lantern and Map have German text, Rope has none yet (its text@de cell is empty).
CARDS_CSV_DE = (b'name,text,text@de\r\nLantern,"A lantern, lit",Eine Laterne\r\nRope,A coil of rope.,\r\n'
                b'Map,"An ""old"" map",Eine alte Karte\r\n')


def write_two_language_game(folder: Path) -> Path:
    """The CSV deck with ``languages: [en, de]`` and a text@de column."""
    game = write_game(folder)
    write_csv_deck(game)
    (game / "game.yaml").write_text(GAME.replace("players:", "languages: [en, de]\nplayers:"), encoding="utf-8")
    (game / "cards.csv").write_bytes(CARDS_CSV_DE)
    return game
