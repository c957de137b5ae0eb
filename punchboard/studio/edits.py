"""Edits from the studio's workbench, written into the designer's own files as a person would write them.

One edit changes one value: a layout element's property (``x``, ``y``, ``width``, ``height``, a colour, a text) in
the layout YAML that sets it, or one card field in its component YAML or CSV cell. The file is read with
ruamel.yaml's round-trip parser only to find *where* the value is written; the new value is then spliced into the
original text in place of the old one, so comments, key order, quoting, flow style and every other byte stay as
they were (the diff is one line). A length keeps the unit the file used (``12mm`` stays mm, a bare number stays a
bare number of mm, ``40%`` stays a percentage), rounded to 0.1 mm.

Nothing here writes: :func:`element_edit` and :func:`field_edit` return the new bytes; the server checks them
(:func:`validated`: the game loads from the new text) before writing.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import SpecError, display_path
from punchboard.plumbing.paths import is_inside
from punchboard.plumbing.units import POINTS_PER

LENGTH_KEYS = ("x", "y", "width", "height")
TEXT_KEYS = ("text", "color", "fill", "stroke", "font", "align", "valign")
EDITABLE_KEYS = LENGTH_KEYS + TEXT_KEYS
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*([a-z%]*)\s*$")
_PLAIN_SAFE = re.compile(r"^[A-Za-z][A-Za-z0-9 ._()/'-]*$")
_BREAK = re.compile(r"\r\n|\r|\n")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


class EditRefused(Exception):
    """An edit that cannot be made; ``status`` is the HTTP answer (422 invalid, 409 conflict, 403 not ours)."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Change:
    """One file write: the file, its bytes before and after."""

    path: Path
    before: bytes
    after: bytes


def _yaml() -> Any:
    from ruamel.yaml import YAML

    return YAML(typ="rt")


def _parse(text: str, name: str) -> Any:
    try:
        return _yaml().load(text)
    except Exception as exc:  # ruamel's own errors: the file does not parse as it stands
        raise EditRefused(f"{name}: cannot read it to edit: {exc}") from None


# -- the value's place in the text ----------------------------------------------------------------------------


def _offset(text: str, line: int, col: int) -> int:
    """Character offset of 0-based ``line``/``col`` (lines end at \\n, \\r\\n or \\r, as YAML and CSV count them)."""
    start = 0
    for _ in range(line):
        found = _BREAK.search(text, start)
        if found is None:
            raise EditRefused(f"line {line + 1} is past the end of the file; reload the page", 409)
        start = found.end()
    return start + col


def _scalar_end(text: str, start: int, flow: bool) -> int:
    """Where the scalar starting at ``start`` ends (exclusive); refuses block scalars and collections."""
    first = text[start:start + 1]
    if first == '"':
        i = start + 1
        while i < len(text) and text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        return i + 1
    if first == "'":
        i = start + 1
        while i < len(text):
            if text[i] == "'":
                if text[i + 1:i + 2] == "'":
                    i += 2
                    continue
                return i + 1
            i += 1
        return i
    if first in ("|", ">", "{", "[", "&", "*", "!"):
        raise EditRefused("the value is written as a block, a collection, an anchor or a tag; edit it in the file")
    end = start
    stops = "\r\n,]}" if flow else "\r\n"
    while end < len(text) and text[end] not in stops and not (text[end] == "#" and text[end - 1] in " \t"):
        end += 1
    while end > start and text[end - 1] in " \t":
        end -= 1
    return end


