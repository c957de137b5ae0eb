"""Where a layout's fonts may come from, as ``check`` and ``build`` see them: a file anywhere inside the game folder
(next to the layout or from the game folder), a family declared once, a family installed on the system (found
through fontconfig), a face of a family named in an element; and the located error for each way it can go wrong."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from punchboard.cli import main
from punchboard.spec.loader import font_files
from tests.generator.draw.cff_font import make_cff_font

ELEMENT = "  - {{id: t, type: text, x: 5%, y: 5%, width: 90%, height: 30%, text: '{text}', font: {font}}}\n"


def _game(folder: Path, fonts_yaml: str, font: str = "Testa", text: str = "{name} is **bold**",
          layout: str = "card") -> Path:
    """A one-deck game whose layout ``layouts/<layout>.yaml`` declares ``fonts_yaml`` and sets its text in ``font``."""
    (folder / "layouts" / layout).parent.mkdir(parents=True, exist_ok=True)
    (folder / "layouts" / f"{layout}.yaml").write_text(
        f"fonts: {fonts_yaml}\nelements:\n" + ELEMENT.format(text=text, font=font), encoding="utf-8")
    (folder / "game.yaml").write_text(f"id: {folder.name}\ntitle: Fonts\nplayers: {{min: 2, max: 4}}\n"
                                      "components: [cards.yaml]\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(f"id: cards\nkind: deck\nsize: poker\nlayout: {layout}\nback: none\n"
                                       "cards:\n  - {name: Alpha}\n", encoding="utf-8")
    return folder


def _fonts_in(pdf: Path) -> set[str]:
    """The fonts a PDF's pages and their forms use, without subset tags."""
    names = set()
    for page in PdfReader(pdf).pages:
        for holder in [page, *(x.get_object() for x in page["/Resources"].get("/XObject", {}).values())]:
            for font in holder.get("/Resources", {}).get("/Font", {}).values():
                names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def _build(game: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["build", str(game), "--out", str(out), "--quiet", "--jobs", "1"])
    return code, capsys.readouterr().err


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


@pytest.mark.parametrize("declared", ["fonts/Testa.otf", "../fonts/Testa.otf"])
def test_a_font_in_the_game_fonts_folder_builds(tmp_path: Path, declared: str, capsys):
    game = _game(tmp_path / "g", f"{{Testa: {declared}}}")
    make_cff_font(game / "fonts" / "Testa.otf")
    code, err = _build(game, tmp_path / "out", capsys)
    assert (code, err) == (0, "")
    assert "Testa-Regular" in _fonts_in(tmp_path / "out" / "g" / "cards.pdf")


def test_a_font_next_to_a_layout_in_a_subfolder_is_found_before_the_game_folder(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Testa: fonts/Testa.otf}", layout="mine/card")
    make_cff_font(game / "layouts" / "mine" / "fonts" / "Testa.otf", family="Near")
    make_cff_font(game / "fonts" / "Testa.otf", family="Far")
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    used = _fonts_in(tmp_path / "out" / "g" / "cards.pdf")
    assert "Near-Regular" in used and "Far-Regular" not in used


def test_a_font_outside_the_game_folder_is_a_located_error(tmp_path: Path, capsys):
    make_cff_font(tmp_path / "elsewhere" / "Testa.otf")
    game = _game(tmp_path / "g", "{Testa: ../../elsewhere/Testa.otf}")
    code, err = _build(game, tmp_path / "out", capsys)
    assert code == 2
    assert err == (f"{game}/layouts/card.yaml:1:16: font file '../../elsewhere/Testa.otf' lies outside the game "
                   "folder; expected a path inside it, relative to the layout or to the game folder (e.g. fonts/MyFont.otf)\n")


