"""A variable font used at a named instance or at axis values, and the families shipped with punchboard
(``bundled:``), built end to end through the CLI and read back from the PDF."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.spec.test_fonts_loading import _build, _fonts_in, _game
from tests.spec.var_font import advance, make_variable_font


def _widths(pdf: Path, base: str) -> dict[int, float]:
    """Character code → advance width (1/1000 em) of the embedded font whose name ends with ``base``."""
    for page in PdfReader(pdf).pages:
        holders = [page, *(x.get_object() for x in page["/Resources"].get("/XObject", {}).values())]
        for holder in holders:
            for font in holder.get("/Resources", {}).get("/Font", {}).values():
                font = font.get_object()
                if str(font["/BaseFont"]).split("+")[-1] == base:
                    first = int(font["/FirstChar"])
                    return {first + i: float(w) for i, w in enumerate(font["/Widths"])}
    raise AssertionError(f"no font {base} in {pdf}")


@pytest.mark.parametrize("instance, wght, name", [("Bold", 700, "Varia-Bold"), ("black", 900, "Varia-black"),
                                                  ("{wght: 550}", 550, "Varia-wght550")])
def test_a_variable_font_is_drawn_at_its_instance(tmp_path: Path, instance: str, wght: float, name: str, capsys):
    game = _game(tmp_path / "g", f"{{Title: {{file: fonts/Varia.ttf, instance: {instance}}}}}", font="Title",
                 text="AAAA")
    make_variable_font(game / "fonts" / "Varia.ttf")
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    pdf = tmp_path / "out" / "g" / "cards.pdf"
    assert name in _fonts_in(pdf)
    widths = _widths(pdf, name)
    assert widths[ord("A")] == advance("A", wght) != advance("A", 400)


def test_the_same_instance_gives_the_same_pdf_bytes(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Title: {file: fonts/Varia.ttf, instance: Bold}}", font="Title", text="{name}")
    make_variable_font(game / "fonts" / "Varia.ttf")
    assert _build(game, tmp_path / "a", capsys) == (0, "")
    assert _build(game, tmp_path / "b", capsys) == (0, "")
    assert (tmp_path / "a" / "g" / "cards.pdf").read_bytes() == (tmp_path / "b" / "g" / "cards.pdf").read_bytes()


def test_a_family_face_may_be_an_instance(tmp_path: Path, capsys):
    fonts = "{Body: {regular: fonts/Varia.ttf, bold: {file: fonts/Varia.ttf, instance: Black}}}"
    game = _game(tmp_path / "g", fonts, font="Body", text="A **A**")
    make_variable_font(game / "fonts" / "Varia.ttf")
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    pdf = tmp_path / "out" / "g" / "cards.pdf"
    assert {_width_of_a(font) for font in _all_fonts(pdf) if "Varia-" in str(font["/BaseFont"])} == {
        advance("A", 400), advance("A", 900)}  # the variable font's default and its Black instance
    assert {"Varia-Regular", "Varia-Black"} <= _fonts_in(pdf)


def _width_of_a(font) -> float:
    return float(font["/Widths"][ord("A") - int(font["/FirstChar"])])


def _all_fonts(pdf: Path) -> list:
    """Every font dictionary of the PDF's pages and their forms."""
    found = []
    for page in PdfReader(pdf).pages:
        for holder in [page, *(x.get_object() for x in page["/Resources"].get("/XObject", {}).values())]:
            found.extend(font.get_object() for font in holder.get("/Resources", {}).get("/Font", {}).values())
    return found


@pytest.mark.parametrize("instance, says", [
    ("Condensed", "has no named instance 'Condensed'; expected one of its named instances Regular, Bold, Black, "
                  "or axis values (wght 100–900)"),
    ("{wdth: 75}", "has no axis 'wdth'; expected its axes wght 100–900"),
    ("{wght: 1000}", "asks for wght 1000, outside the axis; expected 100–900"),
])
def test_an_instance_the_font_does_not_have_is_a_located_error(tmp_path: Path, instance: str, says: str, capsys):
    game = _game(tmp_path / "g", f"{{Title: {{file: fonts/Varia.ttf, instance: {instance}}}}}", font="Title")
    make_variable_font(game / "fonts" / "Varia.ttf")
    code, err = _build(game, tmp_path / "out", capsys)
    col = 1 + (game / "layouts" / "card.yaml").read_text(encoding="utf-8").index(instance)
    assert (code, err) == (2, f"{game}/layouts/card.yaml:1:{col}: font file 'fonts/Varia.ttf' {says}\n")


