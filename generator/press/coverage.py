"""Total area coverage: the press file rendered to CMYK by Ghostscript, its heaviest pixel summed over the plates."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

from .pdfx import GS_TIMEOUT, PressError, ghostscript


def page_coverage(path: Path, dpi: int) -> list[float]:
    """Each page's highest total ink (C+M+Y+K, percent) at ``dpi``: 400 is solid four-colour black."""
    return [round(float(ink.max()), 1) for ink in page_inks(path, dpi)]


def page_inks(path: Path, dpi: int) -> list[Any]:
    """Each page's total ink (C+M+Y+K, percent) per pixel at ``dpi``: a numpy array, rows from the page's top."""
    import numpy as np
    from PIL import Image

    with tempfile.TemporaryDirectory(prefix="punchboard-coverage-") as tmp:
        pattern = Path(tmp) / "p%05d.tif"
        args = [ghostscript(), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi}",
                "-dTextAlphaBits=1", "-dGraphicsAlphaBits=1", f"-sOutputFile={pattern}", str(path)]
        try:
            done = subprocess.run(args, capture_output=True, text=True, timeout=GS_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            raise PressError(f"Ghostscript took over {GS_TIMEOUT} s rendering {path.name}") from None
        if done.returncode != 0:
            raise PressError(f"Ghostscript could not render {path.name}: {(done.stderr or done.stdout).strip()[:500]}")
        found = []
        for tif in sorted(Path(tmp).glob("p*.tif")):
            with Image.open(tif) as image:
                pixels = np.asarray(image.convert("CMYK"), dtype=np.uint16)
            found.append(np.round(pixels.sum(axis=2) * (100 / 255), 1))
        return found
