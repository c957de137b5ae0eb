"""Print audit of all five bundled games, measured from the PDFs a user gets: on Letter and A4 with
the default bleed policy, and on Letter with ``--bleed-policy gutter``, where poker cards lie turned
90° (6 a sheet against 4 upright), so every guarantee below holds for turned slots too.

- effective bleed between the cards of every card sheet (from the crop marks): at
  least the declared bleed, or the build warned naming the component (under the default ``auto``
  policy: the bill of materials notes it);
- crop marks only around occupied slots (every marked row and column holds a card);
- every duplex back exactly behind its front (0.000 mm), its form placed at the front's slot mirrored;
- no glyph outside the page's printable area (the 4.23 mm unprintable margin), on every page
  except the tiles of a board larger than the paper: a tile is the whole board
  drawn under a clip, and pdfplumber reports clipped glyphs too. The boards are
  checked unsplit in the print-shop build instead;
- ``--print-shop``: every page's TrimBox is a piece's declared trim and its
  BleedBox the trim grown by the declared bleed, for cards, tokens, tiles, sheets and boards;
  shaped pieces (and only they) carry a CutContour spot-colour die line.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PageObject, PdfReader

from punchboard.plumbing.paths import COMPONENTS, LAYOUTS
from punchboard.plumbing.units import parse_length
from punchboard.spec.loader import load_game
from punchboard.spec.model import Component, Game
from punchboard.spec.yamlsource import load_yaml
from tests.conftest import run_cli
from tests.pdf_content import PageLevel, page_level

GAMES = ("astonishing", "belpunk", "knights_vs_steambots", "steam_court", "steamark")
MM = 72 / 25.4
TOL = 0.05 * MM
MARK_STROKE = 0.3  # layouts/sheet.yaml crop_marks.stroke
PAPER_MARGIN = 4.23 * MM  # layouts/sheet.yaml unprintable: every page, cover and bill of materials included
GRID_KINDS = ("deck", "banknotes")


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {gid: load_game(COMPONENTS / gid) for gid in GAMES}


HOMES = {"letter": ("--paper", "letter"), "a4": ("--paper", "a4"), "letter-gutter": ("--paper", "letter", "--bleed-policy", "gutter")}


@pytest.fixture(scope="module", params=list(HOMES))
def home(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp(f"audit_{request.param}")
    result = run_cli("build", "--out", str(out), "--quiet", "--force", *HOMES[request.param])
    assert result.returncode == 0, result.stderr
    return out, result.stderr


def bleed_note(out: Path, gid: str, cid: str) -> str:
    """The bill of materials' bleed note for component or print group ``cid`` of game ``gid`` ('' for none)."""
    bom = json.loads((out / gid / "bom.json").read_text(encoding="utf-8"))
    entries = [*bom["components"], *bom.get("print_groups", [])]
    return " ".join(e["bleed_note"] for e in entries if "bleed_note" in e and cid in (e.get("id"), e.get("name"), *e.get("components", ())))


def slot_size(level: PageLevel, component: Component) -> tuple[float, float]:
    """The trim of a card's slot on this sheet as the crop marks show it: the card's own size, or
    its height across and its width down when the cards lie turned 90°."""
    assert component.size is not None
    width, height = component.size.width, component.size.height
    xs, ys = level.cuts(MARK_STROKE)

    def fits(across: float, down: float) -> bool:
        try:
            intervals(xs, across)
            intervals(ys, down)
        except AssertionError:
            return False
        return True

    return (width, height) if fits(width, height) else (height, width)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("audit_shop")
    result = run_cli("build", "--out", str(out), "--quiet", "--force", "--print-shop")
    assert result.returncode == 0, result.stderr
    return out


def declared_bleed(game: Game, component: Component) -> float:
    bleeds = [game.layouts[p.face.layout].bleed for p in component.pieces if p.face is not None]
    bleeds = [b for b in bleeds if b is not None]
    if bleeds:
        return max(bleeds)
    return parse_length(load_yaml(LAYOUTS / "sheet.yaml").data["bleed"])


