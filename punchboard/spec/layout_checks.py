"""Checks of layouts as components use them: fonts, images and ``{field}`` references.

They run after loading, when it is known which layouts each component uses
and which fields its pieces carry. Problems point at the property's value.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from punchboard.plumbing.errors import Problem
from punchboard.plumbing.limits import Limits

from . import schema_check
from .binding import BOUND_PROPS, FIELD_REF, bind, is_bound
from .images import ImageRefused, check_image, find_image, image_folders
from .model import Component, Element, Layout, Side
from .repeats import every_element, scoped

Mark = Callable[[Element, str], str]  # file:LINE:COL of one property of an element
BUILTIN_FONTS = ("Vera", "Vera-Bold", "Vera-Italic", "Vera-BoldItalic")
TEMPLATED_PROPS = ("text", "src", "icon", "count", *BOUND_PROPS)


def at(mark: str, message: str) -> Problem:
    file, line, col = mark.rsplit(":", 2)
    return Problem(file, int(line), int(col), message)


def check_fonts(layout: Layout, mark: Mark) -> list[Problem]:
    known = sorted(set(BUILTIN_FONTS) | set(layout.fonts))
    problems = []
    for element in every_element(layout.elements):
        font = element.props.get("font")
        if font is None or font in known or is_bound(font):
            continue
        problems.append(at(mark(element, "font"), _unknown_font(str(font), known)))
    return problems


def _unknown_font(font: str, known: list[str]) -> str:
    """What is wrong with ``font``: a face its family lacks (``Body-Bold`` where only ``Body`` is declared), or a
    name not declared at all."""
    for suffix, face in (("-BoldItalic", "bold italic"), ("-Bold", "bold"), ("-Italic", "italic")):
        family = font[: -len(suffix)]
        if font.endswith(suffix) and family in known:
            faces = [name for name in known if name == family or name.startswith(family + "-")]
            return (f"font family '{family}' has no {face} face ('{font}'); expected one of its faces "
                    f"{', '.join(faces)}, or declare it under fonts: ({family}: {{regular: …, {face.replace(' ', '-')}: …}})")
    hint = schema_check.suggest(font, known)
    return f"unknown font '{font}'{hint}; expected one of {', '.join(known)} or a font declared under fonts:"


class ImageChecker:
    """Resolves and probes image srcs once each, the way the generator will find them."""

    def __init__(self, game_folder: Path, limits: Limits, mark: Mark):
        self.game_folder = game_folder
        self.limits = limits
        self.mark = mark
        self.seen: set[tuple[str, str]] = set()
        self.asked = 0  # images asked for (found before or not): a check that asked for none read no file

    def folders(self, layout: Layout) -> tuple[Path, ...]:
        return image_folders(layout, (self.game_folder,))

    def check(self, layout: Layout, element: Element, src: str, note: str = "") -> list[Problem]:
        self.asked += 1
        key = (element.source, src)
        if not src or key in self.seen:
            return []
        self.seen.add(key)
        try:
            path = find_image(src, self.folders(layout))
            check_image(path, src, self.limits.max_image_pixels, self.limits.max_file_bytes)
        except ImageRefused as exc:
            return [at(self.mark(element, "src"), f"src: {exc}{note}")]
        return []

    def literal(self, layout: Layout) -> list[Problem]:
        problems = []
        for element in every_element(layout.elements):
            src = element.props.get("src")
            if element.type == "image" and isinstance(src, str) and not FIELD_REF.search(src):
                problems += self.check(layout, element, src.strip())
        return problems


def check_bindings(
    component: Component, layouts: dict[str, Layout], images: ImageChecker, mark: Mark, shared: Callable[[str], bool]
) -> list[Problem]:
    """Every ``{field}`` the game's own layouts name is a field of the component; templated images exist per piece.

    ``shared(file)`` tells layouts meant for many games (``layouts/base/…``): they may
    name optional fields, which stay empty on pieces without them.
    """
    problems: list[Problem] = []
    reported: set[tuple[str, str, str]] = set()
    sides: dict[tuple[str, tuple[str, ...]], Side] = {}
    last: list[Side | None] = [None, None]  # the face and back met last: a deck's pieces share their component's
    for piece in component.pieces:
        for n, side in enumerate((piece.face, piece.back)):
            if side is not None and side is not last[n]:
                last[n] = side
                sides.setdefault((side.layout, tuple(sorted(side.fields))), side)
    if component.outside is not None:
        sides.setdefault((component.outside.layout, tuple(sorted(component.outside.fields))), component.outside)
    for side in sides.values():
        layout = layouts.get(side.layout)
        if layout is None:
            continue
        allowed = sorted(set(component.fields) | {"name"} | set(side.fields))
        for element, extra in scoped(layout.elements):  # inside a repeat or grid: its item's or cell's fields too
            own = sorted({*allowed, *extra}) if extra else allowed
            for prop in TEMPLATED_PROPS:
                template = element.props.get(prop)
                if not isinstance(template, str) or shared(mark(element, prop).rsplit(":", 2)[0]):
                    continue
                for name in FIELD_REF.findall(template):
                    if name in own or (element.source, prop, name) in reported:
                        continue
                    reported.add((element.source, prop, name))
                    hint = schema_check.suggest(name, own)
                    problems.append(
                        at(
                            mark(element, prop),
                            f"{prop}: unknown field '{{{name}}}'{hint}; component '{component.id}' has the fields "
                            + ", ".join(own),
                        )
                    )
    templated: dict[str, tuple[Layout | None, list[tuple[Element, str]]]] = {}  # by layout: its images' bound sources
    for name in {side.layout for side in sides.values()}:
        layout = layouts.get(name)
        found = [] if layout is None else [(e, e.props["src"]) for e in layout.elements if e.type == "image"
                                           and isinstance(e.props.get("src"), str) and FIELD_REF.search(e.props["src"])]
        templated[name] = (layout, found)
    for piece in component.pieces:
        for side in (piece.face, piece.back):
            if side is None:
                continue
            layout, bound = templated[side.layout]
            if layout is None or not bound:
                continue
            fields = {**piece.fields, **side.fields}
            for element, src in bound:
                note = f" (from '{src}' for {component.id} '{piece.name}')"
                problems += images.check(layout, element, bind(src, fields).strip(), note)
    return problems
