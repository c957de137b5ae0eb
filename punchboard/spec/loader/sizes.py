"""Card size presets (layouts/sizes.yaml), sizes in component files, and papers (layouts/paper/)."""

from __future__ import annotations

import re
from typing import Any

from punchboard.plumbing.errors import UsageError
from punchboard.plumbing.paths import LAYOUTS
from punchboard.spec import schema_check
from punchboard.spec.model import (
    Paper,
    Size,
)
from punchboard.spec.yamlsource import Document, PathKey, load_yaml

from .common import Collector, positive_length


def load_size_presets() -> dict[str, Size]:
    doc = load_yaml(LAYOUTS / "sizes.yaml")
    out = Collector()
    presets = {}
    for name, spec in (doc.data or {}).items():
        w = positive_length(doc, (name, "width"), spec.get("width"), out)
        h = positive_length(doc, (name, "height"), spec.get("height"), out)
        if w and h:
            presets[name] = Size(w, h)
    out.raise_if_any()
    return presets


def parse_size(doc: Document, path: PathKey, value: Any, presets: dict[str, Size], out: Collector) -> Size | None:
    if isinstance(value, dict):
        w = positive_length(doc, path + ("width",), value.get("width"), out)
        h = positive_length(doc, path + ("height",), value.get("height"), out)
        return Size(w, h) if w and h else None
    if isinstance(value, str) and value in presets:
        return presets[value]
    if isinstance(value, str) and re.match(r"^[a-z][a-z-]*$", value):
        hint = schema_check.suggest(value, sorted(presets))
        out.add(
            doc.problem(
                path,
                f"unknown size preset '{value}'{hint}; expected one of {', '.join(sorted(presets))}, "
                "a length, or width and height",
            )
        )
        return None
    side = positive_length(doc, path, value, out)
    return Size(side, side) if side else None


def load_paper(name: str) -> Paper:
    path = LAYOUTS / "paper" / f"{name}.yaml"
    if not re.match(r"^[a-z0-9_-]+$", name) or not path.is_file():
        known = sorted(p.stem for p in (LAYOUTS / "paper").glob("*.yaml"))
        raise UsageError(f"--paper: unknown paper '{name[:40]}'; expected one of {', '.join(known)}")
    doc = load_yaml(path)
    out = Collector()
    out.extend(schema_check.check(doc, "paper"))
    out.raise_if_any()
    data = doc.data
    width = positive_length(doc, ("width",), data["width"], out)
    height = positive_length(doc, ("height",), data["height"], out)
    margin = positive_length(doc, ("margin",), data.get("margin", "5mm"), out)
    out.raise_if_any()
    assert width and height and margin
    if data.get("orientation") == "landscape":
        width, height = max(width, height), min(width, height)
    return Paper(data["name"], width, height, margin, path)
