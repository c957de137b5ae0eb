"""``colour_blind`` and ``grayscale``: pieces of one component told apart only by colour, and those colours alike.

Two pieces are told apart only by colour when everything else their sides
show is the same: the same elements (whichever layout entry draws them) at the
same places with the same text, icons, pictures, fonts and sizes, and they
differ only in fill, stroke, text or accent colours — red and green suits with
no suit symbol, player tokens in four colours. For each such pair the
differing colours are compared as protanopes, deuteranopes and tritanopes see
them (coloraide's dichromacy simulations) and as a black-and-white print shows
them; when no differing colour stays at least ΔE2000 10 apart, the pair is
reported once for every pair of pieces alike in the same way. This reads the
model only (the colours a layout binds per piece); colours inside pictures and
icons' own drawings are not compared.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from punchboard.generator.draw.kept import layout_digest
from punchboard.generator.draw.reads import side_reads

from punchboard.plumbing.identity import ByIdentity
from punchboard.spec import expressions
from punchboard.spec.binding import BOUND_COLOUR_PROPS, bind, bound_props, is_bound
from punchboard.spec.model import PIECE_NOUNS, Component, Element, Game, Layout, Piece, Side

from .colours import RGB, VISIONS, WHITE, delta_e, hex_of, over, paint
from .findings import ignored, message

ALIKE = 10.0  # ΔE2000 below which two colours are taken for one
NOT_A_LOOK = frozenset({"id", "when", "preflight", *BOUND_COLOUR_PROPS})
BOUND_TEXT = ("text", "icon", "src")


@dataclass(frozen=True)
class Tint:
    """One colour a piece shows: which element, which property, what colour (over white paper)."""

    element: Element
    prop: str
    rgb: RGB


def _visible(element: Element, fields: Mapping[str, Any]) -> bool:
    condition = element.props.get("when")
    if not condition:
        return True
    try:
        return bool(expressions.evaluate(condition, fields, lenient=True))
    except (expressions.ExpressionError, TypeError, ValueError):
        return False


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
    """Looks kept from the last build by a key over what they are worked out from (generator/look_store.py)."""

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
            if conditional and not _visible(element, fields):
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


def _label(piece: Piece) -> str:
    return f"'{piece.name}'" if piece.name else f"#{piece.index + 1}"


def _pairs(component: Component, game: Game,
           kept: Kept | None = None) -> Iterator[tuple[Piece, Piece, list[tuple[Tint, Tint]]]]:
    """Pairs of pieces alike but for colour, with the colours that differ (one pair per two colourings)."""
    groups: dict[bytes, dict[bytes, tuple[Piece, Look]]] = {}
    memo = _Memo(game)
    for piece in component.pieces:
        look = _kept_look(piece, memo, kept)
        groups.setdefault(look[0], {}).setdefault(_colouring(look[2]), (piece, look))
    for colourings in groups.values():
        if len(colourings) < 2:
            continue
        found = [(piece, _tints(piece, look, game)) for piece, look in colourings.values()]
        for i, (first, tints_a) in enumerate(found):
            for second, tints_b in found[i + 1:]:
                differ = [(a, b) for a, b in zip(tints_a, tints_b, strict=True) if delta_e(a.rgb, b.rgb) > 0.5]
                if differ:
                    yield first, second, differ


def check_component(game: Game, component: Component, kept: Kept | None = None) -> list[str]:
    """The component's colour_blind and grayscale findings, one per distinct pair of colourings; the pieces'
    looks are found in and put to ``kept`` when given."""
    noun = PIECE_NOUNS.get(component.kind, "piece")
    said: dict[tuple[str, tuple[Any, ...]], list[str]] = {}
    out: dict[tuple[str, tuple[Any, ...]], tuple[Piece, Piece, list[tuple[Tint, Tint]], list[tuple[str, float]]]] = {}
    for first, second, differ in _pairs(component, game, kept):
        for code, visions in (("colour_blind", tuple(VISIONS)), ("grayscale", ("grayscale",))):
            if any(ignored(a.element, code) for a, _ in differ):
                continue
            alike = []
            for vision in visions:
                apart = max(delta_e(a.rgb, b.rgb, vision) for a, b in differ)
                if apart < ALIKE:
                    alike.append((vision, apart))
            if not alike:
                continue
            key = (code, tuple(sorted({(a.element.id, a.prop, a.rgb, b.rgb) for a, b in differ})))
            if key in out:
                said[key].append(_label(second))
            else:
                out[key] = (first, second, differ, alike)
                said[key] = []
    lines = []
    for key, (first, second, differ, alike) in out.items():
        code = key[0]
        shown = ", ".join(f"'{a.element.id}' {a.prop} {hex_of(a.rgb)} and {hex_of(b.rgb)}" for a, b in differ[:3])
        shown += f" and {len(differ) - 3} more" if len(differ) > 3 else ""
        seen = " and ".join(f"{VISIONS.get(v, 'printed in grey')} (ΔE2000 {d:.1f})" for v, d in alike)
        normal = max(delta_e(a.rgb, b.rgb) for a, b in differ)
        others = f" (and {len(said[key])} more pairs alike)" if said[key] else ""
        text = (
            f"{noun} {_label(first)} and {noun} {_label(second)}{others} differ only in colour ({shown}; ΔE2000 "
            f"{normal:.1f} to normal sight), which look alike {'with ' if code == 'colour_blind' else ''}{seen}, "
            f"under {ALIKE:g}: add a symbol or a shape that differs, or make one clearly lighter than the other"
        )
        where = f"{game.id} / {component.id} / {noun} {_label(first)}"
        lines.append(message(where, code, text, differ[0][0].element))
    return lines
