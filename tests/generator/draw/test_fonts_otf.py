"""OpenType fonts with CFF outlines: converted to TrueType outlines once (kept in the cache folder by the file's
digest), with the original's advance widths and glyph shapes, and embedded as a subset in the PDFs a build writes."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from fontTools.pens.areaPen import AreaPen
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont
from punchboard.generator.draw import fonts
from pypdf import PdfReader

from punchboard.cli import main
from punchboard.spec.fonts import truetype_file

from .cff_font import CHARS, make_cff_font

SAMPLE = "Quick brown foxes, 1234567890: judge my vow."


def _advance(path: Path, text: str, size: float) -> float:
    """The width of ``text`` at ``size`` points as the original font's own tables give it."""
    font = TTFont(str(path))
    cmap, hmtx, upem = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
    return sum(hmtx[cmap[ord(c)]][0] for c in text) * size / upem


def _game(folder: Path, fonts_yaml: str, font: str = "Testa", text: str = "{name} is **bold**") -> Path:
    """A one-deck game whose layout declares ``fonts_yaml`` and sets a text element in ``font``."""
    (folder / "layouts").mkdir(parents=True, exist_ok=True)
    (folder / "layouts" / "card.yaml").write_text(
        f"fonts: {fonts_yaml}\nelements:\n"
        f"  - {{id: t, type: text, x: 5%, y: 5%, width: 90%, height: 30%, text: '{text}', font: {font}, size: 10pt}}\n",
        encoding="utf-8")
    (folder / "game.yaml").write_text(f"id: {folder.name}\ntitle: Fonts\nplayers: {{min: 2, max: 4}}\n"
                                      "components: [cards.yaml]\n", encoding="utf-8")
    (folder / "cards.yaml").write_text("id: cards\nkind: deck\nsize: poker\nlayout: card\nback: none\n"
                                       f"cards:\n  - {{name: {SAMPLE.split(',')[0]!r}}}\n", encoding="utf-8")
    return folder


def test_a_converted_font_measures_as_the_original(tmp_path: Path):
    otf = make_cff_font(tmp_path / "Testa.otf")
    fonts.register("TestaMeasure", otf)
    assert truetype_file(otf) != otf and TTFont(str(truetype_file(otf))).sfntVersion == "\x00\x01\x00\x00"
    for size in (7.0, 10.0, 23.5):
        ours, theirs = fonts.width(SAMPLE, "TestaMeasure", size), _advance(otf, SAMPLE, size)
        assert abs(ours - theirs) <= theirs * 0.001, (size, ours, theirs)
    original = TTFont(str(otf))
    assert fonts.ascent("TestaMeasure", 10) == pytest.approx(original["hhea"].ascent / 100, rel=0.001)


def test_a_converted_glyph_has_the_original_shape(tmp_path: Path):
    """Each glyph's bounds within one font unit and its area within 0.5 %; contours turned clockwise."""
    otf = make_cff_font(tmp_path / "Testa.otf")
    cubic = TTFont(str(otf)).getGlyphSet()
    quadratic_font = TTFont(str(truetype_file(otf)))
    assert "glyf" in quadratic_font and "CFF " not in quadratic_font
    quadratic = quadratic_font.getGlyphSet()
    for char in CHARS.strip():
        name = f"uni{ord(char):04X}"
        shapes = []
        for glyphs in (cubic, quadratic):
            bounds, area = BoundsPen(glyphs), AreaPen(glyphs)
            glyphs[name].draw(bounds)
            glyphs[name].draw(area)
            shapes.append((bounds.bounds, area.value))
        (b1, a1), (b2, a2) = shapes
        assert all(abs(x - y) <= 1.0 for x, y in zip(b1, b2, strict=True)), (char, b1, b2)
        assert a1 * a2 < 0 and abs(abs(a2) - abs(a1)) <= abs(a1) * 0.005, (char, a1, a2)
        assert cubic[name].width == quadratic[name].width


def test_the_conversion_is_kept_by_digest_and_the_same_bytes_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    otf = make_cff_font(tmp_path / "Testa.otf")
    first = truetype_file(otf)
    assert first.parent.name == "fonts" and first.stat().st_mtime_ns == truetype_file(otf).stat().st_mtime_ns
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(tmp_path / "other-cache"))
    second = truetype_file(otf)
    assert second != first and second.read_bytes() == first.read_bytes()
    copy = tmp_path / "copy" / "Same.otf"
    copy.parent.mkdir()
    copy.write_bytes(otf.read_bytes())
    assert truetype_file(copy) == second  # the same bytes: the same converted file


