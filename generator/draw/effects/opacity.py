"""An element's ``opacity`` kept by every colour it sets.

reportlab sets a colour's own alpha with it (a colour object's alpha is 1 unless given), so an icon, a text or a
span that sets its colours after the element's opacity was set would paint fully opaque again. While an element is
drawn (:func:`element`), :func:`ink` gives each colour with its alpha times the element's opacity: what it sets
then leaves the opacity as the element asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from reportlab.lib.colors import Color

from ..colours import resolved

_OPACITY: ContextVar[float] = ContextVar("element_opacity", default=1.0)


@contextmanager
def element(opacity: float) -> Iterator[None]:
    """Draw an element of this opacity (0 to 1) inside the block."""
    token = _OPACITY.set(opacity)
    try:
        yield
    finally:
        _OPACITY.reset(token)


def current() -> float:
    """The opacity of the element being drawn (1 outside one)."""
    return _OPACITY.get()


def ink(value: str | Color | None) -> Color | None:
    """``value`` (a colour string or object) as the colour to set: parsed once (draw/colours.py), its alpha times
    the element's opacity."""
    found = resolved(value)
    opacity = _OPACITY.get()
    if found is None or opacity >= 1.0:
        return found
    return Color(found.red, found.green, found.blue, alpha=float(found.alpha) * opacity)
