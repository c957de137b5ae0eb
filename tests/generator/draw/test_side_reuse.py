"""A drawn side is reused when the fields its layout reads agree: a common back is drawn once per deck."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from tests.conftest import run_cli

FACE = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#224466"}
  - {id: name, type: text, x: 0, y: 40%, width: 100%, height: 20%, text: "{name}", size: 14pt, align: center}
"""
PLAIN_BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#663322"}
  - {id: star, type: icon, icon: star, x: 20%, y: 20%, width: 60%, height: 60%, fill: "#ffffff"}
"""
# reads 'suit' only through a condition, and overflows its box (a warning per card showing it)
SUIT_BACK = """\
elements:
  - {id: bg, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#663322"}
  - {id: red, type: rect, x: 10%, y: 10%, width: 80%, height: 80%, fill: "#cc0000", when: "suit == 'red'"}
  - {id: motto, type: text, x: 0, y: 0, width: 8mm, height: 3mm, size: 12pt, text: "A motto far too long for this tiny box"}
"""
CARDS = "  - {name: Alpha, suit: red}\n  - {name: Beta, suit: red}\n  - {name: Gamma, suit: black}\n  - {name: Delta, suit: black}\n"


def _game(folder: Path, back: str) -> Path:
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "face.yaml").write_text(FACE)
    (folder / "layouts" / "back.yaml").write_text(back)
    (folder / "game.yaml").write_text(f"id: {folder.name}\ntitle: Reuse\nplayers: {{min: 1, max: 2}}\ncomponents: [deck.yaml]\n")
    (folder / "deck.yaml").write_text(
        "id: deck\nkind: deck\nsize: poker\nlayout: face\nback: {layout: back}\nfields: [suit]\ncards:\n" + CARDS
    )
    return folder


def _forms(pdf: Path) -> set[str]:
    names: set[str] = set()
    for page in PdfReader(pdf).pages:
        names.update(page["/Resources"].get("/XObject", {}).keys())
    return names


def test_a_back_reading_no_field_is_one_form_for_the_whole_deck(tmp_path: Path):
    game = _game(tmp_path / "plain", PLAIN_BACK)
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    # four distinct faces (they show the name) and one back
    assert len(_forms(tmp_path / "out" / "plain" / "deck.pdf")) == 5


def test_a_back_is_redrawn_only_for_the_fields_it_reads_and_warns_for_every_card(tmp_path: Path):
    game = _game(tmp_path / "suits", SUIT_BACK)
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    # four faces; the back reads 'suit' (in its condition) only: one red back, one black back
    assert len(_forms(tmp_path / "out" / "suits" / "deck.pdf")) == 6
    for card in ("Alpha", "Beta", "Gamma", "Delta"):
        assert f"card '{card}': text of 'motto' does not fit" in result.stderr, result.stderr