def test_a_game_font_in_an_otf_builds_embedded_subset_and_measured(tmp_path: Path):
    game = _game(tmp_path / "otfgame", "{Testa: {regular: fonts/Testa.otf, bold: fonts/Testa-Bold.otf}}")
    make_cff_font(game / "fonts" / "Testa.otf")
    bold = make_cff_font(game / "fonts" / "Testa-Bold.otf", style="Bold", weight=160)
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1"]) == 0
    pdf = tmp_path / "out" / "otfgame" / "cards.pdf"
    embedded = {}
    for page in PdfReader(pdf).pages:
        for form in [page, *(x.get_object() for x in page["/Resources"].get("/XObject", {}).values())]:
            for font in form.get("/Resources", {}).get("/Font", {}).values():
                font = font.get_object()
                descriptor = font["/FontDescriptor"].get_object() if "/FontDescriptor" in font else {}
                embedded[str(font["/BaseFont"]).lstrip("/")] = "/FontFile2" in descriptor
    names = {name.split("+")[-1]: (name, emb) for name, emb in embedded.items()}
    for face in ("Testa-Regular", "Testa-Bold"):
        name, emb = names[face]
        assert emb and len(name.split("+")[0]) == 6, (face, name)  # embedded, as a subset (tag + name)
    with pdfplumber.open(pdf) as doc:
        chars = [c for c in doc.pages[0].chars if c["fontname"].endswith("Testa-Bold")]
    word = "".join(c["text"] for c in chars)
    assert word == "bold"
    drawn = chars[-1]["x1"] - chars[0]["x0"]
    assert drawn == pytest.approx(_advance(bold, "bold", chars[0]["size"]), rel=0.001)


def test_an_otf_build_is_byte_identical_with_a_fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    game = _game(tmp_path / "same", "{Testa: fonts/Testa.otf}", text="{name}")
    make_cff_font(game / "fonts" / "Testa.otf")
    outputs = []
    for n in (1, 2):
        monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(tmp_path / f"cache{n}"))
        assert main(["build", str(game), "--out", str(tmp_path / f"out{n}"), "--quiet", "--jobs", str(n)]) == 0
        outputs.append((tmp_path / f"out{n}" / "same" / "cards.pdf").read_bytes())
    assert outputs[0] == outputs[1]


def test_an_otf_replaced_between_builds_in_one_process_is_converted_and_drawn_again(tmp_path: Path):
    game = _game(tmp_path / "swap", "{Testa: fonts/Testa.otf}", text="{name}")
    make_cff_font(game / "fonts" / "Testa.otf", family="Before")
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    pdf = tmp_path / "out" / "swap" / "cards.pdf"
    with pdfplumber.open(pdf) as doc:
        assert {c["fontname"].split("+")[-1] for c in doc.pages[0].chars} >= {"Before-Regular"}
    make_cff_font(game / "fonts" / "Testa.otf", family="After", weight=200)
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    with pdfplumber.open(pdf) as doc:
        chars = [c for c in doc.pages[0].chars if c["fontname"].endswith("After-Regular")]
    assert chars and "Before-Regular" not in {c["fontname"].split("+")[-1] for c in doc.pages[0].chars}
    name = SAMPLE.split(",")[0]  # one line, its spaces drawn but not extracted as characters
    assert "".join(c["text"] for c in chars) == name.replace(" ", "")
    drawn = chars[-1]["x1"] - chars[0]["x0"]
    assert drawn == pytest.approx(_advance(game / "fonts" / "Testa.otf", name, chars[0]["size"]), rel=0.001)


def test_an_otf_builds_when_the_cache_folder_cannot_be_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(blocked))
    game = _game(tmp_path / "nocache", "{Testa: fonts/Testa.otf}", text="{name}")
    make_cff_font(game / "fonts" / "Testa.otf")
    assert main(["build", str(game), "--out", str(tmp_path / "out"), "--quiet", "--jobs", "1"]) == 0
    with pdfplumber.open(tmp_path / "out" / "nocache" / "cards.pdf") as doc:
        assert any(c["fontname"].endswith("Testa-Regular") for c in doc.pages[0].chars)
