"""A designer's own look: field-bound colours, fonts and sizes, cover-fit pictures, their own icons, SVG via svglib.

Each feature is rendered through the CLI and read back from the PDF (pdfplumber)
or from a rasterised page (pypdfium2).
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pypdfium2
from PIL import Image, ImageChops

from tests.conftest import run_cli

GAME = """\
id: looks
title: Looks
players: {min: 1, max: 2}
palette: {ocean: "#1060a0"}
icons: {mana: icons/mana.svg, gem: icons/gem.png}
components: [deck.yaml]
"""
DECK = """\
id: deck
kind: deck
size: poker
layout: look
back: none
fields: [colour, font, size, text]
csv: cards.csv
"""
CSV = """\
name,colour,font,size,text
Red,#c00000,Vera-Bold,14pt,Gain 2 :mana: now
Blue,ocean,Vera,9pt,Spend a :star:
"""
LAYOUT = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "{colour}"}
  - {id: body, type: text, x: 10%, y: 55%, width: 80%, height: 20%, text: "{text}", font: "{font}", size: "{size}", color: "#ffffff"}
  - {id: gem, type: icon, icon: gem, x: 40%, y: 80%, width: 20%, height: 15%}
"""
MANA = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#00a0ff"/></svg>\n'
GEM_RGB = (0, 200, 60)


def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _game(folder: Path, **overrides: str) -> Path:
    files = {"game.yaml": GAME, "deck.yaml": DECK, "cards.csv": CSV, "layouts/look.yaml": LAYOUT, "icons/mana.svg": MANA}
    files.update(overrides)
    _write(folder, files)
    Image.new("RGB", (32, 32), GEM_RGB).save(folder / "icons" / "gem.png")
    return folder


def _build(game: Path, out: Path) -> Path:
    result = run_cli("build", str(game), "--out", str(out), "--backs", "none", "--quiet")
    assert result.returncode == 0, result.stderr
    return out / "looks" / "deck.pdf"


def _fills(pdf: Path) -> set[tuple[float, ...]]:
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        return {tuple(round(v, 3) for v in obj["non_stroking_color"]) for obj in page.rects + page.curves if obj["non_stroking_color"]}


def _near(colour: tuple[int, int, int], found: set[tuple[float, ...]]) -> bool:
    want = tuple(round(c / 255, 3) for c in colour)
    return any(len(f) == 3 and max(abs(a - b) for a, b in zip(want, f, strict=True)) < 0.005 for f in found)


def test_colours_fonts_sizes_and_icons_come_from_card_fields(tmp_path: Path):
    pdf = _build(_game(tmp_path / "looks"), tmp_path / "out")
    fills = _fills(pdf)
    assert _near((0xC0, 0, 0), fills)  # the Red card's own colour, from its CSV cell
    assert _near((0x10, 0x60, 0xA0), fills)  # the Blue card's palette name, resolved
    assert _near((0, 0xA0, 0xFF), fills)  # :mana: drawn inline from the game's own SVG icon
    with pdfplumber.open(pdf) as doc:
        chars = doc.pages[0].chars
        gain = [c for c in chars if c["text"] == "G"]
        spend = [c for c in chars if c["text"] == "S"]
        assert gain and all("Bold" in c["fontname"] and round(c["size"], 1) == 14.0 for c in gain)
        assert spend and all("Bold" not in c["fontname"] and round(c["size"], 1) == 9.0 for c in spend)
        text = "".join(c["text"] for c in chars)
        assert ":mana:" not in text and ":star:" not in text
    # the PNG icon element is drawn in its own colour
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=1.0).to_pil().convert("RGB")
    assert GEM_RGB in {colour for _, colour in image.getcolors(1 << 20)}


def test_a_bound_value_that_is_not_a_colour_font_or_length_points_at_its_csv_cell(tmp_path: Path):
    csv = "name,colour,font,size,text\nRed,#c00000,Vera-Bold,14pt,Hi\nBlue,bluish,Verra,huge,Hi\n"
    game = _game(tmp_path / "looks", **{"cards.csv": csv})
    result = run_cli("check", str(game))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    cards = str(game / "cards.csv")
    assert len(lines) == 3, result.stderr
    assert lines[0].startswith(f"{cards}:3:6: 'bluish' is not a colour, for element 'bg' (fill: \"{{colour}}\", ")
    assert lines[0].endswith("; expected #rrggbb or a palette name (ocean)")
    assert lines[1].startswith(f"{cards}:3:13: unknown font 'Verra' (did you mean 'Vera'?), for element 'body' (font: \"{{font}}\", ")
    assert lines[2].startswith(f"{cards}:3:19: 'huge' is not a length (")
    assert "Traceback" not in result.stderr


