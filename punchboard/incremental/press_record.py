"""The press record: what the last CMYK build converted, in ``OUT/<game>/press/.press.json``.

generator/press/run.py converts a component PDF again only when the digest it records for it (its source's bytes,
the settings, the profile, the code) changed, and reports the press preflight's findings it recorded for a file
not converted again. The record is sealed JSON (sealed.py): a damaged one is read as no record, and every file is
converted again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .sealed import read_sealed, write_sealed

RECORD = ".press.json"


def read(folder: Path) -> dict[str, Any]:
    """The record in the press ``folder`` (file name → its entry); empty when there is none or it does not read back."""
    try:
        found = json.loads(read_sealed(folder / RECORD) or b"{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def write(folder: Path, record: dict[str, Any]) -> None:
    """Replace the record in the press ``folder``."""
    write_sealed(folder / RECORD, json.dumps(record, indent=1, sort_keys=True).encode())