def intervals(cuts: list[float], trim: float) -> tuple[list[tuple[float, float]], list[float]]:
    """The pieces (intervals one trim long) between cuts, and the gaps between neighbouring
    pieces (0 where they share a cut line)."""
    def piece_from(start: int) -> int | None:
        return next((k for k in range(start + 1, len(cuts)) if abs(cuts[k] - cuts[start] - trim) < TOL), None)

    pieces: list[tuple[float, float]] = []
    index = 0
    while index < len(cuts) - 1:
        end = piece_from(index)
        assert end is not None, f"no piece starts at the cut {cuts[index]:.2f} ({cuts})"
        pieces.append((cuts[index], cuts[end]))
        index = end if piece_from(end) is not None else end + 1
    gaps = [b[0] - a[1] for a, b in zip(pieces, pieces[1:], strict=False)]
    return pieces, gaps


def card_sheets(out: Path, games: dict[str, Game]) -> Iterator[tuple[str, Game, Component, int, PageLevel]]:
    """Every front page of every deck and banknote sheet (back pages carry no crop marks)."""
    for gid, game in games.items():
        for component in game.printed:
            if component.kind not in GRID_KINDS:
                continue
            for number, page in enumerate(PdfReader(out / gid / f"{component.id}.pdf").pages, start=1):
                level = page_level(page)
                if level.marks(MARK_STROKE):
                    yield gid, game, component, number, level


def art_bleed(page: PageObject, level: PageLevel, trim: tuple[float, float]) -> list[float]:
    """How far each placed card's art reaches past its trim on each edge, in points: the art is
    the form's bounding box (drawn up to the frame's bleed) within any clip the page sets around it."""
    forms = page["/Resources"]["/XObject"]
    reach: list[float] = []
    for name, (x, bottom), clip in level.placed:
        bx0, by0, bx1, by1 = (float(v) for v in forms[name].get_object()["/BBox"])
        art = [x + bx0, bottom - by1, x + bx1, bottom - by0]  # x0, top, x1, bottom (y from the page top)
        if clip is not None:
            art = [max(art[0], clip[0]), max(art[1], clip[1]), min(art[2], clip[2]), min(art[3], clip[3])]
        top = bottom - trim[1]
        reach += [x - art[0], top - art[1], art[2] - (x + trim[0]), art[3] - bottom]
    return reach


def test_every_card_sheet_keeps_its_declared_bleed_or_says_so(home: tuple[Path, str], games: dict[str, Game]) -> None:
    out, stderr = home
    measured: dict[str, float] = {}
    for gid, game in games.items():
        for component in game.printed:
            if component.kind not in GRID_KINDS:
                continue
            assert component.size is not None
            key = f"{gid} / {component.id}"
            for page in PdfReader(out / gid / f"{component.id}.pdf").pages:
                level = page_level(page)
                if level.marks(MARK_STROKE) and level.placed:  # a front sheet: its cards' art, edge by edge
                    across, down = slot_size(level, component)
                    reach = art_bleed(page, level, (across, down))
                    measured[key] = min([measured.get(key, math.inf), *reach])
                    # and the crop marks agree: neighbours share a cut or stand at least twice the art apart
                    xs, ys = level.cuts(MARK_STROKE)
                    _, gaps_x = intervals(xs, across)
                    _, gaps_y = intervals(ys, down)
                    assert all(g < TOL or g >= 2 * min(reach) - TOL for g in gaps_x + gaps_y), key
    short = 0
    for key, bleed in measured.items():
        gid, cid = key.split(" / ")
        declared = declared_bleed(games[gid], games[gid].component(cid))
        if bleed < declared - TOL:
            short += 1
            figure = r"bleed [\d.]+ mm left/right, [\d.]+ mm top/bottom"
            note = bleed_note(out, gid, cid)  # the auto policy's choice: a note in the BOM, not a warning
            assert re.search(re.escape(key) + ": " + figure, stderr) or "share cut lines" in note or re.search(figure, note), (key, bleed / MM)
        else:
            assert not re.search(re.escape(key) + r": .*of the declared", stderr), key  # no false alarm
    assert len(measured) >= 10
    gutter = "gutter" in out.name  # the home build with --bleed-policy gutter
    assert bool(short) != gutter  # 9 poker cards a sheet share cut lines, and say so; the gutter policy keeps every bleed
    assert measured["belpunk / foreman"] >= 3 * MM - TOL  # a lone card keeps its full bleed