def test_an_unknown_icon_is_an_error_at_check_pointing_at_the_text_that_names_it(tmp_path: Path):
    deck = DECK.replace("csv: cards.csv\n", "cards:\n  - {name: One, colour: ocean, font: Vera, size: 9pt, text: 'Pay :manna:'}\n")
    layout = LAYOUT + "  - {id: cost, type: text, x: 0, y: 0, width: 50%, height: 10%, text: 'Costs :coins:'}\n"
    game = _game(tmp_path / "looks", **{"deck.yaml": deck, "layouts/look.yaml": layout})
    result = run_cli("check", str(game))
    assert result.returncode == 2
    lines = sorted(result.stderr.splitlines())
    assert lines == [
        f"{game / 'deck.yaml'}:8:61: unknown icon ':manna:' (did you mean 'mana'?) in the text of element 'body'; "
        "expected one of bolt, chest, clubs, cog, coin, diamonds, dragon, electricity, gear, gears, gem, hearts, knight, "
        "mana, nut, paper, parts, rivet, rock, scissors, shield, spades, star, steam, steambot, trap or an icon declared "
        "under icons: in game.yaml",
        f"{game / 'layouts' / 'look.yaml'}:5:71: unknown icon ':coins:' (did you mean 'coin'?) in the text of element 'cost'; "
        "expected one of bolt, chest, clubs, cog, coin, diamonds, dragon, electricity, gear, gears, gem, hearts, knight, "
        "mana, nut, paper, parts, rivet, rock, scissors, shield, spades, star, steam, steambot, trap or an icon declared "
        "under icons: in game.yaml",
    ]


def test_a_declared_icon_file_must_exist(tmp_path: Path):
    game = _game(tmp_path / "looks", **{"game.yaml": GAME.replace("icons/gem.png", "icons/gone.png")})
    result = run_cli("check", str(game))
    assert result.returncode == 2
    # one problem: the icon's name still counts as declared, so its uses are not reported too
    assert result.stderr == (f"{game / 'game.yaml'}:5:36: icon 'gem': image 'icons/gone.png' not found; "
                             "expected a file in the game folder or next to the layout\n")


WIDE_DECK = "id: deck\nkind: deck\nsize: poker\nlayout: wide\nback: none\ncards:\n  - {name: One}\n"
WIDE_LAYOUT = """\
elements:
  - {id: card, type: rect, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffff00"}
  - {id: art, type: image, x: 10%, y: 10%, width: 80%, height: 40%, src: wide.png, fit: FIT, focus: FOCUS}
"""
RED, BLUE, YELLOW = (220, 20, 20), (20, 20, 220), (255, 255, 0)


def _art_box_colours(tmp_path: Path, fit: str, focus: str, deck: str = WIDE_DECK) -> tuple[dict[tuple[int, int, int], float], set[tuple[int, int, int]]]:
    """Shares of the colours inside the art box, and the colours just outside it (above and below)."""
    name = "".join(c if c.isalnum() else "-" for c in f"{fit}-{focus}")
    game = _game(tmp_path / name, **{
        "deck.yaml": deck, "layouts/wide.yaml": WIDE_LAYOUT.replace("FIT", fit).replace("FOCUS", focus)})
    picture = Image.new("RGB", (200, 100), RED)
    picture.paste(BLUE, (100, 0, 200, 100))
    picture.save(game / "wide.png")
    pdf = _build(game, game.parent / f"out-{game.name}")
    render = pypdfium2.PdfDocument(str(pdf))[0].render(scale=2.0).to_pil().convert("RGB")
    r, g, b = render.split()
    yellow = ImageChops.multiply(ImageChops.multiply(r.point(lambda v: 255 if v > 230 else 0), g.point(lambda v: 255 if v > 230 else 0)),
                                 b.point(lambda v: 255 if v < 30 else 0))
    left, top, right, bottom = yellow.getbbox()  # the card's trim
    w, h = right - left, bottom - top
    box = (round(left + 0.1 * w) + 3, round(top + 0.1 * h) + 3, round(left + 0.9 * w) - 3, round(top + 0.5 * h) - 3)
    inside = render.crop(box)
    total = inside.width * inside.height
    shares = {colour: count / total for count, colour in inside.getcolors(1 << 20)}
    outside = render.crop((box[0], box[1] - 8, box[2], box[1] - 5)).getcolors(1 << 20) + \
        render.crop((box[0], box[3] + 5, box[2], box[3] + 8)).getcolors(1 << 20)
    return shares, {colour for _, colour in outside}


def test_cover_fills_its_box_crops_to_it_and_keeps_the_focus_in_view(tmp_path: Path):
    # a 2:1 picture in a 1.43:1 box: cover keeps 71% of its width
    centre, around = _art_box_colours(tmp_path, "cover", "[50%, 50%]")
    assert YELLOW not in centre and centre[RED] + centre[BLUE] > 0.97  # filled: no card colour shows through
    assert abs(centre[RED] - 0.5) < 0.03 and abs(centre[BLUE] - 0.5) < 0.03
    assert around == {YELLOW}  # what overflows the box is clipped
    left, _ = _art_box_colours(tmp_path, "cover", "[0%, 50%]")
    assert YELLOW not in left and abs(left[RED] - 0.70) < 0.03  # the left edge kept: 0.5 / 0.714 red


