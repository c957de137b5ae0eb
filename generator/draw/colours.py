"""Colour strings resolved once: ``#rrggbb`` or a colour name to a reportlab colour object.

reportlab parses a colour string on every ``setFillColor`` (tens of microseconds;
a ready colour object costs well under one). Layout colours are a handful of
distinct strings — palette entries or values bound per piece such as
``fill: "{colour}"`` — so each distinct string is parsed once and the object
reused. The operators written are the same as for the string.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.lib.colors import Color, toColor


@lru_cache(maxsize=4096)
def _parsed(value: str) -> Color:
    """reportlab reads ``#fff`` and ``#rrggbbaa`` as one big integer (``#fff`` is blue), so short
    and alpha forms are spelt out here; ``#rrggbb`` and names go to reportlab unchanged."""
    digits = value[1:] if value.startswith("#") else ""
    if len(digits) == 3 and all(c in "0123456789abcdefABCDEF" for c in digits):
        return toColor("#" + "".join(c * 2 for c in digits))
    if len(digits) == 8 and all(c in "0123456789abcdefABCDEF" for c in digits):
        red, green, blue, alpha = (int(digits[i : i + 2], 16) / 255 for i in range(0, 8, 2))
        return Color(red, green, blue, alpha=alpha)
    return toColor(value)


def resolved(value: str | Color | None) -> Color | None:
    """The colour object for ``value`` (a string is parsed once per process); None stays None."""
    if value is None or isinstance(value, Color):
        return value
    return _parsed(value)
