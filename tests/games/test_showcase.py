"""The showcase (Harbour Lights): the bundled game that uses each look feature of issue #41, built once through the
CLI in both its languages and read back from the PDFs, one proof per feature: its own .otf and the bundled
families embedded and drawing what they should; the player aid's 3-column table, numbered list with hanging
indents, hyphenated justified note and coloured span; each card's coins as many as its cost; the board's 31
track numbers and its 25 hexes filled as board/map.csv says; the gradient shadings, the circular clip of the
picture and the translucent plate; the German text in de/. Expected values are written here by hand from the
game's files, never computed from them."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pdfplumber
import pikepdf
import pytest

from punchboard.cli import main

MM = 72 / 25.4
COSTS = {"Herring Catch": 1, "Salt Barrels": 2, "Oak Timber": 3, "Pepper Sacks": 4, "Saffron Chest": 5,
         "Cod Barrels": 2, "Mast Pine": 6}  # cargo.csv's cost column
HEXES = {"#6fa8dc": 12, "#b7dcef": 8, "#d8c9a3": 5}  # deep, shallows, land: board/map.csv's 25 cells
BRASS, CRIMSON, SAND, SHADOW = "#c9a227", "#a4161a", "#f3e9d2", "#0b1a2e"


def _run(*args: str) -> tuple[int, str]:
    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        code = main(list(args))
    return code, err.getvalue() + out.getvalue()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one build of this module: both languages, under out/showcase/en and out/showcase/de."""
    out = tmp_path_factory.mktemp("showcase")
    code, said = _run("build", "showcase", "--lang", "all", "--out", str(out), "--quiet")
    assert code == 0, said
    assert "warning" not in said, said
    return out / "showcase"


