"""``{field}`` placeholders in layout text, icon names, image paths and the look properties below."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from punchboard.plumbing.units import UnitError, parse_fraction, parse_length

FIELD_REF = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Properties a layout may bind to a card field besides text, src and icon: the designer's own look.
BOUND_COLOUR_PROPS = ("fill", "stroke", "color", "accent")
BOUND_LENGTH_PROPS = ("stroke_width", "radius", "size", "min_size")
FIT_CHOICES = ("contain", "cover", "stretch")
BOUND_PROPS = (*BOUND_COLOUR_PROPS, "font", *BOUND_LENGTH_PROPS, "fit")


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


def is_bound(value: Any) -> bool:
    return isinstance(value, str) and FIELD_REF.search(value) is not None


def bound_props(props: Mapping[str, Any], fields: Mapping[str, Any]) -> Mapping[str, Any]:
    """``props`` with field-bound colours, fonts and lengths replaced by the piece's values.

    The loader has checked every value; an unset field leaves the property at its default.
    """
    bound = [key for key in BOUND_PROPS if is_bound(props.get(key))]
    focus = props.get("focus")
    focus_bound = isinstance(focus, tuple) and any(is_bound(part) for part in focus)
    stops = bound_stops(props.get("fill"))
    if not bound and not focus_bound and not stops:
        return props
    result = dict(props)
    if stops:  # a gradient fill's stops named by a card field (spec/effects.py): an unset one paints black
        fill = props["fill"]
        result["fill"] = replace(fill, stops=tuple((offset, bind(name, fields).strip() or "#000000")
                                                   for offset, name in fill.stops))
    if isinstance(focus, tuple) and focus_bound:
        result["focus"] = bound_focus(focus, fields)
    for key in bound:
        value = bind(props[key], fields).strip()
        del result[key]
        if not value:
            continue
        if key in BOUND_LENGTH_PROPS:
            try:
                result[key] = parse_length(value)
            except UnitError:
                continue
        elif key == "fit":
            if value in FIT_CHOICES:
                result[key] = value
        else:
            result[key] = value
    return result


def bound_stops(fill: Any) -> list[str]:
    """The stop colours of a gradient ``fill`` that name a card field (``"{colour}"``); none for any other fill."""
    stops = getattr(fill, "stops", None)
    if not isinstance(stops, tuple):
        return []
    return [name for _, name in stops if is_bound(name)]


def bound_focus(focus: tuple[Any, Any], fields: Mapping[str, Any]) -> tuple[float, float]:
    """``focus`` with field-bound items replaced by the piece's percentages; an unset one is 50%."""
    fractions = []
    for part in focus:
        if not is_bound(part):
            fractions.append(float(part))
            continue
        text = bind(part, fields).strip()
        try:
            fractions.append(parse_fraction(text) if text else 0.5)
        except UnitError:
            fractions.append(0.5)
    return fractions[0], fractions[1]
