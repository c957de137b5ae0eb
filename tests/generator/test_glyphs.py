"""Characters a text's font lacks, through the CLI: a located warning at check and build naming the characters and
the font; none, and the characters drawn, with the element's fallback: font; a located error for a translation
(a Polish text in a font without ł); and check's one line of information for a font taken from the system."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from punchboard.cli import main
from tests.generator.draw.cff_font import make_cff_font

LAYOUT = """fonts:
  Title: fonts/Testa.otf
  Spare: {{bundled: Sans}}
elements:
  - {{id: rules, type: text, x: 5%, y: 5%, width: 90%, height: 60%, text: "{{text}} ok", font: Title{extra}}}
"""


def _game(folder: Path, rows: str, *, extra: str = "", languages: str = "", header: str = "name,text") -> Path:
    """A deck whose CSV ``rows`` are set in an ASCII-only font (``Title``: Testa.otf)."""
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "card.yaml").write_text(LAYOUT.format(extra=extra), encoding="utf-8")
    make_cff_font(folder / "fonts" / "Testa.otf")
    (folder / "game.yaml").write_text(f"id: {folder.name}\ntitle: Glyphs\nplayers: {{min: 2, max: 4}}\n{languages}"
                                      "components: [cards.yaml]\n", encoding="utf-8")
    fields = [f for f in header.split(",") if f != "name" and "@" not in f]
    (folder / "cards.yaml").write_text(f"id: cards\nkind: deck\nsize: poker\nlayout: card\nback: none\n"
                                       f"fields: [{', '.join(fields)}]\ncsv: cards.csv\n", encoding="utf-8")
    (folder / "cards.csv").write_text(f"{header}\n{rows}", encoding="utf-8")
    return folder


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().err


def test_a_text_using_characters_its_font_lacks_is_a_located_warning(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "Guard,Take one\nRegent,Łódź i łąka\n")
    said = (f"{game}/cards.csv:3:8: 'Regent' text uses Ł, ó, ź, ł, ą, which font 'Title' (Testa.otf) "
            "does not have")
    assert _run(["check", str(game), "--quiet"], capsys) == (0, f"warning: {said}\n")
    code, err = _run(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1"], capsys)
    assert (code, err) == (0, f"warning: {said}\n")


def test_markup_and_inline_icons_are_not_characters_and_bold_is_its_own_face(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "Regent,Pay 1 :coin: **now** [color=#ff0000]ó[/color]\n")
    code, err = _run(["check", str(game), "--quiet"], capsys)
    # **now** is drawn in Vera-Bold (Title has no bold face), which has every character here; ó is in Title
    assert (code, err) == (0, f"warning: {game}/cards.csv:2:8: 'Regent' text uses ó, which font 'Title' "
                              "(Testa.otf) does not have\n")


def test_a_fallback_font_draws_the_missing_characters_and_nothing_is_said(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "Regent,Zażółć gęślą jaźń\n", extra=", fallback: Spare")
    assert _run(["check", str(game), "--quiet"], capsys) == (0, "")
    out = tmp_path / "out"
    assert _run(["build", str(game), "--out", str(out), "--quiet", "--jobs", "1"], capsys) == (0, "")
    page = PdfReader(out / "g" / "cards.pdf").pages[0]
    drawn = page.extract_text()
    assert "Zażółćgęśląjaźńok" in "".join(drawn.split()) and "?" not in drawn  # each letter drawn, none as '?'
    used = set()
    for holder in [page, *(x.get_object() for x in page["/Resources"].get("/XObject", {}).values())]:
        used |= {str(f.get_object()["/BaseFont"]).split("+")[-1] for f in holder.get("/Resources", {}).get("/Font", {}).values()}
    assert {"Testa-Regular", "DejaVuSans"} <= used


def test_a_fallback_that_is_no_font_of_the_layout_is_a_located_warning(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "Regent,Rules\n", extra=", fallback: Spear")
    assert _run(["check", str(game), "--quiet"], capsys) == (0, (
        f"warning: {game}/layouts/card.yaml:5:5: element 'rules': fallback font 'Spear' is not one of the layout's "
        "fonts; expected one of Spare, Spare-Bold, Title, Vera, Vera-Bold, Vera-BoldItalic, Vera-Italic\n"))


def test_the_text_a_repeat_draws_is_read_too(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "Regent,Rules\n")
    layout = game / "layouts" / "card.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") + (
        "  - {id: row, type: repeat, count: 3, x: 5%, y: 70%, width: 90%, height: 10%,\n"
        "     child: {type: text, text: 'ł{number}', font: Title}}\n"), encoding="utf-8")
    code, err = _run(["check", str(game), "--quiet"], capsys)
    assert code == 0
    assert err.endswith("element 'row.child' text uses ł, which font 'Title' (Testa.otf) does not have\n"), err
    assert err.count("\n") == 1


def test_without_a_fallback_the_missing_characters_are_drawn_as_question_marks(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "Regent,Zażółć\n")
    out = tmp_path / "out"
    assert _run(["build", str(game), "--out", str(out), "--quiet", "--jobs", "1"], capsys)[0] == 0
    assert "Za???" in PdfReader(out / "g" / "cards.pdf").pages[0].extract_text()


def test_a_polish_translation_in_a_font_without_its_letters_is_a_located_error(tmp_path: Path, capsys):
    game = _game(tmp_path / "g", "Regent,Rules the court,Rządzi dworem\nGuard,Guards,Pilnuje\n",
                 languages="languages: [en, pl]\n", header="name,text,text@pl")
    code, err = _run(["check", str(game), "--quiet"], capsys)
    assert (code, err) == (2, f"{game}/cards.csv:2:24: 'Regent' text uses ą, which font 'Title' (Testa.otf) "
                              "does not have (in pl)\n")


def test_a_system_font_is_said_once_as_information(tmp_path: Path, capsys):
    if not shutil.which("fc-match"):
        pytest.skip("fontconfig's fc-match is not installed")  # the same game cannot name a system font without it
    game = _game(tmp_path / "g", "Regent,Rules\n")
    layout = game / "layouts" / "card.yaml"
    layout.write_text('fonts:\n  Title: fonts/Testa.otf\n  Sans: {system: "DejaVu Sans"}\nelements:\n'
                      "  - {id: a, type: text, x: 5%, y: 5%, width: 90%, height: 40%, text: '{text}', font: Sans}\n"
                      "  - {id: b, type: text, x: 5%, y: 50%, width: 90%, height: 40%, text: '{name}', font: Sans}\n",
                      encoding="utf-8")
    code, err = _run(["check", str(game), "--quiet"], capsys)
    assert code == 0
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"note: {layout}:3:18: font 'Sans' is the installed font DejaVu Sans (system:DejaVu Sans, /")
    assert lines[0].endswith("DejaVuSans.ttf); another machine without it will draw differently — copy the font file "
                             "into fonts/ to ship it")
    # build says nothing of it: the note is check's
    assert _run(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1"], capsys) == (0, "")


def test_the_starter_checks_with_nothing_said(tmp_path: Path, capsys):
    assert main(["init", str(tmp_path / "newgame")]) == 0
    capsys.readouterr()
    assert _run(["check", str(tmp_path / "newgame"), "--quiet"], capsys) == (0, "")