def _same(found: Any, hexa: str) -> bool:
    want = tuple(int(hexa[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return isinstance(found, tuple) and len(found) == 3 and all(abs(a - b) < 0.003 for a, b in zip(found, want, strict=True))


def _not_shadow(obj: dict[str, Any]) -> bool:
    """Not a character of a title's drop shadow (drawn in #0b1a2e under the title's own)."""
    return obj.get("object_type") != "char" or not _same(obj.get("non_stroking_color"), SHADOW)


def _filled(page: Any, hexa: str) -> list[Any]:
    return [s for s in (*page.rects, *page.curves) if s.get("fill") and _same(s.get("non_stroking_color"), hexa)]


def _forms(pdf: pikepdf.Pdf) -> Iterator[pikepdf.Object]:
    """Every form XObject the pages draw (each drawn side is one), once each."""
    seen: set[tuple[int, int]] = set()
    todo = [page.obj for page in pdf.pages]
    while todo:
        for xobject in todo.pop().get("/Resources", {}).get("/XObject", {}).values():
            if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                todo.append(xobject)
                yield xobject


def test_check_and_verify_say_nothing_wrong(built: Path) -> None:
    code, said = _run("check", "showcase")
    assert code == 0 and "warning" not in said, said
    code, said = _run("verify", "showcase", "--out", str(built.parent / "verify"), "--trials", "200")
    assert code == 0, said


def test_the_games_own_otf_and_the_bundled_families_are_embedded_and_used(built: Path) -> None:
    with pdfplumber.open(built / "en" / "cargo.pdf") as pdf:
        fonts = {c["fontname"].split("+")[-1] for c in pdf.pages[0].chars}
    assert {"HarbourMono-Regular", "DejaVuSerifCondensed-Bold", "DejaVuSerif"} <= fonts, fonts
    with pdfplumber.open(built / "en" / "board.pdf") as pdf:
        chars = pdf.pages[0].chars
    symbols = {c["text"] for c in chars if c["fontname"].endswith("+DejaVuSans")}
    assert symbols == {"✱", "⚑", "⚓", "⚖", "☠"}, symbols  # the map's marks, in the bundled Symbols face
    embedded = pikepdf.open(built / "en" / "board.pdf")
    holders = [page.obj for page in embedded.pages] + list(_forms(embedded))
    files = [f for f in (font.get("/FontDescriptor", {}) for holder in holders
                         for font in holder.get("/Resources", {}).get("/Font", {}).values())
             if str(f.get("/FontName", "")).endswith("HarbourMono-Regular")]
    assert files and all("/FontFile2" in f for f in files)  # the .otf's CFF outlines, embedded as TrueType


def test_the_player_aid_has_a_table_a_numbered_list_a_hyphenated_note_and_a_coloured_span(built: Path) -> None:
    with pdfplumber.open(built / "en" / "aid.pdf") as pdf:
        page = pdf.pages[0]
        first = page.within_bbox((0, 0, page.width / 2, page.height / 2))  # the top-left ledger
        words = first.extract_words(x_tolerance=1)  # words are set apart by position, not by space characters
        chars = first.chars
    names = [w for w in words if w["text"] in ("Herring", "Salt", "Timber", "Pepper", "Saffron")]
    assert len(names) == 5 and len({round(w["x0"], 1) for w in names}) == 1  # column 2: left aligned
    numbers = [w for w in words if w["text"] in "12345" and any(abs(w["top"] - n["top"]) < 1 and w["x1"] < n["x0"] for n in names)]
    assert len(numbers) == 5 and len({round(w["x1"], 1) for w in numbers}) == 1  # column 1: right aligned
    effects = [min((w for w in words if abs(w["top"] - n["top"]) < 1 and w["x0"] > n["x1"]), key=lambda w: w["x0"])
               for n in names]
    assert len({round(w["x0"], 1) for w in effects}) == 1  # column 3: left aligned, right of column 2
    assert max(w["x1"] for w in numbers) < names[0]["x0"] < effects[0]["x0"]
    buy = next(w for w in words if w["text"] == "Buy")
    marker = next(w for w in words if w["text"] == "1." and abs(w["top"] - buy["top"]) < 1)
    wrapped = min((w for w in words if 0 < w["top"] - buy["top"] < 12), key=lambda w: w["x0"])  # item 1's 2nd line
    assert marker["x1"] < buy["x0"] and abs(wrapped["x0"] - buy["x0"]) < 0.5  # a hanging indent
    assert "Who-" in [w["text"] for w in words]  # "whoever" hyphenated at the end of a justified line
    red = "".join(c["text"] for c in chars if _same(c.get("non_stroking_color"), CRIMSON))
    assert "score7" in red.replace(" ", "") and "30" in red


def test_each_card_draws_as_many_coins_as_its_cost(built: Path) -> None:
    seen: Counter[str] = Counter()
    with pdfplumber.open(built / "en" / "cargo.pdf") as pdf:
        for page in pdf.pages:
            plates = [p for p in _filled(page, SAND) if abs(p["width"] - 57.5 * MM) < 1]
            coins = [c for c in _filled(page, BRASS) if abs(c["width"] - 6 * MM) < 0.3]  # each coin's outer disc
            words = page.filter(_not_shadow).extract_words(x_tolerance=1)
            for plate in plates:
                top = plate["top"] - 50 * MM
                inside = [c for c in coins if plate["x0"] <= c["x0"] <= plate["x1"] and top < c["top"] < plate["top"]]
                title = " ".join(w["text"] for w in words if plate["x0"] - 1 <= w["x0"] <= plate["x1"]
                                 and top - 3 * MM < w["top"] < top + 8 * MM and not w["text"].isdigit())
                assert title in COSTS, title
                assert len(inside) == COSTS[title], (title, len(inside))
                seen[title] += 1
    assert sum(seen.values()) == 20 and set(seen) == set(COSTS)


def test_the_board_has_a_0_to_30_track_and_25_hexes_from_the_csv(built: Path) -> None:
    with pdfplumber.open(built / "en" / "board.pdf") as pdf:
        page = pdf.pages[0]
        numbers = [w["text"] for w in page.extract_words(extra_attrs=["fontname"])
                   if w["fontname"].endswith("HarbourMono-Regular")]
        hexes = {colour: [s for s in _filled(page, colour) if 20 * MM < s["width"] < 30 * MM] for colour in HEXES}
    assert sorted(numbers, key=int) == [str(n) for n in range(31)]
    assert {colour: len(found) for colour, found in hexes.items()} == HEXES
    widths = {round(s["width"], 1) for found in hexes.values() for s in found}
    assert len(widths) == 1  # one hex size


def _clips(form: pikepdf.Object) -> list[tuple[int, float, float]]:
    """Each clip path of a drawn side: its number of curve segments and its width and height."""
    found, points, curves = [], [], 0
    for operands, op in pikepdf.parse_content_stream(form):
        name = str(op)
        if name in ("m", "l"):
            points.append((float(operands[0]), float(operands[1])))
        elif name == "c":
            points.append((float(operands[4]), float(operands[5])))
            curves += 1
        elif name == "re":
            x, y, w, h = (float(v) for v in operands)
            points += [(x, y), (x + w, y + h)]
        elif name in ("W", "W*"):
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            found.append((curves, max(xs) - min(xs), max(ys) - min(ys)))
        elif name in ("n", "f", "f*", "S", "B", "b", "s"):
            points, curves = [], 0
    return found


def test_gradients_a_circular_picture_and_opacity(built: Path) -> None:
    pdf = pikepdf.open(built / "en" / "cargo.pdf")
    fronts = [f for f in _forms(pdf) if any(x.get("/Subtype") == "/Image" for x in f.Resources.get("/XObject", {}).values())]
    assert len(fronts) == 7  # one drawn side per kind of cargo card
    for form in fronts:
        shadings = [int(s.ShadingType) for s in form.Resources.get("/Shading", {}).values()]
        assert 2 in shadings  # the sky: an axial shading, vector
        circles = [(w, h) for curves, w, h in _clips(form) if curves == 4]
        assert any(abs(w - 29 * MM) < 0.2 and abs(h - 29 * MM) < 0.2 for w, h in circles), circles
        alphas = {float(g.ca) for g in form.Resources.get("/ExtGState", {}).values() if "/ca" in g}
        assert 0.88 in {round(a, 2) for a in alphas}  # the translucent plate
    backs = pikepdf.open(built / "en" / "aid.pdf")
    radial = [int(s.ShadingType) for f in _forms(backs) for s in f.Resources.get("/Shading", {}).values()]
    assert 3 in radial  # the card back's harbour light: a radial shading


def test_the_german_build_has_the_german_texts(built: Path) -> None:
    def letters(path: Path) -> str:
        """The PDF's characters, without the titles' shadow copies and without spaces."""
        with pdfplumber.open(path) as pdf:
            return "".join(c["text"] for page in pdf.pages for c in page.chars if _not_shadow(c)).replace(" ", "")

    german, english = letters(built / "de" / "cargo.pdf"), letters(built / "en" / "cargo.pdf")
    for words in ("Heringsfang", "Salzfässer", "Nimm1ausderBank", "Zählleiste", "Safrantruhe"):
        assert words in german and words not in english, words
    assert "HerringCatch" in english and "HerringCatch" not in german
    aid = letters(built / "de" / "aid.pdf")
    assert "BuchdesHafenmeisters" in aid and "Gleichstand" in aid and "jederzahlt1" in aid
