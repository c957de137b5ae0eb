"""The press preflight of ``check``: each colour a layout element draws with, read from the model (no PDF written),
set against the press gamut and named by game, layout, element and the pieces that show it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from punchboard.spec.binding import BOUND_COLOUR_PROPS, bound_props
from punchboard.spec.effects import Gradient
from punchboard.spec.model import Game

from .gamut import off_gamut
from .settings import Press

HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


@dataclass
class _Use:
    pieces: list[str] = field(default_factory=list)


def _rgb(value: str) -> tuple[int, int, int] | None:
    match = HEX.fullmatch(value.strip())
    if match is None:
        return None
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def design_colours(game: Game) -> dict[tuple[int, int, int], dict[tuple[str, str, str], _Use]]:
    """Each sRGB colour the game's pieces draw with → (layout, element, property) → the pieces showing it."""
    found: dict[tuple[int, int, int], dict[tuple[str, str, str], _Use]] = {}
    for component in game.components:
        for piece in component.pieces:
            for side in (piece.face, piece.back):
                layout = game.layouts.get(side.layout) if side is not None else None
                if side is None or layout is None:
                    continue
                palette = {**game.palette, **layout.palette}
                fields = {**piece.fields, **side.fields}
                name = str(fields.get("name") or f"{component.id} {piece.index + 1}")
                for element in layout.elements:
                    props = bound_props(element.props, fields)
                    for prop in BOUND_COLOUR_PROPS:
                        value = props.get(prop)
                        for one in value.colours if isinstance(value, Gradient) else (value,):  # a gradient's stops
                            rgb = _rgb(palette.get(str(one), str(one))) if one not in (None, "none") else None
                            if rgb is None:
                                continue
                            use = found.setdefault(rgb, {}).setdefault((layout.name, element.id, prop), _Use())
                            if name not in use.pieces:
                                use.pieces.append(name)
    return found


def _pieces(names: list[str]) -> str:
    shown = ", ".join(names[:3])
    return f"{len(names)} piece{'s' if len(names) != 1 else ''}: {shown}" + (", …" if len(names) > 3 else "")


def gamut_warnings(game: Game, settings: Press) -> list[str]:
    """One warning per out-of-gamut colour and element that draws it, with both values and the pieces."""
    colours = design_colours(game)
    warnings = []
    for colour in off_gamut(settings, colours):
        for (layout, element, prop), use in sorted(colours[colour.rgb].items()):
            warnings.append(f"{game.id} / layout {layout} / {element} ({prop}, {_pieces(use.pieces)}): {colour.words()}, "
                            f"over the {settings.delta_e:g} the press settings allow")
    return warnings
