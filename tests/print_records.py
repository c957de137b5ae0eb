"""A print record as a reader sees it: the JSON's fields, with ``pieces`` the whole print's rows even when the
record on disk is written as its changes since an earlier print."""

from __future__ import annotations

import json
from pathlib import Path

from punchboard.generator import prints


def read_record(folder: Path, number: int) -> dict:
    """Print ``number`` of the game whose outputs are in ``folder``, ``pieces`` grouped as a whole record's are."""
    data = json.loads((folder / "prints" / f"{number:04d}.json").read_text(encoding="utf-8"))
    data["pieces"] = prints._grouped(prints.load(folder, number).pieces)
    return data
