"""docs/how-to/fonts-and-icons.md's specimen card is real: its layout and component, written into a game folder,
build without a warning; the PDF embeds the bundled faces it names (and the fallback's, for the Polish letters Vera
lacks), and its picture exists (docs/images/fonts.py renders it from this example)."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from tests.conftest import ROOT, run_cli
from tests.docs.page_example import write_page_files

PAGE = ROOT / "docs" / "how-to" / "fonts-and-icons.md"


def write_example(folder: Path) -> None:
    """The page's specimen files and a game.yaml listing its component, in ``folder``."""
    write_page_files(PAGE, folder, {"layouts/specimen.yaml", "specimen.yaml"}, "specimen", "specimen.yaml")


def _fonts(pdf: Path) -> set[str]:
    """The base names of every font the PDF's pages and their forms use, without the subset tag."""
    names: set[str] = set()

    def visit(resources: object) -> None:
        fonts = resources.get("/Font", {}) if hasattr(resources, "get") else {}
        for ref in fonts.values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+", 1)[-1])
        for xobject in (resources.get("/XObject", {}) if hasattr(resources, "get") else {}).values():
            inner = xobject.get_object()
            if "/Resources" in inner:
                visit(inner["/Resources"])

    for page in PdfReader(pdf).pages:
        visit(page["/Resources"])
    return names


def test_the_specimen_builds_without_warnings_in_the_bundled_faces(tmp_path: Path) -> None:
    write_example(tmp_path / "game")
    for command in (["check"], ["build", "--out", str(tmp_path / "out")]):
        result = run_cli(command[0], str(tmp_path / "game"), *command[1:])
        assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    used = _fonts(tmp_path / "out" / "specimen" / "specimen.pdf")
    # Title: Serif Condensed Bold; rules: Serif with its bold and italic; symbols and the fallback: Sans
    assert {"DejaVuSerifCondensed-Bold", "DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic", "DejaVuSans"} <= used, used
    assert (PAGE.parent.parent / "images" / "fonts.png").is_file()
