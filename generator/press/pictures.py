"""Pictures converted to CMYK through the press profile, before Ghostscript sees them.

Ghostscript's pdfwrite converts the RGB images it is given with its own default CMYK profile whatever
``-sOutputICCProfile`` says (Ghostscript 10.0), so a shop's ``--icc`` reached the vector colours but not the
pictures. Here every RGB image (DeviceRGB, CalRGB, a three-channel ICCBased space, an Indexed one over any of them)
of the pages and of the forms they draw is decoded with pikepdf, converted sRGB → CMYK by littleCMS (Pillow's
ImageCms) with the build's profile, intent and black-point compensation, the transform the vector colours get,
and written back as an 8-bit DeviceCMYK image (Flate); Ghostscript keeps DeviceCMYK as it is. A picture's alpha
(its SMask, a grey image) stays as it was; grey pictures stay grey (Ghostscript prints them on the K plate).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Any

from .settings import Press


def _rgb_space(space: Any) -> bool:
    """Whether an image colour space is RGB (device, calibrated, ICC with three channels, or indexed over one)."""
    import pikepdf

    if isinstance(space, pikepdf.Name):
        return str(space) in ("/DeviceRGB", "/CalRGB")
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        family = str(space[0])
        if family == "/ICCBased":
            return int(space[1].get("/N", 0)) == 3
        if family == "/CalRGB":
            return True
        if family == "/Indexed":
            return _rgb_space(space[1])
    return False


def _images(resources: Any, seen: set[tuple[int, int]]) -> Iterable[Any]:
    for obj in (resources.get("/XObject") or {}).values() if resources is not None else ():
        if obj.get("/Subtype") == "/Image" and obj.objgen not in seen:
            seen.add(obj.objgen)
            yield obj


def cmyk_pictures(pdf: Any, forms: list[Any], settings: Press) -> int:
    """Convert every RGB image XObject of ``pdf``'s pages and of ``forms`` (their resources) to DeviceCMYK through
    the press profile, in place; returns how many were converted."""
    import pikepdf

    from .profile import _transforms

    there, _ = _transforms(settings.profile, settings.intent_number, settings.black_point_compensation)
    seen: set[tuple[int, int]] = set()
    holders = [page.obj.get("/Resources") for page in pdf.pages] + [form.get("/Resources") for form in forms]
    done = 0
    for resources in holders:
        for image in list(_images(resources, seen)):
            if image.get("/ImageMask") or not _rgb_space(image.get("/ColorSpace")):
                continue
            picture = pikepdf.PdfImage(image).as_pil_image().convert("RGB")
            cmyk = there.apply(picture)
            image.write(zlib.compress(cmyk.tobytes(), 6), filter=pikepdf.Name.FlateDecode)
            image.ColorSpace = pikepdf.Name.DeviceCMYK
            image.BitsPerComponent = 8
            for key in ("/DecodeParms", "/Decode", "/Intent"):
                if key in image:
                    del image[key]
            done += 1
    return done
