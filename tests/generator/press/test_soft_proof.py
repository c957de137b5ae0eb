"""``punchboard images --proof-cmyk``: the soft proof differs from the RGB image where the gamut check says the press
cannot print the colour (a pure sRGB green), and nowhere else by more than ΔE2000 3 (issue #43, generator/press/proof.py)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from punchboard.generator.options import BuildOptions
from punchboard.generator.press.gamut import off_gamut
from punchboard.generator.press.proof import soft_proof
from punchboard.generator.press.settings import press

from punchboard.cli import main

TOLERANCE = 3.0  # ΔE2000 an in-gamut colour may move in the soft proof (1 is barely visible, 10 plainly different)
GREEN, GREY, SKIN, WHITE = (0, 255, 0), (128, 128, 128), (224, 172, 105), (255, 255, 255)
GAME = "id: patches\ntitle: Patches\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n"
CARDS = "id: cards\nkind: deck\nsize: poker\nlayout: patches/card\nback: none\ncards:\n  - {name: Patches}\n"
LAYOUT = """\
bleed: 3mm
elements:
  - {id: background, type: rect, box: bleed, x: 0, y: 0, width: 100%, height: 100%, fill: "#ffffff"}
  - {id: green, type: rect, box: trim, x: 10%, y: 10%, width: 35%, height: 30%, fill: "#00ff00"}
  - {id: grey, type: rect, box: trim, x: 55%, y: 10%, width: 35%, height: 30%, fill: "#808080"}
  - {id: skin, type: rect, box: trim, x: 10%, y: 55%, width: 80%, height: 30%, fill: "#e0ac69"}
"""


def _delta_e(rgb: np.ndarray, proof: np.ndarray) -> np.ndarray:
    """ΔE2000 of each pixel between two H × W × 3 sRGB images (each distinct pair of colours computed once)."""
    from coloraide import Color

    pairs = np.concatenate([rgb, proof], axis=2).reshape(-1, 6)
    distinct, where = np.unique(pairs, axis=0, return_inverse=True)
    values = np.array([Color("srgb", [v / 255 for v in a[:3]]).delta_e(Color("srgb", [v / 255 for v in a[3:]]), method="2000")
                       for a in distinct])
    return values[where.reshape(-1)].reshape(rgb.shape[:2])


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The card's RGB image and its soft proof (both written by ``images --proof-cmyk``) and what the run said."""
    folder = tmp_path_factory.mktemp("patches")
    (folder / "layouts" / "patches").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("cards.yaml", CARDS), ("layouts/patches/card.yaml", LAYOUT)):
        (folder / name).write_text(text, encoding="utf-8")
    out = folder / "out"
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        assert main(["images", str(folder), "--out", str(out), "--dpi", "60", "--proof-cmyk", "--jobs", "1"]) == 0
    rgb_files = sorted((out / "patches" / "images").rglob("*.png"))
    proof_files = sorted((out / "patches" / "soft-proof").rglob("*.png"))
    assert [p.relative_to(out / "patches" / "images") for p in rgb_files] == \
        [p.relative_to(out / "patches" / "soft-proof") for p in proof_files] != []
    with Image.open(rgb_files[0]) as rgb, Image.open(proof_files[0]) as proof:
        assert rgb.size == proof.size and rgb.info.get("dpi") == proof.info.get("dpi")
        return np.asarray(rgb.convert("RGB")), np.asarray(proof.convert("RGB")), said.getvalue().splitlines()


def test_the_proof_differs_where_the_gamut_check_says(images: tuple[np.ndarray, np.ndarray, list[str]]) -> None:
    rgb, proof, said = images
    assert any("1 soft proofs through Artifex CMYK SWOP Profile" in line for line in said), said
    settings = press(BuildOptions(colour="cmyk"))
    flagged = {g.rgb: g.delta_e for g in off_gamut(settings, [GREEN, GREY, SKIN, WHITE])}
    assert list(flagged) == [GREEN]  # the gamut check names the green only
    delta = _delta_e(rgb, proof)
    masks = {colour: np.all(rgb == colour, axis=2) for colour in (GREEN, GREY, SKIN, WHITE)}
    for colour, mask in masks.items():
        assert mask.sum() > 100, colour  # each patch is there, whole pixels of it
    assert delta[masks[GREEN]].min() > 10
    assert abs(float(np.median(delta[masks[GREEN]])) - flagged[GREEN]) < 0.5  # the same ΔE the warning gives
    for colour in (GREY, SKIN, WHITE):
        assert delta[masks[colour]].max() < TOLERANCE, colour
    # nowhere else: every pixel that moved by more than the tolerance is the green or touches it (anti-aliased edge)
    near_green = masks[GREEN].copy()
    for axis in (0, 1):
        for step in (1, -1):
            near_green |= np.roll(masks[GREEN], step, axis=axis)
    moved = delta > TOLERANCE
    assert moved.sum() >= masks[GREEN].sum()
    assert not (moved & ~near_green).any()


def test_soft_proof_keeps_size_and_alpha() -> None:
    settings = press(BuildOptions(colour="cmyk"))
    image = Image.new("RGBA", (3, 1))
    image.putdata([(*GREEN, 255), (*GREY, 128), (0, 0, 0, 0)])
    proofed = soft_proof(image, settings.profile)
    assert proofed.mode == "RGBA" and proofed.size == (3, 1)
    assert [proofed.getpixel((x, 0))[3] for x in range(3)] == [255, 128, 0]
    assert proofed.getpixel((0, 0))[:3] != GREEN
    assert soft_proof(image.convert("RGB"), settings.profile).mode == "RGB"


def test_icc_must_be_a_cmyk_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "not.icc"
    bad.write_text("not a profile", encoding="utf-8")
    assert main(["images", "belpunk", "--out", str(tmp_path / "out"), "--proof-cmyk", "--icc", str(bad)]) == 2
    assert f"--icc: {bad} is not an ICC profile" in capsys.readouterr().err
    assert main(["images", "belpunk", "--out", str(tmp_path / "out"), "--icc", str(bad)]) == 2
    assert "expected --proof-cmyk" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
