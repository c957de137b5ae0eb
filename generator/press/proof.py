"""A soft proof: a picture as the press will print it, seen on screen.

Each pixel goes sRGB → CMYK through the press profile (the build's rendering intent and black-point compensation:
the transform ``device_cmyk`` and the gamut check use, littleCMS through Pillow's ImageCms), then back to sRGB, so a
green the press cannot print comes out as the duller green it will print. ``images --proof-cmyk`` writes one for
every image; the studio calls :func:`soft_proof` on what it shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .settings import INTENTS, Press

if TYPE_CHECKING:
    from PIL import Image

PROOF_FOLDER = "soft-proof"  # OUT/<game>/soft-proof/<component>/<same name as the image>.png


def soft_proof(image: Image.Image, profile: Path, intent: str = "relative", black_point_compensation: bool = True) -> Image.Image:
    """``image`` (RGB or RGBA, sRGB) as the press prints it through the CMYK ``profile``, as a new sRGB image of the
    same size: RGB, or RGBA with ``image``'s alpha channel unchanged when it has one. ``intent`` is a key of
    ``settings.INTENTS`` (the build's is in ``layouts/press.yaml``: :func:`proof_settings` reads it)."""
    from .profile import _transforms

    if intent not in INTENTS:
        raise ValueError(f"intent: expected one of {', '.join(INTENTS)}, got {intent!r}")
    there, back = _transforms(Path(profile), INTENTS[intent], black_point_compensation)
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    proofed = back.apply(there.apply(rgb))
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        proofed = proofed.convert("RGBA")
        proofed.putalpha(image.convert("RGBA").getchannel("A"))
    return proofed


def proof_settings(icc: str | None = None) -> Press:
    """The press settings a CMYK build would convert with: the profile from ``--icc`` (``icc``), else
    ``layouts/press.yaml``'s, looked up as ``build`` does; a missing profile is a SpecError."""
    from punchboard.generator.options import BuildOptions

    from .settings import press

    return press(BuildOptions(colour="cmyk", icc=icc))


def proof_image(image: Image.Image, settings: Press) -> Image.Image:
    """:func:`soft_proof` with the build's own settings (profile, intent, black-point compensation)."""
    return soft_proof(image, settings.profile, settings.intent, settings.black_point_compensation)


def write_proofs(images: list[Path], root: Path, target: Path, settings: Press) -> list[Path]:
    """A soft proof of each PNG in ``images`` (files under ``root``) at the same place under ``target``, with the
    source's resolution; proofs left there from images no longer written are removed. Returns the proofs."""
    import io

    from PIL import Image

    from punchboard.plumbing.atomicio import write_bytes

    written = []
    for path in images:
        dst = target / path.relative_to(root)
        with Image.open(path) as image:
            image.load()
            proofed = proof_image(image, settings)
            dpi = image.info.get("dpi")
        data = io.BytesIO()
        proofed.save(data, "PNG", **({"dpi": dpi} if dpi else {}))
        write_bytes(dst, data.getvalue())
        written.append(dst)
    keep = set(written)
    for stale in target.rglob("*.png") if target.is_dir() else []:
        if stale not in keep:
            stale.unlink()
    return written
