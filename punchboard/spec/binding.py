"""``{field}`` placeholders in layout text, icon names and image paths."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

FIELD_REF = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def bind(template: Any, fields: Mapping[str, Any]) -> str:
    """``{field}`` replaced by the piece's value; unset fields become empty, whole floats lose ``.0``."""
    if template is None:
        return ""

    def value(match: re.Match[str]) -> str:
        got = fields.get(match.group(1))
        if got is None:
            return ""
        if isinstance(got, float) and got.is_integer():
            return str(int(got))
        return str(got)

    return FIELD_REF.sub(value, str(template))


def fields_read(elements: Iterable[Any]) -> frozenset[str]:
    """Every field a layout's elements can show or test: ``{field}`` in any text property, names in ``when``."""
    from . import expressions  # expressions imports nothing from here; kept local to stay a leaf module

    names: set[str] = set()
    for element in elements:
        for key, value in element.props.items():
            if key == "when" and isinstance(value, str):
                names |= expressions.names(value)
            elif isinstance(value, str):
                names.update(FIELD_REF.findall(value))
    return frozenset(names)
