"""A how-to page's own example, written into a game folder: every ``# file: PATH`` YAML block of the page, and a
game.yaml listing its component (tests/docs/test_*_page.py build it; docs/images/ draws its pictures from it)."""

from __future__ import annotations

import re
from pathlib import Path

BLOCK = re.compile(r"```yaml\n# file: (?P<file>\S+)\n(?P<body>.*?)```", re.S)


def write_page_files(page: Path, folder: Path, expected: set[str], game_id: str, component: str) -> None:
    """The ``page``'s files (exactly ``expected``, else the page changed under its test) and a game.yaml with id
    ``game_id`` listing ``component``, in ``folder``."""
    files = {m["file"]: m["body"] for m in BLOCK.finditer(page.read_text(encoding="utf-8"))}
    assert set(files) == expected
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "game.yaml").write_text(f"id: {game_id}\ntitle: {game_id.title()}\nplayers: {{min: 2, max: 4}}\n"
                                      f"components: [{component}]\n", encoding="utf-8")