@pytest.mark.parametrize("content, says", [
    ("truncated", "cannot be used: not a readable OpenType font"),
    ("header", "cannot be used: no CFF outlines in an OpenType font marked as CFF"),
    ("text", "cannot be used (Not a recognized TrueType font"),
])
def test_a_file_that_is_not_a_font_is_a_located_error(tmp_path: Path, content: str, says: str, capsys):
    game = _game(tmp_path / "g", "{Testa: {regular: fonts/Testa.otf}}")
    whole = make_cff_font(tmp_path / "whole.otf").read_bytes()
    (game / "fonts").mkdir()
    (game / "fonts" / "Testa.otf").write_bytes({"truncated": whole[: len(whole) // 2], "header": b"OTTO" + bytes(60),
                                                "text": b"just some text, not a font at all"}[content])
    code, err = _build(game, tmp_path / "out", capsys)
    assert code == 2
    assert err.startswith(f"{game}/layouts/card.yaml:1:26: font file 'fonts/Testa.otf' {says}"), err
    assert "Traceback" not in err and err.count("\n") == 1


def test_a_missing_face_file_of_a_family_is_a_located_error(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Testa: {regular: fonts/Testa.otf, bold: fonts/Nope.otf}}")
    make_cff_font(game / "fonts" / "Testa.otf")
    code, err = _build(game, tmp_path / "out", capsys)
    assert code == 2
    assert err.startswith(f"{game}/layouts/card.yaml:1:49: font file 'fonts/Nope.otf' not found next to "), err


def test_a_family_declared_once_gives_markup_its_faces(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Testa: {regular: fonts/R.otf, bold: fonts/B.otf, italic: fonts/I.otf, "
                                 "bold-italic: fonts/BI.otf}}", text="{name} **bold** *it* ***both***")
    for file, style in (("R", "Regular"), ("B", "Bold"), ("I", "Italic"), ("BI", "BoldItalic")):
        make_cff_font(game / "fonts" / f"{file}.otf", style=style)
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    used = _fonts_in(tmp_path / "out" / "g" / "cards.pdf")
    assert {"Testa-Regular", "Testa-Bold", "Testa-Italic", "Testa-BoldItalic"} <= used


@pytest.mark.parametrize("font, face", [("{family: Testa, weight: bold}", "Testa-Bold"),
                                        ("{family: Testa, style: italic}", "Testa-Italic"),
                                        ("{family: Vera, weight: bold, style: italic}", "BitstreamVeraSans-BoldOblique")])
def test_an_element_names_a_face_of_a_family(tmp_path: Path, font: str, face: str, capsys):
    game = _game(tmp_path / "g", "{Testa: {regular: fonts/R.otf, bold: fonts/B.otf, italic: fonts/I.otf}}",
                 font=font, text="{name}")
    for file, style in (("R", "Regular"), ("B", "Bold"), ("I", "Italic")):
        make_cff_font(game / "fonts" / f"{file}.otf", style=style)
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    used = _fonts_in(tmp_path / "out" / "g" / "cards.pdf")
    assert face in used and "Testa-Regular" not in used


def test_a_face_the_family_lacks_is_a_located_error(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{Testa: {regular: fonts/R.otf, bold: fonts/B.otf}}",
                 font="{family: Testa, weight: bold, style: italic}", text="{name}")
    make_cff_font(game / "fonts" / "R.otf")
    make_cff_font(game / "fonts" / "B.otf", style="Bold")
    code, err = _build(game, tmp_path / "out", capsys)
    layout = game / "layouts" / "card.yaml"
    assert code == 2
    assert err == (f"{layout}:{_line_of(layout, 'id: t')}:86: font family 'Testa' has no bold italic face "
                   "('Testa-BoldItalic'); expected one of its faces Testa, Testa-Bold, or declare it under fonts: "
                   "(Testa: {regular: …, bold-italic: …})\n")


def test_a_face_with_an_unknown_weight_is_a_schema_error(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "{}", font="{family: Vera, weight: heavy}", text="{name}")
    code, err = _build(game, tmp_path / "out", capsys)
    assert code == 2
    assert err.startswith(f"{game}/layouts/card.yaml:3:") and "heavy" in err, err


# --- installed fonts, found through fontconfig. The tests give fontconfig a configuration of their own that knows
# only the fonts they make, so they depend on no font installed on the machine.

@pytest.fixture
def private_fontconfig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fontconfig that sees only the fonts in the folder returned; fc-match must be installed."""
    assert shutil.which("fc-match"), "fontconfig's fc-match is needed for the installed-font tests"
    folder = tmp_path / "installed"
    folder.mkdir()
    conf = tmp_path / "fonts.conf"
    conf.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                    f"<dir>{folder}</dir>\n<cachedir>{tmp_path / 'fc-cache'}</cachedir>\n</fontconfig>\n",
                    encoding="utf-8")
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    monkeypatch.setattr(font_files, "_system", {})  # fontconfig's answers are kept per process
    return folder


def test_an_installed_family_is_found_with_its_faces(tmp_path: Path, private_fontconfig: Path, capsys):
    make_cff_font(private_fontconfig / "Sysfam-Regular.otf", family="Sysfam", style="Regular")
    make_cff_font(private_fontconfig / "Sysfam-Bold.otf", family="Sysfam", style="Bold", weight=160)
    game = _game(tmp_path / "g", '{Sys: {system: "Sysfam"}}', font="Sys", text="{name} **bold** *no italic*")
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    used = _fonts_in(tmp_path / "out" / "g" / "cards.pdf")
    assert {"Sysfam-Regular", "Sysfam-Bold"} <= used
    assert "Sysfam-Italic" not in used  # not installed: markup's italic falls back as for any family without one


def test_a_system_family_not_installed_is_a_located_error_not_a_fallback(tmp_path: Path, private_fontconfig: Path,
                                                                        capsys):
    make_cff_font(private_fontconfig / "Other-Regular.otf", family="Otherfam")
    game = _game(tmp_path / "g", '{Sys: {system: "Nosuchfam"}}', font="Sys", text="{name}")
    code, err = _build(game, tmp_path / "out", capsys)
    assert code == 2
    assert err == (f"{game}/layouts/card.yaml:1:23: system font 'Nosuchfam' is not installed (fontconfig offers "
                   "'Otherfam' instead); expected an installed family (see fc-list : family) or font files under fonts:\n")


def test_a_system_family_without_fontconfig_is_a_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(font_files, "_system", {})
    game = _game(tmp_path / "g", '{Sys: {system: "Anyfam"}}', font="Sys", text="{name}")
    code, err = _build(game, tmp_path / "out", capsys)
    assert code == 2
    assert err == (f"{game}/layouts/card.yaml:1:23: system font 'Anyfam' cannot be looked up: fontconfig's fc-match "
                   "is not installed; expected font files under fonts: instead (e.g. fonts/MyFont.otf)\n")
    assert os.environ["PATH"] == str(empty)


@pytest.mark.parametrize("fonts_yaml, says", [
    ("{Testa: {regular: fonts/R.otf, bolt: fonts/B.otf}}",
     "1:39: unknown key 'bolt' (did you mean 'bold'?); expected one of: bold, bold-italic, bundled, file, instance, italic, regular, system"),
    ('{Testa: {system: "Anyfam", bold: fonts/B.otf}}',
     "1:25: font 'Testa': system: names an installed family, whose faces fontconfig finds; expected either system: or "
     "face files (regular, bold, …), not both"),
    ("{Testa: 3}", "1:16: Testa must be text or a mapping of keys to values, got 3"),
])
def test_a_badly_written_family_is_a_located_error(tmp_path: Path, fonts_yaml: str, says: str, capsys):
    game = _game(tmp_path / "g", fonts_yaml, font="Vera", text="{name}")
    code, err = _build(game, tmp_path / "out", capsys)
    assert (code, err) == (2, f"{game}/layouts/card.yaml:{says}\n")


def test_a_family_face_replaced_while_loads_are_kept_is_read_again(tmp_path: Path, capsys):
    """As in ``watch``: the layout is kept between loads only while every face file of its families is unchanged."""
    from punchboard.incremental import loads
    from punchboard.spec.yamlsource import keep_parsed

    keep_parsed()  # as watch does
    loads.keep_loaded()
    game = _game(tmp_path / "g", "{Testa: {regular: fonts/R.otf, bold: fonts/B.otf}}", text="{name} **bold**")
    make_cff_font(game / "fonts" / "R.otf")
    make_cff_font(game / "fonts" / "B.otf", family="Old", style="Bold")
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    assert "Old-Bold" in _fonts_in(tmp_path / "out" / "g" / "cards.pdf")
    make_cff_font(game / "fonts" / "B.otf", family="New", style="Bold", weight=150)
    assert _build(game, tmp_path / "out", capsys) == (0, "")
    used = _fonts_in(tmp_path / "out" / "g" / "cards.pdf")
    assert "New-Bold" in used and "Old-Bold" not in used
