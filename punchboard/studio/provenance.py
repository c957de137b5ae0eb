"""Where each property of a layout element comes from, for the workbench's panel: this layout file, a parent layout
along ``extends``, a default, or a field of the piece (a value written as exactly ``{cost}``).

An origin is a small JSON object::

    {"kind": "layout" | "parent" | "default" | "field", "at": "file:LINE:COL", "ours": true, ...}

``layout``: written in the side's own layout file, edited there. ``parent``: written in a layout it extends; an
edit on the page *overrides it here* (the key is added to the side's own layout, the parent and every other layout
extending it stay as they are) unless the page asks to *edit there*. ``default``: written nowhere; an edit adds it
to the side's own layout. ``field``: the value is a card field (``field``); an edit changes that card's cell
(``at``, the CSV cell or YAML value), and ``template`` says where the layout binds it. ``ours`` says whether the
file is inside the game folder (a layout bundled with punchboard is not the designer's to rewrite).

Files are read with ruamel.yaml's round-trip parser, each version once (known by its content's digest).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import display_path
from punchboard.plumbing.paths import is_inside
from punchboard.spec.model import Element, Layout

from .edits import EditRefused, _parse

# What the drawing uses when a layout writes nothing (generator/draw/side.py), per element type.
DEFAULTS: dict[str, dict[str, str]] = {
    "text": {"color": "#000000", "font": "Vera", "align": "left", "valign": "top"},
    "rect": {"fill": "none", "stroke": "none"},
    "ellipse": {"fill": "none", "stroke": "none"},
    "polygon": {"fill": "none", "stroke": "none"},
}
_ONE_FIELD = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")

Positions = dict[str, dict[str, tuple[int, int]]]  # element id -> key -> 1-based (line, col) of its value
_cache: dict[Path, tuple[str, Positions]] = {}
_cache_lock = threading.Lock()


def positions(path: Path) -> Positions:
    """Where ``path`` writes each key of each element it names (an unreadable file names none)."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    stamp = hashlib.sha256(data).hexdigest()  # by content: a rewrite within the clock's tick is seen too
    with _cache_lock:
        known = _cache.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
    found: Positions = {}
    try:
        tree = _parse(data.decode("utf-8"), display_path(path))
    except (EditRefused, UnicodeDecodeError):
        tree = None
    elements = tree.get("elements") if hasattr(tree, "get") else None
    for index, item in enumerate(elements if isinstance(elements, list) else []):
        if not hasattr(item, "lc") or not hasattr(item, "get"):
            continue
        element_id = str(item.get("id", f"#{index}"))
        found[element_id] = {str(key): (item.lc.value(key)[0] + 1, item.lc.value(key)[1] + 1) for key in item}
    with _cache_lock:
        _cache[path] = (stamp, found)
    return found


def written_at(chain: tuple[Path, ...], element_id: str, key: str) -> tuple[int, Path, tuple[int, int]] | None:
    """The most derived file of ``chain`` that writes ``key`` of ``element_id``: its index, path and place."""
    unnamed = "#" + element_id.rsplit("#", 1)[1] if "#" in element_id else None  # no id: '<layout>#<index>'
    for index, path in enumerate(chain):
        found = positions(path)
        place = found.get(element_id, found.get(unnamed, {}) if unnamed else {}).get(key)
        if place is not None:
            return index, path, place
    return None


class Origins:
    """Origins of element properties for one rebuild: each file's positions read once (and parsed only when its
    content changed since an earlier rebuild), each element's origins worked out once for all pieces drawn with
    it; only the card-field part differs per piece."""

    def __init__(self, folder: Path):
        self.root = folder.resolve()
        self._files: dict[Path, tuple[Positions, str, bool]] = {}  # path -> positions, display path, ours
        self._elements: dict[tuple[str, str, str], dict[str, dict[str, Any]]] = {}

    def _file(self, path: Path) -> tuple[Positions, str, bool]:
        if path not in self._files:
            self._files[path] = (positions(path), display_path(path), is_inside(path.resolve(), self.root))
        return self._files[path]

    def _written(self, layout: Layout, element: Element, keys: tuple[str, ...]) -> dict[str, dict[str, Any]]:
        """The origin of each of ``keys`` that a file of ``layout``'s chain writes, or that has a default."""
        memo = (str(layout.source), layout.name, element.id)
        if memo in self._elements:
            return self._elements[memo]
        unnamed = "#" + element.id.rsplit("#", 1)[1] if "#" in element.id else None  # no id: '<layout>#<index>'
        found: dict[str, dict[str, Any]] = {}
        for key in keys:
            for index, path in enumerate(layout.chain):
                places, shown, ours = self._file(path)
                place = places.get(element.id, places.get(unnamed, {}) if unnamed else {}).get(key)
                if place is not None:
                    found[key] = {"kind": "layout" if index == 0 else "parent", "at": f"{shown}:{place[0]}:{place[1]}",
                                  "ours": ours}
                    break
            else:
                if key in DEFAULTS.get(element.type, {}):
                    found[key] = {"kind": "default", "value": DEFAULTS[element.type][key],
                                  "ours": self._file(layout.source)[2]}
        self._elements[memo] = found
        return found

    def of(self, layout: Layout, element: Element, keys: tuple[str, ...], marks: Mapping[str, str]) -> dict[str, dict[str, Any]]:
        """The origin of each of ``keys`` of ``element`` on a side drawn with ``layout`` (``marks``: where the
        piece's fields are written); a key written nowhere without a default is left out."""
        result = dict(self._written(layout, element, keys))
        for key, origin in result.items():
            value = element.props.get(key)
            bound = _ONE_FIELD.match(value) if origin["kind"] != "default" and isinstance(value, str) else None
            if bound is not None and bound.group(1) in marks:
                mark = marks[bound.group(1)]
                result[key] = {"kind": "field", "field": bound.group(1), "at": mark, "template": origin["at"],
                               "ours": self._file(Path(mark.rsplit(":", 2)[0]))[2]}
        return result
