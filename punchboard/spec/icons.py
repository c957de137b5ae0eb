"""Icon names: the generator's procedural icons and the designer's own (``icons:`` in game.yaml).

Text shows an icon inline as ``:name:``; a ``type: icon`` element draws one.
The built-in names are listed here so the loader can check them without
importing the generator (a test keeps this list equal to the generator's).
"""

from __future__ import annotations

import re

BUILTIN_ICONS = frozenset({
    "bolt", "chest", "clubs", "cog", "coin", "diamonds", "dragon", "electricity", "gear", "gears", "hearts",
    "knight", "nut", "paper", "parts", "rivet", "rock", "scissors", "shield", "spades", "star", "steam",
    "steambot", "trap",
})
ELEMENT_ONLY_ICONS = frozenset({"frame"})  # fills a whole box: an element, never inline
INLINE_ICON = re.compile(r":([a-z_][a-z0-9_]*):")
ICON_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
ICON_SUFFIXES = (".svg", ".png", ".jpg", ".jpeg")
