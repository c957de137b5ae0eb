"""CMYK PDF/X-1a:2003 press files (issue #43), checked by an independent reader (tests/generator/press/pdfx_check.py):
pikepdf for the structure, Ghostscript's ink_cov and tiff32nc separations for the ink."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pikepdf
import pytest
from punchboard.generator.options import BuildOptions
from punchboard.generator.press.coverage import page_coverage
from punchboard.generator.press.pdfx import convert
from punchboard.generator.press.settings import press

from punchboard.cli import main
from tests.build_helpers import build
from tests.conftest import ROOT
from tests.generator.press.pdfx_check import ink_coverage, problems, render_cmyk

GAME = "id: inks\ntitle: Inks\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml, tarot.yaml]\n"
CARDS = """\
id: cards
kind: deck
size: poker
layout: inks/card
back: none
fields: [text]
cards:
  - {name: Green, text: "Black eight-point text on white"}
"""
TAROT = """\
id: tarot
kind: deck
size: tarot
layout: base/card
back: none
cards:
  - {name: Tall}
"""
LAYOUT = """\
description: White card, a pure sRGB green band, 8 pt black text, a thin black rule and a translucent plate.
bleed: 3mm
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: green, type: rect, box: trim, x: 0, y: 0, width: 100%, height: 30%, fill: "#00ff00"}
  - {id: rule, type: rect, box: safe, x: 0, y: 45%, width: 100%, height: 0.2mm, fill: "#000000"}
  - {id: plate, type: rect, box: safe, x: 0, y: 85%, width: 100%, height: 10%, fill: "#3050a0", opacity: 0.5}
  - {id: text, type: text, box: safe, x: 0, y: 55%, width: 100%, height: 20%, text: "{text}", font: Vera, size: 8pt,
     align: left, color: "#000000"}
