"""Soft proofs of the studio's pictures: each piece as the press will print it, for the page's "CMYK proof" toggle.

A proof is the studio picture sent sRGB → CMYK → sRGB through the press profile with the build's rendering intent
and black-point compensation (``generator/press/proof.py``: :func:`proof_image`), the profile being ``--icc``'s or
``layouts/press.yaml``'s, as a CMYK build would use. Proofs are made when the page first asks for one and kept under
``OUT/<game>/studio-proof/`` with the picture's own name (its content hash), so a picture is proofed once; a proof
whose picture is gone is removed when another proof is made beside it.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path, PurePosixPath
from typing import Any

from punchboard.plumbing.atomicio import write_bytes

PROOF_FOLDER = "studio-proof"


class Proofs:
    """The soft proofs of one serve; ``icc`` is ``--icc`` (None: layouts/press.yaml's profile)."""

    def __init__(self, icc: str | None = None):
        self.icc = icc
        self._settings: Any = None
        self._lock = threading.Lock()

    def _press(self) -> Any:
        """The press settings, read once (a missing profile is a SpecError, raised on every ask)."""
        if self._settings is None:
            from punchboard.generator.press.proof import proof_settings

            self._settings = proof_settings(self.icc)
        return self._settings

    def proof(self, root: Path, relative: str) -> Path:
        """The proof of the studio picture ``root/relative`` (``studio/<component>/<name>.png``), made if missing."""
        parts = PurePosixPath(relative).parts
        source = root.joinpath(*parts)
        target = root.joinpath(PROOF_FOLDER, *parts[1:])
        with self._lock:
            if target.is_file():
                return target
            from PIL import Image

            from punchboard.generator.press.proof import proof_image

            with Image.open(source) as image:
                image.load()
                proofed = proof_image(image, self._press())
            data = io.BytesIO()
            proofed.save(data, "PNG")
            write_bytes(target, data.getvalue())
            for stale in target.parent.glob("*.png"):
                if not source.parent.joinpath(stale.name).is_file():
                    stale.unlink(missing_ok=True)
        return target
