"""The combined PDF is made by copying the component PDFs' objects, not by re-parsing their pages."""

from __future__ import annotations

from pathlib import Path

from punchboard.generator.document.merge import merge
from pypdf import PdfReader

from tests.build_helpers import build, make_game


def test_combined_pdf_holds_every_component_page_byte_for_byte(tmp_path: Path):
    game = make_game(tmp_path / "tiny")
    result = build(game, tmp_path / "out", "--backs", "duplex-long")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "tiny"
    combined = PdfReader(folder / "tiny-print-and-play.pdf", strict=True)
    assert combined.metadata is not None and combined.metadata.title == "Tiny"
    assert combined.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    contents = [page.get_contents().get_data() for page in combined.pages]
    for name in ("cards.pdf", "tokens.pdf"):
        for page in PdfReader(folder / name).pages:
            assert page.get_contents().get_data() in contents, name
    cards, tokens = (len(PdfReader(folder / n).pages) for n in ("cards.pdf", "tokens.pdf"))
    front = len(combined.pages) - cards - 2 * tokens  # tokens have no backs: each page gets a blank reverse
    assert front >= 2  # cover and bill of materials (and the calibration sheet)


def test_anything_it_does_not_recognise_is_left_to_pypdf():
    assert merge([(b"%PDF-1.4\nnot really\n", False)], b"", "t", "s") is None
