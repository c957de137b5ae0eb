"""Games the benchmarks generate at run time: a large text deck and a 300-dpi image deck.

Both are written under ``bench/.work`` (ignored by git) and are deterministic, so
two runs measure the same input.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

WORDS = (
    "gear steam brass copper court queen engineer trick quarter valve piston boiler rivet "
    "spring dial lever crank whistle furnace pressure card hand table pass lead follow play"
).split()


def text_deck(folder: Path, cards: int) -> Path:
    """A game with one ``cards``-card deck: Steam Court's gear layout with a distinct name and
    rule on every card, and its common back (a back that reads no field)."""
    game = folder / f"text_deck_{cards}"
    csv = game / "cards.csv"
    if csv.is_file() and len(csv.read_text(encoding="utf-8").splitlines()) == cards + 1:
        return game
    game.mkdir(parents=True, exist_ok=True)
    rng = random.Random(cards)
    lines = ["name,kind,value,alt,text"]
    for index in range(1, cards + 1):
        kind = ("number", "special", "dual")[index % 3]
        value = (index % 12) + 1
        alt = value + 6 if kind == "dual" else ""
        rule = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(8, 30))).capitalize() + "."
        lines.append(f"Card {index},{kind},{value},{alt},{rule}")
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (game / "deck.yaml").write_text(
        "id: deck\nkind: deck\nname: Text deck\nsize: poker\nlayout: steam_court/gear_card\n"
        "back: {layout: steam_court/gear_back}\nfields: [kind, value, alt, text]\ncsv: cards.csv\n",
        encoding="utf-8",
    )
    (game / "game.yaml").write_text(
        f"id: text_deck_{cards}\ntitle: Text deck\nplayers: {{min: 1, max: 4}}\ncomponents: [deck.yaml]\n"
        "palette: {brass: '#b8893a', brass_light: '#e2c27d', copper: '#a4532b', soot: '#231f1c', paper: '#f3e9d2'}\n",
        encoding="utf-8",
    )
    return game


def editable_deck(folder: Path, cards: int, name: str) -> tuple[Path, Path, str]:
    """A fresh copy of the ``cards``-card text deck at ``folder/name``, for edits: the game's folder, its CSV
    and the CSV's text before any edit."""
    work = folder / name
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(text_deck(folder, cards), work)
    csv = work / "cards.csv"
    return work, csv, csv.read_text(encoding="utf-8")
