"""The validated, immutable, fully expanded model of a game.

After loading, every physical card, token, tile, board and sheet exists as a
:class:`Piece` with its resolved fields; renderers and the verifier read this
model and never the YAML.
"""

from __future__ import annotations

import copyreg
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

Scalar = str | int | float | bool | None
KT = TypeVar("KT")
VT = TypeVar("VT")

PRINTED_KINDS = ("deck", "banknotes", "tokens", "board", "tiles", "sheet")
PIECE_NOUNS = {"deck": "card", "banknotes": "banknote", "tokens": "token", "board": "board", "tiles": "tile", "sheet": "sheet"}


def frozen_map(data: Mapping[KT, VT] | None = None) -> MappingProxyType[KT, VT]:
    """A read-only copy of ``data`` (empty for None)."""
    return MappingProxyType(dict(data or {}))


# A read-only mapping pickles as the mapping it shows, so the model can be sent to worker processes
# started with `spawn` (the --jobs pool where fork is not available, as on Windows).
copyreg.pickle(MappingProxyType, lambda proxy: (frozen_map, (dict(proxy),)))


@dataclass(frozen=True)
class Size:
    """Width and height in points."""

    width: float
    height: float


@dataclass(frozen=True)
class Side:
    """How one side of a piece is drawn: a layout and the fields it may show."""

    layout: str
    fields: Mapping[str, Scalar] = field(default_factory=frozen_map)
    marks: Mapping[str, str] = field(default_factory=frozen_map, compare=False)  # field → file:LINE:COL of its value


@dataclass(frozen=True)
class Piece:
    """One physical object in the box."""

    component: str
    index: int
    copy: int
    entry: int
    fields: Mapping[str, Scalar]
    face: Side | None
    back: Side | None
    cells: tuple[tuple[int, int], ...] = ((0, 0),)
    marks: Mapping[str, str] = field(default_factory=frozen_map, compare=False)  # field → file:LINE:COL of its value

    @property
    def name(self) -> str:
        value = self.fields.get("name")
        return "" if value is None else str(value)

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


_new_object = object.__new__


def new_piece(values: dict[str, Any]) -> Piece:
    """``Piece(**values)``, for ``values`` that give every field in the class's order, in under half the time.

    A frozen dataclass's ``__init__`` sets each field with a call of ``object.__setattr__``; here the values go into
    the new object's ``__dict__`` at once (Piece has no ``__post_init__``). The piece is the same: equal, and pickled
    alike (its ``__dict__`` holds the same values in the same order). The loader makes one per card.
    """
    piece = _new_object(Piece)
    piece.__dict__.update(values)
    return piece


@dataclass(frozen=True)
class SupplyItem:
    """Something bought, not printed: dice, a cloth bag, meeples."""

    name: str
    count: int
    notes: str = ""
    fields: Mapping[str, Scalar] = field(default_factory=frozen_map)  # e.g. {colour: red} for plastic trains


@dataclass(frozen=True)
class TokenShape:
    name: str  # circle | square | rounded | hexagon | gear | custom
    teeth: int = 12
    outline: tuple[tuple[float, float], ...] = ()


Translated = tuple[Scalar, str]  # a field's value in another language, and file:LINE:COL where it was written


@dataclass(frozen=True)
class Translations:
    """A component's text in its other languages, each value with where it was written (spec/languages.py applies
    them). ``entries`` is keyed by language, then by the entry a piece was made from (:attr:`Piece.entry`), then by
    field; ``fields`` names every field given in some language, so a piece lacking one falls back with a warning."""

    entries: Mapping[str, Mapping[int, Mapping[str, Translated]]] = field(default_factory=frozen_map)
    names: Mapping[str, Translated] = field(default_factory=frozen_map)  # language → the component's name
    fields: tuple[str, ...] = ()
    inputs: Mapping[str, Path] = field(default_factory=frozen_map)  # language → a translation file read (PO)


