"""Font files named by layouts, parsed at load time so ``check`` refuses every font ``build`` could not embed."""

from __future__ import annotations

from pathlib import Path

from punchboard.plumbing.limits import FLAGS


class FontRefused(Exception):
    """A font file that is too large, not a font, or a font the PDF writer cannot embed."""


def check_font(path: Path, name: str, max_bytes: int) -> None:
    """Parse ``path`` as the renderer will (reportlab's TrueType reader); raise :class:`FontRefused` if it cannot."""
    size = path.stat().st_size
    if size > max_bytes:
        raise FontRefused(f"font file '{name}' is {size} bytes, more than the limit of {max_bytes} (raise it with {FLAGS['max_file_bytes']})")
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

    try:  # read it and make a subset, as embedding the font in a PDF does
        TTFontFile(str(path), validate=0).makeSubset(list(range(32, 127)))
    except TTFError as exc:
        raise FontRefused(f"font file '{name}' cannot be used ({exc}); expected a TrueType font (.ttf, or .otf with TrueType outlines)") from None
    except Exception:  # noqa: BLE001 - a hostile file can break the parser anywhere; it is still only a bad font
        raise FontRefused(f"font file '{name}' is not a readable font (truncated or corrupt); expected a TrueType font (.ttf)") from None
