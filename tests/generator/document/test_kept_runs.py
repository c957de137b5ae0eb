"""punchboard's writer (pdf_encoding.PdfWriter through kept_runs.format_in_runs) is reportlab's PDFDocument.format
without ASCII85: with nothing to copy, the same bytes to the byte (the subsets' tags aside)."""

from __future__ import annotations

from io import BytesIO

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from punchboard.generator.document import pdf_encoding
from punchboard.generator.draw import fonts
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from tests.generator.document.test_merge_kept import WORDS


def _document(pages: list[list[str]], forms: int, ours: bool) -> bytes:
    fonts.register_builtin()
    out = BytesIO()
    if ours:
        canvas = PunchCanvas(out, pagesize=(300, 400), writer=pdf_encoding.PdfWriter())
    else:
        canvas = Canvas(out, pagesize=(300, 400), invariant=1, pageCompression=1, initialFontName="Vera")
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
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pdf_encoding, "subset_tag", lambda program, codes: b"AAAAAA")  # reportlab's first tag
        ours = _document(pages, forms, ours=True)
        patch.setattr(rl_config, "useA85", 0)  # reportlab's own writer, without ASCII85
        assert ours == _document(pages, forms, ours=False)


def test_a_written_document_is_freed_without_the_cycle_collector(tmp_path):
    """The command runs with the cycle collector off (cli.run): the kept pages' writer must leave no cycle
    through the document, or the whole document stays in memory until the process ends."""
    import gc
    import weakref

    from punchboard.generator.document.kept_pages import KeptPages
    from punchboard.generator.document.pages import Page, render_to
    from punchboard.generator.impose.style import load_style

    class Voice:
        warnings: list[str] = []
        heard = None
        side_prints = None

        def warn(self, message: str) -> None:
            self.warnings.append(message)

    class Sides:
        drawn = replayed = 0
        fonts = None  # no fonts fixed: the pages draw rectangles only

        def new_keys(self) -> int:
            return 0

        def keys_from(self, start: int) -> list[str]:
            return []

        def carry(self, keys: object) -> None:
            pass

        def restart(self) -> None:
            pass

    def draw(canvas) -> None:  # type: ignore[no-untyped-def]
        canvas.rect(10, 10, 30, 30, fill=1)

    pages = [Page(612, 792, draw, component="deck") for _ in range(3)]
    kept = KeptPages(tmp_path / "deck.pages", tmp_path / "deck.pdf", "salt", Voice(), Sides())
    gc.disable()
    try:
        render_to(tmp_path / "deck.pdf", pages, "Freed", load_style(), "deck", kept=kept)
        document = weakref.ref(kept._canvas._doc)
        del kept
        assert document() is None
    finally:
        gc.enable()
