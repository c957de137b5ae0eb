"""What the setup check can read of a game's components: the key its kept gaps are found again by (punchboard/incremental/loads.py).

A long-running process keeps the setup check's gaps while the check could not answer otherwise. Keyed by
whole components, a card's text edited in a deck ran the check again (2.7 ms of a save), though no setup
reads card text. :func:`setup_view` is everything ``load_setup`` (spec/setup_loader.py, with
spec/playout_loader.py and spec/place_check.py) reads of the components, and nothing more:

- each component's id, in order: ``component:`` of a step or a ``sum:``, and the ids its messages list;
- each component's kind: place_check reads a supply's items, any other component's pieces;
- every field *name*: each component's declared ``fields:`` and its pieces' field keys (unknown names in
  conditions, ``by:``/``same:``/``match:``/``distinct:``/``of_a_kind:``/``card:``/``sum:`` fields,
  ``numbers:`` names, and the known names its messages list);
- what a ``place`` from the box chooses from (place_check.pieces): each piece (a supply item: ``count``
  pieces) as its fields, its name (a printed piece's ``str`` of its ``name`` field), its component and its
  copy. Of these a ``where:`` reads the fields it names (a field a piece lacks is unset, not none),
  ``distinct:`` the field it names (a missing one is none), and a ``place`` without ``distinct:`` whether
  the pieces it chooses differ in any field but ``copy`` (place_check.ambiguity).

So a field's values are in the view when its name occurs in the setup's text: in a key or a value of its
parsed data (what the loader reads: a YAML escape or a continued line hides nothing), or in their NFKC
form (Python normalises the names in an expression); a name that is not text always. A value is kept
with its type: 1, 1.0 and True are equal but not alike in an expression. The values of other fields are
read only by a ``place`` without ``distinct:``, and only as equal or not: for the components such a place
may choose from, the view holds each of them as the number of its class of equal values (over all those
components), so a card's text edited to a text of its own keeps the view. Field names are always in it.

A view is compared only with a view for the same setup text, so under the same rules. A component's
part of it is kept by the component object (a component loaded unchanged is the same object), so a save
computes the part of the components it changed only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter, itemgetter, methodcaller
from typing import Any

from punchboard.incremental.loads import Kept
from punchboard.spec.model import Component

_ABSENT = object()  # a field a piece does not have (unset in a condition, unlike none)
_copy = attrgetter("copy")


def _mixed(place: Any, ids: set[str]) -> set[str] | None:
    """``ids`` with the components this place may choose from if it has no ``distinct:`` (None: any)."""
    if isinstance(place, dict) and place.get("distinct") is not None:
        return ids
    chosen = place.get("component") if isinstance(place, dict) else None
    if isinstance(chosen, str) and chosen:
        return ids | {chosen}
    if isinstance(chosen, list) and chosen and all(isinstance(cid, str) for cid in chosen):
        return ids | set(chosen)
    return None


class SetupText:
    """Every key and value of a setup file's data, as one text a field name is looked up in."""

    __slots__ = ("text", "mixed", "known")

    def __init__(self, data: Any):
        parts: list[str] = []
        mixed: set[str] | None = set()
        stack = [data]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key, value in node.items():
                    parts.append(str(key))
                    if key == "place" and mixed is not None:
                        mixed = _mixed(value, mixed)
                    stack.append(value)
            elif isinstance(node, list | tuple):
                stack.extend(node)
            else:
                parts.append(str(node))
        text = "\0".join(parts)
        if not text.isascii():
            text += "\0" + unicodedata.normalize("NFKC", text)
        self.text = text
        # the components a place without distinct: may choose from (it compares every field's values); None: any
        self.mixed = mixed
        self.known: dict[Any, bool] = {}

    def names(self, field: Any) -> bool:
        """Whether the setup may read this field's values: its name occurs in the text, or is not text."""
        known = self.known.get(field)
        if known is None:
            known = self.known[field] = not isinstance(field, str) or field in self.text
        return known


