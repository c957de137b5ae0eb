"""Fonts fixed before a document's sides are drawn (generator/draw/kept.py ``fix_fonts``): a side's text gets the
same font names and subset codes wherever it falls in the document, so a kept side is reused by its key alone."""

from __future__ import annotations

import hashlib
import random
from io import BytesIO
from pathlib import Path

from punchboard.generator.document.pdf_encoding import PdfWriter
from punchboard.generator.draw import fonts, kept
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from punchboard.incremental import sides
from tests.generator.test_kept_sides import _build, _deck, _edit, _same_as_clean, _sides

CHARS = "ÆØÅéèçß€ŒœžŽŁ"


def _set(chars: str = CHARS) -> sides.FontSet:
    """The fonts of a component set in the built-in faces whose text holds ``chars``."""
    faces = tuple((name, None) for name in sorted(fonts.BUILTIN))
    text = "".join(sorted(set(chars) | kept.ASCII))
    return sides.FontSet(faces, text, hashlib.sha256(repr((faces, text)).encode()).hexdigest())


def _canvas() -> PunchCanvas:
    fonts.register_layout_fonts({})
    return PunchCanvas(BytesIO())


def _draw(canvas: PunchCanvas, text: str, font: str = "Vera") -> None:
    canvas.setFont(font, 10)
    canvas.drawString(10, 10, text)


def _codes(canvas: PunchCanvas, text: str, font: str = "Vera") -> tuple[str, list[tuple[int, bytes]]]:
    face = pdfmetrics.getFont(font)
    return face.getSubsetInternalName(0, canvas._doc), face.splitString(text, canvas._doc)


def test_text_gets_the_same_names_and_codes_whatever_was_drawn_before_it():
    rng = random.Random(3)
    side = "Queen é Ž€ ß"
    digests, seen = set(), set()
    for _ in range(6):
        canvas = _canvas()
        digests.add(kept.fix_fonts(canvas._doc, _set()))
        for _ in range(rng.randrange(0, 5)):  # other sides first, in another face or order each time
            _draw(canvas, "".join(rng.sample(CHARS, 4)) + " Gear", rng.choice(sorted(fonts.BUILTIN)))
        before = canvas._doc.state.loose
        seen.add(repr((_codes(canvas, side), _codes(canvas, side, "Vera-Bold"))))
        assert canvas._doc.state.loose == before
    assert len(digests) == 1 and None not in digests
    assert len(seen) == 1
    unfixed = _canvas()
    _draw(unfixed, "Ž")  # without fixing, the first character drawn takes the first code
    assert repr((_codes(unfixed, side), _codes(unfixed, side, "Vera-Bold"))) not in seen


def test_text_beyond_the_fixed_fonts_is_counted_loose_and_its_side_not_kept():
    canvas = _canvas()
    kept.fix_fonts(canvas._doc, _set())
    state = canvas._doc.state
    _draw(canvas, "Court ÆØ", "Vera-Italic")
    assert state.loose == 0 and state.faces_used == {"Vera-Italic"}
    _draw(canvas, "Ω")  # not a character of the component's text
    assert state.loose == 1
    canvas.setFont("Helvetica", 10)  # a base-14 font: named by its first use
    assert state.loose == 2
    canvas.beginForm("side")
    for text, keepable in (("Valve ß", True), ("Valve ω", False)):
        watch = kept.Watch(canvas)
        canvas.saveState()  # as a side is drawn: the canvas left as it was
        _draw(canvas, text)
        canvas.restoreState()
        assert watch.faces_used() == ("Vera",) and watch.keepable() is keepable
    canvas.endForm()


def test_a_document_is_fixed_once():
    canvas = _canvas()
    first = kept.fix_fonts(canvas._doc, _set())
    assert first is not None and kept.fix_fonts(canvas._doc, _set()) == first
    assert kept.fix_fonts(canvas._doc, _set(CHARS + "Ω")) is None  # another component's fonts: nothing kept
    assert kept.fix_fonts(_canvas()._doc, None) is None
    assert kept.fix_fonts(_canvas()._doc, _set(CHARS + "Ω")) != first  # another glyph set, another key


def test_only_the_fixed_fonts_text_is_set_in_are_embedded(tmp_path: Path):
    out = tmp_path / "one.pdf"
    with out.open("wb") as handle:
        canvas = PunchCanvas(handle, writer=PdfWriter(handle))
        fonts.register_layout_fonts({})
        kept.fix_fonts(canvas._doc, _set())
        _draw(canvas, "Brass gear Ž", "Vera-Bold")
        canvas.showPage()
        canvas.save()
    reader = PdfReader(out)
    resources = reader.pages[0]["/Resources"]["/Font"]
    embedded = sorted(str(font.get_object()["/BaseFont"]).split("+", 1)[1] for font in resources.values())
    assert embedded == ["BitstreamVeraSans-Bold"]  # Vera-Bold's face; the three other fixed faces are left out
    assert "Brass gear Ž" in reader.pages[0].extract_text()


def test_the_fonts_of_a_component_hold_its_fields_and_layout_text(tmp_path: Path):
    from punchboard.spec.loader import load_game

    game = _deck(tmp_path, 4)
    _edit(game / "cards.csv", lambda rows: [rows[0].replace("Card 1,", "Card 1 Ŵ,"), *rows[1:]])
    model = load_game(game)
    found = kept.font_set(model, model.printed[0])
    assert found is not None
    assert "Ŵ" in found.chars and kept.ASCII <= set(found.chars)
    assert [name for name, _ in found.faces] == sorted(fonts.BUILTIN)  # the steam_court layouts name no font file


def test_a_card_that_moves_first_uses_reuses_every_other_side(tmp_path: Path):
    """Card 1 now shows the characters card 9 showed first: with fonts in order of first use every later side's
    codes moved; with fixed fonts every other side is reused, and the PDFs are a clean build's."""
    game = _deck(tmp_path, 20)
    _edit(game / "cards.csv", lambda rows: [row.replace("Card 9,", "Card 9 ŽÆ€,") for row in rows])
    out = tmp_path / "out"
    assert _sides(_build(game, out)) == (21, 0)
    _edit(game / "cards.csv", lambda rows: [rows[0].replace("Card 1,", "Card 1 €Ž,"), *rows[1:]])
    assert _sides(_build(game, out)) == (1, 20)
    _same_as_clean(game, out, tmp_path / "clean")


def test_a_new_character_redraws_every_side_of_its_component(tmp_path: Path):
    """The documented price of fixed fonts: a character no card showed before changes every side's key (one no
    face has, drawn as a stand-in, changes no code and no key)."""
    game = _deck(tmp_path, 12)
    out = tmp_path / "out"
    _build(game, out)
    _edit(game / "cards.csv", lambda rows: [rows[0].replace("Card 1,", "Card 1 ‰,"), *rows[1:]])
    assert _sides(_build(game, out)) == (13, 0)
    _same_as_clean(game, out, tmp_path / "clean")
    _edit(game / "cards.csv", lambda rows: [rows[0], rows[1].replace("Card 2,", "Card 2 Ŵ,"), *rows[2:]])
    assert _sides(_build(game, out))[:2] == (1, 12)  # Vera has no Ŵ
    _same_as_clean(game, out, tmp_path / "clean2")
