"""Scripts punchboard cannot shape are refused at load, located; the scripts it draws are accepted.

Each case is a small game whose card table has a ``text`` column and a translation column, run through
``punchboard check`` (and ``build``) as a user runs them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.cli import main
from punchboard.spec.scripts import refused_script

GAME = """\
id: scripts
title: Scripts
players: {{min: 1, max: 2}}
languages: [en, {lang}]
components: [deck.yaml]
"""
DECK = """\
id: deck
kind: deck
name: Court
size: poker
layout: face
fields: [text]
csv: cards.csv
"""
FACE = """\
fonts:
  Sans: {bundled: Sans}
elements:
  - {id: text, type: text, x: 5mm, y: 5mm, width: 50mm, height: 40mm, text: "{text}", font: Sans, size: 9pt}
"""  # DejaVu Sans: Latin with every accent, Greek and Cyrillic, so only the script check can refuse a text


def _game(folder: Path, lang: str, rows: str) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME.format(lang=lang), encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    (folder / "layouts" / "face.yaml").write_text(FACE, encoding="utf-8")
    (folder / "cards.csv").write_text(f"name,count,text,text@{lang}\n{rows}", encoding="utf-8")
    return folder


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


ROWS = "Guard,1,Take a coin.,{guard}\nSpy,1,Look at a card.,{spy}\nBaron,1,Trade hands.,{baron}\nRegent,1,Rule the court.,{regent}\n"


@pytest.mark.parametrize(("lang", "regent", "script"), [
    ("ar", "احكم البلاط.", "Arabic"),
    ("he", "שלוט בחצר.", "Hebrew"),
    ("hi", "दरबार पर राज करो।", "Devanagari"),
    ("bn", "দরবার শাসন করো।", "Bengali"),
    ("th", "ปกครองราชสำนัก", "Thai"),
])
def test_a_translation_in_a_script_punchboard_cannot_shape_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                              lang: str, regent: str, script: str):
    folder = _game(tmp_path / "game", lang, ROWS.format(guard="", spy="", baron="", regent=regent))
    for verb in ("check", "build"):
        code, said = _run(capsys, verb, str(folder), *(["--out", str(tmp_path / "out")] if verb == "build" else []))
        assert code == 2, said
        line = next(line for line in said.splitlines() if "cannot shape" in line)
        column = len("Regent,1,Rule the court.,") + 1  # the cell's first character in its line
        assert line.endswith(f"cards.csv:5:{column}: 'Regent' text@{lang} uses {script} script, which punchboard cannot shape yet; "
                             "expected Latin, Greek or Cyrillic text"), line
        assert "Traceback" not in said
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))


def test_source_text_and_every_offending_cell_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    rows = "Guard,1,Take a coin.,خذ\nשומר,1,Look at a card.,\nBaron,1,राज,\n"
    folder = _game(tmp_path / "game", "ar", rows)
    code, said = _run(capsys, "check", str(folder))
    assert code == 2, said
    problems = sorted(line.split("cards.csv:", 1)[1] for line in said.splitlines() if "cannot shape" in line)
    assert problems == [
        "2:22: 'Guard' text@ar uses Arabic script, which punchboard cannot shape yet; expected Latin, Greek or Cyrillic text",
        "3:1: 'שומר' name uses Hebrew script, which punchboard cannot shape yet; expected Latin, Greek or Cyrillic text",
        "4:9: 'Baron' text uses Devanagari script, which punchboard cannot shape yet; expected Latin, Greek or Cyrillic text",
    ]


@pytest.mark.parametrize(("lang", "texts"), [
    ("pl", ("Weź monetę.", "Spójrz na kartę.", "Zamień ręce.", "Rządź dworem łaskawie!")),
    ("cs", ("Vezmi si minci.", "Podívej se na kartu.", "Vyměňte si ruce.", "Vládni dvoru — příliš žluťoučký kůň.")),
    ("ru", ("Возьми монету.", "Посмотри на карту.", "Обменяйтесь руками.", "Правь двором.")),
    ("el", ("Πάρε ένα νόμισμα.", "Κοίτα μια κάρτα.", "Ανταλλάξτε χέρια.", "Κυβέρνα την αυλή.")),
])
def test_latin_with_accents_cyrillic_and_greek_are_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            lang: str, texts: tuple[str, str, str, str]):
    folder = _game(tmp_path / "game", lang, ROWS.format(guard=texts[0], spy=texts[1], baron=texts[2], regent=texts[3]))
    code, said = _run(capsys, "check", str(folder))
    assert code == 0, said
    assert "cannot shape" not in said


def test_the_script_of_a_text():
    assert refused_script("Take 1 :coin: — ok, «fine» 3½ €") is None
    assert refused_script("\ufeffGuard") is None  # a byte-order mark left by a spreadsheet is not Arabic
    assert refused_script("Regent: ملك") == "Arabic"
    assert refused_script("ﷺ") == "Arabic"  # a presentation form
    assert refused_script("ירושלים") == "Hebrew"
    assert refused_script("ภาษาไทย") == "Thai"
    assert refused_script("日本語 한국어") is None  # drawn without shaping; the font's glyphs are checked elsewhere
