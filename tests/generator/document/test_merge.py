"""The combined PDF is made by copying the component PDFs' objects, not by re-parsing their pages."""

from __future__ import annotations

import hashlib
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


def test_the_pypdf_fallback_gives_the_same_document_as_the_copy(tmp_path: Path, monkeypatch):
    """A future reportlab writing PDFs :mod:`merge` does not recognise still gets the same combined PDF."""
    from io import BytesIO

    from punchboard.generator.document import assemble as assembly
    from reportlab.pdfgen.canvas import Canvas

    game = make_game(tmp_path / "tiny")
    assert build(game, tmp_path / "out", "--backs", "duplex-long").returncode == 0
    folder = tmp_path / "out" / "tiny"
    blank = BytesIO()
    canvas = Canvas(blank, pagesize=(612, 792), invariant=1)
    canvas.showPage()
    canvas.save()
    parts = [assembly.Part(folder / "cards.pdf"), assembly.Part((folder / "tokens.pdf").read_bytes(), blank_reverses=True)]
    copied = assembly.assemble(parts, blank.getvalue(), "Tiny", "print and play", "DuplexFlipLongEdge")
    monkeypatch.setattr(assembly, "merge_to", lambda *args, **kwargs: False)
    parsed = assembly.assemble(parts, blank.getvalue(), "Tiny", "print and play", "DuplexFlipLongEdge")
    assert parsed != copied  # the other path really ran

    def summary(data: bytes) -> tuple[object, ...]:
        reader = PdfReader(BytesIO(data), strict=True)
        preferences = reader.trailer["/Root"]["/ViewerPreferences"]
        pages = tuple((tuple(float(v) for v in page.mediabox), page.get_contents().get_data() if page.get_contents() else b"")
                      for page in reader.pages)
        return (reader.metadata.title, preferences["/PrintScaling"], preferences["/Duplex"], pages)

    assert summary(parsed) == summary(copied)
    cards, tokens = (len(PdfReader(folder / n).pages) for n in ("cards.pdf", "tokens.pdf"))
    assert len(PdfReader(BytesIO(parsed)).pages) == cards + 2 * tokens


def test_streamed_files_hold_the_same_bytes_as_the_documents_made_in_memory(tmp_path: Path, monkeypatch):
    """A deck's PDF and the combined PDF are streamed to disk (pages.render_to, assemble_to): the same
    bytes as rendering and merging in memory, even when every stream is copied in several chunks."""
    from punchboard.generator.document import merge as merging
    from punchboard.generator.document.assemble import Part, assemble, assemble_to
    from punchboard.generator.document.cover import blank_page
    from punchboard.generator.document.pages import Page, render, render_to
    from punchboard.generator.impose.style import load_style

    def draw(canvas) -> None:  # type: ignore[no-untyped-def]
        for k in range(400):
            canvas.setFillColorRGB(k / 400, 0.5, 0.2)
            canvas.rect(10 + k, 10 + k, 30, 30, fill=1, stroke=0)
            canvas.drawString(20, 700 - k, f"line {k} of a longer page")

    style = load_style()
    pages = [Page(612, 792, draw, component="deck") for _ in range(5)]
    in_memory = render(pages, "Streamed", style, "deck", "DuplexFlipLongEdge")
    render_to(tmp_path / "deck.pdf", pages, "Streamed", style, "deck", "DuplexFlipLongEdge")
    assert (tmp_path / "deck.pdf").read_bytes() == in_memory
    assert not list(tmp_path.glob(".*.part"))

    blank = render([blank_page(612, 792)], "Streamed", style, "blank")
    parts = [Part(tmp_path / "deck.pdf"), Part(in_memory, blank_reverses=True)]
    whole = assemble(parts, blank, "Streamed", "print and play", "DuplexFlipLongEdge")
    monkeypatch.setattr(merging, "_CHUNK", 1000)  # every content stream crosses several chunks
    monkeypatch.setattr(merging, "_HEAD_READ", 64)  # and some dictionaries are longer than the first read
    assemble_to(tmp_path / "combined.pdf", parts, blank, "Streamed", "print and play", "DuplexFlipLongEdge")
    assert (tmp_path / "combined.pdf").read_bytes() == whole
    reader = PdfReader(tmp_path / "combined.pdf", strict=True)
    assert len(reader.pages) == 5 + 2 * 5
    original = [page.get_contents().get_data() for page in PdfReader(tmp_path / "deck.pdf").pages]
    assert [page.get_contents().get_data() for page in reader.pages[:5]] == original


def font_subsets(pdf: Path) -> list[tuple[str, str]]:
    """The /FontName of every font descriptor in the file (one per embedded subset), with its font program's
    digest."""
    reader = PdfReader(pdf)
    found = []
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        if hasattr(obj, "get") and obj.get("/Type") == "/FontDescriptor":
            program = obj["/FontFile2"].get_object().get_data()
            found.append((str(obj["/FontName"]), hashlib.sha256(program).hexdigest()))
    return found


def test_every_font_subset_tag_names_one_glyph_set_across_a_games_pdfs(tmp_path: Path):
    """A subset's tag is a digest of its glyph set (issue #39): reportlab tags every document's first subset of
    a font AAAAAA+, so a game's PDFs (and the combined one) held one name for several glyph sets, which a
    shop combining PDFs takes for one font (wrong glyphs at some RIPs)."""
    game = make_game(tmp_path / "tiny")
    result = build(game, tmp_path / "out", "--backs", "duplex-long")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "tiny"
    programs: dict[str, set[str]] = {}
    for pdf in sorted(folder.glob("*.pdf")):
        for name, digest in font_subsets(pdf):
            programs.setdefault(name, set()).add(digest)
    assert len({digest for found in programs.values() for digest in found}) >= 3  # several glyph sets
    assert all(len(found) == 1 for found in programs.values()), programs  # each tag one glyph set
    combined = [name for name, _ in font_subsets(folder / "tiny-print-and-play.pdf")]
    assert len(combined) >= 3
    for name in combined:
        tag, font = name.lstrip("/").split("+", 1)
        assert len(tag) == 6 and tag.isalpha() and tag.isupper() and font  # still a subset name
