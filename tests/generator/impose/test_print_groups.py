"""Print groups: decks of one group share sheets (generator/impose/groups.py), written as
<group>.pdf and used in the combined PDF; backs still register per card; a changed member
re-imposes the group. Through the CLI, PDFs read back."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import run_cli

GAME = "id: grp\ntitle: Grp\nplayers: {min: 2, max: 4}\ncomponents: [alpha.yaml, loose.yaml, beta.yaml]\n"


def _deck(key: str, names: list[str], group: str | None) -> str:
    cards = "".join(f"  - {{name: {n}, back: {{fields: {{name: b{n}}}}}}}\n" for n in names)
    grouping = f"print_group: {group}\n" if group else ""
    return f"id: {key}\nkind: deck\nsize: poker\nlayout: base/card\nback: {{layout: base/card}}\n{grouping}cards:\n{cards}"


ALPHA = [f"A{n}" for n in range(1, 11)]  # 10 cards: a full sheet of 9 and one more
BETA = [f"B{n}" for n in range(1, 5)]  # 4 cards: with A10 they fill 5 slots of the second sheet
LOOSE = [f"L{n}" for n in range(1, 3)]


def _write(folder: Path, beta: list[str] = BETA) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "alpha.yaml").write_text(_deck("alpha", ALPHA, "court"), encoding="utf-8")
    (folder / "beta.yaml").write_text(_deck("beta", beta, "court"), encoding="utf-8")
    (folder / "loose.yaml").write_text(_deck("loose", LOOSE, None), encoding="utf-8")
    return folder


def _build(game: Path, out: Path, *flags: str) -> str:
    result = run_cli("build", str(game), "--out", str(out), "--verbose", *flags)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _cards(pdf: Path) -> list[dict[str, tuple[float, float]]]:
    """Per page: each card name drawn on it -> the centre of its word."""
    pages = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            words = page.extract_words()
            pages.append({w["text"]: ((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2) for w in words
                          if w["text"].lstrip("b")[:1] in "ABL" and w["text"].lstrip("b")[1:].isdigit()})
    return pages


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    root = tmp_path_factory.mktemp("groups")
    game, out = _write(root / "grp"), root / "out"
    return game, out, _build(game, out)


def test_members_fill_each_others_sheets_and_backs_register_per_card(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    folder = out / "grp"
    pages = _cards(folder / "court.pdf")
    assert len(pages) == 4  # 14 cards, 9 a Letter sheet: 2 sheets, fronts and backs
    fronts, backs = pages[0::2], pages[1::2]
    assert set(fronts[0]) == set(ALPHA[:9])
    assert set(fronts[1]) == {"A10", *BETA}  # Beta's cards fill Alpha's part-filled sheet
    width = float(pdfplumber.open(folder / "court.pdf").pages[0].width)
    for front, back in zip(fronts, backs, strict=True):
        assert set(back) == {f"b{name}" for name in front}
        for name, (x, y) in front.items():
            bx, by = back[f"b{name}"]
            # duplex-long: the back of the card at (row, col) sits at (row, cols-1-col) on the reverse
            assert abs(bx - (width - x)) < 0.5 and abs(by - y) < 0.5, (name, (x, y), (bx, by))
    # each member still writes its own PDF, to reprint it alone
    assert [set(p) for p in _cards(folder / "beta.pdf")][0] == set(BETA)
    assert len(_cards(folder / "alpha.pdf")) == 4


def test_the_combined_pdf_prints_the_shared_sheets_once(built: tuple[Path, Path, str]) -> None:
    _, out, _ = built
    folder = out / "grp"
    combined = _cards(folder / "grp-print-and-play.pdf")
    court, loose = _cards(folder / "court.pdf"), _cards(folder / "loose.pdf")
    # cover, bill of materials, calibration sheet, then the group where Alpha stood, then Loose
    assert combined[4:] == court + loose
    assert len(combined) == 4 + len(court) + len(loose)
    with pdfplumber.open(folder / "grp-print-and-play.pdf") as doc:
        cover = " ".join(doc.pages[0].extract_text().split())
        bom = "".join(doc.pages[1].extract_text().split())  # its small grey print reads without spaces
    assert "Court (print group): Alpha, Beta: 14 cards — 4 pages: 5–8 (court.pdf)" in cover, cover
    assert "Printgroupcourt:alpha,betashare2sheets(4pages,areabound1.41)" in bom, bom
    assert "3sheetsinall" in bom, bom  # 2 shared sheets and Loose's 1, not Alpha's 2 + Beta's 1 + Loose's 1


def test_a_changed_member_reimposes_the_group_and_nothing_else(built: tuple[Path, Path, str], tmp_path: Path) -> None:
    game, out, first = built
    assert f"drew {out / 'grp' / 'court.pdf'}" in first
    again = _build(game, out)
    assert f"reused {out / 'grp' / 'court.pdf'}" in again and "drew" not in again
    changed = tmp_path / "changed"
    shutil_copy(game, changed)
    (changed / "beta.yaml").write_text(_deck("beta", [*BETA, "B5"], "court"), encoding="utf-8")
    out2 = tmp_path / "out2"
    _build(changed, out2)  # a first build into a fresh folder …
    before = (out2 / "grp" / "court.pdf").read_bytes()
    (changed / "beta.yaml").write_text(_deck("beta", [*BETA, "B6"], "court"), encoding="utf-8")
    log = _build(changed, out2)  # … then one member changed
    assert f"drew {out2 / 'grp' / 'beta.pdf'}" in log and f"drew {out2 / 'grp' / 'court.pdf'}" in log
    assert f"reused {out2 / 'grp' / 'alpha.pdf'}" in log and f"reused {out2 / 'grp' / 'loose.pdf'}" in log
    after = (out2 / "grp" / "court.pdf").read_bytes()
    assert after != before and "B6" in _cards(out2 / "grp" / "court.pdf")[2]
    clean = tmp_path / "clean"
    _build(changed, clean)
    for name in ("court.pdf", "grp-print-and-play.pdf"):
        assert (out2 / "grp" / name).read_bytes() == (clean / "grp" / name).read_bytes(), name


def test_print_shop_files_print_every_member_on_its_own(built: tuple[Path, Path, str], tmp_path: Path) -> None:
    game, _, _ = built
    _build(game, tmp_path, "--print-shop")
    folder = tmp_path / "grp"
    assert not (folder / "court.pdf").exists()
    assert len(_cards(folder / "grp-print-and-play.pdf")) == 2 + 2 * (len(ALPHA) + len(BETA) + len(LOOSE))


def shutil_copy(source: Path, target: Path) -> None:
    import shutil

    shutil.copytree(source, target)


def _tokens(key: str, shape: str, size: str, names: list[str]) -> str:
    tokens = "".join(f"  - {{name: {n}}}\n" for n in names)
    return f"id: {key}\nkind: tokens\nshape: {shape}\nsize: {size}\nlayout: base/card\nback: none\nprint_group: chits\ntokens:\n{tokens}"


def test_tokens_of_different_sizes_and_shapes_share_a_sheet(tmp_path: Path) -> None:
    game = tmp_path / "tok"
    game.mkdir()
    (game / "game.yaml").write_text("id: tok\ntitle: Tok\nplayers: {min: 2, max: 4}\ncomponents: [round.yaml, square.yaml]\n",
                                    encoding="utf-8")
    rounds, squares = [f"R{n}" for n in range(1, 11)], [f"S{n}" for n in range(1, 4)]
    (game / "round.yaml").write_text(_tokens("round", "circle", "20mm", rounds), encoding="utf-8")
    (game / "square.yaml").write_text(_tokens("square", "square", "30mm", squares), encoding="utf-8")
    _build(game, tmp_path / "out")
    folder = tmp_path / "out" / "tok"
    assert len(_pages(folder / "round.pdf")) == len(_pages(folder / "square.pdf")) == 1  # two part-filled sheets …
    shared = _pages(folder / "chits.pdf")
    assert len(shared) == 1  # … make one
    mm = 72 / 25.4
    with pdfplumber.open(folder / "chits.pdf") as doc:
        page = doc.pages[0]
        words = {w["text"]: w for w in page.extract_words()}
        assert set(rounds + squares) <= set(words)
        # each token is cut along its own outline, at its own size: 10 circles of 20 mm, 3 squares of 30 mm
        outlines = [(round((o["x1"] - o["x0"]) / mm, 1), round((o["bottom"] - o["top"]) / mm, 1))
                    for o in (*page.curves, *page.rects) if o.get("stroke") and abs(o.get("linewidth", 0) - 0.4) < 0.01]
    assert sorted(outlines) == [(20.0, 20.0)] * 10 + [(30.0, 30.0)] * 3, outlines
    combined = _pages(folder / "tok-print-and-play.pdf")
    assert sum("· Chits (print group) · page" in text for text in combined) == 1
    assert not any("· Round ·" in text or "· Square ·" in text for text in combined)


def _pages(pdf: Path) -> list[str]:
    with pdfplumber.open(pdf) as doc:
        return [page.extract_text() or "" for page in doc.pages]


def test_two_sided_token_groups_in_separate_mode_put_every_back_after_the_fronts(tmp_path: Path) -> None:
    game = tmp_path / "tok"
    game.mkdir()
    (game / "game.yaml").write_text("id: tok\ntitle: Tok\nplayers: {min: 2, max: 4}\ncomponents: [round.yaml, square.yaml]\n",
                                    encoding="utf-8")
    # 60 + 20 two-sided tokens: more than one sheet
    (game / "round.yaml").write_text(_tokens("round", "circle", "20mm", [f"R{n}" for n in range(1, 61)])
                                     .replace("back: none", "back: {layout: base/card}"), encoding="utf-8")
    (game / "square.yaml").write_text(_tokens("square", "square", "30mm", [f"S{n}" for n in range(1, 21)])
                                      .replace("back: none", "back: {layout: base/card}"), encoding="utf-8")
    _build(game, tmp_path / "out", "--backs", "separate")
    texts = [" ".join(t.split()) for t in _pages(tmp_path / "out" / "tok" / "chits.pdf")]
    fronts = [t for t in texts if "fronts: cut along the solid outlines" in t]
    backs = [t for t in texts if "backs of page" in t]
    assert len(fronts) == len(backs) >= 2 and texts == fronts + backs
    for number, text in enumerate(backs, start=1):
        assert f"backs of page {number} of this component" in text, text


def test_a_group_that_takes_more_sheets_than_its_members_apart_says_so(tmp_path: Path) -> None:
    game = tmp_path / "tok"
    game.mkdir()
    (game / "game.yaml").write_text("id: tok\ntitle: Tok\nplayers: {min: 2, max: 4}\ncomponents: [round.yaml, other.yaml]\n",
                                    encoding="utf-8")
    # 40 round 28 mm tokens fill a Letter sheet packed in offset rows; shelf-packed together, 80 take 3 sheets
    (game / "round.yaml").write_text(_tokens("round", "circle", "28mm", [f"R{n}" for n in range(1, 41)]), encoding="utf-8")
    (game / "other.yaml").write_text(_tokens("other", "circle", "28mm", [f"O{n}" for n in range(1, 41)]), encoding="utf-8")
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "tok"
    apart = len(_pages(folder / "round.pdf")) + len(_pages(folder / "other.pdf"))
    shared = len(_pages(folder / "chits.pdf"))
    assert (apart, shared) == (2, 3)
    assert ("warning: tok / chits: print group 'chits' takes 3 sheets, more than the 2 its members take printed apart"
            in result.stderr), result.stderr
    (game / "other.yaml").write_text(_tokens("other", "circle", "28mm", ["O1"]), encoding="utf-8")
    ok = run_cli("build", str(game), "--out", str(tmp_path / "out2"), "--quiet")
    assert ok.returncode == 0 and "print group" not in ok.stderr, ok.stderr  # 41 tokens: 2 sheets either way
