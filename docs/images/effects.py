"""Redraw docs/images/effects.png: the hero card of docs/how-to/effects.md, from the page's own YAML (with the
test's drawn portrait), through docs/images/page_card.py.

    .venv/bin/python docs/images/effects.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from docs.images.page_card import draw
    from tests.docs.test_effects_page import write_example

    draw(write_example, "hero", "effects.png")
