"""Bleed is an offset of the cut outline, in every mode: read back from the PDFs a build writes.

For every token shape (tests/fixtures/shaped_tokens: gear, hexagon, pentagon, splat,
rounded, 18 mm two-sided circles) and every bundled game, the distance from each
cut outline to the edge of the art showing around it is at least the declared bleed,
or the build warned with that measured figure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from punchboard.cli import main
from punchboard.plumbing.paths import COMPONENTS
from tests.pdf_geometry import MM, cut_outlines, kept_bleeds, page_geometry

FIXTURE = Path(__file__).parents[2] / "fixtures" / "shaped_tokens"
CUT_STROKE = 0.4  # layouts/sheet.yaml tokens.cut_stroke
DIE_STROKE = 0.25  # the CutContour die line of --print-shop
DECLARED = 3.0
TOL = 0.01  # mm: the read-back flattens curves into chords
WARNED = re.compile(r"(\S+) / (\S+): tokens keep ([\d.]+) mm of the declared ([\d.]+) mm bleed")


def build(target: Path | str, out: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, float]:
    """Build; the measured figure each warned-about component was reported with."""
    assert main(["build", str(target), "--out", str(out), "--quiet", "--force", *flags]) == 0
    err = capsys.readouterr().err
    return {m.group(2): float(m.group(3)) for m in WARNED.finditer(err)}


def kept_in(pdf: Path, stroke: float) -> list[float]:
    kept: list[float] = []
    width = f"{stroke:g} w".removeprefix("0").encode()  # reportlab writes ".4 w"
    for page in PdfReader(pdf).pages:
        if width not in page.get_contents().get_data():
            continue  # no line of the cut stroke's width on this page: nothing to measure
        geometry = page_geometry(page)
        cuts = cut_outlines(geometry, stroke)
        if cuts:
            kept += kept_bleeds(geometry, cuts)
    return kept


def assert_kept_or_warned(folder: Path, warned: dict[str, float], stroke: float = CUT_STROKE) -> dict[str, float]:
    """Every token PDF's least kept bleed, checked against the declared bleed and the warnings."""
    least, counts = {}, {}
    for pdf in sorted(folder.glob("*.pdf")):
        if pdf.stem.endswith("-print-and-play"):
            continue  # assembled from the component PDFs measured here
        kept = kept_in(pdf, stroke)
        if not kept:
            continue
        least[pdf.stem], counts[pdf.stem] = min(kept), len(kept)
        if pdf.stem in warned:
            assert min(kept) == pytest.approx(warned[pdf.stem], abs=0.006), pdf.name  # the warning states what is there
            assert min(kept) < DECLARED
        else:
            assert min(kept) >= DECLARED - TOL, f"{pdf.name}: {min(kept):.3f} mm kept of {DECLARED} mm, and no warning"
    if folder.name == "shaped":  # every token of the test game was found and measured
        faces = {"gears": 14, "hexagons": 12, "pentagons": 12, "splats": 20, "discs": 40, "rounded": 12}
        # one-sided tokens of several components packed together (their own PDFs hold them too)
        shared = counts.pop("shared_tokens", 0)
        for name, count in counts.items():
            assert count in (faces[name], 2 * faces[name]), (name, count)  # fronts, or fronts and backs
        assert shared <= sum(faces.values()), shared
    return least


def test_every_shape_keeps_the_full_bleed_on_a_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    warned = build(FIXTURE, tmp_path, capsys)
    assert warned == {}
    least = assert_kept_or_warned(tmp_path / "shaped", warned)
    # every shape measured, each within 0.01 mm of the declared bleed (an offset, not a scaled-up outline)
    assert set(least) - {"shared_tokens"} == {"gears", "hexagons", "pentagons", "splats", "discs", "rounded"}
    assert all(v == pytest.approx(DECLARED, abs=TOL) for v in least.values()), least


def test_print_shop_pages_keep_the_bleed_around_the_die_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    warned = build(FIXTURE, tmp_path, capsys, "--print-shop", "--bleed", "3mm")
    least = assert_kept_or_warned(tmp_path / "shaped", warned, DIE_STROKE)
    assert {"gears", "hexagons", "pentagons", "splats"} <= set(least)


@pytest.mark.parametrize(("paper", "spaced"), [("letter", True), ("a4", False)])
def test_gutterfold_keeps_the_bleed_or_says_what_it_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str], paper: str, spaced: bool) -> None:
    """40 two-sided 18 mm discs: on Letter the full-bleed sheet holds them all (auto spaces them);
    on A4 inside a 6.35 mm unprintable margin it would cost a page, so they are packed closer and
    the build says by how much."""
    margin = ("--unprintable", "6.35") if paper == "a4" else ()
    warned = build(FIXTURE, tmp_path, capsys, "--backs", "gutterfold", "--paper", paper, *margin)
    least = assert_kept_or_warned(tmp_path / "shaped", warned)
    assert ("discs" in warned) is not spaced
    if not spaced:
        assert 0.2 < least["discs"] < 1.0
    full = build(FIXTURE, tmp_path / "gutter", capsys, "--backs", "gutterfold", "--paper", paper, "--bleed-policy", "gutter", *margin)
    assert full == {}
    assert assert_kept_or_warned(tmp_path / "gutter" / "shaped", full)["discs"] >= DECLARED - TOL


