"""A layout's text is set in the built-in fonts and its own layout's, whatever else the process drew before: the
bold face of another layout's family is not this layout's, and a font file replaced between two builds in one
process (``watch``, ``serve``) is read again."""

from __future__ import annotations

from pathlib import Path

import pytest

from punchboard.cli import main

VERA = Path(__import__("reportlab").__file__).parent / "fonts"


def _font_game(folder: Path, layout: str, fonts: dict[str, str]) -> Path:
    """A one-deck game whose own layout declares ``fonts`` (name → one of reportlab's Vera files) and sets its
    text in ``Body``, with a bold word."""
    (folder / "layouts" / layout).mkdir(parents=True)
    for name, file in fonts.items():
        (folder / "layouts" / layout / f"{name}.ttf").write_bytes((VERA / file).read_bytes())
    declared = ", ".join(f"{name}: {name}.ttf" for name in fonts)
    (folder / "layouts" / layout / "card.yaml").write_text(
        f"fonts: {{{declared}}}\nelements:\n"
        "  - {id: t, type: text, x: 5%, y: 5%, width: 90%, height: 30%, text: '{name} is **bold**', font: Body}\n",
        encoding="utf-8")
    (folder / "game.yaml").write_text(f"id: {folder.name}\ntitle: Fonts\nplayers: {{min: 2, max: 4}}\n"
                                      "components: [cards.yaml]\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(f"id: cards\nkind: deck\nsize: poker\nlayout: {layout}/card\n"
                                       "cards:\n  - {name: One, count: 2}\n", encoding="utf-8")
    return folder


def _font_names(pdf: Path) -> set[str]:
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(pdf).pages:
        for form in page["/Resources"].get("/XObject", {}).values():
            for font in form.get_object().get("/Resources", {}).get("/Font", {}).values():
                names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def _second_deck(game: Path) -> None:
    """A second deck drawn with a layout that declares ``Body`` only, drawn after the first deck's."""
    (game / "layouts" / "plain").mkdir()
    (game / "layouts" / "plain" / "Body.ttf").write_bytes((VERA / "Vera.ttf").read_bytes())
    (game / "layouts" / "plain" / "card.yaml").write_text(
        "fonts: {Body: Body.ttf}\nelements:\n"
        "  - {id: t, type: text, x: 5%, y: 5%, width: 90%, height: 30%, text: '{name} is **bold**', font: Body}\n",
        encoding="utf-8")
    (game / "plain.yaml").write_text("id: plain\nkind: deck\nsize: poker\nlayout: plain/card\n"
                                     "cards:\n  - {name: Two, count: 2}\n", encoding="utf-8")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("[cards.yaml]", "[cards.yaml, plain.yaml]"), encoding="utf-8")


def test_a_layout_does_not_borrow_another_layouts_bold_face(tmp_path: Path):
    game = _font_game(tmp_path / "game", "fancy", {"Body": "Vera.ttf", "Body-Bold": "VeraIt.ttf"})
    _second_deck(game)
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1"]) == 0
    assert "BitstreamVeraSans-Oblique" in _font_names(tmp_path / "out" / "game" / "cards.pdf")  # its own bold
    plain = _font_names(tmp_path / "out" / "game" / "plain.pdf")
    assert "BitstreamVeraSans-Bold" in plain and "BitstreamVeraSans-Oblique" not in plain


def test_a_font_file_replaced_between_builds_in_one_process_is_read_again(tmp_path: Path):
    game = _font_game(tmp_path / "game", "mine", {"Body": "Vera.ttf"})
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert "BitstreamVeraSans-Oblique" not in _font_names(tmp_path / "out" / "game" / "cards.pdf")
    (game / "layouts" / "mine" / "Body.ttf").write_bytes((VERA / "VeraIt.ttf").read_bytes())
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert "BitstreamVeraSans-Oblique" in _font_names(tmp_path / "out" / "game" / "cards.pdf")


def test_kept_sides_replay_in_their_own_layouts_fonts(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Two layouts name different files ``Body``; after an edit of one deck, the other deck's sides, all kept, are
    replayed after the first deck's layout set ``Body``: the incremental build writes what a build from nothing
    writes."""
    game = _font_game(tmp_path / "game", "fancy", {"Body": "VeraIt.ttf"})
    _second_deck(game)
    plain = game / "plain.yaml"
    plain.write_text(plain.read_text(encoding="utf-8") + "".join(f"  - {{name: N{n}, count: 1}}\n" for n in range(20)),
                     encoding="utf-8")
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert main(["build", str(game), "--out", str(out), "--quiet", "--jobs", "1"]) == 0
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("{name: One", "{name: Uno"), encoding="utf-8")
    # more copies of a card: every side of it kept, replayed after the edited deck's side was drawn
    plain.write_text(plain.read_text(encoding="utf-8").replace("count: 2", "count: 7"), encoding="utf-8")
    capsys.readouterr()
    assert main(["build", str(game), "--out", str(out), "--verbose", "--jobs", "1"]) == 0
    told = capsys.readouterr().out
    assert "cards: 1 distinct side drawn" in told and "plain: 0 distinct sides drawn, 21 kept" in told
    assert main(["build", str(game), "--out", str(fresh), "--quiet", "--jobs", "1", "--force"]) == 0
    for name in ("cards.pdf", "plain.pdf", "game-print-and-play.pdf"):
        assert (out / "game" / name).read_bytes() == (fresh / "game" / name).read_bytes(), name
    assert "BitstreamVeraSans-Oblique" not in _font_names(fresh / "game" / "plain.pdf")
