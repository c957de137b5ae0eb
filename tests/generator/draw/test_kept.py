"""The font calls a kept side replays (generator/draw/kept.py): logged per document, nested, and replayed."""

from __future__ import annotations

from io import BytesIO

from punchboard.generator.draw import fonts, kept
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas


def _canvas() -> Canvas:
    return Canvas(BytesIO())


def _font() -> str:
    fonts.register_layout_fonts({})
    return "Vera"


def _draw(canvas: Canvas, text: str) -> None:
    canvas.setFont(_font(), 10)
    canvas.drawString(10, 10, text)


def test_calls_on_one_document_are_logged_and_others_go_through():
    one, other = _canvas(), _canvas()
    with kept.recording(one._doc) as calls:
        _draw(one, "Gear ÆØ")
        _draw(other, "Valve")
    assert [call[0] for call in calls][:1] == ["s"]
    assert all("Valve" not in str(call) for call in calls)
    assert any(call[0] == "s" and call[2] == "Gear ÆØ" for call in calls)
    assert kept._ACTIVE == {}


def test_a_recording_inside_another_is_heard_by_both():
    canvas = _canvas()
    with kept.recording(canvas._doc) as outer:
        _draw(canvas, "Court")
        with kept.recording(canvas._doc) as inner:
            _draw(canvas, "Queen é")
        _draw(canvas, "Trick")
    assert [c[2] for c in inner if c[0] == "s"] == ["Queen é"]
    assert [c[2] for c in outer if c[0] == "s"] == ["Court", "Queen é", "Trick"]
    assert kept._ACTIVE == {}


def test_replaying_the_calls_gives_the_same_codes_only_in_the_same_order():
    first = _canvas()
    with kept.recording(first._doc) as calls:
        _draw(first, "Žluť ÆØ")
    fresh = _canvas()
    assert kept.replay_fonts(fresh._doc, tuple(calls))  # a new document: the same first uses
    assert kept.replay_fonts(fresh._doc, tuple(calls))  # again: every code is assigned already
    shifted = _canvas()
    _draw(shifted, "€")  # another character took the first free code
    assert not kept.replay_fonts(shifted._doc, tuple(calls))
    font = pdfmetrics.getFont(_font())
    assert font.splitString("Ø", fresh._doc) == font.splitString("Ø", first._doc)


def test_kept_ascii_shorthand_is_checked_where_the_font_is_not_ready():
    """side_store keeps printable ASCII shown as itself without its result (None); replaying it on a document
    where the font has no state yet makes the call (it creates the state) and checks the result."""
    first = _canvas()
    with kept.recording(first._doc) as calls:
        _draw(first, "Brass gear")
    shorthand = tuple((c[0], c[1], c[2], None) if c[0] == "s" else c for c in calls)
    fresh = _canvas()
    assert pdfmetrics.getFont(_font()).state.get(fresh._doc) is None
    assert kept.replay_fonts(fresh._doc, shorthand)
    assert pdfmetrics.getFont(_font()).state.get(fresh._doc) is not None
    assert kept.replay_fonts(fresh._doc, shorthand)  # now ready: nothing to call
    wrong = tuple((c[0], c[1], c[2], ((0, b"other"),)) if c[0] == "s" else c for c in calls)
    assert not kept.replay_fonts(_canvas()._doc, wrong)