def test_crop_marks_only_around_occupied_slots(home: tuple[Path, str], games: dict[str, Game]) -> None:
    out, _ = home
    checked = 0
    for gid, _, component, number, level in card_sheets(out, games):
        across, down = slot_size(level, component)
        xs, ys = level.cuts(MARK_STROKE)
        columns, _ = intervals(xs, across)
        rows, _ = intervals(ys, down)
        # a placed side has its origin at its trim's lower-left corner (y from the top: the trim's bottom)
        placed = [(x, y) for x, y in level.forms]
        where = f"{gid}/{component.id} page {number}"
        for x0, x1 in columns:
            assert any(abs(x - x0) < TOL for x, _ in placed), f"{where}: marked column {x0:.1f}–{x1:.1f} is empty"
        for y0, y1 in rows:
            assert any(abs(y - y1) < TOL for _, y in placed), f"{where}: marked row {y0:.1f}–{y1:.1f} is empty"
        for x, y in placed:  # and every placed card is inside the marked cuts
            assert any(abs(x - x0) < TOL for x0, _ in columns) and any(abs(y - y1) < TOL for _, y1 in rows), where
        checked += 1
    foreman = games["belpunk"].component("foreman")
    assert len(foreman.pieces) == 1
    xs, ys = page_level(PdfReader(out / "belpunk" / "foreman.pdf").pages[0]).cuts(MARK_STROKE)
    assert len(xs) == 2 and len(ys) == 2  # one card: four cuts
    assert checked > 20


def test_duplex_backs_register_exactly_behind_their_fronts(home: tuple[Path, str], games: dict[str, Game]) -> None:
    """Long-edge duplex: the back of the card whose trim is at x on the front page is placed at
    paper width − x − trim width on the back page, at the same height, to 0.000 mm; turned slots too."""
    out, _ = home
    worst, pairs, turned = 0.0, 0, 0
    for gid, game in games.items():
        for component in game.printed:
            if component.kind not in GRID_KINDS or not component.has_backs:
                continue
            reader = PdfReader(out / gid / f"{component.id}.pdf")
            for front, back in zip(reader.pages[0::2], reader.pages[1::2], strict=True):
                fronts, backs = page_level(front), page_level(back)
                assert len(fronts.placed) == len(backs.placed), f"{gid}/{component.id}"
                width = float(front.mediabox.width)
                forms = front["/Resources"]["/XObject"]
                across, _ = slot_size(fronts, component)
                turned += abs(across - component.size.width) > TOL if component.size else 0
                for (name, (x, y), _), (_, (bx, by), _) in zip(fronts.placed, backs.placed, strict=True):
                    x0, _, x1, _ = (float(v) for v in forms[name].get_object()["/BBox"])
                    assert x1 + x0 == pytest.approx(across, abs=TOL)  # the form is the slot grown by its bleed
                    worst = max(worst, abs(bx - (width - x - across)), abs(by - y))
                    pairs += 1
    assert pairs > 100
    assert worst < 0.0005 * MM, worst / MM  # 0.000 mm
    if "gutter" in out.name:
        assert turned  # poker cards lie turned on Letter with full bleed


def test_no_glyph_outside_the_printable_area(home: tuple[Path, str], games: dict[str, Game]) -> None:
    out, _ = home
    checked = 0
    for gid, game in games.items():
        boards = {f"{c.id}.pdf" for c in game.printed if c.kind == "board"}
        files = sorted(p for p in (out / gid).glob("*.pdf") if p.name not in boards and not p.name.endswith("print-and-play.pdf"))
        combined = out / gid / f"{gid}-print-and-play.pdf"
        for pdf in [*files, combined]:
            with pdfplumber.open(pdf) as doc:
                # A component's sheets repeat the same pieces (one form XObject per distinct side):
                # its first front, first back and last (partial) sheet show every kind of page it has.
                # Of the combined PDF, the pages it adds: cover and bill of materials.
                count = len(doc.pages)
                numbers = [1, 2] if pdf == combined else sorted({1, min(2, count), count})
                for number in numbers:
                    page = doc.pages[number - 1]
                    for c in page.chars:
                        inside = (PAPER_MARGIN - 0.5 <= c["x0"] and c["x1"] <= page.width - PAPER_MARGIN + 0.5
                                  and PAPER_MARGIN - 0.5 <= c["top"] and c["bottom"] <= page.height - PAPER_MARGIN + 0.5)
                        assert inside, f"{pdf.name} page {number}: '{c['text']}' at x {c['x0']:.1f}–{c['x1']:.1f}, y {c['top']:.1f}–{c['bottom']:.1f}"
                    checked += 1
    assert checked > 50


