"""``--icc`` reaches pictures (issue #43, generator/press/pictures.py): an RGB picture in a press file is a DeviceCMYK
image whose inks are the sRGB colour through the profile given, not through Ghostscript's default one. Read back
with pikepdf."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image
from punchboard.generator.options import BuildOptions
from punchboard.generator.press.profile import round_trip
from punchboard.generator.press.settings import press

from tests.build_helpers import build
from tests.generator.press.pdfx_check import problems

ORANGE = (200, 80, 40)
GAME = "id: pics\ntitle: Pics\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = "id: cards\nkind: deck\nsize: poker\nlayout: pics/card\nback: none\ncards:\n  - {name: Sunset}\n"
LAYOUT = """\
bleed: 3mm
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: art, type: image, box: safe, x: 0, y: 10%, width: 100%, height: 50%, src: sunset.png}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pics")
    (folder / "layouts" / "pics").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("layouts/pics/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    Image.new("RGB", (700, 460), ORANGE).save(folder / "sunset.png", dpi=(300, 300))
    return folder


def _pictures(path: Path) -> list[tuple[str, np.ndarray]]:
    """Each image of the file (pages and forms): its colour space and its pixels."""
    found = []
    with pikepdf.open(path) as pdf:
        stack = [page.obj.get("/Resources") for page in pdf.pages]
        seen: set[tuple[int, int]] = set()
        while stack:
            resources = stack.pop()
            for obj in (resources.get("/XObject") or {}).values() if resources is not None else ():
                if obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
                if obj.get("/Subtype") == "/Form":
                    stack.append(obj.get("/Resources"))
                elif obj.get("/Subtype") == "/Image":
                    found.append((str(obj.ColorSpace), np.asarray(pikepdf.PdfImage(obj).as_pil_image())))
    return found


def _inks(run: subprocess.CompletedProcess[str], path: Path) -> np.ndarray:
    assert run.returncode == 0, run.stderr
    pictures = _pictures(path)
    assert [space for space, _ in pictures] == ["/DeviceCMYK"]
    pixels = pictures[0][1].astype(int)
    assert pixels.shape[2] == 4
    return pixels.reshape(-1, 4)


def test_icc_converts_the_picture_with_that_profile(game: Path, tmp_path: Path) -> None:
    default = press(BuildOptions(colour="cmyk")).profile
    other = default.parent / "ps_cmyk.icc"  # Ghostscript's PostScript CMYK profile: far from its default for this orange
    expect_default = np.array(round_trip(default, 1, True, [ORANGE])[0][0])
    expect_other = np.array(round_trip(other, 1, True, [ORANGE])[0][0])
    assert np.abs(expect_default - expect_other).max() > 50  # the two profiles put different inks down

    path = tmp_path / "a" / "pics" / "press" / "cards.pdf"
    inks = _inks(build(game, tmp_path / "a", "--colour", "cmyk", "--pdfx", "1a", "--icc", str(other)), path)
    assert np.abs(inks - expect_other).max() <= 3
    assert problems(path) == []

    path = tmp_path / "b" / "pics" / "press" / "cards.pdf"
    inks = _inks(build(game, tmp_path / "b", "--colour", "cmyk"), path)
    assert np.abs(inks - expect_default).max() <= 3
