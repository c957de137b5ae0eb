"""Kept sides (generator/draw/kept.py, punchboard/incremental/side_store.py): an edited card redraws that card's side,
the rest of its deck is replayed from the last build, and the files are byte for byte a clean build's.

Through the CLI as a designer uses it: build, edit the CSV, build again; the clean build to compare with is
``build --force`` into another folder, which finds no kept side. Edits are generated (seeded) so they reach
what replaying must get right: new glyphs (TrueType subset codes are given in order of first use), an
edit on the first card (which moves every later first use), removed and reordered cards, a layout change.
"""

from __future__ import annotations

import marshal
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from punchboard.incremental.sealed import read_sealed_strict, write_sealed
from punchboard.incremental.side_store import FOLDER, SideStore
from tests.conftest import ROOT, run_cli

WORDS = "gear steam brass copper court queen engineer trick quarter valve piston boiler rivet spring dial".split()
ODD = "ÆØÅéèçß€ŒœžŽ"  # characters outside ASCII: each gets a subset code when first used


def _deck(folder: Path, cards: int, seed: int = 1) -> Path:
    rng = random.Random(seed)
    game = folder / "game"
    game.mkdir(parents=True, exist_ok=True)
    lines = ["name,kind,value,alt,text"]
    for index in range(1, cards + 1):
        kind = ("number", "special", "dual")[index % 3]
        value = index % 12 + 1
        alt = value + 6 if kind == "dual" else ""
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(4, 16))).capitalize() + "."
        lines.append(f"Card {index},{kind},{value},{alt},{text}")
    (game / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (game / "deck.yaml").write_text(
        "id: deck\nkind: deck\nname: Text deck\nsize: poker\nlayout: steam_court/gear_card\n"
        "back: {layout: steam_court/gear_back}\nfields: [kind, value, alt, text]\ncsv: cards.csv\n", encoding="utf-8")
    (game / "game.yaml").write_text(
        "id: kept\ntitle: Kept sides\nplayers: {min: 1, max: 4}\ncomponents: [deck.yaml]\n"
        "palette: {brass: '#b8893a', brass_light: '#e2c27d', copper: '#a4532b', soot: '#231f1c', paper: '#f3e9d2'}\n",
        encoding="utf-8")
    return game


def _build(game: Path, out: Path, *flags: str) -> str:
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "1", "--verbose", *flags)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _sides(stdout: str) -> tuple[int, int]:
    line = next(line for line in stdout.splitlines() if "distinct side" in line)
    words = line.split()
    return int(words[1]), int(words[5])


def _same_as_clean(game: Path, out: Path, clean: Path) -> None:
    _build(game, clean, "--force")
    made = sorted(p.relative_to(clean) for p in clean.rglob("*.pdf"))
    assert made, "the clean build wrote no PDF"
    for name in made:
        assert (out / name).read_bytes() == (clean / name).read_bytes(), f"{name} differs from a clean build"


def _own_layout(game: Path, name: str, extends: str, element: str) -> None:
    """A layout of the game's own that adds ``element`` to ``extends``, and the deck drawn with it instead."""
    layouts = game / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / f"{name}.yaml").write_text(f"extends: {extends}\nelements:\n  - {element}\n", encoding="utf-8")
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(f"layout: {extends}", f"layout: {name}"), encoding="utf-8")


def _edit(csv: Path, change: Callable[[list[str]], list[str]]) -> None:
    lines = csv.read_text(encoding="utf-8").splitlines()
    csv.write_text("\n".join([lines[0], *change(lines[1:])]) + "\n", encoding="utf-8")


def test_one_edited_card_redraws_one_side_and_matches_a_clean_build(tmp_path: Path):
    game = _deck(tmp_path, 30)
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert _sides(_build(game, out)) == (31, 0)  # 30 faces and the common back
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 17,", "Card 17 (tweaked),") for row in rows])
    assert _sides(_build(game, out)) == (1, 30)
    _same_as_clean(game, out, clean)
    assert _sides(_build(game, clean, "--force")) == (31, 0)  # --force finds nothing kept