"""


@pytest.fixture(scope="module")
def inks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The inks game built with --shop drivethrucards (CMYK PDF/X-1a by the preset): its output folder and the run."""
    folder = tmp_path_factory.mktemp("inks")
    (folder / "layouts" / "inks").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("tarot.yaml", TAROT), ("layouts/inks/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    out = folder / "out"
    return out / "inks", build(folder, out, "--shop", "drivethrucards")


def test_a_drivethrucards_build_writes_pdfx_1a_files(inks: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    folder, run = inks
    assert run.returncode == 0, run.stderr
    files = sorted((folder / "press").glob("*.pdf"))
    assert [f.name for f in files] == ["cards.pdf", "tarot.pdf"]
    for path in files:
        assert problems(path) == [], path.name
    assert not (folder / "press" / "inks-print-and-play.pdf").exists()  # the home-printing file stays RGB


def test_the_reader_refuses_the_rgb_source(inks: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """The structural check can fail: the RGB file the press file was made from has RGB and transparency."""
    found = problems(inks[0] / "cards.pdf")
    assert any("RGB operator rg" in p for p in found)
    assert any("GTS_PDFXVersion" in p for p in found)
    assert any("OutputIntents" in p for p in found)
    assert any("/ca 0.5" in p for p in found)


def test_black_text_and_rules_are_black_ink_only(inks: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """8 pt black text and a 0.2 mm black rule: every pixel with full K has no C, M or Y (no registration black)."""
    pixels = render_cmyk(inks[0] / "press" / "cards.pdf", 1, 300)
    solid_k = pixels[..., 3] == 255
    assert solid_k.sum() > 500  # the text and the rule
    assert pixels[solid_k][:, :3].max() == 0
    height = pixels.shape[0]
    rows = solid_k.any(axis=1).nonzero()[0]
    assert rows.min() > height * 0.4 and rows.max() < height * 0.8  # where the design put the rule and text


def test_the_green_band_is_cyan_and_yellow_where_the_design_put_it(inks: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    pixels = render_cmyk(inks[0] / "press" / "cards.pdf", 1, 100).astype(int)
    height, width = pixels.shape[:2]
    band = pixels[int(height * 0.12):int(height * 0.3), width // 4: 3 * width // 4]  # inside the trim's top 30 %
    assert band[..., 0].min() > 100 and band[..., 2].min() > 200 and band[..., 1].max() < 10 and band[..., 3].max() < 10
    middle = pixels[int(height * 0.4):int(height * 0.45), width // 4: 3 * width // 4]  # white paper between band and rule
    assert middle.max() == 0
    cyan, magenta, yellow, black = ink_coverage(inks[0] / "press" / "cards.pdf")[0]
    assert cyan > 5 and yellow > 10 and black > 0


def test_the_transparent_plate_is_flattened(inks: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    pixels = render_cmyk(inks[0] / "press" / "cards.pdf", 1, 100).astype(int)
    height, width = pixels.shape[:2]
    plate = pixels[int(height * 0.87):int(height * 0.9), width // 3: 2 * width // 3]
    assert 20 < plate[..., 0].mean() < 200  # half-strength blue over white: some cyan, not full
    assert all("ca" not in p and "SMask" not in p for p in problems(inks[0] / "press" / "cards.pdf"))


def test_the_flattened_page_is_named(inks: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """The translucent plate makes page 1 of cards.pdf transparent: the build says it was flattened; tarot.pdf was not."""
    from punchboard.generator.press.run import press_game

    from punchboard.spec.loader.game import load_game

    folder = inks[0]
    options = BuildOptions(print_shop=True, print_shop_preset="drivethrucards")
    _, notes = press_game(load_game(folder.parent.parent), folder, options)
    assert notes[1:] == ["press: cards.pdf page 1: drawn with transparency (opacity, a picture's alpha), which PDF/X-1a does not "
                         "allow: flattened into one 720 dpi CMYK image a page, text included"]
    assert notes[0].startswith("press: 2 PDF/X-1a:2003 files for Artifex CMYK SWOP Profile in ")


def test_press_preflight_names_the_green_and_the_tarot_size(inks: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    err = inks[1].stderr
    green = [line for line in err.splitlines() if "#00ff00" in line]
    assert green == ["warning: inks / layout inks/card / green (fill, 1 piece: Green): sRGB #00ff00 is outside the press gamut: "
                     "it prints as CMYK 62/0/100/0 %, which looks like #6abd45 (ΔE2000 16.2), over the 10 the press settings allow"]
    assert "#000000" not in err and "#ffffff" not in err
    assert "inks / tarot: the trim 70 × 120 mm is none of the card sizes drivethrucards sells; the nearest is tarot (69.85 × 120.65 mm)" in err
    assert "inks / cards: the trim" not in err  # poker is a product


def test_press_files_are_byte_identical_across_builds(inks: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    settings = press(BuildOptions(colour="cmyk", pdfx="1a"))
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    convert(inks[0] / "cards.pdf", first, settings)
    convert(inks[0] / "cards.pdf", second, settings)
    assert first.read_bytes() == second.read_bytes() == (inks[0] / "press" / "cards.pdf").read_bytes()


def test_a_colour_no_layout_names_is_reported_by_file_and_page(tmp_path: Path) -> None:
    """A colour drawn by something other than a layout colour (SVG art, an icon) is found in the file itself."""
    from punchboard.generator.press.run import findings
    from reportlab.pdfgen import canvas

    source = tmp_path / "art.pdf"
    drawing = canvas.Canvas(str(source), pagesize=(200, 200), invariant=1)
    drawing.showPage()
    drawing.setFillColorRGB(0, 1, 0)
    drawing.rect(50, 50, 100, 100, stroke=0, fill=1)
    drawing.save()
    settings = press(BuildOptions(colour="cmyk", pdfx="1a"))
    converted = tmp_path / "art-x.pdf"
    convert(source, converted, settings)
    said = findings(source, converted, settings)
    assert said == ["art.pdf page 2: sRGB #00ff00 is outside the press gamut: it prints as CMYK 62/0/100/0 %, which looks like "
                    "#6abd45 (ΔE2000 16.2), over the 10 the press settings allow"]
    assert findings(source, converted, settings, frozenset({(0, 255, 0)})) == []  # named by its element instead


def test_icc_sets_the_ink_of_every_vector_colour(tmp_path: Path) -> None:
    """A green fill's ink is the chosen profile's conversion (littleCMS), not Ghostscript's default; black stays K."""
    import pikepdf
    from punchboard.generator.press.profile import round_trip
    from reportlab.pdfgen import canvas

    source = tmp_path / "plain.pdf"
    drawing = canvas.Canvas(str(source), pagesize=(200, 200), invariant=1)
    drawing.setFillColorRGB(0, 1, 0)
    drawing.rect(20, 100, 160, 80, stroke=0, fill=1)
    drawing.setFillColorRGB(0, 0, 0)
    drawing.setFont("Helvetica", 8)
    drawing.drawString(20, 50, "Eight-point black text")
    drawing.save()
    default = press(BuildOptions(colour="cmyk", pdfx="1a"))
    other = default.profile.parent / "ps_cmyk.icc"  # Ghostscript ships it beside its default CMYK profile
    settings = press(BuildOptions(colour="cmyk", pdfx="1a", icc=str(other)))
    converted = tmp_path / "plain-x.pdf"
    convert(source, converted, settings)
    assert problems(converted) == []
    with pikepdf.open(converted) as pdf:
        fills = {tuple(round(float(v), 4) for v in i.operands) for i in pikepdf.parse_content_stream(pdf.pages[0], "k")}
    wanted, defaults = (tuple(round(v / 255, 4) for v in round_trip(s.profile, 1, True, [(0, 255, 0)])[0][0])
                        for s in (settings, default))
    assert max(abs(a - b) for a, b in zip(wanted, defaults, strict=True)) > 0.05

    def near(ink: tuple[float, ...]) -> bool:  # Ghostscript writes DeviceCMYK back to within 0.1 %
        return any(max(abs(a - b) for a, b in zip(ink, fill, strict=True)) < 0.002 for fill in fills)

    assert near(wanted) and not near(defaults)
    assert (0, 0, 0, 1) in fills


def test_a_deleted_press_file_is_written_again(inks: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    game = inks[0].parent.parent
    out = tmp_path / "out"
    assert build(game, out, "--shop", "drivethrucards").returncode == 0
    press_file = out / "inks" / "press" / "cards.pdf"
    first = press_file.read_bytes()
    press_file.unlink()
    again = build(game, out, "--shop", "drivethrucards")
    assert again.returncode == 0 and "#00ff00" in again.stderr  # the preflight is said again, not only on the first build
    assert press_file.read_bytes() == first
    record = out / "inks" / "press" / ".press.json"
    record.write_bytes(record.read_bytes()[:-3] + b"xyz")  # a damaged record is read as missing: the work is done again
    damaged = build(game, out, "--shop", "drivethrucards")
    assert damaged.returncode == 0 and "#00ff00" in damaged.stderr
    assert press_file.read_bytes() == first


def test_four_colour_black_over_the_limit_is_reported(tmp_path: Path) -> None:
    """A 400 % rich black (C, M, Y and K all full) passes Ghostscript as DeviceCMYK and is measured as 400 %."""
    from punchboard.generator.press.run import findings
    from reportlab.pdfgen import canvas

    source = tmp_path / "rich.pdf"
    drawing = canvas.Canvas(str(source), pagesize=(200, 200), invariant=1)
    drawing.setFillColorCMYK(1, 1, 1, 1)
    drawing.rect(50, 50, 100, 100, stroke=0, fill=1)
    drawing.showPage()
    drawing.setFillColorCMYK(0.2, 0.2, 0.2, 0.2)
    drawing.rect(50, 50, 100, 100, stroke=0, fill=1)
    drawing.save()
    settings = press(BuildOptions(colour="cmyk", pdfx="1a"))
    converted = tmp_path / "rich-x.pdf"
    convert(source, converted, settings)
    assert page_coverage(converted, 36) == [400.0, 80.0]
    said = findings(source, converted, settings)
    assert said == ["rich.pdf page 1: total ink coverage reaches 400 %, over the 300 % the press allows; lighten the darkest colours"]


def test_a_bundled_game_with_drivethrucards_passes(tmp_path: Path) -> None:
    run = build(ROOT / "components" / "astonishing", tmp_path, "--shop", "drivethrucards")
    assert run.returncode == 0, run.stderr
    files = sorted((tmp_path / "astonishing" / "press").glob("*.pdf"))
    assert {f.name for f in files} == {"deck.pdf", "inventor_sheets.pdf"}
    for path in files:
        assert problems(path) == [], path.name
        assert all(sum(page) > 0 for page in ink_coverage(path))
        with pikepdf.open(path) as pdf:  # no transparency in this game: every page keeps its text as text
            assert all(any(str(i.operator) == "BT" for i in pikepdf.parse_content_stream(page)) for page in pdf.pages), path.name


def test_a_profile_that_is_not_cmyk_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rgb = tmp_path / "srgb.icc"
    from PIL import ImageCms

    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    code = main(["build", str(ROOT / "components" / "astonishing"), "--out", str(tmp_path), "--colour", "cmyk", "--icc", str(rgb)])
    assert code == 2
    assert "is an ICC profile for RGB; expected a CMYK output profile" in capsys.readouterr().err


def test_pdfx_with_rgb_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["build", str(ROOT / "components" / "astonishing"), "--out", str(tmp_path), "--pdfx", "1a", "--colour", "rgb"])
    assert code == 2
    assert "error: --pdfx 1a: PDF/X-1a files are CMYK; drop --colour rgb" in capsys.readouterr().err
    assert not (tmp_path / "astonishing").exists()