def _printed(component: Component, setup: SetupText) -> tuple[Any, ...]:
    """A printed component's pieces: the field names they have and the values of those the setup names."""
    pieces = component.pieces
    fields = [piece.fields for piece in pieces]
    keys: set[Any] = set().union(*fields)
    named = sorted((key for key in keys if setup.names(key)), key=repr)
    out: list[Any] = [frozenset(keys), tuple(named)]
    if setup.names("copy"):
        out.append(tuple(map(_copy, pieces)))
    if not named:
        return tuple(out)
    if sum(map(len, fields)) == len(keys) * len(fields):  # every piece has every field: one row per piece
        rows = tuple(map(itemgetter(*named), fields))
        values = chain.from_iterable(rows) if len(named) > 1 else rows
        out += ("rows", rows)
    else:  # one column per field, _ABSENT where a piece lacks it
        columns = tuple(tuple(map(methodcaller("get", key, _ABSENT), fields)) for key in named)
        values = chain.from_iterable(columns)
        out += ("columns", columns)
    types = tuple(map(type, values))
    out.append(types)
    if "name" in named and float in types:  # a piece's name is str() of it: -0.0 and 0.0 differ there
        out.append(tuple(piece.name for piece in pieces))
    return tuple(out)


def _supplies(component: Component, setup: SetupText) -> tuple[Any, ...]:
    """A supply's items: each is ``count`` pieces alike but for their copy."""
    out: list[Any] = []
    for item in component.supplies:
        out.append((item.count, frozenset(item.fields)))
        for key, value in (("name", item.name), *item.fields.items()):
            if setup.names(key):
                out.append((key, value, type(value)))
    return tuple(out)


def _part(component: Component, setup: SetupText) -> tuple[Any, ...]:
    return (component.id, component.kind, component.fields, len(component.pieces), len(component.supplies),
            _printed(component, setup), _supplies(component, setup))


def _values(component: Component, setup: SetupText) -> dict[Any, tuple[Any, ...]]:
    """For a place without distinct: the component's values of every field the setup does not name, in the
    order of its pieces (a supply item counts once: its copies are alike), as place_check sees them."""
    keys = set().union({"name"}, *(piece.fields for piece in component.pieces),
                       *(item.fields for item in component.supplies))
    out: dict[Any, tuple[Any, ...]] = {}
    for key in keys:
        if key in ("component", "copy") or setup.names(key):  # the component is its id; copy is not compared
            continue
        if key == "name":
            column: list[Any] = [piece.name for piece in component.pieces]
            column += [item.name for item in component.supplies]
        else:
            column = list(map(methodcaller("get", key), [piece.fields for piece in component.pieces]))
            column += [item.fields.get(key) for item in component.supplies]
        out[key] = tuple(column)
    return out


def _classes(values: list[tuple[int, dict[Any, tuple[Any, ...]]]]) -> tuple[Any, ...]:
    """Each field's values (:func:`_values` of every component, with its number of pieces) as the number
    of its class of equal values over the whole game: whether two pieces differ, and nothing more."""
    out: list[Any] = []
    for key in sorted({key for _, own in values for key in own}, key=repr):
        column: list[Any] = []
        for size, own in values:
            column += own.get(key) or (None,) * size
        classes = dict.fromkeys(column)
        if len(classes) == len(column):  # each its own: the number of pieces says it
            out.append((key, len(column)))
            continue
        number = dict(zip(classes, range(len(classes)), strict=True))
        out.append((key, tuple(map(number.__getitem__, column))))
    return tuple(out)


def setup_view(components: Sequence[Component], setup: SetupText,
               parts: dict[int, Any] | None = None) -> tuple[Any, ...] | None:
    """What ``load_setup`` can read of ``components`` for this setup (see the module's text), as one value
    to compare; None when a value cannot be compared (that setup is not kept). ``parts`` keeps each
    component's own part by the component object, for the same ``setup`` object."""
    out: list[Any] = []
    values: list[tuple[int, dict[Any, tuple[Any, ...]]]] = []
    try:
        for component in components:
            known = parts.get(id(component)) if parts is not None else None
            if known is None or known[0] is not component or known[1] is not setup:
                compared = setup.mixed is None or component.id in setup.mixed
                known = (component, setup, _part(component, setup), _values(component, setup) if compared else None)
                if parts is not None:
                    Kept.put(parts, id(component), known)
            out.append(known[2])
            if known[3] is not None:
                values.append((len(component.pieces) + len(component.supplies), known[3]))
        if values:
            out.append(_classes(values))
    except TypeError:  # a value that cannot be hashed
        return None
    return tuple(out)