def test_contain_letterboxes_and_stretch_distorts(tmp_path: Path):
    contain, _ = _art_box_colours(tmp_path, "contain", "[50%, 50%]")
    assert YELLOW in contain and contain[YELLOW] > 0.2  # bands above and below the picture
    stretch, _ = _art_box_colours(tmp_path, "stretch", "[50%, 50%]")
    assert YELLOW not in stretch and abs(stretch[RED] - 0.5) < 0.03 and abs(stretch[BLUE] - 0.5) < 0.03


BOUND_FIT_DECK = WIDE_DECK.replace("cards:\n  - {name: One}", "fields: [fit, art_x]\ncards:\n  - {name: One, fit: FIT, art_x: ART_X}")


def test_fit_and_focus_can_come_from_card_fields(tmp_path: Path):
    deck = BOUND_FIT_DECK.replace("FIT", "cover").replace("ART_X", "0%")
    left, _ = _art_box_colours(tmp_path, '"{fit}"', '["{art_x}", 50%]', deck)
    assert YELLOW not in left and abs(left[RED] - 0.70) < 0.03  # as with fit: cover, focus: [0%, 50%]
    deck = BOUND_FIT_DECK.replace("FIT", "contain").replace("ART_X", "100%")
    contain, _ = _art_box_colours(tmp_path / "contain", '"{fit}"', '["{art_x}", 50%]', deck)
    assert YELLOW in contain and contain[YELLOW] > 0.2


def test_a_bound_fit_or_focus_that_is_not_one_is_an_error_at_check_pointing_at_the_card(tmp_path: Path):
    deck = BOUND_FIT_DECK.replace("FIT", "covr").replace("ART_X", "left")
    game = _game(tmp_path / "looks", **{"deck.yaml": deck, "layouts/wide.yaml": WIDE_LAYOUT.replace("FIT", '"{fit}"').replace(
        "FOCUS", '["{art_x}", 50%]')})
    Image.new("RGB", (20, 10), RED).save(game / "wide.png")
    for verb in ("check", "build"):
        result = run_cli(verb, str(game), "--out", str(tmp_path / "out")) if verb == "build" else run_cli(verb, str(game))
        assert result.returncode == 2, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 2, result.stderr
        assert lines[0].startswith(f"{game / 'deck.yaml'}:8:22: 'covr' is not a way to fit a picture, for element 'art' (fit: \"{{fit}}\", ")
        assert lines[0].endswith("; expected one of contain, cover, stretch")
        assert lines[1].startswith(f"{game / 'deck.yaml'}:8:35: 'left' is not a focus (expected a percentage such as 30%")
    assert not (tmp_path / "out").exists()


def test_the_loader_knows_exactly_the_generators_built_in_icons():
    from punchboard.generator.draw.art import ICON_NAMES, ICONS

    from punchboard.spec.icons import BUILTIN_ICONS, ELEMENT_ONLY_ICONS

    assert set(ICONS) == BUILTIN_ICONS
    assert set(ICON_NAMES) == BUILTIN_ICONS | ELEMENT_ONLY_ICONS


def test_changing_an_icon_file_rebuilds_what_shows_it(tmp_path: Path):
    game = _game(tmp_path / "looks")
    pdf = _build(game, tmp_path / "out")
    assert _near((0, 0xA0, 0xFF), _fills(pdf))
    (game / "icons" / "mana.svg").write_text(MANA.replace("#00a0ff", "#ff8000"))
    pdf = _build(game, tmp_path / "out")
    fills = _fills(pdf)
    assert _near((0xFF, 0x80, 0), fills) and not _near((0, 0xA0, 0xFF), fills)


def test_short_and_alpha_hex_colours_draw_the_colour_they_name(tmp_path: Path):
    """reportlab alone reads ``#fff`` as blue and ``#c00`` as near-black; the layout's colour is what prints."""
    csv = "name,colour,font,size,text\nShort,#c00,Vera,9pt,one\nAlpha,#00ff0080,Vera,9pt,two\n"
    layout = LAYOUT + '  - {id: chip, type: rect, x: 5%, y: 5%, width: 20%, height: 10%, fill: "#fff"}\n'
    pdf = _build(_game(tmp_path / "looks", **{"cards.csv": csv, "layouts/look.yaml": layout}), tmp_path / "out")
    fills = _fills(pdf)
    assert _near((0xCC, 0, 0), fills)
    assert _near((0xFF, 0xFF, 0xFF), fills)
    assert _near((0, 0xFF, 0), fills)
    assert not _near((0, 0x0F, 0xFF), fills)  # reportlab's reading of #fff
