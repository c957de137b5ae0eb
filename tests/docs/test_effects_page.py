"""docs/how-to/effects.md is real: its layout and component are written into a game folder with a picture, built
without a warning and read back (the sky's shading and its stops, the portrait's circle clip, the shadows under the
portrait and the plate); its picture exists (docs/images/effects.py renders it from this example)."""

from __future__ import annotations

from pathlib import Path

import pikepdf
from PIL import Image, ImageDraw

from tests.conftest import ROOT, run_cli
from tests.docs.page_example import write_page_files
from tests.generator.draw.test_effects import MM, _close, _colours, _rgb, _side

PAGE = ROOT / "docs" / "how-to" / "effects.md"
CARD_H = 88.9 * MM


def write_example(folder: Path) -> None:
    """The page's files, a game.yaml listing its component and a 480 × 480 px portrait, in ``folder``."""
    write_page_files(PAGE, folder, {"layouts/hero_card.yaml", "heroes.yaml"}, "hero", "heroes.yaml")
    (folder / "art").mkdir()
    portrait = Image.new("RGB", (480, 480), (233, 196, 106))
    pen = ImageDraw.Draw(portrait)
    pen.ellipse((150, 70, 330, 250), fill=(120, 72, 40))  # a head
    pen.rectangle((110, 270, 370, 480), fill=(42, 157, 143))  # shoulders
    portrait.save(folder / "art" / "warden.png")


def test_the_example_builds_without_warnings_and_draws_each_effect(tmp_path: Path) -> None:
    write_example(tmp_path / "game")
    result = run_cli("build", str(tmp_path / "game"), "--out", str(tmp_path / "out"), "--backs", "none")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    with pikepdf.open(tmp_path / "out" / "hero" / "heroes.pdf") as pdf:
        side = _side(pdf)
        shadings = {int(s.ShadingType): _colours(s.Function) for s in side.resources.Shading.values()}
    assert _close(shadings[2][0], _rgb("#1d3557")) and _close(shadings[2][-1], _rgb("#457b9d"))  # the sky
    assert len(shadings[3]) == 3  # the sun's three stops
    (portrait,) = [p for p in side.paints if p.op == "Do"]
    circle = (14 * MM, CARD_H - 55.5 * MM, 49.5 * MM, CARD_H - 20 * MM)
    assert portrait.clip is not None and _close(portrait.clip, circle)
    before = side.paints[:side.paints.index(portrait)]
    soft = [p for p in before if p.op.startswith("f") and _close(p.rgb, (0, 0, 0)) and p.alpha < 1]
    assert len(soft) == 5  # the portrait's soft shadow, under it
    assert (PAGE.parent.parent / "images" / "effects.png").is_file()