def _find_value(node: Any, line: int, col: int) -> tuple[Any, Any] | None:
    """The (mapping, key) whose value ruamel read at 0-based ``line``/``col``."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        for key in node:
            if tuple(node.lc.value(key)) == (line, col):
                return node, key
            found = _find_value(node[key], line, col)
            if found:
                return found
    elif isinstance(node, CommentedSeq):
        for item in node:
            found = _find_value(item, line, col)
            if found:
                return found
    return None


def _is_flow(mapping: Any) -> bool:
    return bool(mapping.fa.flow_style())


def _written(old_token: str, value: str) -> str:
    """``value`` as a YAML scalar token, quoted as the old token was (plain only when that reads back the same)."""
    if old_token.startswith("'") and value.isprintable():  # a line break or a tab needs the double-quoted style
        return "'" + value.replace("'", "''") + "'"
    if old_token.startswith('"') or not _PLAIN_SAFE.match(value) or value.lower() in _RESERVED \
            or value != value.strip() or ": " in value or " #" in value:
        return json.dumps(value, ensure_ascii=False)
    return value


def _splice(text: str, mapping: Any, key: Any, token: str) -> str:
    line, col = mapping.lc.value(key)
    start = _offset(text, line, col)
    end = _scalar_end(text, start, _is_flow(mapping))
    return text[:start] + token + text[end:]


# -- lengths in the file's own unit -----------------------------------------------------------------------------


def _number(value: float, places: int = 3) -> str:
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def length_token(old: Any, mm: float, extent_mm: float | None, precise: bool = False) -> str:
    """``mm`` (rounded to 0.1 mm; to 0.001 mm when ``precise``, a snap onto a guide) written in the unit of the old
    value ``old`` (a bare number is mm)."""
    scale = 1000 if precise else 10
    mm = math.floor(mm * scale + 0.5) / scale  # halves up
    if isinstance(old, bool) or not isinstance(old, (int, float, str)):
        raise EditRefused(f"expected a length to change, the file has {old!r}")
    if isinstance(old, (int, float)):
        return _number(mm)
    match = _LENGTH.match(old)
    if not match:
        raise EditRefused(f"the value {old!r} names a card field or is not a length; edit it in the file")
    unit = match.group(2)
    if unit == "%":
        if not extent_mm:
            raise EditRefused("a percentage needs the size of the box it is a percentage of")
        return _number(round(mm / extent_mm * 100, 4 if precise else 2), 4) + "%"
    unit = unit or "mm"
    if unit not in POINTS_PER:
        raise EditRefused(f"unknown unit in {old!r}; expected one of mm, cm, in, pt")
    return _number(mm * POINTS_PER["mm"] / POINTS_PER[unit], 5 if precise else 3) + (match.group(2) and unit)


# -- layout elements ---------------------------------------------------------------------------------------------


def _element(tree: Any, element_id: str) -> Any:
    elements = tree.get("elements") if hasattr(tree, "get") else None
    for item in elements or []:
        if hasattr(item, "get") and str(item.get("id")) == element_id:
            return item
    return None


def _token(key: str, old: Any, old_token: str, value: Any, extent_mm: float | None, where: str,
           precise: bool = False) -> str:
    """``value`` for ``key`` as a YAML token written as ``old`` (read as ``old_token``) was."""
    if key in LENGTH_KEYS:
        try:
            token = length_token(old, float(value), extent_mm, precise)
        except (TypeError, ValueError):
            raise EditRefused(f"{where}: {key}: expected a number of mm, got {value!r}") from None
        if old_token[:1] in ("'", '"'):
            token = old_token[0] + token + old_token[0]  # a quoted length stays quoted
        return token
    if key in TEXT_KEYS:
        return _written(old_token, str(value))
    raise EditRefused(f"'{key}' is not edited on the page; expected one of {', '.join(EDITABLE_KEYS)}")


def element_edit(path: Path, element_id: str, key: str, value: Any, extent_mm: float | None = None,
                 precise: bool = False) -> bytes:
    """The bytes of layout ``path`` with ``key`` of element ``element_id`` set to ``value``
    (a number of mm for a length, a string otherwise)."""
    text = path.read_text(encoding="utf-8")
    name = display_path(path)
    tree = _parse(text, name)
    element = _element(tree, element_id)
    if element is None or key not in element:
        raise EditRefused(f"{name}: element '{element_id}' has no '{key}' here")
    line, col = element.lc.value(key)
    start = _offset(text, line, col)
    old_token = text[start:_scalar_end(text, start, _is_flow(element))]
    token = _token(key, element[key], old_token, value, extent_mm, f"{name}:{line + 1}:{col + 1}", precise)
    new = _splice(text, element, key, token)
    _check_reads_back(new, name)
    return new.encode("utf-8")


def _check_reads_back(text: str, name: str) -> None:
    _parse(text, name)


# -- card fields -------------------------------------------------------------------------------------------------


def field_edit(path: Path, line: int, col: int, value: str) -> bytes:
    """The bytes of ``path`` (a component YAML or a CSV) with the value written at 1-based ``line``:``col``
    (a card field's mark) set to ``value``; every other byte kept."""
    data = path.read_bytes()
    text = data.decode("utf-8")
    if path.suffix.lower() == ".csv":
        return _csv_cell(text, line, col, value).encode("utf-8")
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise EditRefused(f"{display_path(path)}: cards kept in a {path.suffix} file are edited in that file")
    name = display_path(path)
    found = _find_value(_parse(text, name), line - 1, col - 1)
    if found is None:
        raise EditRefused(f"{name}:{line}:{col}: no single value written here to change")
    mapping, key = found
    start = _offset(text, line - 1, col - 1)
    old_token = text[start:_scalar_end(text, start, _is_flow(mapping))]
    new = _splice(text, mapping, key, _written(old_token, value))
    _check_reads_back(new, name)
    return new.encode("utf-8")


def _csv_cell(text: str, line: int, col: int, value: str) -> str:
    """``text`` with the CSV cell starting at ``line``:``col`` replaced, quoted only if the value needs it."""
    start = _offset(text, line - 1, col - 1)
    if text[start:start + 1] == '"':  # a quote inside is doubled, as in YAML's single-quoted style
        end = _scalar_end(_swap_quotes(text), start, True)
    else:
        end = start
        while end < len(text) and text[end] not in ",\r\n":
            end += 1
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow([value])
    cell = buffer.getvalue() if value else ""
    if text[start:start + 1] == '"' and not cell.startswith('"'):
        cell = '"' + value.replace('"', '""') + '"'  # the file quoted this cell: so does the edit
    return text[:start] + cell + text[end:]


def _csv_records(text: str) -> list[list[tuple[int, int]]]:
    """Each record of a CSV text as the (start, end) offsets of its raw cells (quoted cells may span lines)."""
    records: list[list[tuple[int, int]]] = []
    cells: list[tuple[int, int]] = []
    start = index = 0
    quoted = False
    while index < len(text):
        char = text[index]
        if quoted:
            if char == '"' and text[index + 1:index + 2] == '"':
                index += 2
                continue
            quoted = char != '"'
        elif char == '"' and index == start:
            quoted = True
        elif char == ",":
            cells.append((start, index))
            start = index + 1
        elif char in "\r\n":
            cells.append((start, index))
            records.append(cells)
            cells = []
            index += 2 if text[index:index + 2] == "\r\n" else 1
            start = index
            continue
        index += 1
    if start < len(text) or cells:
        records.append([*cells, (start, len(text))])
    return records


def csv_column_cell(path: Path, line: int, col: int, header: str) -> tuple[int, int] | None:
    """1-based line and column of the cell in column ``header`` of the CSV row holding ``line``:``col`` (a cell of
    that row), or None when the file has no such column or the row is shorter."""
    text = path.read_bytes().decode("utf-8")
    at = _offset(text, line - 1, col - 1)
    records = _csv_records(text)
    if not records:
        return None
    names = [next(csv.reader([text[s:e]]), [""])[0] if e > s else "" for s, e in records[0]]
    if header not in names:
        return None
    row = next((r for r in records[1:] if r[0][0] <= at <= r[-1][1]), None)
    column = names.index(header)
    if row is None or column >= len(row):
        return None
    start = row[column][0]
    breaks = list(_BREAK.finditer(text, 0, start))
    return len(breaks) + 1, start - (breaks[-1].end() if breaks else 0) + 1


def _swap_quotes(text: str) -> str:
    return text.translate(str.maketrans("\"'", "'\""))


# -- validation as a save ------------------------------------------------------------------------------------------


def validated(folder: Path, target: Path, new: bytes, load: Callable[[Path], Any]) -> None:
    """Load the game in ``folder`` as it would be with ``target`` holding ``new``; a problem is raised as
    EditRefused with its location in the real folder. The game folder itself is not touched: the load reads a
    copy (hard links where the file system allows, the changed file written anew)."""
    folder = folder.resolve()
    target = target.resolve()
    if not is_inside(target, folder):
        raise EditRefused(f"{display_path(target)} is not a file of this game (outside {display_path(folder)})", 403)
    scratch = Path(tempfile.mkdtemp(prefix="punchboard-edit-"))
    copy = scratch / folder.name
    try:
        shutil.copytree(folder, copy, copy_function=_link_or_copy, symlinks=True,
                        ignore=shutil.ignore_patterns(".git", "output", "__pycache__"))
        changed = copy / target.relative_to(folder)
        changed.unlink(missing_ok=True)
        changed.write_bytes(new)
        try:
            load(copy)
        except SpecError as err:
            words = "\n".join(str(p) for p in err.problems)
            for shown in sorted({str(copy), display_path(copy)}, key=len, reverse=True):
                words = words.replace(shown, display_path(folder))
            raise EditRefused(words) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _link_or_copy(source: str, destination: str) -> None:
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)
