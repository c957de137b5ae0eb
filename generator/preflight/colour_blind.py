"""``colour_blind`` and ``grayscale``: a design decision told only by colour, in colours that look alike.

A design decision is a field of a component's pieces: ``suit``, a player's
``colour`` (fields that split the pieces alike, a ``suit`` and the ``colour``
given with it on every card, are one decision; a field of one value, or of more
than 32 values, a name or a rules text, is none). Its values change only colours
when a piece drawn with each value, everything else kept as on one piece (the
same name and text), shows the same elements at the same places with the same
text, icons, pictures, fonts and sizes, and differs only in fill, stroke, text
or accent colours: the same emblem in red and in brick red, player tokens in six
colours. In a real deck every card has its own name and text, yet nothing but
colour tells its suit.

For such a field, each pair of its values is judged by the colours that differ,
as protanopes, deuteranopes and tritanopes see them (coloraide's dichromacy
simulations, full severity) and as a black-and-white print shows them. The
threshold rule: a pair looks alike when, under any one simulation (or in grey),
no differing colour stays ΔE2000 10 or more apart — the worst simulation
decides, since a player has one kind of sight: a red and a green ΔE2000 10.3
apart to a protanope and 9.6 to a deuteranope are reported. The finding is one
per decision, naming the component, the field, the elements and each alike pair
once (``colour_blind``; ``grayscale`` when only grey confuses them). This reads
the model only (the colours a layout binds per piece); colours inside pictures
and icons' own drawings are not compared.
"""

from __future__ import annotations

import dataclasses
import hashlib
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from punchboard.generator.draw.reads import side_reads

from punchboard.incremental.identity import ByIdentity
from punchboard.incremental.sides import layout_digest
from punchboard.spec.binding import BOUND_COLOUR_PROPS, bind, bound_props, is_bound
from punchboard.spec.expressions import shows
from punchboard.spec.model import PIECE_NOUNS, Component, Element, Game, Layout, Piece, Side, frozen_map

from .colours import RGB, VISIONS, WHITE, delta_e, hex_of, over, paint
from .findings import ignored, message

ALIKE = 10.0  # ΔE2000 below which two colours are taken for one (under any one simulation: the worst decides)
SAME = 0.5  # ΔE2000 below which two colours are the same colour to normal sight
MAX_VALUES = 32  # a field of more values is no choice among colours (a name, a rules text)
PAIRS_SHOWN = 6  # pairs of values a finding spells out
NOT_A_LOOK = frozenset({"id", "when", "preflight", *BOUND_COLOUR_PROPS})
BOUND_TEXT = ("text", "icon", "src")


@dataclass(frozen=True)
class Tint:
    """One colour a piece shows: which element, which property, what colour (over white paper)."""

    element: Element
    prop: str
    rgb: RGB



class _Memo:
    """What does not change from piece to piece: each element's look when it binds no field, its
    literal colours, each layout's palette."""

    def __init__(self, game: Game):
        self.game = game
        self.looks: dict[int, tuple[Any, ...] | None] = {}
        self.palettes: dict[str, Mapping[str, str]] = {}
        self.colours: dict[tuple[int, str, str], tuple[RGB, float] | None] = {}
        self.plans: dict[str, list[Planned]] = {}  # by layout name (_plan)
        self.shared: dict[Any, Any] = {}  # one object for each look digest and places met (kept once on disk)
        self.sides: ByIdentity[Side | None, bytes] = ByIdentity(limit=None)  # each side's part of a piece's key

    def side_text(self, side: Side | None) -> bytes:
        """A side's part of a piece's key (see :func:`_key`), worked out once per side object (a deck's pieces
        share their component's face and back)."""
        return self.sides.get(side, self._side_text)

    def _side_text(self, side: Side | None) -> bytes:
        layout = self.game.layouts.get(side.layout) if side is not None else None
        return b"|-" if side is None or layout is None else f"|{layout_digest(layout)}|{sorted(side.fields.items())!r}".encode()

    def palette(self, name: str) -> Mapping[str, str]:
        found = self.palettes.get(name)
        if found is None:
            found = self.palettes[name] = {**self.game.palette, **self.game.layouts[name].palette}
        return found

    def static(self, element: Element) -> tuple[Any, ...] | None:
        """The element's look apart from colour when no property binds a field, else None."""
        key = id(element)
        if key not in self.looks:
            props = element.props
            bound = any(is_bound(value) for value in props.values()) or isinstance(props.get("focus"), tuple)
            self.looks[key] = None if bound else (
                element.type, *((name, repr(props[name])) for name in sorted(props) if name not in NOT_A_LOOK))
        return self.looks[key]

    def paint(self, value: Any, palette: Mapping[str, str]) -> tuple[RGB, float] | None:
        key = (id(palette), str(value), "")
        if key not in self.colours:
            self.colours[key] = paint(value, palette)
        return self.colours[key]


