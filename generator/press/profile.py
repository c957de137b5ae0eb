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


@lru_cache(maxsize=4)
def _transforms(path: Path, intent: int, bpc: bool) -> tuple[Any, Any]:
    from PIL import ImageCms

    srgb, cmyk = ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(path))
    flags = ImageCms.Flags.BLACKPOINTCOMPENSATION if bpc else ImageCms.Flags.NONE
    there = ImageCms.buildTransform(srgb, cmyk, "RGB", "CMYK", renderingIntent=ImageCms.Intent(intent), flags=flags)
    back = ImageCms.buildTransform(cmyk, srgb, "CMYK", "RGB", renderingIntent=ImageCms.Intent(1), flags=flags)
    return there, back


def round_trip(path: Path, intent: int, bpc: bool, colours: list[tuple[int, int, int]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each sRGB colour's CMYK values (0–255) through the profile and the sRGB the press gives back."""
    from PIL import Image, ImageCms

    if not colours:
        return []
    there, back = _transforms(path, intent, bpc)
    row = Image.new("RGB", (len(colours), 1))
    row.putdata(colours)
    cmyk = ImageCms.applyTransform(row, there)
    assert cmyk is not None
    rgb = ImageCms.applyTransform(cmyk, back)
    assert rgb is not None
    inks, seen = cmyk.tobytes(), rgb.tobytes()
    return [(tuple(inks[4 * i:4 * i + 4]), tuple(seen[3 * i:3 * i + 3])) for i in range(len(colours))]
