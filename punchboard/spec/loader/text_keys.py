"""A text element's rich-text keys read into the model: ``columns``, ``outline``, ``shadow``, ``hyphenate``.

Each is turned into a tuple (the model is immutable and hashable): ``columns`` → ((align, fraction or None), …),
``outline`` → (colour, width in points), ``shadow`` → (dx, dy in points, colour); ``hyphenate`` must name a
language pyphen has a dictionary for.
"""

from __future__ import annotations

from typing import Any

from punchboard.plumbing.units import UnitError, parse_fraction, parse_length

TEXT_KEYS = ("columns", "outline", "shadow", "hyphenate")
OUTLINE_WIDTH = "0.5pt"
SHADOW_OFFSET = "0.3mm"


def text_key(key: str, value: Any) -> Any:
    """The model's value of one of :data:`TEXT_KEYS`; UnitError (or ValueError for a language) when it is wrong."""
    if key == "columns":
        return tuple(_column(item) for item in value)
    if key == "outline":
        width = parse_length(value.get("width", OUTLINE_WIDTH))
        if width <= 0:
            raise UnitError(f"width must be a positive length, got {value.get('width')!r}")
        return str(value["color"]), width
    if key == "shadow":
        return parse_length(value.get("dx", SHADOW_OFFSET)), parse_length(value.get("dy", SHADOW_OFFSET)), str(value["color"])
    language = str(value)
    if _language(language) is None:
        raise ValueError(f"no hyphenation dictionary for {language!r}; expected a language pyphen knows, such as en, en_GB, de, fr, es, it, nl")
    return _language(language)


def _column(item: Any) -> tuple[str, float | None]:
    """One ``columns:`` item: an alignment, or {align, width: a percentage}."""
    if isinstance(item, str):
        return item, None
    width = item.get("width")
    if width is None:
        return str(item["align"]), None
    fraction = parse_fraction(width)
    if not 0 < fraction <= 1:
        raise UnitError(f"a column's width must be a percentage above 0% and up to 100%, got {width!r}")
    return str(item["align"]), fraction


def _language(language: str) -> str | None:
    """The pyphen dictionary name for ``language`` (None when pyphen has none)."""
    import pyphen  # only layouts that hyphenate need it

    found: str | None = pyphen.language_fallback(language.replace("-", "_"))
    return found
