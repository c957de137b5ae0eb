"""Layout files: found by name (the game's own layouts/ first), ``extends`` chains followed, elements checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from punchboard.incremental.loads import KeptLayout, kept
from punchboard.plumbing.paths import LAYOUTS, is_inside
from punchboard.plumbing.units import UnitError, parse_dim, parse_fraction, parse_length
from punchboard.spec import effects, expressions, schema_check
from punchboard.spec.binding import is_bound
from punchboard.spec.model import (
    Element,
    Layout,
    frozen_map,
)
from punchboard.spec.yamlsource import Document, PathKey

from . import font_files
from .common import DIM_PROPS, LENGTH_PROPS, Collector, load_document, positive_length
from .repeats import GRID_TYPES, REPEAT_KEYS, check_element, csv_stamps, repeat_key
from .text_keys import TEXT_KEYS, text_key

EFFECT_KEYS = ("fill", "shadow", "mask")  # a gradient fill, a shape's or picture's shadow, a picture's mask


EFFECT_TYPES = {"fill": ("rect", "ellipse", "polygon"), "shadow": ("rect", "ellipse", "polygon", "image"), "mask": ("image",)}


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def effect_key(key: str, value: Any, kind: Any = None) -> Any:
    """The model's value of an effect key (punchboard/spec/effects.py) on an element of type ``kind``; a plain colour
    ``fill`` stays as written. UnitError for an effect on a type that does not draw it."""
    if key == "fill" and not isinstance(value, dict):
        return value
    if kind is not None and kind not in EFFECT_TYPES[key]:
        what = "a gradient fill" if key == "fill" else f"a {key}"
        kinds = EFFECT_TYPES[key]
        on = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
        raise UnitError(f"{what} is drawn on {_a(on)} element, not on {_a(str(kind))}")
    if key == "fill":
        return effects.gradient(value)
    if key == "shadow":
        return effects.shadow(value)
    return effects.mask(value)


class LayoutLoader:
    """Resolves layout names to files (game's own layouts/ first), following ``extends``."""

    def __init__(self, game_folder: Path, out: Collector):
        self.roots = [game_folder / "layouts", LAYOUTS]
        # A game's layouts must resolve inside the game itself: a layouts/ folder that is a symlink out is refused.
        self.confines = [game_folder, LAYOUTS]
        self.out = out
        self.cache: dict[str, Layout | None] = {}
        self.found: dict[str, Path | None] = {}
        # (element source, prop) → file:LINE:COL of the value, so later checks point at the value itself
        self.prop_marks: dict[tuple[str, str], str] = {}

    def find(self, name: str) -> Path | None:
        """The file of layout ``name``, looked for once per load (resolving paths is most of a lookup)."""
        if name not in self.found:
            self.found[name] = self._find(name)
        return self.found[name]

    def _find(self, name: str) -> Path | None:
        if ".." in name.split("/") or name.startswith("/"):
            return None
        for root, confine in zip(self.roots, self.confines, strict=True):
            candidate = root / f"{name}.yaml"
            if candidate.is_file() and is_inside(candidate, root) and is_inside(candidate, confine):
                return candidate
        return None

    def known(self) -> list[str]:
        names: set[str] = set()
        for root in self.roots:
            if root.is_dir():
                names.update(
                    str(p.relative_to(root).with_suffix(""))
                    for p in root.rglob("*.yaml")
                    if p.parent.name != "paper" and p.name != "sizes.yaml"
                )
        return sorted(names)

    def missing(self, doc: Document, path: PathKey, name: str) -> None:
        if ".." in name.split("/") or name.startswith("/") or any(
            (root / f"{name}.yaml").is_file() for root in self.roots
        ):
            self.out.add(
                doc.problem(
                    path,
                    f"layout '{name}' lies outside the layouts folders; expected a name like 'base/card' "
                    "for a file inside the game's layouts/ or punchboard's layouts/ (no '..', no leading '/', no symlink out)",
                )
            )
            return
        hint = schema_check.suggest(name, self.known())
        self.out.add(
            doc.problem(
                path,
                f"layout '{name}' not found{hint}; expected a file layouts/{name}.yaml "
                "in the game folder or in punchboard's layouts/",
            )
        )

    def get(self, name: str, stack: tuple[str, ...] = ()) -> Layout | None:
        if name in self.cache and not stack:
            return self.cache[name]
        path = self.find(name)
        if path is None:
            return None
        doc = load_document(path, self.out)
        if doc is None:
            self.cache[name] = None
            return None
        if doc.data is None:
            doc.data = {}
        problems = schema_check.check(doc, "layout")
        if problems:
            self.out.extend(problems)
            self.cache[name] = None
            return None
        data = doc.data
        parent: Layout | None = None
        if "extends" in data:
            base = data["extends"]
            if base == name or base in stack:
                cycle = " → ".join(stack + (name, base))
                self.out.add(doc.problem(("extends",), f"layout extends itself in a cycle: {cycle}"))
                self.cache[name] = None
                return None
            if self.find(base) is None:
                self.missing(doc, ("extends",), base)
                self.cache[name] = None
                return None
            parent = self.get(base, stack + (name,))
            if parent is None:
                self.cache[name] = None
                return None
        layout = self._build_or_keep(name, path, doc, parent)
        self.cache[name] = layout
        return layout

    def _build_or_keep(self, name: str, path: Path, doc: Document, parent: Layout | None) -> Layout:
        """The layout built from ``doc``, or the very one of the last load if nothing it comes from changed (punchboard/incremental/loads.py)."""
        memo = kept()
        if memo is None:
            return self._build(name, path, doc, parent, self.prop_marks)
        fonts = font_files.stamps(doc.data.get("fonts", {}), path.parent, self.confines[0])  # before the fonts are read
        fonts += csv_stamps(doc.data, self.confines[0])  # a grid's CSV too: the layout's model holds its cells
        known = memo.layouts.get((path, name))
        if (known is not None and known.digest == doc.text_digest and known.parent is parent and known.fonts == fonts
                and known.max_file_bytes == self.out.limits.max_file_bytes):
            self.prop_marks.update(known.marks)
            return known.layout
        before = len(self.out.problems)
        marks: dict[tuple[str, str], str] = {}
        layout = self._build(name, path, doc, parent, marks)
        self.prop_marks.update(marks)
        if len(self.out.problems) == before and doc.text_digest:
            memo.put(memo.layouts, (path, name),
                     KeptLayout(doc.text_digest, parent, fonts, self.out.limits.max_file_bytes, layout, marks))
        return layout

    def _build(self, name: str, path: Path, doc: Document, parent: Layout | None,
               marks: dict[tuple[str, str], str]) -> Layout:
        """The layout ``doc`` describes; where each of its elements' properties was written goes into ``marks``."""
        data = doc.data
        elements: list[Element] = list(parent.elements) if parent else []
        palette = dict(parent.palette) if parent else {}
        palette.update(data.get("palette", {}))
        fonts = dict(parent.fonts) if parent else {}
        fonts.update(font_files.resolve(doc, data.get("fonts", {}), self.confines[0], self.out))
        own_ids: dict[str, int] = {}
        for index, raw in enumerate(data.get("elements", [])):
            where: PathKey = ("elements", index)
            element_id = str(raw.get("id", f"{name}#{index}"))
            position = doc.where(where)
            source = f"{doc.name}:{position[0]}:{position[1]}"
            if element_id in own_ids:
                first = doc.where(("elements", own_ids[element_id]))[0]
                self.out.add(
                    doc.problem(
                        where + ("id",),
                        f"duplicate element id '{element_id}' (also on line {first}); expected each id once per layout",
                    )
                )
                continue
            own_ids[element_id] = index
            existing = next((i for i, e in enumerate(elements) if e.id == element_id), None)
            if raw.get("remove"):
                if existing is None:
                    self.out.add(doc.problem(where, f"remove: no inherited element with id '{element_id}'"))
                else:
                    del elements[existing]
                continue
            merged: dict[str, Any] = {}
            if existing is not None:
                merged.update(elements[existing].props)
            kind = raw.get("type", elements[existing].type if existing is not None else None)
            props = self._element_props(doc, where, raw, kind)
            merged.update(props)
            if "type" not in raw and existing is not None:
                element_type = elements[existing].type
            elif "type" in raw:
                element_type = raw["type"]
            else:
                self.out.add(doc.problem(where, "element needs a type: one of rect, ellipse, line, polygon, text, image, icon"))
                continue
            if element_type == "polygon" and len(merged.get("points", ())) < 2:
                self.out.add(doc.problem(where, f"polygon '{element_id}' needs points: a list of at least 2 [x, y] corners"))
                continue
            if element_type in GRID_TYPES and not check_element(doc, where, element_type, merged, self.out):
                continue
            element = Element(element_type, element_id, frozen_map(merged), source)
            for key in merged:
                if key in raw:
                    line, col = doc.where(where + (key,))
                    marks[(source, key)] = f"{doc.name}:{line}:{col}"
                elif existing is not None:
                    marks[(source, key)] = self.mark(elements[existing], key)
            if existing is not None:
                elements[existing] = element
            else:
                elements.append(element)
        safe = positive_length(doc, ("safe",), data["safe"], self.out) if "safe" in data else (parent.safe if parent else parse_length("3mm"))
        bleed = positive_length(doc, ("bleed",), data["bleed"], self.out) if "bleed" in data else (parent.bleed if parent else None)
        chain = (path,) + (parent.chain if parent else ())
        return Layout(name, path, chain, tuple(elements), frozen_map(palette), frozen_map(fonts), safe or 0.0, bleed)

    def mark(self, element: Element, key: str) -> str:
        """``file:LINE:COL`` of one property of ``element`` (the element's own position if unknown)."""
        return self.prop_marks.get((element.source, key), element.source)

    def _element_props(self, doc: Document, where: PathKey, raw: dict[str, Any], kind: Any = None) -> dict[str, Any]:
        """The model's values of one element's properties (``kind``: its type, inherited if not written)."""
        props: dict[str, Any] = {}
        for key, value in raw.items():
            path = where + (key,)
            try:
                if key in LENGTH_PROPS and is_bound(value):
                    props[key] = value  # a card field gives the length; look_checks checks each piece's value
                elif key == "font" and isinstance(value, dict):
                    props[key] = font_files.face_name(value)  # {family, weight, style}: that face's name
                elif key in REPEAT_KEYS:
                    props.update(repeat_key(self, doc, path, key, value, raw))  # repeats.py (csv: csv_cells too)
                elif key == "focus":
                    props[key] = _focus(value)
                elif key in EFFECT_KEYS and (key != "shadow" or kind != "text"):
                    props[key] = effect_key(key, value, kind)
                elif key == "shadow" and isinstance(value, dict) and {"opacity", "blur"} & set(value):
                    raise UnitError("a text's shadow takes color, dx and dy (opacity and blur are for a rect, "
                                    "ellipse, polygon or image); for a translucent text shadow give a color with alpha, #rrggbbaa")
                elif key in TEXT_KEYS:
                    props[key] = text_key(key, value)
                elif key in DIM_PROPS:
                    props[key] = parse_dim(value)
                elif key in LENGTH_PROPS:
                    props[key] = parse_length(value)
                    if props[key] < 0 or (props[key] == 0 and key in ("size", "min_size")):
                        least = "positive" if key in ("size", "min_size") else "zero or positive"
                        self.out.add(doc.problem(path, f"{key} must be a {least} length, got {value!r}"))
                elif key == "points":
                    props[key] = tuple((parse_dim(x), parse_dim(y)) for x, y in value)
                elif key == "dash":
                    props[key] = tuple(parse_length(v) for v in value)
                elif key == "when":
                    expressions.parse(value)
                    props[key] = value
                else:
                    props[key] = value
            except UnitError as exc:
                self.out.add(doc.problem(path, f"{key}: {exc}"))
            except expressions.ExpressionError as exc:
                self.out.add(doc.problem(path, f"when: {exc}"))
            except ValueError as exc:  # hyphenate: a language without a dictionary
                self.out.add(doc.problem(path, f"{key}: {exc}"))
        return props


def _focus(value: Any) -> tuple[Any, Any]:
    """``[x%, y%]``: the point of a picture kept in view, as fractions from its left and top edges.
    An item binding a card field (``"{focus_x}"``) stays as written; look_checks checks each piece's value."""
    x, y = (part if is_bound(part) else parse_fraction(part) for part in value)
    return x, y