@dataclass(frozen=True)
class Component:
    id: str
    kind: str
    name: str
    source: Path
    size: Size | None
    copies: int
    pieces: tuple[Piece, ...]
    fields: tuple[str, ...] = ()
    notes: str = ""
    printed: bool = True
    shape: TokenShape | None = None
    cell: float | None = None
    fold: str = "none"
    outside: Side | None = None  # a folded sheet's half facing away from the player
    supplies: tuple[SupplyItem, ...] = ()
    inputs: tuple[Path, ...] = ()  # the files this component was read from (YAML, CSV)
    print_group: str = ""  # components of one group share sheets (decks and banknotes of one trim and bleed)
    translations: Translations | None = None  # its text in the game's other languages (None: it has none)

    @property
    def count(self) -> int:
        if self.kind == "supply":
            return sum(item.count for item in self.supplies)
        return len(self.pieces)

    @property
    def has_backs(self) -> bool:
        return any(piece.back is not None for piece in self.pieces)

    def layouts(self) -> frozenset[str]:
        """The names of the layouts its pieces and outside are drawn with."""
        return self._layouts

    @cached_property
    def _layouts(self) -> frozenset[str]:  # worked out once: a build asks for a 2,000-card deck's several times
        names = set()
        for piece in self.pieces:
            for side in (piece.face, piece.back):
                if side is not None:
                    names.add(side.layout)
        if self.outside is not None:
            names.add(self.outside.layout)
        return frozenset(names)


@dataclass(frozen=True)
class Element:
    """One drawing instruction of a layout; ``props`` holds parsed values (Dim, points, text)."""

    type: str
    id: str
    props: Mapping[str, Any]
    source: str  # file:line:col, for build warnings


@dataclass(frozen=True)
class Layout:
    name: str
    source: Path
    chain: tuple[Path, ...]  # this file and every file it extends, for content hashing
    elements: tuple[Element, ...]
    palette: Mapping[str, str]
    fonts: Mapping[str, Path]
    safe: float
    bleed: float | None


@dataclass(frozen=True)
class BoxLine:
    """One line of the rulebook's contents list and the components it counts."""

    text: str
    count: int
    components: tuple[str, ...]
    where: str | None
    source: str
    per_copy: bool = False


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    folder: Path
    players_min: int
    players_max: int
    components: tuple[Component, ...]
    layouts: Mapping[str, Layout]
    box: tuple[BoxLine, ...] = ()
    palette: Mapping[str, str] = field(default_factory=frozen_map)
    rulebook: str = ""
    designers: tuple[str, ...] = ()
    setup: Path | None = None
    notes: str = ""
    files: tuple[Path, ...] = ()
    icons: Mapping[str, Path] = field(default_factory=frozen_map)
    fetch_warnings: tuple[str, ...] = ()  # spreadsheet links read from their cached copy (also in warnings)  # the designer's own inline icons: name → SVG/PNG file
    warnings: tuple[str, ...] = ()  # "file:line:col: …" the loader accepts but `check` reports (setup gaps)
    languages: tuple[str, ...] = ()  # game.yaml's languages:, the source language first (empty: undeclared)
    language: str = ""  # the language this model's text is in: "" when undeclared, else one of languages
    rulebooks: Mapping[str, str] = field(default_factory=frozen_map)  # language → rulebook@lang (setup's quote@lang)

    def component(self, component_id: str) -> Component:
        for component in self.components:
            if component.id == component_id:
                return component
        raise KeyError(component_id)

    @property
    def printed(self) -> tuple[Component, ...]:
        return tuple(c for c in self.components if c.printed and c.kind != "supply")

    @property
    def print_groups(self) -> dict[str, tuple[Component, ...]]:
        """Every print group's printed members, in the game's order (the loader checked they can share sheets)."""
        groups: dict[str, list[Component]] = {}
        for component in self.printed:
            if component.print_group:
                groups.setdefault(component.print_group, []).append(component)
        return {name: tuple(members) for name, members in groups.items()}

    @property
    def supplies(self) -> tuple[SupplyItem, ...]:
        return tuple(item for c in self.components if c.kind == "supply" for item in c.supplies)


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float
    margin: float
    source: Path
