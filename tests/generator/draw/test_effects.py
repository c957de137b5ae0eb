"""Effects as layout data (issue #41 item 4): gradient fills, drop shadows, masked pictures, opacity, and the
preflight's contrast over a gradient and a masked picture. Each card is built through the CLI from YAML in a small
game, and its drawing is read back from the PDF: the side's content stream (clip paths, fills, their order and
offsets, transparency states) and its resources (the shadings' colours, the states' /ca).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from PIL import Image

from tests.conftest import run_cli

MM = 72 / 25.4
CARD_H = 88.9 * MM  # a poker card's trim height: layouts place from the top, the PDF from the bottom
GAME = """\
id: fx
title: Effects
players: {min: 1, max: 4}
palette: {night: "#1d3557", dusk: "#a8dadc"}
components: [deck.yaml]
"""
DECK = """\
id: deck
kind: deck
size: poker
layout: fx
back: none
cards:
  - {name: Comet}
"""
CARD = """\
elements:
  - {id: bg, type: rect, box: bleed, fill: {linear: 90, stops: [night, dusk]}}
  - {id: plate, type: rect, x: 5mm, y: 60mm, width: 50mm, height: 20mm, fill: "#f1faee",
     shadow: {color: "#102030", dx: 1mm, dy: 2mm, opacity: 0.4}}
  - {id: art, type: image, src: art/moon.png, x: 10mm, y: 15mm, width: 40mm, height: 30mm, fit: cover, mask: circle}
  - {id: title, type: text, text: "{name}", x: 5mm, y: 4mm, width: 53mm, height: 10mm, size: 14pt, color: "#ffffff",
     shadow: {color: "#000000", dx: 0.4mm, dy: 0.4mm}}
"""


def _game(folder: Path, layout: str, picture: tuple[int, int, int] = (240, 220, 150)) -> Path:
    """A one-card game whose layout is ``layout``, with a 600 × 450 px picture art/moon.png of one colour."""
    (folder / "layouts").mkdir(parents=True)
    (folder / "art").mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    (folder / "layouts" / "fx.yaml").write_text(layout, encoding="utf-8")
    Image.new("RGB", (600, 450), picture).save(folder / "art" / "moon.png")
    return folder


def _build(game: Path, out: Path, *extra: str) -> str:
    result = run_cli("build", str(game), "--out", str(out), "--backs", "none", *extra)
    assert result.returncode == 0, result.stderr
    return result.stderr


@dataclass
class Paint:
    """One painting operator of a side as read back: what, where (bounds in the side's coordinates, trim's
    lower-left corner at the origin), in which fill colour, transparency state and clip."""

    op: str
    bounds: tuple[float, float, float, float] | None
    rgb: tuple[float, ...] = ()
    alpha: float = 1.0  # the fill opacity (/ca) of the transparency states set
    clip: tuple[float, float, float, float] | None = None
    name: str = ""


@dataclass
class _State:
    ctm: tuple[float, ...] = (1, 0, 0, 1, 0, 0)
    rgb: tuple[float, ...] = (0, 0, 0)
    alpha: float = 1.0
    clip: tuple[float, float, float, float] | None = None


@dataclass
class Side:
    paints: list[Paint]
    resources: Any


def _times(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix ``a`` then ``b`` (PDF's row-vector convention)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _box(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _within(box: tuple[float, float, float, float], clip: tuple[float, float, float, float] | None) -> tuple[float, float, float, float]:
    """A new clip path's bounds inside the clip already set (clips only ever narrow)."""
    if clip is None:
        return box
    return max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3])


def _side(pdf: pikepdf.Pdf) -> Side:
    """The first page's side form, its painting operators in order."""
    form = next(x for x in pdf.pages[0].Resources.XObject.values() if x.get("/Subtype") == "/Form")
    states = {str(k): v for k, v in form.Resources.get("/ExtGState", {}).items()}
    state, stack, path, clipping, paints = _State(), [], [], False, []
    for instruction in pikepdf.parse_content_stream(form):
        op, args = str(instruction.operator), list(instruction.operands)
        nums = [float(a) for a in args] if op in ("cm", "rg", "m", "l", "c", "re") else []
        m = state.ctm

        def at(x: float, y: float, m: tuple[float, ...] = m) -> tuple[float, float]:
            return x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]

        if op == "q":
            stack.append(_State(state.ctm, state.rgb, state.alpha, state.clip))
        elif op == "Q":
            state = stack.pop()
        elif op == "cm":
            state.ctm = _times(tuple(nums), state.ctm)
        elif op == "rg":
            state.rgb = tuple(nums)
        elif op == "gs":
            state.alpha = float(states[str(args[0])].get("/ca", state.alpha))
        elif op in ("m", "l"):
            path.append(at(*nums))
        elif op == "c":
            path.extend(at(nums[i], nums[i + 1]) for i in (0, 2, 4))
        elif op == "re":
            x, y, w, h = nums
            path.extend([at(x, y), at(x + w, y + h)])
        elif op in ("W", "W*"):
            clipping = True
        elif op in ("n", "f", "f*", "B", "B*", "S", "s", "b", "b*"):
            if clipping and path:
                state.clip = _within(_box(path), state.clip)
            if op != "n" and path:
                paints.append(Paint(op, _box(path), state.rgb, state.alpha, state.clip))
            path, clipping = [], False
        elif op == "sh":
            paints.append(Paint("sh", None, (), state.alpha, state.clip, str(args[0])))
        elif op == "Do":
            paints.append(Paint("Do", _box([at(0, 0), at(1, 1)]), (), state.alpha, state.clip, str(args[0])))
    return Side(paints, form.Resources)


