"""A CMYK output profile: checked, described, and its sRGB round trip through littleCMS (Pillow's ImageCms)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any


def profile_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a press profile (missing, not ICC, not CMYK), or None when it can."""
    from PIL import ImageCms

    if not path.is_file():
        return f"no such file: {path}"
    try:
        space = ImageCms.getOpenProfile(str(path)).profile.xcolor_space.strip()
    except (OSError, ImageCms.PyCMSError):
        return f"{path} is not an ICC profile"
    if space != "CMYK":
        return f"{path} is an ICC profile for {space}; expected a CMYK output profile"
    return None


@lru_cache(maxsize=4)
def description(path: Path) -> str:
    """The profile's own name (its description tag), e.g. 'Artifex CMYK SWOP Profile'."""
    from PIL import ImageCms

    return str(ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(path)))).strip() or path.name


def _transform_class() -> Any:
    from PIL import Image, ImageCms

    class Transform(ImageCms.ImageCmsTransform):
        """A transform whose result does not carry the output profile: littleCMS cannot write some profiles
        back out (Ghostscript's ps_cmyk.icc), and only the pixels are wanted here."""

        def apply(self, im: Image.Image, imOut: Image.Image | None = None) -> Image.Image:
            out = imOut if imOut is not None else Image.new(self.output_mode, im.size)
            self.transform.apply(im.getim(), out.getim())
            return out

    return Transform


@lru_cache(maxsize=4)
def _transforms(path: Path, intent: int, bpc: bool) -> tuple[Any, Any]:
    from PIL import ImageCms

    srgb, cmyk = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")), ImageCms.ImageCmsProfile(str(path))
    flags = ImageCms.Flags.BLACKPOINTCOMPENSATION if bpc else ImageCms.Flags.NONE
    transform = _transform_class()
    there = transform(srgb, cmyk, "RGB", "CMYK", ImageCms.Intent(intent), flags=flags)
    back = transform(cmyk, srgb, "CMYK", "RGB", ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=flags)
    return there, back


def round_trip(path: Path, intent: int, bpc: bool, colours: list[tuple[int, int, int]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each sRGB colour's CMYK values (0–255) through the profile and the sRGB the press gives back."""
    from PIL import Image

    if not colours:
        return []
    there, back = _transforms(path, intent, bpc)
    row = Image.new("RGB", (len(colours), 1))
    row.putdata(colours)
    cmyk = there.apply(row)
    rgb = back.apply(cmyk)
    inks, seen = cmyk.tobytes(), rgb.tobytes()
    return [(tuple(inks[4 * i:4 * i + 4]), tuple(seen[3 * i:3 * i + 3])) for i in range(len(colours))]
