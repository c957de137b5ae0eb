"""Checks of a designer's own look, per piece: field-bound colours, fonts, sizes, picture fit and focus, and icon names.

A layout may bind any colour, font or size property to a card field
(``fill: "{colour}"``); the value each piece gives must then be a colour, a
font or a length. Icons named inline in text (``:mana:``) or by an icon
element must be built in or declared under ``icons:`` in game.yaml. A bad
value points at the card entry or CSV cell that holds it; a bad literal at the
layout's property.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from punchboard.incremental.identity import ByIdentity
from punchboard.incremental.look_passes import LookPasses
from punchboard.plumbing.errors import Problem
from punchboard.plumbing.units import UnitError, parse_fraction, parse_length

from . import schema_check
from .binding import (
    BOUND_COLOUR_PROPS,
    BOUND_LENGTH_PROPS,
    FIELD_REF,
    FIT_CHOICES,
    bind,
    bound_stops,
    is_bound,
)
from .expressions import shows
from .icons import BUILTIN_ICONS, ELEMENT_ONLY_ICONS, INLINE_ICON
from .layout_checks import BUILTIN_FONTS
from .markup import tag_problems
from .model import Component, Element, Layout
from .reads import side_reads
from .repeats import bound_count, every_element, grid_colours, nested
from .repeats import problem as count_problem

Mark = Callable[[Element, str], str]
HEX_DIGITS = set("0123456789abcdefABCDEF")


def is_colour(value: str, palette: Mapping[str, str]) -> bool:
    if value in palette or value == "none":
        return True
    return value.startswith("#") and len(value) in (4, 7, 9) and set(value[1:]) <= HEX_DIGITS



def _at(mark: str, message: str) -> Problem:
    file, line, col = mark.rsplit(":", 2)
    return Problem(file, int(line), int(col), message)


class LookChecker:
    """Collects each distinct problem once (a deck's 40 cards share one bad CSV cell only once)."""

    def __init__(self, palette: Mapping[str, str], icons: Mapping[str, object], mark: Mark):
        self.palette = palette
        self.icons = set(BUILTIN_ICONS) | set(icons)
        self.mark = mark
        self.problems: list[Problem] = []
        self.seen: set[tuple[str, str]] = set()
        self.found = 0  # problems found, each time, including those said before
        self.plans: ByIdentity[Layout, list[tuple[Element, list[tuple[str, Any, bool]]]]] = ByIdentity(limit=None)

    def add(self, mark: str, message: str) -> None:
        self.found += 1
        if (mark, message) not in self.seen:
            self.seen.add((mark, message))
            self.problems.append(_at(mark, message))

    def culprit(self, element: Element, prop: str, template: str, marks: Mapping[str, str], fields: Mapping[str, object], bad: str = "") -> str:
        """Where a bad bound value comes from: the field holding ``bad`` (or the first bound field), else the layout."""
        names = FIELD_REF.findall(template)
        for name in names:
            if name in marks and (not bad or bad in str(fields.get(name, ""))):
                return marks[name]
        for name in names:
            if name in marks:
                return marks[name]
        return self.mark(element, prop)

    def icon_names(self) -> str:
        return ", ".join(sorted(self.icons))

    def _plan(self, layout: Layout) -> list[tuple[Element, list[tuple[str, Any, bool]]]]:
        """The properties of each element that a piece's fields can make wrong: bound ones, the text (its
        inline icons) and focus; elements with none are left out (worked out once per layout)."""
        return self.plans.get(layout, _plan_of)

    def check_side(self, layout: Layout, fields: Mapping[str, object], marks: Mapping[str, str], palette: Mapping[str, str], fonts: list[str]) -> None:
        for element, checked in self._plan(layout):
            if not shows(element.props.get("when"), fields, if_broken=True):  # a broken one: checked anyway
                continue
            if element.type in ("repeat", "grid"):
                self._many(element, fields, marks, palette)
            for prop, template, bound in checked:
                if prop == "focus" and isinstance(template, tuple):
                    self._check_focus(element, template, fields, marks)
                if not isinstance(template, str):
                    continue
                if prop == "text":
                    self._inline_icons(element, template, bind(template, fields), marks, fields)
                    self._tags(element, template, bind(template, fields), marks, fields, palette, fonts)
                if not bound:
                    continue
                value = bind(template, fields).strip()
                where = f"element '{element.id}' ({prop}: \"{template}\", {self.mark(element, prop)})"
                if not value:
                    continue  # unset: the property keeps its default
                if prop in BOUND_COLOUR_PROPS and not is_colour(value, palette):
                    hint = schema_check.suggest(value, sorted(palette))
                    self.add(self.culprit(element, prop, template, marks, fields),
                             f"{value!r} is not a colour{hint}, for {where}; expected #rrggbb or a palette name "
                             f"({', '.join(sorted(palette)) or 'none defined'})")
                elif prop == "font" and value not in fonts:
                    hint = schema_check.suggest(value, fonts)
                    self.add(self.culprit(element, prop, template, marks, fields),
                             f"unknown font {value!r}{hint}, for {where}; expected one of {', '.join(fonts)}")
                elif prop in BOUND_LENGTH_PROPS:
                    try:
                        parse_length(value)
                    except UnitError as exc:
                        self.add(self.culprit(element, prop, template, marks, fields), f"{value!r} is not a length ({exc}), for {where}")
                elif prop == "fit" and value not in FIT_CHOICES:
                    self.add(self.culprit(element, prop, template, marks, fields),
                             f"{value!r} is not a way to fit a picture, for {where}; expected one of {', '.join(FIT_CHOICES)}")
                elif prop == "icon" and element.type == "icon" and value.lower() not in self.icons | ELEMENT_ONLY_ICONS:
                    hint = schema_check.suggest(value.lower(), sorted(self.icons))
                    self.add(self.culprit(element, prop, template, marks, fields),
                             f"unknown icon {value!r}{hint}, for {where}; expected one of {self.icon_names()} "
                             "or an icon declared under icons: in game.yaml")

    def _many(self, element: Element, fields: Mapping[str, object], marks: Mapping[str, str], palette: Mapping[str, str]) -> None:
        """A repeat's count a field gives, a grid's cell colours its CSV gives (punchboard/spec/repeats.py)."""
        template = element.props.get("count")
        if element.type == "repeat" and is_bound(template) and bound_count(template, fields) is None:
            value = bind(template, fields).strip()
            self.add(self.culprit(element, "count", str(template), marks, fields),
                     f"{count_problem(value)}, for piece '{fields.get('name', '')}' in element '{element.id}' "
                     f"(count: \"{template}\", {self.mark(element, 'count')})")
        for mark, message in grid_colours(element, fields, lambda value: is_colour(value, palette)):
            self.add(mark, message)

    def _check_focus(self, element: Element, focus: tuple[Any, ...], fields: Mapping[str, object], marks: Mapping[str, str]) -> None:
        for template in focus:
            if not is_bound(template):
                continue
            value = bind(template, fields).strip()
            if not value:
                continue  # unset: 50%
            try:
                parse_fraction(value)
            except UnitError as exc:
                where = f"element '{element.id}' (focus: \"{template}\", {self.mark(element, 'focus')})"
                self.add(self.culprit(element, "focus", template, marks, fields), f"{value!r} is not a focus ({exc}), for {where}")

    def _inline_icons(self, element: Element, template: str, text: str, marks: Mapping[str, str], fields: Mapping[str, object]) -> None:
        for name in INLINE_ICON.findall(text):
            if name in self.icons:
                continue
            hint = schema_check.suggest(name, sorted(self.icons))
            literal = f":{name}:" in FIELD_REF.sub("", template)
            mark = self.mark(element, "text") if literal else self.culprit(element, "text", template, marks, fields, f":{name}:")
            self.add(mark, f"unknown icon ':{name}:'{hint} in the text of element '{element.id}'; expected one of "
                           f"{self.icon_names()} or an icon declared under icons: in game.yaml")

    def _tags(self, element: Element, template: str, text: str, marks: Mapping[str, str], fields: Mapping[str, object],
              palette: Mapping[str, str], fonts: list[str]) -> None:
        """Rich-text span tags: unknown, unbalanced or with a bad colour, size or font (punchboard/spec/markup.py)."""
        if "[" not in text:
            return
        for tag, message in tag_problems(text, lambda value: is_colour(value, palette), fonts):
            literal = tag in FIELD_REF.sub("", template)
            mark = self.mark(element, "text") if literal else self.culprit(element, "text", template, marks, fields, tag)
            self.add(mark, f"{message}, in the text of element '{element.id}'")

    def literal_icons(self, layout: Layout) -> None:
        """Icon elements naming an icon outright (no field), and the colours written outright in a repeat's or grid's
        elements (the layout's own are the game loader's to check)."""
        palette = {**self.palette, **layout.palette}
        for element in nested(layout.elements):
            for prop in BOUND_COLOUR_PROPS:
                value = element.props.get(prop)
                if isinstance(value, str) and not is_bound(value) and not is_colour(value, palette):
                    self.add(element.source, f"{prop}: {value!r} is not a colour, in element '{element.id}'; expected #rrggbb "
                                             f"or a palette name ({', '.join(sorted(palette)) or 'none defined'})")
        for element in every_element(layout.elements):
            name = element.props.get("icon")
            if element.type != "icon" or not isinstance(name, str) or FIELD_REF.search(name):
                continue
            if name.strip().lower() not in self.icons | ELEMENT_ONLY_ICONS:
                hint = schema_check.suggest(name.strip().lower(), sorted(self.icons))
                self.add(self.mark(element, "icon"), f"unknown icon {name!r}{hint}; expected one of {self.icon_names()} "
                                                     "or an icon declared under icons: in game.yaml")


def check_component(checker: LookChecker, component: Component, layouts: Mapping[str, Layout], game_palette: Mapping[str, str],
                    passes: LookPasses | None = None) -> None:
    """Every side's look checks. A side that passed them is not checked again for pieces whose fields agree
    where its layout reads them (reads.py): a common back is checked once per deck. A side that found a
    problem is checked again for each piece reading the same, so each piece's own cell is named. With
    ``passes``, a side that passed in an earlier load is not checked again either (look_passes.py)."""
    passed: set[tuple[str, bytes]] = set()
    settings: dict[str, tuple[dict[str, str], list[str], bytes]] = {}  # by layout: its palette, fonts, passes' setting
    for piece in component.pieces:
        sides = [piece.face, piece.back]
        for side in sides:
            layout = layouts.get(side.layout) if side is not None else None
            if side is None or layout is None:
                continue
            key = (side.layout, side_reads(layout, piece, side))  # the values of the fields it reads (all, if untold)
            if key in passed:
                continue
            found_setting = settings.get(side.layout)
            if found_setting is None:
                palette = {**game_palette, **layout.palette}
                fonts = sorted(set(BUILTIN_FONTS) | set(layout.fonts))
                setting = b"" if passes is None else passes.setting(layout, sorted(palette.items()), fonts, sorted(checker.icons))
                found_setting = settings[side.layout] = (palette, fonts, setting)
            palette, fonts, setting = found_setting
            remembered = b""
            if passes is not None:
                remembered = passes.key(setting, key[1])
                if passes.passed(remembered):
                    passed.add(key)
                    continue
            found = checker.found
            checker.check_side(layout, {**piece.fields, **side.fields}, {**piece.marks, **side.marks}, palette, fonts)
            if checker.found == found:
                passed.add(key)
                if passes is not None:
                    passes.add(remembered)
    if component.outside is not None:
        layout = layouts.get(component.outside.layout)
        if layout is not None:
            palette = {**game_palette, **layout.palette}
            fonts = sorted(set(BUILTIN_FONTS) | set(layout.fonts))
            checker.check_side(layout, dict(component.outside.fields), dict(component.outside.marks), palette, fonts)


def _plan_of(layout: Layout) -> list[tuple[Element, list[tuple[str, Any, bool]]]]:
    plan = []
    for element in every_element(layout.elements):  # a repeat's or grid's own elements too (spec/repeats.py)
        props = [(prop, template, isinstance(template, str) and FIELD_REF.search(template) is not None)
                 for prop, template in element.props.items()
                 if (prop == "focus" and isinstance(template, tuple))
                 or (isinstance(template, str) and (prop == "text" or FIELD_REF.search(template) is not None))]
        props += [("fill", stop, True) for stop in bound_stops(element.props.get("fill"))]  # a gradient's stops
        if props:
            plan.append((element, props))
    return plan
