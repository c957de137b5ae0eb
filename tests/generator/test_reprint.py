"""Prints and reprints through the CLI: every build records its drawings; ``--changed-since``
writes a reprint PDF of only the pieces drawn differently, after a swap list; ``--stamp``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from punchboard.generator.draw.stamp import STAMP_SIZE
from pypdf import PdfReader

from tests.build_helpers import make_game
from tests.conftest import ROOT, run_cli
from tests.print_records import read_record

STEAM = "  - range: {field: value, from: 1, to: 13}\n    suit: Steam\n"
GEARS = "  - range: {field: value, from: 1, to: 13}\n    suit: Gears\n"
# Steam 13 on its own, its first action's text changed: one card of 52 draws differently.
STEAM_13 = (
    "  - {name: '13', value: 13, suit: Steam, order: 1, action_1: *draw, text_1: Draw three cards from the deck.,\n"
    "     action_2: *exchange, text_2: *exchange_text}\n"
)
MOTTO = "The Annual Steampunk Ball"


@pytest.fixture
def belpunk(tmp_path: Path) -> Path:
    game = tmp_path / "belpunk"
    shutil.copytree(ROOT / "components" / "belpunk", game)
    return game


def _build(game: Path, out: Path, *flags: str) -> str:
    result = run_cli("build", str(game), "--out", str(out), *flags)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _pages(pdf: Path) -> list[str]:
    """Each page's text, whitespace collapsed (words drawn one by one come out a line each)."""
    return [" ".join((page.extract_text() or "").split()) for page in PdfReader(pdf).pages]


def _piece_pages(pdf: Path) -> list[str]:
    """The reprint's pages after the swap list, without blank reverses."""
    return [t for t in _pages(pdf) if "Reprint:" not in t and "intentionally blank" not in t]


def _count(pages: list[str], needle: str) -> int:
    return sum(text.count(needle) for text in pages)


def _record(out: Path, number: int) -> dict:
    return read_record(out / "belpunk", number)


def _faces(record: dict) -> list[tuple[str, str, str]]:
    return [(row["name"], row["face"], row["back"]) for row in record["pieces"] for _ in range(row["count"])]


