"""Every recipe in docs/recipes.md is real: its files are written into a game folder, built, and read back."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from tests.conftest import ROOT, run_cli

RECIPES = ROOT / "docs" / "recipes.md"
BLOCK = re.compile(r"```yaml\n# file: (?P<file>\S+)\n(?P<body>.*?)```", re.S)


def recipes() -> dict[str, dict[str, str]]:
    """Recipe title → {file path inside the game folder: YAML text}."""
    found: dict[str, dict[str, str]] = {}
    for section in re.split(r"^## ", RECIPES.read_text(encoding="utf-8"), flags=re.M)[1:]:
        title = section.splitlines()[0].strip()
        found[title] = {m["file"]: m["body"] for m in BLOCK.finditer(section)}
    return found


def test_the_page_has_the_four_recipes():
    assert list(recipes()) == ["Full-art card", "Text-heavy card", "Token", "Two-sided character card"]
    for files in recipes().values():
        assert any(f.startswith("layouts/") for f in files) and any(not f.startswith("layouts/") for f in files)


def _write_game(folder: Path, files: dict[str, str]) -> list[str]:
    components = [name for name in files if not name.startswith("layouts/")]
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    listed = "".join(f"  - {name}\n" for name in components)
    (folder / "game.yaml").write_text(f"id: recipe\ntitle: Recipe\nplayers: {{min: 1, max: 4}}\ncomponents:\n{listed}", encoding="utf-8")
    return components


@pytest.mark.parametrize("title", list(recipes()))
def test_recipe_builds_without_warnings(tmp_path: Path, title: str):
    game = tmp_path / "game"
    _write_game(game, recipes()[title])
    for art in re.findall(r"art: (\w+)", "".join(recipes()[title].values())):
        (game / "art").mkdir(exist_ok=True)
        Image.new("RGB", (2110, 1130), (40, 90, 140)).save(game / "art" / f"{art}.png")  # 300 dpi full-bleed (the preflight checks)
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--backs", "duplex-long")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    pdfs = sorted((tmp_path / "out" / "recipe").glob("*.pdf"))
    component_pdfs = [p for p in pdfs if p.stem not in ("recipe-print-and-play", "duplex-calibration")]
    assert component_pdfs
    text = ""
    for pdf_path in component_pdfs:
        with pdfplumber.open(pdf_path) as pdf:
            text += " ".join(page.extract_text() or "" for page in pdf.pages)
            images = sum(len(page.images) for page in pdf.pages)
    squeezed = "".join(text.split())  # pdfplumber may drop the spaces between words
    expected = {
        "Full-art card": ["Dawn Harbour", "Copper Hills"],
        "Text-heavy card": ["Chain Reaction", "Gadget - Instant", "One loose bolt"],
        "Token": ["1", "5"],
        "Two-sided character card": ["Sir Gearwin", "Ironhide", "Wounded.", "Block one hit"],
    }[title]
    for phrase in expected:
        assert "".join(phrase.split()) in squeezed, phrase
    if title == "Full-art card":
        assert images >= 2