def _box_cells(cells: tuple[tuple[int, int], ...]) -> int:
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    return (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)


def _spot_colours(page: PageObject) -> set[str]:
    spaces = page["/Resources"].get("/ColorSpace") or {}
    names = set()
    for value in spaces.values():
        space = value.get_object()
        if isinstance(space, list) and space and space[0] == "/Separation":
            names.add(str(space[1]).lstrip("/"))
    return names


def test_print_shop_boxes_are_each_pieces_trim_and_bleed(shop: Path, games: dict[str, Game]) -> None:
    kinds: set[str] = set()
    dies = 0
    for gid, game in games.items():
        for component in game.printed:
            bleed = 0.125 * 72  # --print-shop: the generic preset's 1/8 in, whatever the layouts declare
            if component.kind == "tiles":
                assert component.cell is not None
                sizes = set()
                for piece in component.pieces:
                    rows = 1 + max(r for r, _ in piece.cells) - min(r for r, _ in piece.cells)
                    cols = 1 + max(c for _, c in piece.cells) - min(c for _, c in piece.cells)
                    sizes.add((round(cols * component.cell / MM, 1), round(rows * component.cell / MM, 1)))
            else:
                assert component.size is not None
                sizes = {(round(component.size.width / MM, 1), round(component.size.height / MM, 1))}
            reader = PdfReader(shop / gid / f"{component.id}.pdf")
            assert len(reader.pages) >= len(component.pieces)
            seen = set()
            for page in reader.pages:
                trim, box, media = page.trimbox, page.bleedbox, page.mediabox
                seen.add((round(float(trim.width) / MM, 1), round(float(trim.height) / MM, 1)))
                assert float(box.width) == pytest.approx(float(trim.width) + 2 * bleed, abs=0.01)
                assert float(box.height) == pytest.approx(float(trim.height) + 2 * bleed, abs=0.01)
                assert float(trim.left) == pytest.approx(bleed, abs=0.01) and float(trim.bottom) == pytest.approx(bleed, abs=0.01)
                assert (float(media.width), float(media.height)) == pytest.approx((float(box.width), float(box.height)), abs=0.01)
            assert seen == sizes, f"{gid}/{component.id}"
            kinds.add(component.kind)
            # shaped pieces carry their cut path as the CutContour spot colour; rectangles are cut on the TrimBox
            shaped = (component.kind == "tokens" and component.shape is not None and component.shape.name != "square") or (
                component.kind == "tiles" and any(len(p.cells) < _box_cells(p.cells) for p in component.pieces))
            with_die = [pg for pg in reader.pages if _spot_colours(pg) == {"CutContour"}]
            assert bool(with_die) == shaped, f"{gid}/{component.id}"
            if shaped:
                dies += 1
    assert dies >= 4  # gear, round and hexagon tokens in the bundled games
    assert {"deck", "tokens", "tiles", "sheet", "board"} <= kinds


def test_print_shop_boards_are_one_page_each_with_no_glyph_off_the_page(shop: Path, games: dict[str, Game]) -> None:
    for gid, game in games.items():
        for component in game.printed:
            if component.kind != "board":
                continue
            with pdfplumber.open(shop / gid / f"{component.id}.pdf") as doc:
                sides = 2 if component.has_backs else 1
                assert len(doc.pages) == sides * len(component.pieces)  # unsplit
                for page in doc.pages:
                    for c in page.chars:
                        assert 0 <= c["x0"] and c["x1"] <= page.width and 0 <= c["top"] and c["bottom"] <= page.height
