"""The JSON Schemas the loader checks documents against, read once each (``punchboard/schema/``)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from punchboard.plumbing.paths import SCHEMAS


@cache
def schema(name: str) -> dict[str, Any]:
    with open(SCHEMAS / f"{name}.schema.json", encoding="utf-8") as handle:
        return json.load(handle)
