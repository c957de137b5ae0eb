"""``verify --json``: every result as data."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..findings import Result


def as_json(results: Sequence[Result]) -> str:
    return json.dumps([r.as_json() for r in results], indent=2, ensure_ascii=False) + "\n"

