"""Print records are written as their changes since the print before: 100 one-card edits of a 2,000-card deck
take well under 5 MB, every print still reads back whole (``--changed-since N`` for every N), and a record
that cannot be read is named, never misread."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from punchboard.generator import prints
from punchboard.generator.prints import PiecePrint, PrintError, PrintRecord

from punchboard.incremental import print_memos


def _deck(size: int, edited: dict[int, str]) -> tuple[PiecePrint, ...]:
    return tuple(PiecePrint("deck", f"Card {n}", n, n, 0, edited.get(n, f"{n:064x}"), "b" * 64) for n in range(size))


def test_a_hundred_one_card_edits_of_a_2000_card_deck_take_well_under_5_mb(tmp_path: Path):
    rng = random.Random(7)
    edited: dict[int, str] = {}
    whole: list[tuple[PiecePrint, ...]] = []
    for number in range(1, 101):
        if number > 1:
            edited[rng.randrange(2000)] = f"edit {number}".ljust(64, "x")
        pieces = _deck(2000, edited)
        whole.append(pieces)
        prints.save(tmp_path, PrintRecord(number, "2026-12-02T00:00:00Z", {"paper": "letter"}, pieces))
    size = sum(path.stat().st_size for path in (tmp_path / "prints").glob("*.json"))
    assert size < 5_000_000, size
    whole_records = [p.name for p in (tmp_path / "prints").glob("*.json") if '"pieces"' in p.read_text()]
    assert sorted(whole_records) == ["0001.json", "0041.json", "0081.json"]  # one whole every CHAIN_LIMIT prints
    (tmp_path / "prints" / print_memos.LAST_FILE).unlink()  # every record read from its JSON
    for number in range(1, 101):
        record = prints.load(tmp_path, number)
        assert record.pieces == whole[number - 1], number
        assert record.depth < prints.CHAIN_LIMIT


def test_a_record_is_whole_when_most_pieces_changed_or_pieces_came_and_went(tmp_path: Path):
    first = _deck(10, {})
    prints.save(tmp_path, PrintRecord(1, "d", {}, first))
    renamed = tuple(p._replace(face="f" * 64) for p in first)
    prints.save(tmp_path, PrintRecord(2, "d", {}, renamed))
    assert "pieces" in json.loads((tmp_path / "prints" / "0002.json").read_text())
    fewer = renamed[:3] + renamed[4:] + (PiecePrint("deck", "New", 9, 10, 0, "n" * 64, ""),)
    prints.save(tmp_path, PrintRecord(3, "d", {}, fewer))
    data = json.loads((tmp_path / "prints" / "0003.json").read_text())
    assert data["based_on"] == 2 and {"same": [0, 3]} in data["changes"]
    (tmp_path / "prints" / print_memos.LAST_FILE).unlink()
    assert prints.load(tmp_path, 3).pieces == fewer


@pytest.mark.parametrize("damage", ["base missing", "base not earlier", "run out of range", "base unreadable"])
def test_a_record_whose_base_cannot_be_read_is_a_named_error(tmp_path: Path, damage: str):
    pieces = _deck(50, {})
    prints.save(tmp_path, PrintRecord(1, "d", {}, pieces))
    prints.save(tmp_path, PrintRecord(2, "d", {}, _deck(50, {7: "e" * 64})))
    folder = tmp_path / "prints"
    (folder / print_memos.LAST_FILE).unlink()
    second = folder / "0002.json"
    data = json.loads(second.read_text())
    if damage == "base missing":
        (folder / "0001.json").unlink()
    elif damage == "base not earlier":
        data["based_on"] = 2
    elif damage == "run out of range":
        data["changes"][0]["same"] = [0, 51]
    else:
        (folder / "0001.json").write_text("{not json")
    second.write_text(json.dumps(data))
    with pytest.raises(PrintError, match="0002.json: cannot read print 2"):
        prints.load(tmp_path, 2)