def _new_glyphs(rows: list[str], rng: random.Random) -> list[str]:
    at = rng.randrange(len(rows))
    name, rest = rows[at].split(",", 1)
    rows[at] = f"{name} {''.join(rng.sample(ODD, 3))},{rest}"
    return rows


def _first_card(rows: list[str], rng: random.Random) -> list[str]:
    name, rest = rows[0].split(",", 1)
    rows[0] = f"{name}{rng.choice(ODD)}{rng.choice(WORDS)},{rest}"
    return rows


def _remove(rows: list[str], rng: random.Random) -> list[str]:
    del rows[rng.randrange(len(rows))]
    return rows


def _reorder(rows: list[str], rng: random.Random) -> list[str]:
    rng.shuffle(rows)
    return rows


def _rule_text(rows: list[str], rng: random.Random) -> list[str]:
    at = rng.randrange(len(rows))
    cells = rows[at].split(",")
    cells[4] = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(10, 30))).capitalize() + "!"
    rows[at] = ",".join(cells)
    return rows


EDITS = {"new glyphs": _new_glyphs, "first card": _first_card, "remove": _remove, "reorder": _reorder,
         "rule text": _rule_text}


@pytest.mark.parametrize("seed", range(3))
def test_generated_edit_sequences_match_a_clean_build_after_every_step(tmp_path: Path, seed: int):
    rng = random.Random(seed)
    game = _deck(tmp_path, 14, seed)
    out = tmp_path / "out"
    _build(game, out)
    for step in range(4):
        name = rng.choice(sorted(EDITS))
        _edit(game / "cards.csv", lambda rows, name=name: EDITS[name](rows, rng))
        _build(game, out)
        _same_as_clean(game, out, tmp_path / f"clean{step}")


def test_a_layout_change_redraws_every_side_that_uses_it(tmp_path: Path):
    game = _deck(tmp_path, 12)
    out = tmp_path / "out"
    _build(game, out)
    layouts = game / "layouts"
    layouts.mkdir()
    shutil.copy(ROOT / "layouts" / "steam_court" / "gear_card.yaml", layouts / "mine.yaml")
    text = (layouts / "mine.yaml").read_text(encoding="utf-8")
    (layouts / "mine.yaml").write_text(text.replace("34pt", "30pt", 1), encoding="utf-8")
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("layout: steam_court/gear_card", "layout: mine"),
                    encoding="utf-8")
    assert _sides(_build(game, out)) == (12, 1)  # every face anew; the back is the same
    _same_as_clean(game, out, tmp_path / "clean")


