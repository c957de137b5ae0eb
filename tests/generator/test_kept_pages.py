"""Kept pages (generator/document/kept_pages.py): a one-card edit draws the sheets that card is on and copies
the deck's other pages from the last build's PDF; every file is byte for byte what a clean build writes, the
warnings are the same, and so is the print recorded.

Through the CLI as a designer uses it: build, edit, build again; the clean build to compare with is
``build --force`` into another folder. The edits are generated (seeded) to reach what copying must get right:
a page whose document differs before it (new glyphs, which move TrueType subset codes), an edit that makes one
card's face the same as another's (one form fewer: every later object moves), cards added and removed, warnings
a copied page must give again, and a PDF that is not the one the last build wrote.
"""

from __future__ import annotations

import json
import marshal
import random
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.generator.test_kept_sides import EDITS, WORDS, _deck, _edit

CARDS = 40  # 5 sheets of fronts and 5 of backs, 9-up on Letter


def _build(game: Path, out: Path, *flags: str) -> tuple[str, str]:
    """Build as a designer does; the clean build this one is compared with (:func:`_same_as_clean`) is given
    the prints recorded before it, so both decide alike whether this is a new print."""
    history = out / "kept" / "prints"
    if history.is_dir():
        shutil.rmtree(out.parent / "history", ignore_errors=True)
        shutil.copytree(history, out.parent / "history")
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "1", "--verbose", *flags)
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


def _copied(stdout: str) -> tuple[int, int]:
    """Pages copied from the last build, of how many (0, 0 when the report says none were)."""
    line = next(line for line in stdout.splitlines() if "distinct side" in line)
    if "copied" not in line:
        return 0, 0
    words = line.split(";")[1].split()
    return int(words[0]), int(words[2])


def _newest_print(out: Path) -> object:
    newest = max((out / "kept" / "prints").glob("*.json"))
    return {k: v for k, v in json.loads(newest.read_text(encoding="utf-8")).items() if k != "date"}


def _same_as_clean(game: Path, out: Path, clean: Path, stderr: str) -> None:
    """The last build into ``out`` wrote what a build that copies nothing writes into ``clean``, given the same
    prints recorded before it."""
    shutil.rmtree(clean, ignore_errors=True)
    if (out.parent / "history").is_dir():
        shutil.copytree(out.parent / "history", clean / "kept" / "prints")
    result = run_cli("build", str(game), "--out", str(clean), "--jobs", "1", "--verbose", "--force")
    assert result.returncode == 0, result.stderr
    assert stderr == result.stderr, "the warnings differ from a clean build's"
    made = sorted(p.relative_to(clean) for p in clean.rglob("*.pdf"))
    assert made, "the clean build wrote no PDF"
    for name in made:
        assert (out / name).read_bytes() == (clean / name).read_bytes(), f"{name} differs from a clean build"
    assert _newest_print(out) == _newest_print(clean), "the print recorded differs from a clean build's"


def test_one_edited_card_copies_every_other_page_and_matches_a_clean_build(tmp_path: Path):
    game = _deck(tmp_path, CARDS)
    out = tmp_path / "out"
    assert _copied(_build(game, out)[0]) == (0, 0)
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 22,", "Card 22 (tweaked),") for row in rows])
    stdout, stderr = _build(game, out)
    # drawn: the sheet with card 22 and its backs (whose warnings would name the card); the first page is copied
    # too, the document's fonts fixed before it (draw/kept.py: a page that changes the fonts is never copied)
    assert _copied(stdout) == (8, 10)
    _same_as_clean(game, out, tmp_path / "clean", stderr)
    stdout, stderr = _build(game, tmp_path / "clean", "--force")
    assert _copied(stdout) == (0, 0)  # --force copies nothing


def _twin(rows: list[str], rng: random.Random) -> list[str]:
    """A card made the same as another (its face then places the other's form: one object fewer)."""
    at, like = rng.sample(range(len(rows)), 2)
    rows[at] = rows[like]
    return rows


def _add(rows: list[str], rng: random.Random) -> list[str]:
    text = " ".join(rng.choice(WORDS) for _ in range(6)).capitalize() + "."
    rows.insert(rng.randrange(len(rows) + 1), f"Card {rng.randrange(100, 999)},number,3,,{text}")
    return rows


def _one_word(rows: list[str], rng: random.Random) -> list[str]:
    at = rng.randrange(len(rows))
    cells = rows[at].split(",")
    cells[4] = cells[4].replace(" ", f" {rng.choice(WORDS)} ", 1)
    rows[at] = ",".join(cells)
    return rows


def _kind(rows: list[str], rng: random.Random) -> list[str]:
    """A card of another kind shows other fixed elements (generator/draw/fixed_forms.py): the form of a run may
    now be drawn first on another page, or no longer be drawn where a later page's copy expects it."""
    at = rng.randrange(len(rows))
    name, kind, value, _, text = rows[at].split(",", 4)
    kind = rng.choice([other for other in ("number", "special", "dual") if other != kind])
    rows[at] = f"{name},{kind},{value},{int(value) + 6 if kind == 'dual' else ''},{text}"
    return rows