def test_one_changed_card_is_the_only_one_reprinted_and_named_in_the_swap_list(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    first = _build(belpunk, out)
    assert "recorded print 1 (54 pieces)" in first
    record = _record(out, 1)
    assert record["number"] == 1 and record["date"].endswith("Z")
    assert sum(row["count"] for row in record["pieces"] if row["component"] == "deck") == 52

    deck = belpunk / "deck.yaml"
    _edit(deck, STEAM, STEAM.replace("to: 13", "to: 12"))
    _edit(deck, GEARS, STEAM_13 + GEARS)
    stdout = _build(belpunk, out, "--changed-since", "last")
    assert "recorded print 2" in stdout
    assert "reprint since print 1: 1 piece(s) to print" in stdout

    # The record: exactly one drawing differs, the face of Steam 13; the YAML restructuring changed nothing else.
    before, after = _faces(_record(out, 1)), _faces(_record(out, 2))
    assert len(before) == len(after) == 54
    changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert [(b[0], b[1] != a[1], b[2] != a[2]) for b, a in changed] == [("13 · Steam", True, False)]

    reprint = out / "belpunk" / "belpunk-reprint.pdf"
    swap = _pages(reprint)[0]
    assert "Reprint: Belpunk Haberdasher" in swap and "compared with print 1" in swap
    assert "13 · Steam" in swap and "Belpunk deck" in swap and "face" in swap
    assert "1 piece(s) to print" in swap and "Nothing changed" not in swap
    pieces = _piece_pages(reprint)
    assert _count(pieces, "Machine Order") == 1  # one face, no other card's
    assert _count(pieces, "Draw three cards") == 1
    assert _count(pieces, MOTTO) == 0  # its back did not change: not reprinted

    # An earlier print by number (the same comparison: the same bytes, no date in the PDF),
    # and a print that does not exist.
    kept = reprint.read_bytes()
    by_number = _build(belpunk, out, "--changed-since", "1")
    assert "no change since print 2" in by_number and "reprint since print 1: 1 piece(s)" in by_number
    assert reprint.read_bytes() == kept
    missing = run_cli("build", str(belpunk), "--out", str(out), "--changed-since", "9")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert "has no print 9" in missing.stderr and "recorded prints: 1, 2" in missing.stderr
    assert reprint.read_bytes() == kept
    assert not (out / "belpunk" / "prints" / "0003.json").exists()
    for bad in ("zero", "0", "-1"):
        wrong = run_cli("build", str(belpunk), "--out", str(out), "--changed-since", bad)
        assert wrong.returncode == 2 and "expected 'last' or a print number" in wrong.stderr


def test_a_comment_changes_nothing_and_the_reprint_says_so(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(belpunk, out)
    _edit(belpunk / "deck.yaml", "fields: [", "# a designer's note, not drawn anywhere\nfields: [")
    stdout = _build(belpunk, out, "--changed-since", "last")
    assert "no change since print 1: no new print recorded" in stdout
    assert "nothing changed since print 1: nothing to reprint" in stdout
    assert not (out / "belpunk" / "prints" / "0002.json").exists()
    pages = _pages(out / "belpunk" / "belpunk-reprint.pdf")
    assert len(pages) == 1 and "Nothing changed since that print" in pages[0]


def test_a_new_common_back_reprints_every_back_and_no_face(belpunk: Path, tmp_path: Path):
    out = tmp_path / "out"
    _build(belpunk, out)
    # The back now comes from the game's own copy of the layout: another file, the same drawing.
    mine = belpunk / "layouts" / "mine"
    mine.mkdir(parents=True)
    shutil.copy(ROOT / "layouts" / "belpunk" / "deck_back.yaml", mine / "deck_back.yaml")
    _edit(belpunk / "deck.yaml", "back: {layout: belpunk/deck_back}", "back: {layout: mine/deck_back}")
    same = _build(belpunk, out, "--changed-since", "last")
    assert "nothing changed since print 1" in same

    _edit(mine / "deck_back.yaml", MOTTO, "The Biennial Steampunk Ball")
    stdout = _build(belpunk, out, "--changed-since", "last")
    assert "recorded print 2" in stdout and "reprint since print 1: 52 piece(s) to print" in stdout
    reprint = out / "belpunk" / "belpunk-reprint.pdf"
    swap = " ".join(t for t in _pages(reprint) if "Reprint:" in t)
    assert swap.count("back") >= 52 and "13 · Electricity" in swap and "face and back" not in swap
    pieces = _piece_pages(reprint)
    assert _count(pieces, "The Biennial Steampunk Ball") == 52
    assert _count(pieces, "Machine Order") == 0  # no face


def test_stamp_marks_every_piece_with_the_print_number_without_changing_the_fingerprint(tmp_path: Path):
    game = make_game(tmp_path / "tiny")  # "One" is a card with 3 copies
    out = tmp_path / "out"

    def stamps(pdf: Path) -> list[str]:
        """The runs of text set at the stamp's size, upright or on a turned card (the font size as set, read with
        pdfium, not a glyph box's height)."""
        import pypdfium2
        import pypdfium2.raw as pdfium_raw

        found: list[str] = []
        for page in pypdfium2.PdfDocument(pdf):
            text, run = page.get_textpage(), ""
            for n in range(text.count_chars()):
                char = chr(pdfium_raw.FPDFText_GetUnicode(text, n))
                if abs(pdfium_raw.FPDFText_GetFontSize(text, n) - STAMP_SIZE) < 0.01 and not char.isspace():
                    run += char
                elif run:
                    found, run = [*found, run], ""
            found += [run] if run else []
        return found

    assert "recorded print 1" in _build(game, out)
    assert stamps(out / "tiny" / "cards.pdf") == []
    stamped = _build(game, out, "--stamp")
    assert "no change since print 1" in stamped  # the stamp is not part of the recorded drawing
    assert stamps(out / "tiny" / "cards.pdf") == ["P1"] * 6 + ["P1"] * 6  # 6 faces, 6 backs (duplex)

    _edit(game / "cards.csv", "Hello", "Howdy")
    stdout = _build(game, out, "--stamp", "--changed-since", "last")
    assert "recorded print 2" in stdout and "3 piece(s) to print" in stdout
    reprint = out / "tiny" / "tiny-reprint.pdf"
    swap = _pages(reprint)[0]
    # The tiny game's back shows the card's text too, so both sides of the three copies changed.
    assert "3 × One Cards face and back" in swap and "carry the stamp P2" in swap
    pieces = _piece_pages(reprint)
    assert _count(pieces, "Howdy") == 6 and _count(pieces, "Bye") == 0
    assert stamps(reprint) == ["P2"] * 6
    assert stamps(out / "tiny" / "cards.pdf") == ["P2"] * 12

    # One "Three" fewer, a new card "Four": listed to take out and to add; only "Four" is printed.
    _edit(game / "cards.csv", "Three,3,Bye,2\n", "Three,3,Bye,1\nFour,4,Hi,1\n")
    changed = _build(game, out, "--changed-since", "last")
    assert "recorded print 3" in changed and "1 piece(s) to print; 1 to take out" in changed
    swap = _pages(reprint)[0]
    assert "Add: new pieces (1) count piece component what changed 1 × Four Cards new: whole piece" in swap
    assert "Take out: pieces no longer in the game (1) count piece component what changed 1 × Three Cards take out" in swap
    pieces = _piece_pages(reprint)
    assert _count(pieces, "Four") == 1 and _count(pieces, "Hi") == 2 and _count(pieces, "Bye") == 0  # face and back


def test_the_last_print_kept_beside_its_record_is_the_record_and_yields_to_an_edited_record(belpunk: Path, tmp_path: Path):
    """The next build compares with the last print through ``prints/.last`` (marshal, stamped with the record's
    JSON): it reads back the very record the JSON holds, and once the JSON is another file it is the JSON that
    counts (a designer who edits a record by hand sees the edit)."""
    from punchboard.generator import prints

    from punchboard.incremental import print_memos

    out = tmp_path / "out"
    folder = out / "belpunk"
    last = folder / "prints" / print_memos.LAST_FILE
    _build(belpunk, out)
    _edit(belpunk / "deck.yaml", GEARS, STEAM_13 + GEARS)
    assert "recorded print 2" in _build(belpunk, out)
    kept = prints.load(folder, 2)
    assert last.is_file()
    last.unlink()
    assert prints.load(folder, 2) == kept  # what the JSON holds
    _edit(belpunk / "deck.yaml", STEAM_13 + GEARS, GEARS)
    assert "recorded print 3" in _build(belpunk, out)
    record = folder / "prints" / "0003.json"
    data = json.loads(record.read_text(encoding="utf-8"))
    from_marshal = prints.load(folder, 3)
    last.rename(last.with_name("aside"))
    assert prints.load(folder, 3) == from_marshal
    last.with_name("aside").rename(last)
    rows = data["pieces"] if "pieces" in data else [row for row in data["changes"] if "same" not in row]
    rows[0]["face"] = "edited by hand"
    record.write_text(json.dumps(data, indent=1), encoding="utf-8")
    assert "edited by hand" in [piece.face for piece in prints.load(folder, 3).pieces]
