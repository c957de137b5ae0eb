"""``verify --json``: every result as data."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from ..findings import Finding, Result


def as_json(results: Sequence[Result], expected: Callable[[Finding], str | None] = lambda _: None) -> str:
    """Every result as JSON; a finding setup.yaml declares expected carries ``"expected": reason``."""
    data = []
    for result in results:
        item = result.as_json()
        for finding, shown in zip(result.findings, item["findings"], strict=True):
            reason = expected(finding)
            if reason:
                shown["expected"] = reason
        data.append(item)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