TintRef = tuple[int, int, str, RGB]  # a colour a piece shows: side (0 face, 1 back), element index, property, colour
Place = tuple[int, int, str]  # where a piece shows a colour: side (0 face, 1 back), element index, property
# A piece's look: a digest of what it shows apart from colour; where it shows colours (the same for every piece
# of that digest); the colours, packed (three doubles each, exactly as worked out: a 2,000-card deck's kept looks
# read back as a few thousand objects, not as tens of thousands of tuples and floats).
Look = tuple[bytes, tuple[Place, ...], bytes]
Planned = tuple[int, Element, bool, "tuple[Any, ...] | None", "tuple[tuple[int, str, RGB], ...]"]


class Kept(Protocol):
    """Looks kept from the last build by a key over what they are worked out from (punchboard/incremental/look_store.py)."""

    def get(self, key: bytes) -> Look | None: ...

    def put(self, key: bytes, look: Look) -> None: ...


def _plan(layout: Layout, palette: Mapping[str, str], memo: _Memo) -> list[Planned]:
    """Each element of a layout, whether a ``when`` decides if it shows, and, when it binds no field, its
    look and colours worked out once (the same on every piece)."""
    plan: list[Planned] = []
    for index, element in enumerate(layout.elements):
        static = memo.static(element)
        if static is None:
            plan.append((index, element, bool(element.props.get("when")), None, ()))
            continue
        look: list[Any] = [static]
        tints: list[tuple[int, str, RGB]] = []
        for prop in BOUND_COLOUR_PROPS:
            found = memo.paint(element.props[prop], palette) if prop in element.props else None
            look.append((prop, found is not None))
            if found is not None:
                tints.append((index, prop, over(found[0], found[1], WHITE)))
        plan.append((index, element, bool(element.props.get("when")), tuple(look), tuple(tints)))
    return plan


def _look(piece: Piece, memo: _Memo) -> Look:
    """What a piece shows apart from colour (a digest: pieces alike have the same), and the colours it shows,
    in drawing order."""
    shape: list[Any] = []
    tints: list[TintRef] = []
    for side_no, side in enumerate((piece.face, piece.back)):
        layout = memo.game.layouts.get(side.layout) if side is not None else None
        if side is None or layout is None:
            shape.append(None)
            continue
        fields = {**piece.fields, **side.fields}
        palette = memo.palette(side.layout)
        plan = memo.plans.get(side.layout)
        if plan is None:
            plan = memo.plans[side.layout] = _plan(layout, palette, memo)
        for index, element, conditional, planned, planned_tints in plan:
            if conditional and not shows(element.props.get("when"), fields, if_broken=False):
                continue
            if planned is not None:
                shape.append(planned)
                tints.extend((side_no, *tint) for tint in planned_tints)
                continue
            props = bound_props(element.props, fields)
            look: list[Any] = [element.type]
            for key in sorted(props):
                if key not in NOT_A_LOOK:
                    look.append((key, repr(bind(props[key], fields) if key in BOUND_TEXT else props[key])))
            for prop in BOUND_COLOUR_PROPS:
                found = memo.paint(props[prop], palette) if prop in props else None
                look.append((prop, found is not None))  # painted or not is a difference anyone sees
                if found is not None:
                    tints.append((side_no, index, prop, over(found[0], found[1], WHITE)))
            shape.append(tuple(look))
    digest = hashlib.sha256(repr(shape).encode()).digest()
    places = tuple((side_no, index, prop) for side_no, index, prop, _ in tints)
    colours = array("d", [value for *_, rgb in tints for value in rgb]).tobytes()
    return memo.shared.setdefault(digest, digest), memo.shared.setdefault(places, places), colours