def test_a_damaged_store_is_a_side_to_draw_again_never_a_wrong_page(tmp_path: Path):
    game = _deck(tmp_path, 10)
    out = tmp_path / "out"
    _build(game, out)
    folder = out / "kept"
    store = folder / FOLDER / "deck.sides"
    index = SideStore(folder, "deck", "")._index
    records = sorted(index.values())
    assert len(records) == 11
    data = bytearray(store.read_bytes())
    offset, length = records[4]
    data[offset + length - 100] ^= 0x01  # a flipped bit in one side's stream
    offset, length = records[-1]
    store.write_bytes(bytes(data[: offset + length // 2]))  # a torn last record
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 3,", "Card 3b,") for row in rows])
    pages = folder / FOLDER / "deck.pages"
    pages.unlink()  # every page is drawn, so every side is needed (pages copied from the PDF: test_kept_pages.py)
    drawn, kept = _sides(_build(game, out))
    assert (drawn, kept) == (3, 8)  # the edited card, and the two sides whose records were damaged
    _same_as_clean(game, out, tmp_path / "clean")
    store.write_bytes(b"garbage\n")
    pages.unlink()
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 3b,", "Card 3c,") for row in rows])
    assert _sides(_build(game, out)) == (11, 0)
    _same_as_clean(game, out, tmp_path / "clean2")


def test_the_index_kept_beside_the_store_is_trusted_only_for_its_file_and_never_over_a_record(tmp_path: Path):
    """``deck.sides.index`` says where each record lies so the next build need not read every head: it is read
    only while its stamp is the store's, and a place it gives that holds another record is a side to draw again."""
    game = _deck(tmp_path, 10)
    out = tmp_path / "out"
    _build(game, out)
    folder = out / "kept"
    store, index_file = folder / FOLDER / "deck.sides", folder / FOLDER / "deck.sides.index"
    head, at, index = marshal.loads(read_sealed_strict(index_file))
    assert SideStore(folder, "deck", "")._index == index and len(index) == 11  # what reading every record gives
    keys = sorted(index, key=index.__getitem__)
    wrong = {**index, keys[6]: index[keys[8]], keys[8]: index[keys[6]]}  # two places swapped, the stamp kept
    write_sealed(index_file, marshal.dumps((head, at, wrong)))
    (folder / FOLDER / "deck.pages").unlink()  # every page drawn, so every side is asked for
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 3,", "Card 3b,") for row in rows])
    assert _sides(_build(game, out)) == (3, 8)  # the edited card, and the two sides the index put in wrong places
    _same_as_clean(game, out, tmp_path / "clean")
    head, at, index = marshal.loads(read_sealed_strict(index_file))
    assert SideStore(folder, "deck", "")._index == index  # written again with the store
    store.write_bytes(store.read_bytes())  # the same records in a new file: another stamp, so the records are read
    write_sealed(index_file, marshal.dumps((head, at, {key: (0, 10) for key in index})))
    read = SideStore(folder, "deck", "")._index  # every record, the edited card's old face too
    assert set(index) <= set(read) and len(read) == len(index) + 1
    (folder / FOLDER / "deck.pages").unlink()
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 3b,", "Card 3c,") for row in rows])
    assert _sides(_build(game, out)) == (1, 10)
    _same_as_clean(game, out, tmp_path / "clean2")


def test_the_store_is_appended_to_and_written_anew_once_it_is_mostly_unused(tmp_path: Path):
    """A build appends the sides it drew to the kept file and leaves the others where they lie; once the file holds
    more than twice what the build used it is written anew with only those; a torn tail (a build killed while
    appending) is cut off first. After every step the PDFs are a clean build's and the index is the file's."""
    from punchboard.incremental.side_store import HEADER

    game = _deck(tmp_path, 12)
    out = tmp_path / "out"
    _build(game, out)
    folder = out / "kept"
    store = folder / FOLDER / "deck.sides"
    before = store.read_bytes()

    def used() -> int:
        return sum(length for _, length in SideStore(folder, "deck", "")._index.values())

    _edit(game / "cards.csv", lambda rows: [row.replace("Card 3,", "Card 3b,") for row in rows])
    assert _sides(_build(game, out)) == (1, 12)
    after = store.read_bytes()
    assert after.startswith(before) and len(after) > len(before)  # one record appended, the others where they were
    _same_as_clean(game, out, tmp_path / "clean1")
    _edit(game / "cards.csv", lambda rows: [row.replace(",", " again,", 1) for row in rows])  # every card renamed
    assert _sides(_build(game, out)) == (12, 1)
    assert len(HEADER) + used() < store.stat().st_size <= 2 * (len(HEADER) + used())  # half of it unused, not more
    _edit(game / "cards.csv", lambda rows: [row.replace(" again,", " anew,", 1) for row in rows])  # and again
    assert _sides(_build(game, out)) == (12, 1)
    assert store.stat().st_size == len(HEADER) + used()  # written anew: nothing in it unused
    _same_as_clean(game, out, tmp_path / "clean2")
    index = folder / FOLDER / "deck.sides.index"
    whole = store.read_bytes()
    store.write_bytes(whole + whole[len(HEADER):len(HEADER) + 200] + bytes(50_000))  # a torn record, then no record
    index.unlink()
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 5 anew,", "Card 5c,") for row in rows])
    assert _sides(_build(game, out)) == (1, 12)
    assert store.read_bytes().startswith(whole)
    indexed = SideStore(folder, "deck", "")._index
    index.unlink()
    read = SideStore(folder, "deck", "")._index  # every record read through: none torn in the middle of the file
    assert indexed.items() <= read.items() and max(at + length for at, length in read.values()) == store.stat().st_size
    _same_as_clean(game, out, tmp_path / "clean3")


def test_sides_that_use_the_documents_named_resources_are_drawn_each_time(tmp_path: Path):
    """A transparency state is named in order of use in a document: a side with opacity is not kept."""
    game = _deck(tmp_path, 6)
    _own_layout(game, "ghost", "steam_court/gear_card",
                "{id: mist, type: ellipse, box: bleed, x: 0, y: 6%, width: 100%, height: 40%, fill: brass, opacity: 0.25}")
    out = tmp_path / "out"
    assert _sides(_build(game, out)) == (7, 0)
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 2,", "Card 2b,") for row in rows])
    assert _sides(_build(game, out)) == (6, 1)  # only the common back (no opacity) was kept
    _same_as_clean(game, out, tmp_path / "clean")


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">'
       '<rect x="4" y="4" width="32" height="32" fill="{colour}"/></svg>')


def test_a_side_showing_an_svg_is_kept_and_drawn_again_when_the_file_changes(tmp_path: Path):
    game = _deck(tmp_path, 5)
    (game / "badge.svg").write_text(SVG.format(colour="#a4532b"), encoding="utf-8")
    (game / "photo.png").write_bytes(_png())
    _own_layout(game, "badged", "steam_court/gear_card",
                "{id: badge, type: image, box: trim, x: 2mm, y: 2mm, width: 8mm, height: 8mm, src: badge.svg}")
    _own_layout(game, "photo_back", "steam_court/gear_back",
                "{id: photo, type: image, box: trim, x: 2mm, y: 2mm, width: 8mm, height: 8mm, src: photo.png}")
    out = tmp_path / "out"
    assert _sides(_build(game, out)) == (6, 0)
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 4,", "Card 4b,") for row in rows])
    assert _sides(_build(game, out)) == (2, 4)  # the edited face, and the back with a raster image (never kept)
    _same_as_clean(game, out, tmp_path / "clean")
    (game / "badge.svg").write_text(SVG.format(colour="#231f1c"), encoding="utf-8")
    assert _sides(_build(game, out)) == (6, 0)
    _same_as_clean(game, out, tmp_path / "clean2")


def _png() -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (30, 30), "#8a5a2b").save(buffer, "PNG")
    return buffer.getvalue()


def test_kept_sides_under_jobs_and_leftovers_of_a_killed_build(tmp_path: Path):
    """Each worker of --jobs 2 reads and writes its own component's kept sides; a temporary file left by a
    build killed mid-write is removed by the next build."""
    game = tmp_path / "steam_court"
    shutil.copytree(ROOT / "components" / "steam_court", game)
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "2", "--verbose")
    assert result.returncode == 0, result.stderr
    leftover = out / "steam_court" / FOLDER / ".characters.sides.x1y2.part"
    leftover.write_bytes(b"half a record")
    characters = game / "characters.yaml"
    text = characters.read_text(encoding="utf-8")
    assert "Give one undesirable card to any player." in text
    characters.write_text(text.replace("Give one undesirable card to any player.", "Give one card to any player.", 1),
                          encoding="utf-8")
    result = run_cli("build", str(game), "--out", str(out), "--jobs", "2", "--verbose")
    assert result.returncode == 0, result.stderr
    assert "characters: 1 distinct side drawn, 23 kept from the last build" in result.stdout
    assert not leftover.exists()
    clean = tmp_path / "clean"
    assert run_cli("build", str(game), "--out", str(clean), "--jobs", "1", "--force").returncode == 0
    for pdf in sorted((clean / "steam_court").glob("*.pdf")):
        assert (out / "steam_court" / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name
