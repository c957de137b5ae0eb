"""``icons:`` in game.yaml: the designer's own icons, name → SVG or PNG file in the game folder."""

from __future__ import annotations

from pathlib import Path

from punchboard.spec.icons import ICON_SUFFIXES
from punchboard.spec.images import ImageRefused, check_image, find_image
from punchboard.spec.yamlsource import Document

from .common import Collector


def load_icons(doc: Document, folder: Path, out: Collector) -> dict[str, Path]:
    """Each declared icon's file, found and probed like an image; problems point at its line."""
    icons: dict[str, Path] = {}
    declared = doc.data.get("icons", {}) if isinstance(doc.data, dict) else {}
    for name, src in sorted(declared.items()):
        path = ("icons", name)
        if not str(src).lower().endswith(ICON_SUFFIXES):
            out.add(doc.problem(path, f"icon '{name}': '{src}' is not an SVG, PNG or JPG file; expected e.g. icons/{name}.svg"))
            continue
        try:
            found = find_image(str(src), (folder,))
            check_image(found, str(src), out.limits.max_image_pixels, out.limits.max_file_bytes)
        except ImageRefused as exc:
            out.add(doc.problem(path, f"icon '{name}': {exc}"))
            continue
        icons[name] = found  # a built-in name is replaced by the designer's own drawing
    return icons