def _key(piece: Piece, memo: _Memo) -> bytes:
    """What a piece's look is worked out from besides the code and the game's palette (the kept looks' salt):
    its layouts, whole, and the values of the fields each side's layout reads (a look binds fields only through
    its layouts' elements, as drawing does: the side's reads digest, worked out once per side while the game
    loaded, spec/reads.py)."""
    sha = hashlib.sha256()
    for side in (piece.face, piece.back):
        sha.update(memo.side_text(side))
        layout = memo.game.layouts.get(side.layout) if side is not None else None
        if side is not None and layout is not None:
            sha.update(side_reads(layout, piece, side))
    return sha.digest()


def _kept_look(piece: Piece, memo: _Memo, kept: Kept | None) -> Look:
    if kept is None:
        return _look(piece, memo)
    key = _key(piece, memo)
    look = kept.get(key)
    if look is None:
        look = _look(piece, memo)
        kept.put(key, look)
    return look


_NEGATIVE_ZERO = array("d", [-0.0]).tobytes()


def _colouring(colours: bytes) -> bytes:
    """Packed colours made comparable: pieces of one look digest show colours at the same places, and colour
    alike when their colours are equal as numbers, which their bytes tell but for a zero's sign (-0.0 made 0.0)."""
    if _NEGATIVE_ZERO not in colours:
        return colours
    values = array("d")
    values.frombytes(colours)
    return array("d", [value + 0.0 for value in values]).tobytes()


def _rgbs(colours: bytes) -> tuple[RGB, ...]:
    values = array("d")
    values.frombytes(colours)
    return tuple((values[n], values[n + 1], values[n + 2]) for n in range(0, len(values), 3))


def _tints(piece: Piece, look: Look, game: Game) -> tuple[Tint, ...]:
    sides = (piece.face, piece.back)
    out = []
    for (side_no, index, prop), rgb in zip(look[1], _rgbs(look[2]), strict=True):
        side = sides[side_no]
        assert side is not None  # a look names only sides that are there
        out.append(Tint(game.layouts[side.layout].elements[index], prop, rgb))
    return tuple(out)


def _value(piece: Piece, name: str) -> str:
    return repr(piece.fields.get(name))


@dataclass(frozen=True)
class Decision:
    """A design decision a field makes: its fields, the value each of its groups of pieces has, and one
    stand-in piece per value (:func:`_decisions`)."""

    fields: tuple[str, ...]
    values: tuple[Any, ...]
    stand_ins: tuple[Piece, ...]


def _decisions(component: Component) -> Iterator[Decision]:
    """Each design decision a field makes: fields that split the pieces alike are one decision (a ``suit`` and
    its ``colour`` given per card); a field of one value, or of more than :data:`MAX_VALUES` (a name, a rules
    text), is none. For each, one piece stands for each value: the component's first piece with the fields the
    decision determines (those of one value among the pieces of each of its values) set as that value's pieces
    have them, and everything else (the card's own name and text) left as it is, so the stand-ins differ only in
    what the decision changes."""
    pieces = component.pieces
    names = sorted({name for piece in pieces for name in piece.fields})
    splits: dict[tuple[int, ...], list[str]] = {}
    for name in names:
        classes: dict[str, int] = {}
        split = tuple(classes.setdefault(_value(piece, name), len(classes)) for piece in pieces)
        if 2 <= len(classes) <= MAX_VALUES:
            splits.setdefault(split, []).append(name)
    base = pieces[0] if pieces else None
    for split, fields in splits.items():
        assert base is not None
        groups: dict[int, list[Piece]] = {}
        for piece, value in zip(pieces, split, strict=True):
            groups.setdefault(value, []).append(piece)
        decided = [name for name in names
                   if all(len({_value(piece, name) for piece in group}) == 1 for group in groups.values())]
        shown = tuple(name for name in fields if name != "name") or tuple(fields)
        stand_ins = []
        for group in groups.values():
            values = dict(base.fields)
            for name in decided:
                if name in group[0].fields:
                    values[name] = group[0].fields[name]
                else:
                    values.pop(name, None)
            stand_ins.append(dataclasses.replace(base, fields=frozen_map(values)))
        yield Decision(shown, tuple(group[0].fields.get(shown[0]) for group in groups.values()), tuple(stand_ins))


