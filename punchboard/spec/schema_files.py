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


def definition_schema(name: str, definition: str | None) -> dict[str, Any]:
    """Schema ``name``, or one of its ``$defs`` made a schema of its own (the other definitions beside it)."""
    root = schema(name)
    if definition is None:
        return root
    sub = dict(root["$defs"][definition])
    sub["$defs"] = root["$defs"]
    return sub
