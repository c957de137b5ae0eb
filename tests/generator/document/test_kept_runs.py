"""kept_runs.format_in_runs is reportlab's PDFDocument.format: with nothing to copy, the same bytes to the byte."""

from __future__ import annotations

from functools import partial
from io import BytesIO

from hypothesis import given, settings
from hypothesis import strategies as st
from punchboard.generator.document import kept_runs, pdf_encoding
from punchboard.generator.draw import fonts
from reportlab.pdfgen.canvas import Canvas

from tests.generator.document.test_merge_kept import WORDS


def _document(pages: list[list[str]], forms: int, ours: bool) -> bytes:
    pdf_encoding.install()
    fonts.register_builtin()
    out = BytesIO()
    canvas = Canvas(out, pagesize=(300, 400), invariant=1, pageCompression=1, initialFontName="Vera")
    if ours:
        canvas._doc.format = partial(kept_runs.format_in_runs, canvas._doc, lambda obj, number, doc: None)
    canvas.setTitle("Ünïcode")
    canvas.setViewerPreference("PrintScaling", "None")
    for n in range(forms):
        canvas.beginForm(f"F{n}")
        canvas.rect(n, n, 20, 30, fill=1)
        canvas.endForm()
    for number, words in enumerate(pages):
        canvas.setFont("Vera", 11)
        canvas.drawString(20, 300, " ".join(words))
        if forms:
            canvas.doForm(f"F{number % forms}")
        canvas.showPage()
    canvas.save()
    return out.getvalue()


@settings(max_examples=30, deadline=None)
@given(pages=st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), min_size=1, max_size=14),
       forms=st.integers(0, 3))
def test_with_nothing_to_copy_it_writes_what_reportlab_writes(pages: list[list[str]], forms: int):
    assert _document(pages, forms, ours=True) == _document(pages, forms, ours=False)