def test_silhouette_cut_files_keep_the_bleed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from shapely.geometry import Polygon

    warned = build(FIXTURE, tmp_path, capsys, "--cut", "silhouette")
    assert warned == {}
    folder = tmp_path / "shaped"
    for name in ("gears", "hexagons", "pentagons", "splats"):
        reader = PdfReader(folder / f"{name}.pdf")
        svg = (folder / f"{name}-silhouette-01.svg").read_text()
        height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
        cuts = []
        for d in re.findall(r' d="([^"]+)"', svg):
            numbers = [float(v) for v in re.findall(r"-?[\d.]+", d)]
            cuts.append(Polygon([(x * MM, (height - y) * MM) for x, y in zip(numbers[::2], numbers[1::2], strict=True)]))
        kept = kept_bleeds(page_geometry(reader.pages[0]), cuts)
        assert min(kept) >= DECLARED - TOL, (name, min(kept))


@pytest.mark.parametrize("game", sorted(p.name for p in COMPONENTS.iterdir() if (p / "game.yaml").exists()))
def test_bundled_games_keep_the_bleed_or_warn(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str) -> None:
    for flags in ((), ("--backs", "gutterfold", "--paper", "a4")):
        out = tmp_path / "-".join(flags or ("sheets",))
        warned = build(game, out, capsys, *flags)
        assert_kept_or_warned(out / game, warned)


DECK = """\
id: deck
kind: deck
size: poker
layout: face
back: {layout: back}
fields: [label]
cards:
  - range: {field: label, from: 1, to: 8}
"""
CARD_WARNING = re.compile(r"deck: bleed ([\d.]+) mm left/right, ([\d.]+) mm top/bottom of the declared 3 mm \((\d+)-up.*?\)(.*)")


def card_bleed_read_back(pdf: Path) -> tuple[float, float]:
    """(left/right, top/bottom) in mm: each card's art (its form's box, clipped) against the crop marks inside it."""
    from tests.pdf_content import page_level

    bx = by = 99.0
    for page in PdfReader(pdf).pages:
        height = float(page.mediabox.height)
        xs, ys = page_level(page).cuts(0.3)  # layouts/sheet.yaml crop_marks.stroke; y from the top
        cut_ys = [height - y for y in ys]
        for form in page_geometry(page).forms:
            x0, y0, x1, y1 = form.bounds
            inside_x = [x for x in xs if x0 < x < x1]
            inside_y = [y for y in cut_ys if y0 < y < y1]
            bx = min(bx, (min(inside_x) - x0) / MM, (x1 - max(inside_x)) / MM)
            by = min(by, (min(inside_y) - y0) / MM, (y1 - max(inside_y)) / MM)
    return bx, by


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_gutterfold_card_warnings_state_what_is_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str], paper: str) -> None:
    game = tmp_path / "game"
    (game / "layouts").mkdir(parents=True)
    (game / "game.yaml").write_text("id: cardy\ntitle: Cardy\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n")
    (game / "deck.yaml").write_text(DECK)
    for name in ("face", "back"):
        (game / "layouts" / f"{name}.yaml").write_text((FIXTURE / "layouts" / f"{name}.yaml").read_text())
    margin = ["--unprintable", "6.35"] if paper == "a4" else []  # inside 4.23 mm a full-bleed pair stacks on A4 too
    # a policy the user names warns (under the default auto the same figures are a note: test_auto_bleed.py)
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--backs", "gutterfold", "--bleed-policy", "shared",
                 "--paper", paper, *margin]) == 0
    warning = CARD_WARNING.search(capsys.readouterr().err)
    assert warning is not None
    bx, by = card_bleed_read_back(tmp_path / "out" / "cardy" / "deck.pdf")
    assert float(warning.group(1)) == pytest.approx(bx, abs=0.006)
    assert float(warning.group(2)) == pytest.approx(by, abs=0.006)
    hint = warning.group(4)
    # on A4 inside 6.35 mm a poker front and its back with 3 mm bleed stack only turned 90° (2 a sheet)
    up = int(re.search(r"gutter keeps 3 mm, (\d+)-up", hint).group(1))  # type: ignore[union-attr]
    assert paper != "a4" or up == 2
    assert main(["build", str(game), "--out", str(tmp_path / "gutter"), "--quiet", "--backs", "gutterfold", "--bleed-policy", "gutter",
                 "--paper", paper, *margin]) == 0
    assert "deck: bleed" not in capsys.readouterr().err
    first = PdfReader(tmp_path / "gutter" / "cardy" / "deck.pdf").pages[0]
    assert len(page_geometry(first).forms) == 2 * up  # the hint's count: fronts and their backs
    assert min(card_bleed_read_back(tmp_path / "gutter" / "cardy" / "deck.pdf")) == pytest.approx(3.0, abs=0.006)
