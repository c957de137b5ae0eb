"""A card whose art is an SVG with a linear and a radial gradient builds, and both gradients are drawn as shadings
(its first stop, #1f4e79, has the digits the SVG safety scan once read as the number 4e79)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
from pypdf import PdfReader

from tests.conftest import run_cli
from tests.generator.draw.test_svg import _game

GRADIENTS = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#1f4e79"/><stop offset="1" stop-color="#f0c040"/>
    </linearGradient>
    <radialGradient id="sun" cx="50" cy="75" r="20" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#c00000"/>
    </radialGradient>
  </defs>
  <rect x="0" y="0" width="100" height="50" fill="url(#sky)"/>
  <circle cx="50" cy="75" r="20" fill="url(#sun)"/>
</svg>
"""


def _shading_types(pdf: Path) -> list[int]:
    types = []
    for page in PdfReader(pdf).pages:
        resources = page["/Resources"]
        for form in resources.get("/XObject", {}).values():
            resources = [resources, form.get_object().get("/Resources", {})]
            break
        for res in resources if isinstance(resources, list) else [resources]:
            for shading in res.get("/Shading", {}).values():
                types.append(int(shading.get_object()["/ShadingType"]))
    return types


def test_a_card_with_linear_and_radial_gradient_art_builds(tmp_path: Path):
    game = _game(tmp_path / "pics", GRADIENTS)
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--backs", "none", "--quiet")
    assert result.returncode == 0, result.stderr
    pdf = out / "pics" / "deck.pdf"
    assert sorted(set(_shading_types(pdf))) == [2, 3]  # axial (linear) and radial
    page = pypdfium2.PdfDocument(pdf)[0]
    image = page.render(scale=1).to_pil().convert("RGB")
    colours = {image.getpixel((x, y)) for x in range(image.width) for y in range(0, image.height, 7)}
    assert len(colours) > 20  # a gradient, not two flat fills
    # a rebuild from the kept drawing (the path that fingerprints shadings) also succeeds
    again = run_cli("build", str(game), "--out", str(out), "--backs", "none", "--quiet", "--force")
    assert again.returncode == 0, again.stderr