Alike = tuple[int, int, list[tuple[Tint, Tint]], list[tuple[str, float]]]  # two values, the colours that differ, the visions


def _alike(decision: Decision, game: Game, memo: _Memo, kept: Kept | None) -> list[Alike]:
    """The pairs of the decision's values that look alike under some vision, when its values change only
    colours in the drawing (its stand-ins show the same but for colour); empty otherwise."""
    looks = [_kept_look(piece, memo, kept) for piece in decision.stand_ins]
    if len({look[0] for look in looks}) != 1 or len({_colouring(look[2]) for look in looks}) < 2:
        return []
    tints = [_tints(piece, look, game) for piece, look in zip(decision.stand_ins, looks, strict=True)]
    found: list[Alike] = []
    for i, first in enumerate(tints):
        for j in range(i + 1, len(tints)):
            differ = [(a, b) for a, b in zip(first, tints[j], strict=True) if delta_e(a.rgb, b.rgb) > SAME]
            if not differ:
                continue  # drawn the same: no colour to judge (the values mean nothing to the eye)
            visions = []
            for vision in (*VISIONS, "grayscale"):
                code = "grayscale" if vision == "grayscale" else "colour_blind"
                if any(ignored(a.element, code) for a, _ in differ):
                    continue
                apart = max(delta_e(a.rgb, b.rgb, vision) for a, b in differ)
                if apart < ALIKE:
                    visions.append((vision, apart))
            if visions:
                found.append((i, j, differ, visions))
    return found


def _shown_value(value: Any, rgb: RGB) -> str:
    colour = hex_of(rgb)
    text = str(value)
    return text if text.lower() == colour else f"{text} ({colour})"


def _finding(game: Game, component: Component, decision: Decision, alike: list[Alike]) -> str:
    noun = PIECE_NOUNS.get(component.kind, "piece")
    _, _, differ, _ = alike[0]
    elements = list(dict.fromkeys(f"'{a.element.id}' {a.prop}" for _, _, pair, _ in alike for a, _ in pair))
    said = []
    for i, j, pair, visions in alike[:PAIRS_SHOWN]:
        a, b = pair[0]
        seen = ", ".join(f"{d:.1f} {'in grey' if v == 'grayscale' else 'with ' + VISIONS[v]}" for v, d in visions)
        normal = max(delta_e(x.rgb, y.rgb) for x, y in pair)
        said.append(f"{_shown_value(decision.values[i], a.rgb)} and {_shown_value(decision.values[j], b.rgb)} "
                    f"({seen}; {normal:.1f} to normal sight)")
    more = f"; and {len(alike) - PAIRS_SHOWN} more pairs" if len(alike) > PAIRS_SHOWN else ""
    code = "colour_blind" if any(v != "grayscale" for *_, visions in alike for v, _ in visions) else "grayscale"
    field = "/".join(decision.fields)
    pairs = len(decision.values) * (len(decision.values) - 1) // 2
    text = (f"the {noun}s' {field} is shown only by colour ({', '.join(elements)}), and {len(alike)} of {pairs} "
            f"pairs of its values look alike (ΔE2000 under {ALIKE:g} with a colour-vision deficiency or in grey): "
            f"{'; '.join(said)}{more}: add a symbol or a shape per {field}, or make one colour clearly lighter "
            "than the other")
    return message(f"{game.id} / {component.id}", code, text, differ[0][0].element)


def check_component(game: Game, component: Component, kept: Kept | None = None) -> list[str]:
    """The component's colour_blind findings, one per design decision (a field, ``suit``, whose values change only
    colours in the drawing) with some pair of values alike under a colour-vision simulation or in grey (then
    the finding is ``grayscale`` when no simulation confuses them); the looks are found in and put to ``kept``
    when given."""
    memo = _Memo(game)
    lines = []
    for decision in _decisions(component):
        alike = _alike(decision, game, memo, kept)
        if alike:
            lines.append(_finding(game, component, decision, alike))
    return lines
