"""Redraw docs/images/fonts.png: the specimen card of docs/how-to/fonts-and-icons.md, from the page's own YAML,
through docs/images/page_card.py.

    .venv/bin/python docs/images/fonts.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    from docs.images.page_card import draw
    from tests.docs.test_fonts_page import write_example

    draw(write_example, "specimen", "fonts.png")
