"""Font subset tags name one glyph set across all of a game's PDFs (issue #39), and punchboard's writer is its own
(issue #38): building leaves reportlab as it was, so another document in the process is written as reportlab
writes it."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from io import BytesIO
from pathlib import Path

from punchboard.generator.document.pdf_encoding import PdfWriter, subset_tag
from punchboard.generator.draw import fonts
from punchboard.generator.draw.pdf_canvas import PunchCanvas
from pypdf import PdfReader
from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.paths import COMPONENTS
from tests.conftest import run_cli


def _programs(pdf: Path) -> list[tuple[str, str]]:
    """Each embedded subset's /FontName with its font program's digest."""
    reader = PdfReader(pdf)
    found = []
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        if hasattr(obj, "get") and obj.get("/Type") == "/FontDescriptor":
            program = obj["/FontFile2"].get_object().get_data()
            found.append((str(obj["/FontName"]).lstrip("/"), hashlib.sha256(program).hexdigest()))
    return found


def _pdffonts(pdf: Path) -> set[str]:
    """The font names poppler's pdffonts lists (the first column after its two header lines)."""
    listed = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True, timeout=60).stdout
    return {line.split()[0] for line in listed.splitlines()[2:] if line.strip()}


def test_no_subset_tag_names_two_glyph_sets_across_a_bundled_games_pdfs(tmp_path: Path):
    game = tmp_path / "steam_court"
    shutil.copytree(COMPONENTS / "steam_court", game)
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    pdfs = sorted((tmp_path / "out").rglob("*.pdf"))
    assert len(pdfs) >= 6
    programs: dict[str, set[str]] = {}
    for pdf in pdfs:
        found = _programs(pdf)
        assert {name for name, _ in found} == _pdffonts(pdf)  # the names pdffonts shows are the ones read here
        for name, digest in found:
            programs.setdefault(name, set()).add(digest)
    fonts_used = {name.split("+", 1)[1] for name in programs}
    assert len(programs) > len(fonts_used)  # several glyph sets of a font: the tags tell them apart
    assert {name: len(found) for name, found in programs.items() if len(found) > 1} == {}


def test_a_subset_tag_is_a_digest_of_the_glyph_set():
    tag = subset_tag(b"program", (0, 32, 65))
    assert len(tag) == 6 and tag.isalpha() and tag.isupper()
    assert subset_tag(b"program", [0, 32, 65]) == tag  # the same glyph set, the same tag, wherever it is made
    assert subset_tag(b"program", (0, 32, 66)) != tag and subset_tag(b"other", (0, 32, 65)) != tag


def _reportlab_document() -> bytes:
    out = BytesIO()
    canvas = Canvas(out, invariant=1, pageCompression=1, initialFontName="Vera")
    canvas.setFont("Vera", 12)
    canvas.drawString(20, 300, "Brass gear")
    canvas.save()
    return out.getvalue()


def test_writing_punchboards_pdf_leaves_reportlab_as_it_was():
    """A document made by punchboard's writer in this process changes nothing of reportlab: its module globals
    and classes are the ones it came with, and a canvas of reportlab's own is written with ASCII85 (its
    default) and reportlab's subset tags, as in a process that never built anything."""
    fonts.register_builtin()
    before = (pdfdoc.PDFFile, pdfdoc.pdfdocEnc, pdfdoc.PDFZCompress, ttfonts.TTFontFace.makeSubset,
              ttfonts.TTFont.splitString, pdfdoc.PDFDocument.getInternalFontName, rl_config.useA85)
    plain = _reportlab_document()
    out = BytesIO()
    canvas = PunchCanvas(out, writer=PdfWriter())
    canvas.setFont("Vera", 12)
    canvas.drawString(20, 300, "Brass gear")
    canvas.save()
    ours = out.getvalue()
    assert b"ASCII85Decode" not in ours and b"AAAAAA+" not in ours
    assert (pdfdoc.PDFFile, pdfdoc.pdfdocEnc, pdfdoc.PDFZCompress, ttfonts.TTFontFace.makeSubset,
            ttfonts.TTFont.splitString, pdfdoc.PDFDocument.getInternalFontName, rl_config.useA85) == before
    after = _reportlab_document()
    assert after == plain
    if rl_config.useA85:
        assert b"ASCII85Decode" in after and b"AAAAAA+BitstreamVeraSans-Roman" in after
