"""Which of a piece's fields a layout reads: the key under which a drawn side is reused, and a look check's result.

A side is drawn once per document and placed again wherever it recurs. Two
pieces draw the same side when every field the layout *reads* has the same
value — a common back reading no field is drawn once for the whole deck, not
once per card. A field is read when any element property mentions ``{field}``
(text, icon, image path, or any other bound property) or an element's ``when``
condition names it. The look checks (look_checks.py) read no more of a piece than
its layout does, so a side that passed them passes for every piece reading the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import fields as dataclass_fields
from dataclasses import is_dataclass
from typing import Any

from punchboard.incremental.identity import ByIdentity
from punchboard.plumbing.units import Dim

from . import expressions
from .binding import FIELD_REF
from .model import Element, Layout, Piece, Side

_READS: ByIdentity[Layout, frozenset[str] | None] = ByIdentity()
_ALL = object()


def _names(value: Any, into: set[str]) -> bool:
    """Add the fields ``value`` mentions to ``into``; False when a value cannot be analysed."""
    if isinstance(value, str):
        into.update(FIELD_REF.findall(value))
        return True
    if value is None or isinstance(value, (bool, int, float, Dim)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_names(item, into) for item in value)
    if isinstance(value, Mapping):
        return all(_names(k, into) and _names(v, into) for k, v in value.items())
    if is_dataclass(value) and not isinstance(value, type):  # an effect (spec/effects.py): a gradient, shadow, mask
        return all(_names(getattr(value, item.name), into) for item in dataclass_fields(value))
    return False


def fields_read(layout: Layout) -> frozenset[str] | None:
    """The field names ``layout`` reads, or None when that cannot be told (then every field counts)."""
    return _READS.get(layout, _fields_read)


def _fields_read(layout: Layout) -> frozenset[str] | None:
    names: set[str] = set()
    readable = True
    for element in layout.elements:
        for key, value in element.props.items():
            if key == "when" and isinstance(value, str):
                try:
                    names.update(expressions.names(value))
                except expressions.ExpressionError:
                    readable = False
            readable = _names(value, names) and readable
    return frozenset(names) if readable else None


def names_no_field(element: Element) -> bool:
    """True when no property of ``element`` but its ``when`` condition names a field: it draws the same
    on every piece that shows it (generator/draw/fixed_forms.py)."""
    names: set[str] = set()
    return all(_names(value, names) and not names for key, value in element.props.items() if key != "when")


def reuse_key(layout: Layout, fields: Mapping[str, Any]) -> bytes:
    """The part of a drawn side's identity that comes from the piece's fields: a digest of the values it
    reads (a deck's table of drawn sides holds one per side, so not the values themselves)."""
    read = _SORTED_READS.get(layout, _sorted_reads)
    if read == ():  # a layout that reads no field (a common back): one digest for every piece
        return _READS_NOTHING
    if read is None:
        return hashlib.sha256(repr(tuple(sorted((k, repr(v)) for k, v in fields.items()))).encode()).digest()
    return hashlib.sha256(repr([fields.get(name, _NOT_GIVEN) for name in read]).encode()).digest()


class _NotGiven:
    """A field the piece does not give, in :func:`reuse_key` (a value's repr is never this one's: a string's is quoted)."""

    def __repr__(self) -> str:
        return "<not given>"


_NOT_GIVEN = _NotGiven()


_SORTED_READS: ByIdentity[Layout, tuple[str, ...] | None] = ByIdentity()
_READS_NOTHING = hashlib.sha256(repr(()).encode()).digest()


def _sorted_reads(layout: Layout) -> tuple[str, ...] | None:
    read = fields_read(layout)
    return None if read is None else tuple(sorted(read))


# reuse_key of each side of the model loaded last, by piece: the look checks work it out while the game loads, and
# a build's kept pages ask for it again.
_SIDE_READS: ByIdentity[Piece, list[tuple[Side, Layout, bytes]]] = ByIdentity(limit=None)


def side_reads(layout: Layout, piece: Piece, side: Side) -> bytes:
    """:func:`reuse_key` of ``piece``'s ``side`` drawn with ``layout``, worked out once while its model is the
    one loaded last (loading a model forgets the last one's: punchboard/incremental/identity.py's ``forget_all``)."""
    if _SORTED_READS.get(layout, _sorted_reads) == ():  # a layout that reads no field (a common back): no memo
        return _READS_NOTHING
    known = _SIDE_READS.get(piece, _none_yet)
    for known_side, known_layout, digest in known:
        if known_side is side and known_layout is layout:
            return digest
    digest = reuse_key(layout, {**piece.fields, **side.fields} if side.fields else piece.fields)
    known.append((side, layout, digest))
    return digest


def _none_yet(piece: Piece) -> list[tuple[Side, Layout, bytes]]:
    return []
