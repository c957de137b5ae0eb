"""A repeat element's count: a whole number from 0 to :data:`MOST`, written or given by a card field.

``count: 3`` or ``count: "{cost}"``; the loader's schema bounds a written count, and this module reads a
field's value for both ``check`` (look_checks.py: a bad value is a located error naming the piece) and the
drawing (generator/draw/repeat.py: nothing is drawn for a bad one). A grid's cell colours that its CSV gives are
checked here too (:func:`grid_colours`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .binding import FIELD_REF, bind
from .images import side_image
from .model import Element, Layout

MOST = 1000  # the most items one repeat draws (the schema's maximum for a written count)


def count_of(value: Any) -> int | None:
    """``value`` (a number, or a field's text) as a count, or None when it is not a whole number 0..MOST.
    An empty text (the field is not set) counts 0."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return value if 0 <= value <= MOST else None
    text = str(value).strip()
    if not text:
        return 0
    if text.endswith(".0"):
        text = text[:-2]
    return int(text) if text.isdigit() and int(text) <= MOST else None


def bound_count(template: Any, fields: Mapping[str, Any]) -> int | None:
    """A repeat's ``count`` with the piece's ``fields`` put in."""
    return count_of(template if not isinstance(template, str) else bind(template, fields))


def problem(value: str) -> str:
    """What is wrong with a field's text that :func:`count_of` refuses."""
    return f"{value!r} is not a count: expected a whole number from 0 to {MOST}"


def grid_colours(element: Element, fields: Mapping[str, Any], is_colour: Callable[[str], bool]) -> Iterator[tuple[str, str]]:
    """(file:LINE:COL, message) for each colour of a grid's cells that is not one: its ``fill`` or ``stroke``
    bound to a field of the grid's CSV, with ``fields`` (the piece's) under each row's own."""
    table = element.props.get("csv_cells")
    if element.type != "grid" or not isinstance(table, Mapping):
        return
    for (row, col), (own, marks) in table.items():
        for prop in ("fill", "stroke"):
            template = element.props.get(prop)
            if not isinstance(template, str) or not FIELD_REF.search(template):
                continue
            value = bind(template, {**fields, **own, "row": row, "col": col}).strip()
            if value and not is_colour(value):
                names = [name for name in FIELD_REF.findall(template) if name in marks]
                mark = marks[names[0]] if names else element.source
                yield mark, (f"{value!r} is not a colour, for cell row {row}, col {col} of grid '{element.id}' "
                             f"({prop}: \"{template}\"); expected #rrggbb or a palette name")


def grid_fields(element: Element) -> set[str]:
    """The fields a grid's cells have besides the piece's: ``row``, ``col`` and its CSV's columns."""
    table = element.props.get("csv_cells")
    names = {"row", "col"}
    if isinstance(table, Mapping):
        for own, _ in table.values():
            names.update(own)
    return names


def shows_nested_pictures(elements: Iterable[Element]) -> bool:
    """Whether a repeat or grid among ``elements`` (or inside one) draws an image element: its source binds per
    item or cell, so a side showing it is not kept between builds by its pictures' digests (draw/side.py)."""
    for element in elements:
        if element.type not in ("repeat", "grid"):
            continue
        inner = children(element)
        if any(item.type == "image" for item in inner) or shows_nested_pictures(inner):
            return True
    return False


def children(element: Element) -> list[Element]:
    """The elements a repeat (its child) or a grid (its cell elements) draws in each cell; none for others."""
    found = [element.props["child"]] if isinstance(element.props.get("child"), Element) else []
    return found + [item for item in element.props.get("cell", ()) if isinstance(item, Element)]


def nested(elements: Iterable[Element]) -> Iterator[Element]:
    """Every element drawn inside a repeat or grid among ``elements``, at any depth."""
    for element in elements:
        inner = children(element)
        yield from inner
        yield from nested(inner)


def every_element(elements: Iterable[Element]) -> Iterator[Element]:
    """``elements`` and every element drawn inside one of them, each once: what the checks of a layout read."""
    for element in elements:
        yield element
        yield from nested((element,))


def input_files(layout: Layout, fields: Mapping[str, Any], folder: Path) -> list[Path]:
    """The files a side's repeats and grids draw from besides its layout files: each grid's CSV, and each picture
    their elements place, its source bound with the piece's ``fields`` and each item's or cell's own (the build's
    memo keys and kept components digest them, punchboard/incremental/build_cache.py and generator/prints.py)."""
    found: set[Path] = set()

    def visit(elements: Iterable[Element], rows: list[Mapping[str, Any]]) -> None:
        for element in elements:
            if element.type == "image" and isinstance(element.props.get("src"), str):
                for row in rows:
                    path = side_image(bind(element.props["src"], row).strip(), layout, (folder,))
                    if path is not None:
                        found.add(path)
            if element.type == "grid":
                if isinstance(element.props.get("csv"), str):
                    found.add(folder / element.props["csv"])
                cells = element.props.get("csv_cells") or {}
                visit(children(element), [{**row, **own, "row": r, "col": c} for row in rows for (r, c), (own, _) in cells.items()]
                      or rows)
            elif element.type == "repeat":
                count = bound_count(element.props.get("count", 0), fields) or 0
                first, step = element.props.get("first", 1), element.props.get("step", 1)
                visit(children(element), [{**row, "index": i + 1, "number": first + i * step} for row in rows for i in range(count)])

    for element in layout.elements:
        if element.type in ("repeat", "grid"):
            visit((element,), [dict(fields)])
    return sorted(found)


def scoped(elements: Iterable[Element], extra: frozenset[str] = frozenset()) -> Iterator[tuple[Element, frozenset[str]]]:
    """Each of ``elements`` and every element inside a repeat or grid among them, with the fields it may name
    besides the piece's: a grid's own props and cells the CSV's columns with ``row`` and ``col``, a repeat's child
    ``index`` and ``number`` (layout_checks.py says which other names are unknown)."""
    for element in elements:
        own = extra | grid_fields(element) if element.type == "grid" else extra
        yield element, own
        inner = own | {"index", "number"} if element.type == "repeat" else own
        yield from scoped(children(element), inner)