PAGE_EDITS = {**EDITS, "twin": _twin, "add": _add, "one word": _one_word, "kind": _kind}


def _accented(game: Path) -> Path:
    """Every fourth card's text ends in a character outside ASCII, from the first sheet on: a page that shows it is
    written with the subset code it was given when first used, so a new character on an earlier page changes it."""
    _edit(game / "cards.csv", lambda rows: [row + "é" if n % 4 == 1 else row for n, row in enumerate(rows)])
    return game


def test_a_new_character_on_the_first_sheet_redraws_the_pages_whose_codes_it_moves(tmp_path: Path):
    game = _accented(_deck(tmp_path, CARDS))
    out = tmp_path / "out"
    _build(game, out)
    _edit(game / "cards.csv", lambda rows: [rows[0].replace("Card 1,", "Card 1 Œ,"), *rows[1:]])  # drawn before 'é'
    stdout, stderr = _build(game, out)
    assert _copied(stdout)[0] < 5  # every back sheet may be copied; no front sheet showing 'é' may
    _same_as_clean(game, out, tmp_path / "clean", stderr)


@pytest.mark.parametrize("seed", range(3))
def test_generated_edit_sequences_match_a_clean_build_after_every_step(tmp_path: Path, seed: int):
    rng = random.Random(100 + seed)
    game = _accented(_deck(tmp_path, CARDS, seed))
    out = tmp_path / "out"
    _build(game, out)
    copied = 0
    for step in range(4):
        name = rng.choice(sorted(PAGE_EDITS))
        _edit(game / "cards.csv", lambda rows, name=name: PAGE_EDITS[name](rows, rng))
        stdout, stderr = _build(game, out)
        copied += _copied(stdout)[0]
        _same_as_clean(game, out, tmp_path / f"clean{step}", stderr)
    _edit(game / "cards.csv", lambda rows: _one_word(rows, rng))
    stdout, stderr = _build(game, out)
    assert _copied(stdout)[0] > 0, "a one-word edit copied no page"
    _same_as_clean(game, out, tmp_path / "clean_last", stderr)


def test_a_run_form_first_drawn_on_another_page_matches_a_clean_build(tmp_path: Path):
    """Every card a number but card 30, a dual: its dial and gear are a run form first drawn on the fourth sheet.
    Card 2 made a dual draws that form on the first sheet (the fourth's copy would add it again); made a number
    again, the first sheet draws it no more (the fourth's copy would refer to a form not drawn)."""
    game = _deck(tmp_path, CARDS)
    _edit(game / "cards.csv", lambda rows: [_as_kind(row, "dual" if n == 29 else "number") for n, row in enumerate(rows)])
    out = tmp_path / "out"
    _build(game, out)
    for step, kind in enumerate(("dual", "number")):
        _edit(game / "cards.csv", lambda rows, kind=kind: [_as_kind(rows[0], "number"), _as_kind(rows[1], kind), *rows[2:]])
        stdout, stderr = _build(game, out)
        assert _copied(stdout)[0] > 0
        _same_as_clean(game, out, tmp_path / f"clean{step}", stderr)


def _as_kind(row: str, kind: str) -> str:
    name, _, value, _, text = row.split(",", 4)
    return f"{name},{kind},{value},{int(value) + 6 if kind == 'dual' else ''},{text}"


def test_a_card_added_to_the_last_sheet_copies_the_sheets_before_it(tmp_path: Path):
    """The new card's form moves the number of every object written after it (content streams, fonts, the page
    tree): the copied pages refer to them by their new numbers."""
    game = _deck(tmp_path, CARDS)
    out = tmp_path / "out"
    _build(game, out)
    _edit(game / "cards.csv", lambda rows: [*rows, "Card 41,number,5,,Five."])
    stdout, stderr = _build(game, out)
    assert _copied(stdout) == (8, 10)  # drawn: the last sheet with its backs
    _same_as_clean(game, out, tmp_path / "clean", stderr)


def test_a_card_made_the_same_as_a_later_one_copies_the_sheets_before_it(tmp_path: Path):
    """Card 12 becomes card 30: its face is drawn on the second sheet, a new form in place of card 12's, so the third
    sheet's document is as before and it is copied; on the fourth, card 30 places that form again instead of
    adding one, and from there on the side forms are named one apart from before: those sheets are drawn."""
    game = _deck(tmp_path, CARDS)
    out = tmp_path / "out"
    _build(game, out)
    rows = (game / "cards.csv").read_text(encoding="utf-8").splitlines()
    _edit(game / "cards.csv", lambda rows_: [rows[30] if row.startswith("Card 12,") else row for row in rows_])
    stdout, stderr = _build(game, out)
    assert _copied(stdout) == (4, 10)  # the first and the third sheet, each with its backs
    _same_as_clean(game, out, tmp_path / "clean", stderr)


