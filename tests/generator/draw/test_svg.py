"""SVG pictures drawn by svglib: arcs, short hex colours and text come out as written; what it cannot draw is a warning."""

from __future__ import annotations

from pathlib import Path

import pdfplumber

from tests.conftest import run_cli

PLAIN = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect x="0" y="0" width="100" height="100" fill="#fff"/>
  <path d="M10 60 A40 40 0 0 1 90 60 Z" fill="#c00"/>
  <text x="20" y="90" font-size="14" fill="#000">Hello</text>
</svg>
"""
FANCY = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <defs><filter id="blur"><feGaussianBlur stdDeviation="2"/></filter></defs>
  <circle cx="50" cy="50" r="30" fill="#c00" filter="url(#blur)"/>
</svg>
"""


def _game(folder: Path, svg: str) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "pic.svg").write_text(svg)
    (folder / "game.yaml").write_text("id: pics\ntitle: Pics\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n")
    (folder / "deck.yaml").write_text("id: deck\nkind: deck\nsize: poker\nlayout: pic\nback: none\ncards:\n  - {name: One}\n")
    (folder / "layouts" / "pic.yaml").write_text(
        "elements:\n  - {id: pic, type: image, x: 10%, y: 10%, width: 80%, height: 80%, src: pic.svg}\n")
    return folder


def test_arcs_colours_and_text_are_drawn_as_written(tmp_path: Path):
    game = _game(tmp_path / "pics", PLAIN)
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--backs", "none", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    with pdfplumber.open(out / "pics" / "deck.pdf") as pdf:
        page = pdf.pages[0]
        shapes = page.rects + page.curves
        white = [s for s in shapes if s["non_stroking_color"] == (1, 1, 1)]
        red = [s for s in shapes if s["non_stroking_color"] == (0.8, 0, 0)]
        assert white and red, {s["non_stroking_color"] for s in shapes}
        # the half disc: as wide as the chord, half as tall (an arc, not a dot and a bar)
        arc = red[0]
        assert abs((arc["x1"] - arc["x0"]) / (arc["bottom"] - arc["top"]) - 2.0) < 0.1
        assert arc in page.curves
        assert "Hello" in "".join(c["text"] for c in page.chars)


def test_what_svglib_cannot_draw_is_a_warning_naming_the_file_and_feature(tmp_path: Path):
    game = _game(tmp_path / "pics", FANCY)
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--backs", "none", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "warning: pics / deck / card 'One': image 'pic.svg' is not drawn faithfully: filters are not supported" in result.stderr


def test_the_games_own_svg_icon_with_a_filter_is_a_warning_too(tmp_path: Path):
    game = _game(tmp_path / "pics", PLAIN)
    (game / "mana.svg").write_text(FANCY)
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "icons: {mana: mana.svg}\n")
    (game / "layouts" / "pic.yaml").write_text(
        "elements:\n  - {id: rules, type: text, x: 10%, y: 10%, width: 80%, height: 20%, text: 'Pay :mana:'}\n")
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--backs", "none", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "warning: pics / deck / card 'One': icon 'mana' (mana.svg) is not drawn faithfully: filters are not supported" in result.stderr


def test_text_in_a_font_that_is_not_installed_is_a_warning(tmp_path: Path):
    game = _game(tmp_path / "pics", PLAIN.replace('font-size="14"', 'font-size="14" font-family="Nowhere Grotesk"'))
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--backs", "none", "--quiet")
    assert result.returncode == 0, result.stderr
    # with fontconfig svglib substitutes a font, without it it logs a warning: either way the user hears of it
    warning = next(line for line in result.stderr.splitlines() if "image 'pic.svg' is not drawn faithfully" in line)
    assert "Nowhere Grotesk" in warning


def _fonts_of(pdf_path: Path) -> set[tuple[str, bool]]:
    """(base font name, embedded?) of every font the PDF's pages use."""
    from pypdf import PdfReader

    fonts: set[tuple[str, bool]] = set()
    for page in PdfReader(pdf_path).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            fonts.add((str(font["/BaseFont"]), embedded))
    return fonts


def test_svg_text_never_uses_an_unembedded_base_font_and_a_serif_swap_is_a_warning(tmp_path: Path):
    svg = PLAIN.replace("</svg>", '<text x="20" y="40" font-family="serif" font-weight="bold">Serif</text></svg>')
    game = _game(tmp_path / "pics", svg)
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--backs", "none", "--quiet")
    assert result.returncode == 0, result.stderr
    fonts = _fonts_of(out / "pics" / "deck.pdf")
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert not any("Helvetica" in name or "Times" in name for name, _ in fonts), fonts
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: pics / deck / card 'One': image 'pic.svg' is not drawn faithfully: text set in Times-Bold "
        "(a PDF base font, which is never embedded) is drawn in embedded Vera-Bold instead; "
        f"name an installed font or convert the text to paths [{game / 'layouts' / 'pic.yaml'}:2:5]"
    ], result.stderr
    with pdfplumber.open(out / "pics" / "deck.pdf") as pdf:
        text = "".join(c["text"] for c in pdf.pages[0].chars)
    assert "Hello" in text and "Serif" in text
