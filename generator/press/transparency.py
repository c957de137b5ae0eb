"""Pages drawn with transparency: a PDF/X-1a file has none, so Ghostscript flattens each such page (at PDF 1.3)
into one CMYK image at its own resolution (720 dpi); the build says which pages that happened to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

FLATTEN_DPI = 720  # Ghostscript pdfwrite's resolution for what it must render


def _transparent(resources: Any, seen: set[tuple[int, int]]) -> bool:
    if resources is None:
        return False
    for state in (resources.get("/ExtGState") or {}).values():
        if float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1 or str(state.get("/SMask", "/None")) != "/None":
            return True
    for obj in (resources.get("/XObject") or {}).values():
        if obj.objgen in seen:
            continue
        seen.add(obj.objgen)
        if obj.get("/Subtype") == "/Image" and "/SMask" in obj:
            return True
        group = obj.get("/Group")
        if obj.get("/Subtype") == "/Form" and ((group is not None and group.get("/S") == "/Transparency")
                                               or _transparent(obj.get("/Resources"), seen)):
            return True
    return False


def transparent_pages(path: Path) -> list[int]:
    """The pages (1-based) of ``path`` that draw anything with opacity, a soft mask or a picture's alpha."""
    import pikepdf

    with pikepdf.open(path) as pdf:
        return [n for n, page in enumerate(pdf.pages, start=1) if _transparent(page.obj.get("/Resources"), set())]
