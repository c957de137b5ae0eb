"""The combined print-and-play PDF with duplex backs: two-sided components first, each starting on
a front (odd) page, then every one-sided component with no blank reverses between them; the cover
says which pages to print duplex and which single-sided (generator/document/sections.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from punchboard.generator.document.sections import plan_combined
from pypdf import PdfReader

from tests.conftest import ROOT, run_cli

FIXTURE = ROOT / "tests" / "fixtures" / "parts"
FOOTER = re.compile(r"Parts Fixture · (.+?) · page (\d+)/(\d+)")
CARDS = """\
id: {id}
kind: deck
name: {name}
size: poker
layout: base/card
{back}
cards:
  - {{name: One, count: 7}}
"""
# game order: a one-sided deck first, then the fixture's parts, then a two-sided deck last
FIRST = CARDS.format(id="plain", name="Plain cards", back="back: none")
LAST = CARDS.format(id="backed", name="Backed cards", back="back: {layout: base/card}")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sections") / "parts"
    shutil.copytree(FIXTURE, folder)
    (folder / "plain.yaml").write_text(FIRST, encoding="utf-8")
    (folder / "backed.yaml").write_text(LAST, encoding="utf-8")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("components:\n", "components:\n  - plain.yaml\n").replace("  - dice.yaml", "  - dice.yaml\n  - backed.yaml")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def _read(pdf: Path) -> tuple[list[str], list[str]]:
    """Each page's text, and the component its footer names ('' for none: a blank page)."""
    with pdfplumber.open(pdf) as doc:
        texts = [page.extract_text() or "" for page in doc.pages]
    names = []
    for text in (page.extract_text() or "" for page in PdfReader(pdf).pages):  # pypdf reads a footer turned up the side too
        found = FOOTER.search(text)
        names.append(found.group(1) if found else "")
    return texts, names


def _build(game: Path, out: Path, *flags: str) -> Path:
    result = run_cli("build", str(game), "--out", str(out), "--quiet", *flags)
    assert result.returncode == 0, result.stderr
    return out / "parts_fixture"


def _blanks(texts: list[str]) -> int:
    return sum("intentionally blank" in t for t in texts)


@pytest.fixture(scope="module")
def duplex(game: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(game, tmp_path_factory.mktemp("duplex"))


def test_duplex_gathers_one_sided_parts_after_the_two_sided_ones_without_blank_reverses(duplex: Path) -> None:
    folder = duplex
    texts, names = _read(folder / "parts_fixture-print-and-play.pdf")
    assert names[:4] == ["contents", "bill of materials", "duplex calibration", "duplex calibration"]
    components: dict[str, list[str]] = {}  # name -> its PDF's page texts
    for pdf in sorted(folder.glob("*.pdf")):
        if pdf.name.endswith("print-and-play.pdf") or pdf.name == "duplex-calibration.pdf":
            continue
        own_texts, own_names = _read(pdf)
        components[next(n for n in own_names if n)] = own_texts
    expected_two = ["Big board", "Ground tiles", "Backed cards"]  # the components whose YAML gives a back
    # the one blank page of the combined PDF is the board's own (its assembly map's reverse)
    assert _blanks(texts) == sum(_blanks(t) for t in components.values()) == 1
    assert len(texts) == 4 + sum(len(t) for t in components.values())
    # print order: the two-sided components in the game's order, then the one-sided ones
    order = list(dict.fromkeys(n for n in names[4:] if n))
    one_sided = ["Plain cards", "Score track", "Rides", "Inventor tents", "Reference card"]
    assert order == expected_two + one_sided
    first = {n: names.index(n) + 1 for n in order}
    last = {n: len(names) - names[::-1].index(n) for n in order}
    for name in expected_two:
        assert first[name] % 2 == 1 and (last[name] - first[name] + 1) % 2 == 0, (name, first[name], last[name])
    double_end = max(last[n] for n in expected_two)
    assert double_end + 1 == first["Plain cards"]
    cover = " ".join(texts[0].split())
    assert f"Print pages 1–{double_end} duplex, flip on the long edge" in cover, cover
    assert f"Print pages {double_end + 1}–{len(texts)} single-sided" in cover, cover
    for name in order:
        count = last[name] - first[name] + 1
        span = f"{first[name]}" if count == 1 else f"{first[name]}–{last[name]}"
        assert f"{name}: " in cover and f"{count} page{'s' if count > 1 else ''}: {span} (" in cover, (name, span, cover)


def test_duplex_pages_are_the_component_pages_unchanged(duplex: Path) -> None:
    """Backs register per card in the combined PDF as in the component PDF: the same page content,
    each back page right after its fronts page."""
    folder = duplex
    combined = PdfReader(folder / "parts_fixture-print-and-play.pdf")
    streams = [page.get_contents().get_data() for page in combined.pages]
    for file in ("backed.pdf", "ground.pdf", "rides.pdf", "plain.pdf"):
        own = [page.get_contents().get_data() for page in PdfReader(folder / file).pages]
        start = streams.index(own[0])
        assert streams[start:start + len(own)] == own, file
        if file in ("backed.pdf", "ground.pdf"):
            assert start % 2 == 0  # 0-based: the component's fronts page is an odd page of the PDF


@pytest.mark.parametrize("backs", ["none", "separate"])
def test_other_back_modes_keep_the_game_order(game: Path, tmp_path: Path, backs: str) -> None:
    folder = _build(game, tmp_path, "--backs", backs)
    texts, names = _read(folder / "parts_fixture-print-and-play.pdf")
    order = list(dict.fromkeys(n for n in names[2:] if n))
    # with no backs the ground tiles print one side too, and share sheets with the rides (generator/impose/shared_sheets.py)
    tiles = ["Shared tiles (print group)"] if backs == "none" else ["Ground tiles", "Rides"]
    assert order == ["Plain cards", "Big board", "Score track", *tiles, "Inventor tents", "Reference card", "Backed cards"]
    assert "single-sided" not in " ".join(texts[0].split())


def test_a_two_sided_component_after_an_odd_one_starts_on_a_fresh_sheet() -> None:
    plan = plan_combined(4, [("a", ["front", "back"]), ("odd", ["front", "back", "front"]), ("b", ["front", "back"]),
                             ("one", ["front"]), ("two", ["front", "front", "front"])], duplex=True)
    assert plan.order == ("a", "odd", None, "b", "one", "two")
    assert plan.pages == {"a": (5, 6), "odd": (7, 9), "b": (11, 12), "one": (13, 13), "two": (14, 16)}
    assert (plan.double_sided, plan.single_sided, plan.total, plan.blanks) == ((1, 12), (13, 16), 16, 1)