def test_a_copied_page_gives_its_warnings_again(tmp_path: Path):
    game = _deck(tmp_path, CARDS)
    long = " ".join(["boiler"] * 120) + "."
    _edit(game / "cards.csv", lambda rows: [row.rsplit(",", 1)[0] + f",{long}" if row.startswith("Card 22,") else row
                                            for row in rows])
    out = tmp_path / "out"
    _, first = _build(game, out)
    assert "'Card 22'" in first, "the long text gave no warning to carry"  # a special card, on the third sheet
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 30,", "Card 30b,") for row in rows])
    stdout, stderr = _build(game, out)
    assert _copied(stdout)[0] > 0
    assert "'Card 22'" in stderr
    _same_as_clean(game, out, tmp_path / "clean", stderr)


def test_a_pdf_changed_since_the_last_build_is_not_copied_from(tmp_path: Path):
    game = _deck(tmp_path, CARDS)
    out = tmp_path / "out"
    _build(game, out)
    deck = out / "kept" / "deck.pdf"
    data = bytearray(deck.read_bytes())
    data[len(data) // 2] ^= 0x01  # one flipped bit, the file's size the same
    deck.write_bytes(bytes(data))
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 5,", "Card 5b,") for row in rows])
    stdout, stderr = _build(game, out)
    assert _copied(stdout) == (0, 0)
    _same_as_clean(game, out, tmp_path / "clean", stderr)


def test_damaged_page_records_are_pages_to_draw_never_a_wrong_file(tmp_path: Path):
    game = _deck(tmp_path, CARDS)
    out = tmp_path / "out"
    _build(game, out)
    records = out / "kept" / ".punchboard-sides" / "deck.pages"
    data = records.read_bytes()
    records.write_bytes(data[: len(data) // 2])
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 6,", "Card 6b,") for row in rows])
    stdout, stderr = _build(game, out)
    assert _copied(stdout) == (0, 0)
    _same_as_clean(game, out, tmp_path / "clean", stderr)
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 6b,", "Card 6c,") for row in rows])
    stdout, stderr = _build(game, out)
    assert _copied(stdout)[0] > 0  # the records were written whole again
    _same_as_clean(game, out, tmp_path / "clean2", stderr)


def test_a_record_that_points_at_the_wrong_bytes_writes_the_deck_again_drawing_every_page(tmp_path: Path):
    """A copy that is not where its record says (a record of another file that happens to carry this one's stamp)
    is found as it is written: the component is written again, every page drawn, and nothing of the failed attempt
    (its warnings, its counts) is left."""
    game = _deck(tmp_path, CARDS)
    out = tmp_path / "out"
    _build(game, out)
    records = out / "kept" / ".punchboard-sides" / "deck.pages"
    head, pdf_stamp, doc_key, pages = marshal.loads(records.read_bytes())
    page = list(pages[6])
    page[4] = tuple((at + 1, length) for at, length in page[4])  # every object of the fourth sheet, one byte on
    pages[6] = tuple(page)
    records.write_bytes(marshal.dumps((head, pdf_stamp, doc_key, pages)))
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 40,", "Card 40b,") for row in rows])
    stdout, stderr = _build(game, out)
    assert _copied(stdout) == (0, 0)
    assert "deck: 1 distinct side drawn, 40 kept from the last build" in stdout  # the edited face, counted once
    _same_as_clean(game, out, tmp_path / "clean", stderr)


def test_the_copied_objects_are_written_a_run_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A one-card edit writes the objects its copied pages keep under their old numbers as runs of the old file's
    bytes (kept_runs.py), not object by object; the file is still the clean build's."""
    from punchboard.generator.document import kept_runs

    from punchboard.cli import main

    game = _deck(tmp_path, CARDS)
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 31,", "Card 31 (tweaked),") for row in rows])
    in_runs: list[int] = []
    copy_run = kept_runs._copy_run

    def counting(out_file, handle, run, offsets, ids):  # type: ignore[no-untyped-def]
        in_runs.append(len(run))
        copy_run(out_file, handle, run, offsets, ids)

    monkeypatch.setattr(kept_runs, "_copy_run", counting)
    assert main(["build", str(game), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    monkeypatch.setattr(kept_runs, "_copy_run", copy_run)
    assert main(["build", str(game), "--out", str(clean), "--jobs", "1", "--quiet", "--force"]) == 0
    deck = out / "kept" / "deck.pdf"
    assert deck.read_bytes() == (clean / "kept" / "deck.pdf").read_bytes()
    objects = int(deck.read_bytes().rsplit(b"/Size ", 1)[1].split()[0]) - 1
    # 8 of its 10 pages copied (the edited sheet and its backs are drawn)
    assert sum(in_runs) > objects * 0.45 and len(in_runs) <= 5, (sum(in_runs), objects, in_runs)