def test_an_instance_of_a_static_font_is_a_located_error(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Title: {file: fonts/Static.ttf, instance: Bold}}", font="Title")
    (game / "fonts").mkdir()
    shutil.copy(Path(__file__).parents[2] / "punchboard" / "fonts" / "dejavu" / "DejaVuSans.ttf", game / "fonts" / "Static.ttf")
    code, err = _build(game, tmp_path / "out", capsys)
    assert code == 2
    assert "font file 'fonts/Static.ttf' is not a variable font, so it has no instance 'Bold'" in err


@pytest.mark.parametrize("family, faces, text", [
    ("Serif", {"DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic"}, "Zażółć **gęślą** *jaźń*"),
    ("Sans", {"DejaVuSans", "DejaVuSans-Bold"}, "Zażółć **gęślą** jaźń"),  # no italic face: Vera's lacks ź
    ("Condensed", {"DejaVuSerifCondensed-Bold"}, "Zażółć gęślą jaźń"),
])
def test_a_bundled_family_is_embedded(tmp_path: Path, family: str, faces: set[str], text: str, capsys):
    game = _game(tmp_path / "g", f"{{Body: {{bundled: {family}}}}}", font="Body", text="{name} " + text)
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    pdf = tmp_path / "out" / "g" / "cards.pdf"
    assert faces <= _fonts_in(pdf)
    if shutil.which("pdffonts"):  # poppler's own reading: each face embedded (emb yes) as a subset
        listed = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, timeout=60, check=True).stdout
        rows = [line.split() for line in listed.splitlines()[2:]]
        embedded = {row[0].split("+")[-1] for row in rows if row[-5] == "yes"}
        assert faces <= embedded


def test_the_symbol_face_draws_suits_and_dice(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Sym: {bundled: Symbols}}", font="Sym", text="♠♥♦♣ ⚀⚅ ★")
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    text = PdfReader(tmp_path / "out" / "g" / "cards.pdf").pages[0].extract_text()
    assert "♠♥♦♣" in text and "★" in text


def test_an_unknown_bundled_family_is_a_located_error(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Body: {bundled: Gothic}}", font="Body")
    assert _build(game, tmp_path / "out", capsys) == (
        2, f"{game}/layouts/card.yaml:1:25: bundled must be one of Serif, Sans, Condensed, Symbols, got 'Gothic'\n")


def test_the_schema_names_every_bundled_family_and_each_ships_its_licence():
    import json

    from punchboard.plumbing.paths import PACKAGE, SCHEMAS
    from punchboard.spec.loader.font_files import bundled_families

    schema = json.loads((SCHEMAS / "layout.schema.json").read_text(encoding="utf-8"))
    entry = schema["properties"]["fonts"]["additionalProperties"]["properties"]["bundled"]
    families = bundled_families()
    assert entry["enum"] == list(families)
    for faces in families.values():
        assert "Bitstream Vera" in (PACKAGE / "fonts" / faces["licence"]).read_text(encoding="utf-8")
        assert all((PACKAGE / "fonts" / file).is_file() for face, file in faces.items() if face != "licence")


def test_every_bundled_font_file_ships_in_the_wheel():
    """pyproject's package data for punchboard.fonts matches every file there (a wheel built from it, 2.4 MB, held
    all eight); the test under tests/packaging builds and installs one."""
    import tomllib

    from punchboard.plumbing.paths import PACKAGE

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert {"punchboard.fonts", "punchboard.fonts.dejavu"} <= set(config["packages"])
    folder = PACKAGE / "fonts"
    shipped = {path for pattern in config["package-data"]["punchboard.fonts"] for path in folder.glob(pattern)}
    files = {path for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts}
    assert files and files == shipped
    assert sum(path.stat().st_size for path in files) < 3_000_000
