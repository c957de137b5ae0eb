"""The font calls a kept side replays (generator/draw/kept.py): logged per document, nested, and replayed."""

from __future__ import annotations

from io import BytesIO

from hypothesis import given, settings
from hypothesis import strategies as st
from punchboard.generator.draw import fonts, kept
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas


def _canvas() -> PunchCanvas:
    return PunchCanvas(BytesIO())


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
    assert one._doc.recordings == [] and other._doc.recordings == []


def test_a_recording_inside_another_is_heard_by_both():
    canvas = _canvas()
    with kept.recording(canvas._doc) as outer:
        _draw(canvas, "Court")
        with kept.recording(canvas._doc) as inner:
            _draw(canvas, "Queen é")
        _draw(canvas, "Trick")
    assert [c[2] for c in inner if c[0] == "s"] == ["Queen é"]
    assert [c[2] for c in outer if c[0] == "s"] == ["Court", "Queen é", "Trick"]
    assert canvas._doc.recordings == []


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


TEXTS = ["Gear", "Žluť", "ÆØ", "€ 5", "Queen é", "Ünder", "ß", "Ωmega"]


@settings(max_examples=60, deadline=None)
@given(drawn=st.lists(st.sampled_from(TEXTS), min_size=1, max_size=6),
       before=st.lists(st.sampled_from(TEXTS), max_size=3),
       replays=st.lists(st.integers(0, 5), min_size=1, max_size=10))
def test_calls_already_made_are_not_made_again_and_the_verdicts_stay_those_of_making_them(drawn, before, replays):
    """Oracle: a document that skips calls it already made (its state's ``font_calls``) says the same, and
    ends in the same font state, as one that makes every call every time."""
    recorded = []
    source = _canvas()
    for text in drawn:  # each text drawn as a side of its own, after the ones before it
        with kept.recording(source._doc) as calls:
            _draw(source, text)
        recorded.append(tuple(calls))
    skipping, making = _canvas(), _canvas()
    for text in before:  # other sides first: codes may already be taken otherwise
        _draw(skipping, text)
        _draw(making, text)
    font = pdfmetrics.getFont(_font())
    for index in replays:
        calls = recorded[index % len(recorded)]
        making._doc.state.font_calls.clear()
        said = kept.replay_fonts(making._doc, calls)
        assert kept.replay_fonts(skipping._doc, calls) == said
        if not said:  # the side is drawn instead, on both
            _draw(making, drawn[index % len(recorded)])
            _draw(skipping, drawn[index % len(recorded)])
        assert font.state[skipping._doc].assignments == font.state[making._doc].assignments
        assert skipping._doc.fontMapping == making._doc.fontMapping


def test_a_call_made_once_is_not_made_again(monkeypatch):
    first = _canvas()
    with kept.recording(first._doc) as calls:
        _draw(first, "Žluť ÆØ")
    fresh = _canvas()
    assert kept.replay_fonts(fresh._doc, tuple(calls))
    font = pdfmetrics.getFont(_font())
    made: list[str] = []
    monkeypatch.setattr(type(font), "splitString", lambda self, text, doc: made.append(text) or [])
    assert kept.replay_fonts(fresh._doc, tuple(calls)) and made == []
    other = tuple((c[0], c[1], "Žluť!", c[3]) if c[0] == "s" else c for c in calls)  # not made yet: made, and checked
    assert not kept.replay_fonts(fresh._doc, other) and made == ["Žluť!"]
