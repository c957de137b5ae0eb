"""Duplex short-edge backs stand to their fronts exactly as long-edge backs do, read back from Steam Court's
character cards (double-sided: the character on the front, its "Pass" side on the back, both naming it).

A long-edge flip turns the sheet over about its vertical axis: a point (x, y) of the back page lands on the
paper behind the front's (W − x, y). A short-edge flip turns it over about its horizontal axis: (x, y) lands
behind (x, H − y). Both prints must put every glyph of every back on the same spot of the paper, facing the
same way — so a cut card shows the same back, the same way up, whichever way the sheet was printed. Glyph
boxes come from pypdfium2's text page of the built PDFs (page coordinates, forms and turns included).
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pypdfium2
import pytest

from punchboard.spec.loader import load_game
from tests.conftest import ROOT, run_cli

Box = tuple[float, float, float, float]
FOOTER = 40.0  # points: the paper's bottom margin, below every card slot (the lowest card's trim starts at 73 pt)
NAMES = [str(piece.get("name")) for piece in load_game(ROOT / "components" / "steam_court").component("characters").pieces]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for mode in ("duplex-long", "duplex-short"):
        folder = tmp_path_factory.mktemp(mode)
        result = run_cli("build", "steam_court", "--backs", mode, "--out", str(folder), "--quiet", "--jobs", "1")
        assert result.returncode == 0, result.stderr
        out[mode] = folder / "steam_court" / "characters.pdf"
    return out


def _glyphs(pdf: Path) -> list[tuple[str, list[tuple[str, Box]]]]:
    """Each page's text and its glyphs' boxes (left, bottom, right, top), in points."""
    pages = []
    for page in pypdfium2.PdfDocument(str(pdf)):
        text = page.get_textpage()
        count = text.count_chars()
        pages.append((text.get_text_range(0, count), [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(count)]))
    return pages


def _find(page: tuple[str, list[tuple[str, Box]]], words: str) -> list[Box]:
    """The boxes of the visible glyphs of ``words`` on the page (exactly one occurrence; a line may break
    between words)."""
    text, glyphs = page
    found = list(re.finditer(r"\s+".join(map(re.escape, words.split())), text))
    assert len(found) == 1, (words, text)
    return [box for ch, box in glyphs[found[0].start():found[0].end()] if not ch.isspace()]


def _has(page: tuple[str, list[tuple[str, Box]]], words: str) -> bool:
    return re.search(r"\s+".join(map(re.escape, words.split())), page[0]) is not None


def _centre(boxes: list[Box]) -> tuple[float, float]:
    return (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2, (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2


def _on_paper(pdf: Path, index: int, flip: str) -> list[tuple[str, Box, tuple[float, float]]]:
    """Each visible glyph of a back page taken through its flip to the paper behind the front page: its character,
    box and baseline origin (which corner the origin is at tells which way up the glyph stands), sorted."""
    page = pypdfium2.PdfDocument(str(pdf))[index]
    width, height = page.get_size()
    text = page.get_textpage()
    out = []
    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        if char.isspace():
            continue
        left, bottom, right, top = text.get_charbox(i)
        x, y = ctypes.c_double(), ctypes.c_double()
        assert pypdfium2.raw.FPDFText_GetCharOrigin(text, i, ctypes.byref(x), ctypes.byref(y))
        if flip == "long":  # turned over about the vertical axis
            out.append((char, (width - right, bottom, width - left, top), (width - x.value, y.value)))
        else:  # about the horizontal axis
            out.append((char, (left, height - top, right, height - bottom), (x.value, height - y.value)))
    return sorted(out, key=lambda g: (g[0], round(g[1][0]), round(g[1][1])))


def _footer(glyph: tuple[str, Box, tuple[float, float]]) -> bool:
    """A glyph of the sheet's footer (ruler, page number, legend: upright on each page, in the margin that lands
    at the bottom of the paper), not of a piece."""
    return glyph[1][3] < FOOTER


def test_short_edge_backs_land_where_long_edge_backs_do_facing_the_same_way(built: dict[str, Path]):
    long_pages, short_pages = _glyphs(built["duplex-long"]), _glyphs(built["duplex-short"])
    assert len(long_pages) == len(short_pages) == 6  # three sheets: front, back, front, back …
    names = 0
    for sheet in range(0, len(long_pages), 2):
        assert long_pages[sheet] == short_pages[sheet]  # the fronts are the same page
        names += sum(_has(long_pages[sheet + 1], f"{n} · {name}") for n, name in enumerate(NAMES, start=1))
        on_long = _on_paper(built["duplex-long"], sheet + 1, "long")
        on_short = _on_paper(built["duplex-short"], sheet + 1, "short")
        assert any(_footer(g) for g in on_long) and any(_footer(g) for g in on_short)
        pieces_long = [g for g in on_long if not _footer(g)]
        pieces_short = [g for g in on_short if not _footer(g)]
        assert len(pieces_long) == len(pieces_short) > 100
        for (c0, box0, origin0), (c1, box1, origin1) in zip(pieces_long, pieces_short, strict=True):
            assert c0 == c1 and box0 == pytest.approx(box1, abs=0.05), (c0, box0, c1, box1)
            assert origin0 == pytest.approx(origin1, abs=0.05), (c0, origin0, origin1)  # the same way up
    assert names == len(NAMES)  # every character's back was on these pages


def test_a_long_edge_back_lies_behind_its_own_front(built: dict[str, Path]):
    """The long-edge back of each character is behind that character's front: centred on the mirrored slot
    (the name is centred on both sides), its "Pass" name line 38 % of the card's height below the front's name
    (81 % and 43 % from the top of a 120 mm card, layouts/steam_court/character*.yaml)."""
    pages = _glyphs(built["duplex-long"])
    width = pypdfium2.PdfDocument(str(built["duplex-long"]))[0].get_size()[0]
    card = 120 / 25.4 * 72
    checked = 0
    for sheet in range(0, len(pages), 2):
        for number, name in enumerate(NAMES, start=1):
            back_line = f"{number} · {name}"
            if not _has(pages[sheet + 1], back_line):
                continue
            front_x, front_y = _centre(_find(pages[sheet], name))
            back_x, back_y = _centre(_find(pages[sheet + 1], back_line))
            assert back_x == pytest.approx(width - front_x, abs=1.0), name
            assert front_y - back_y == pytest.approx(0.38 * card, abs=3.0), name
            checked += 1
    assert checked == len(NAMES)