def _colours(function: Any) -> list[tuple[float, ...]]:
    """The colours a shading's function runs through, in order."""
    if "/Functions" in function:
        parts = [_colours(part) for part in function.Functions]
        return [parts[0][0], *[part[-1] for part in parts]]
    return [tuple(float(v) for v in function.C0), tuple(float(v) for v in function.C1)]


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _close(a: tuple[float, ...], b: tuple[float, ...], tolerance: float = 0.01) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def card(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The effects card built once: its game, its output folder and the build's stderr."""
    root = tmp_path_factory.mktemp("effects")
    game = _game(root / "fx", CARD)
    stderr = _build(game, root / "out")
    return game, root / "out", stderr


def test_the_gradient_background_is_a_vector_shading_with_its_stops(card: tuple[Path, Path, str]) -> None:
    _, out, stderr = card
    assert "warning" not in stderr, stderr
    with pikepdf.open(out / "fx" / "deck.pdf") as pdf:
        side = _side(pdf)
        shadings = dict(side.resources.Shading.items())
        assert len(shadings) == 1
        (name, shading), = shadings.items()
        assert int(shading.ShadingType) == 2  # axial: a PDF shading, not a picture
        assert [_close(c, want) for c, want in zip(_colours(shading.Function), [_rgb("#1d3557"), _rgb("#a8dadc")], strict=True)] == [True, True]
        x0, y0, x1, y1 = (float(v) for v in shading.Coords)
        assert abs(x0 - x1) < 1e-3 and y0 > y1  # 90°: from the top down
        painted = [p for p in side.paints if p.op == "sh"]
        assert [p.name for p in painted] == [name]
        bleed = 3 * MM
        assert painted[0].clip is not None and _close(painted[0].clip, (-bleed, -bleed, 63.5 * MM + bleed, CARD_H + bleed), 0.01)
        images = [p for p in side.paints if p.op == "Do"]
        assert len(images) == 1  # the only raster is the masked picture


def test_a_masked_picture_is_clipped_to_its_circle(card: tuple[Path, Path, str]) -> None:
    _, out, _ = card
    with pikepdf.open(out / "fx" / "deck.pdf") as pdf:
        (picture,) = [p for p in _side(pdf).paints if p.op == "Do"]
    # the box is 40 × 30 mm at (10mm, 15mm) from the top-left corner: the circle is 30 mm across, centred
    want = (15 * MM, CARD_H - 45 * MM, 45 * MM, CARD_H - 15 * MM)
    assert picture.clip is not None and _close(picture.clip, want, 0.01), (picture.clip, want)


def test_the_shadow_is_drawn_before_its_shape_moved_by_its_offset(card: tuple[Path, Path, str]) -> None:
    _, out, _ = card
    with pikepdf.open(out / "fx" / "deck.pdf") as pdf:
        side = _side(pdf)
    plate = (5 * MM, CARD_H - 80 * MM, 55 * MM, CARD_H - 60 * MM)
    fills = [p for p in side.paints if p.op.startswith("f") and p.bounds is not None]
    at_plate = next(i for i, p in enumerate(fills) if _close(p.rgb, _rgb("#f1faee")) and _close(p.bounds, plate))
    shadows = [p for p in fills[:at_plate] if _close(p.rgb, _rgb("#102030"))]
    assert len(shadows) == 1  # a hard shadow: one fill, under the plate
    moved = (plate[0] + MM, plate[1] - 2 * MM, plate[2] + MM, plate[3] - 2 * MM)
    assert _close(shadows[0].bounds, moved), (shadows[0].bounds, moved)  # type: ignore[arg-type]
    assert shadows[0].alpha == pytest.approx(0.4)  # its opacity as an ExtGState /ca


def test_the_png_is_the_pdf_drawing(card: tuple[Path, Path, str], tmp_path: Path) -> None:
    """`images` rasterises the same drawing: the gradient's ends and the masked picture's corner show in the PNG."""
    game, _, _ = card
    result = run_cli("images", str(game), "--out", str(tmp_path), "--dpi", "100", "--bleed", "0")
    assert result.returncode == 0, result.stderr
    (png,) = sorted((tmp_path / "fx" / "images").rglob("*.png"))
    with Image.open(png) as image:
        picture = image.convert("RGB")
    w, h = picture.size
    top, bottom = picture.getpixel((w // 2, 2)), picture.getpixel((w // 2, h - 3))
    assert _close(tuple(c / 255 for c in top), _rgb("#1d3557"), 0.04), top
    assert _close(tuple(c / 255 for c in bottom), _rgb("#a8dadc"), 0.04), bottom
    mm = w / 63.5
    inside = picture.getpixel((int(30 * mm), int(30 * mm)))  # the circle's centre: the picture
    corner = picture.getpixel((int(11 * mm), int(16 * mm)))  # the box's corner, outside the circle: the gradient
    assert _close(inside, (240, 220, 150), 3), inside
    assert not _close(corner, (240, 220, 150), 40), corner


def test_opacity_on_a_picture_is_an_extgstate(tmp_path: Path) -> None:
    layout = "elements:\n  - {id: art, type: image, src: art/moon.png, x: 5mm, y: 5mm, width: 40mm, height: 30mm, opacity: 0.35}\n"
    game = _game(tmp_path / "fx", layout)
    _build(game, tmp_path / "out", "--quiet")
    with pikepdf.open(tmp_path / "out" / "fx" / "deck.pdf") as pdf:
        side = _side(pdf)
    (picture,) = [p for p in side.paints if p.op == "Do"]
    assert picture.alpha == pytest.approx(0.35)


def test_a_radial_gradient_and_a_soft_shadow(tmp_path: Path) -> None:
    layout = """\
elements:
  - {id: sun, type: ellipse, x: 10mm, y: 10mm, width: 40mm, height: 40mm,
     fill: {radial: {center: [50%, 50%], radius: 20mm}, stops: ["#ffffff", {color: "#ff8800", at: 60%}, {color: "#802000", at: 100%}]},
     shadow: {color: "#000000", dx: 1mm, dy: 1mm, opacity: 0.5, blur: 2mm}}
"""
    game = _game(tmp_path / "fx", layout)
    _build(game, tmp_path / "out", "--quiet")
    with pikepdf.open(tmp_path / "out" / "fx" / "deck.pdf") as pdf:
        side = _side(pdf)
        (shading,) = side.resources.Shading.values()
        assert int(shading.ShadingType) == 3
        colours = _colours(shading.Function)
        coords = [float(v) for v in shading.Coords]
    assert [_close(c, _rgb(h)) for c, h in zip(colours, ["#ffffff", "#ff8800", "#802000"], strict=True)] == [True] * 3
    assert coords[-1] == pytest.approx(20 * MM) and coords[0] == pytest.approx(30 * MM)
    sun = next(i for i, p in enumerate(side.paints) if p.op == "sh")
    shadow = [p for p in side.paints[:sun] if p.op.startswith("f")]
    assert len(shadow) == 5  # a soft edge in five steps, the largest first
    widths = [p.bounds[2] - p.bounds[0] for p in shadow]  # type: ignore[index]
    assert widths == sorted(widths, reverse=True) and widths[0] == pytest.approx(42 * MM, abs=0.01)
    stacked = 1.0
    for paint in shadow:
        stacked *= 1 - paint.alpha
    assert 1 - stacked == pytest.approx(0.5)  # the middle has the shadow's opacity


def test_text_over_a_gradient_below_the_threshold_is_reported(tmp_path: Path) -> None:
    """Dark text is fine over the light end of a gradient and not over its dark end: the worst point counts."""
    layout = """\
elements:
  - {id: bg, type: rect, box: bleed, fill: {linear: 0, stops: ["#ffffff", "#ffffff", "#203040"]}}
  - {id: rules, type: text, text: "Draw two cards, then discard one.", x: 4mm, y: 30mm, width: 55mm, height: 12mm, size: 9pt, color: "#203040"}
"""
    stderr = _build(_game(tmp_path / "fx", layout), tmp_path / "out")
    assert "preflight low_contrast: text of element 'rules'" in stderr, stderr
    light = layout.replace('"#203040"]', '"#dddddd"]')  # the same text over a gradient that stays light
    stderr = _build(_game(tmp_path / "light", light), tmp_path / "out2")
    assert "low_contrast" not in stderr, stderr


def test_text_over_a_masked_picture_reads_the_paper_outside_the_mask(tmp_path: Path) -> None:
    """Black text in the corner of a black picture's box: unmasked it is unreadable; masked to a circle the corner
    shows the white paper, and the check says nothing."""
    masked = """\
elements:
  - {id: art, type: image, src: art/moon.png, x: 0mm, y: 0mm, width: 60mm, height: 60mm, fit: cover, MASK}
  - {id: tag, type: text, text: "Ace", x: 1mm, y: 1mm, width: 9mm, height: 5mm, size: 8pt, color: "#000000"}
"""
    stderr = _build(_game(tmp_path / "a", masked.replace(", MASK", ""), (10, 10, 10)), tmp_path / "out-a")
    assert "preflight low_contrast: text of element 'tag'" in stderr, stderr
    stderr = _build(_game(tmp_path / "b", masked.replace("MASK", "mask: circle"), (10, 10, 10)), tmp_path / "out-b")
    assert "low_contrast" not in stderr, stderr


def test_the_build_is_deterministic_and_a_gradient_change_reprints(card: tuple[Path, Path, str], tmp_path: Path) -> None:
    game, out, _ = card
    again = tmp_path / "again"
    _build(game, again, "--quiet", "--jobs", "2")
    assert (again / "fx" / "deck.pdf").read_bytes() == (out / "fx" / "deck.pdf").read_bytes()
    copy = _game(tmp_path / "fx", CARD.replace("stops: [night, dusk]", "stops: [night, \"#a8dadd\"]"))
    _build(copy, again, "--quiet")
    assert len(list((again / "fx" / "prints").glob("*.json"))) == 2  # one colour of one stop: a new print


@pytest.mark.parametrize(("element", "expected"), [
    ("{id: bg, type: rect, fill: {linear: 90, stops: [{color: '#000000', at: 60%}, {color: '#ffffff', at: 20%}]}}",
     "fx.yaml:2:32: fill: stop 2 is at 20%, before the stop above it; expected offsets in order"),
    ("{id: bg, type: rect, fill: {linear: 90, stops: ['#000000', nightt]}}",
     "fx.yaml:2:32: fill: unknown colour 'nightt' (did you mean 'night'?)"),
    ("{id: bg, type: rect, fill: {linear: 90, radial: {}, stops: ['#000000', '#ffffff']}}",
     "fx.yaml:2:32: fill a mapping is not valid: expected a colour, or a gradient: stops and one of linear or radial"),
    ("{id: t, type: text, text: x, shadow: {color: '#000000', blur: 1mm}}",
     "shadow: a text's shadow takes color, dx and dy"),
    ("{id: a, type: image, src: art/moon.png, mask: star}",
     "fx.yaml:2:51: mask 'star' is not valid: expected circle, ellipse, {rounded: LENGTH} or {polygon"),
])
def test_a_wrong_effect_is_located(tmp_path: Path, element: str, expected: str) -> None:
    game = _game(tmp_path / "fx", f"elements:\n  - {element}\n")
    result = run_cli("check", str(game))
    assert result.returncode == 2, result.stderr
    assert expected in result.stderr and "Traceback" not in result.stderr, result.stderr



def test_the_press_file_keeps_gradients_as_cmyk_shadings(tmp_path: Path) -> None:
    """`build --colour cmyk`: each gradient's stops go through the press profile like every other colour, so
    Ghostscript keeps the shading (DeviceCMYK, vector) instead of turning it into a picture."""
    layout = """\
elements:
  - {id: bg, type: rect, box: bleed, fill: {linear: 90, stops: [night, "#ff0000"]}}
  - {id: glow, type: ellipse, x: 20mm, y: 20mm, width: 20mm, height: 20mm, fill: {radial: {}, stops: ["#ffe8a3", "#b8893a"]}}
  - {id: art, type: image, src: art/moon.png, x: 10mm, y: 50mm, width: 40mm, height: 30mm, fit: cover, mask: circle}
"""
    game = _game(tmp_path / "fx", layout)
    _build(game, tmp_path / "out", "--quiet", "--colour", "cmyk")
    with pikepdf.open(tmp_path / "out" / "fx" / "press" / "deck.pdf") as pdf:
        resources = pdf.pages[0].Resources
        shadings = sorted((int(s.ShadingType), str(s.ColorSpace), len(_colours(s.Function))) for s in resources.Shading.values())
        pictures = [x for x in resources.XObject.values() if x.get("/Subtype") == "/Image"]
    assert shadings == [(2, "/DeviceCMYK", 2), (3, "/DeviceCMYK", 2)]
    assert len(pictures) == 1 and int(pictures[0].Width) == 600  # the moon alone: no gradient became a picture


@pytest.mark.parametrize(("element", "expected"), [
    ("{id: i, type: icon, icon: coin, fill: {linear: 0, stops: ['#000000', '#ffffff']}}",
     "fx.yaml:2:43: fill: a gradient fill is drawn on a rect, ellipse or polygon element, not on an icon"),
    ("{id: l, type: line, x2: 10mm, shadow: {color: '#000000'}}",
     "fx.yaml:2:43: shadow: a shadow is drawn on a rect, ellipse, polygon or image element, not on a line"),
    ("{id: r, type: rect, mask: circle}",
     "fx.yaml:2:31: mask: a mask is drawn on an image element, not on a rect"),
])
def test_an_effect_on_an_element_that_does_not_draw_it_is_located(tmp_path: Path, element: str, expected: str) -> None:
    game = _game(tmp_path / "fx", f"elements:\n  - {element}\n")
    result = run_cli("check", str(game))
    assert result.returncode == 2 and expected in result.stderr, result.stderr


def test_check_names_a_gradient_stop_outside_the_press_gamut(tmp_path: Path) -> None:
    """`check --colour cmyk` sets each stop of a gradient against the press gamut, like any fill colour."""
    layout = "elements:\n  - {id: bg, type: rect, box: bleed, fill: {linear: 90, stops: [night, \"#00ff00\"]}}\n"
    result = run_cli("check", str(_game(tmp_path / "fx", layout)), "--colour", "cmyk")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "outside the press gamut" in line]
    assert len(lines) == 1 and "layout fx / bg (fill, 1 piece: Comet): sRGB #00ff00" in lines[0], result.stderr


def _text_alphas(pdf: pikepdf.Pdf) -> list[tuple[tuple[float, ...], float]]:
    """(fill colour, fill opacity) of each text shown on the first page's side, in order."""
    form = next(x for x in pdf.pages[0].Resources.XObject.values() if x.get("/Subtype") == "/Form")
    states = {str(k): v for k, v in form.Resources.get("/ExtGState", {}).items()}
    rgb, alpha, shown = (0.0, 0.0, 0.0), 1.0, []
    for instruction in pikepdf.parse_content_stream(form):
        op = str(instruction.operator)
        if op == "rg":
            rgb = tuple(float(v) for v in instruction.operands)
        elif op == "gs":
            alpha = float(states[str(instruction.operands[0])].get("/ca", alpha))
        elif op in ("Tj", "TJ"):
            shown.append((rgb, alpha))
    return shown


def test_opacity_on_text_reaches_its_glyphs_and_its_shadow(tmp_path: Path) -> None:
    """A text's opacity is kept when its colours are set (reportlab sets each colour's own alpha), and a shadow
    colour given as #rrggbbaa is that colour at that alpha (reportlab alone reads it as one number: a blue)."""
    layout = ("elements:\n  - {id: title, type: text, text: Shade, x: 5mm, y: 5mm, width: 53mm, height: 15mm, size: 24pt, "
              "color: \"#203040\", opacity: 0.5, shadow: {color: \"#00000080\", dx: 1mm, dy: 1mm}}\n")
    _build(_game(tmp_path / "fx", layout), tmp_path / "out", "--quiet")
    with pikepdf.open(tmp_path / "out" / "fx" / "deck.pdf") as pdf:
        (shadow_rgb, shadow_alpha), (text_rgb, text_alpha) = _text_alphas(pdf)
    assert _close(shadow_rgb, (0, 0, 0)) and shadow_alpha == pytest.approx(0.5 * 128 / 255, abs=0.002)
    assert _close(text_rgb, _rgb("#203040")) and text_alpha == pytest.approx(0.5)


def test_opacity_on_an_icon_is_kept_by_every_colour_it_sets(tmp_path: Path) -> None:
    layout = ("elements:\n  - {id: coin, type: icon, icon: coin, x: 5mm, y: 5mm, width: 20mm, height: 20mm, fill: \"#d4a017\", "
              "opacity: 0.5}\n")
    _build(_game(tmp_path / "fx", layout), tmp_path / "out", "--quiet")
    with pikepdf.open(tmp_path / "out" / "fx" / "deck.pdf") as pdf:
        fills = [p for p in _side(pdf).paints if p.op.startswith("f")]
    assert fills and all(p.alpha == pytest.approx(0.5) for p in fills), [(p.rgb, p.alpha) for p in fills]
