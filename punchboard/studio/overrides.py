"""A value added to a layout file that did not write it: an override of a value inherited along ``extends``, or a
value that was a default. Written as a person would add it: one key at the end of the element's mapping in the
style the mapping is written in (``, x: 22mm`` inside ``{…}``, or a new line at the mapping's indentation), or, when
the file does not name the element yet, one new item ``- {id: title, x: 22mm}`` at the end of its ``elements:``
list; every other byte stays.

Nothing here writes: :func:`element_add` returns the new bytes, which the server checks as it checks every edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import display_path

from .edits import EditRefused, _element, _offset, _parse, _scalar_end, _token, _written


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _end_of_block(lines: list[str], first: int, indent: int) -> int:
    """The index of the line after the block that starts on line ``first`` (continuation lines are indented deeper
    than ``indent``; blank lines in between belong to it only when more of it follows)."""
    end = first + 1
    for index in range(first + 1, len(lines)):
        if not lines[index].strip():
            continue
        if _indent(lines[index]) <= indent:
            break
        end = index + 1
    return end


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\r" if "\r" in text and "\n" not in text else "\n"


def _flow_close(text: str, start: int) -> int:
    """The offset of the ``}`` closing the flow mapping that opens at ``start``."""
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char in "\"'":
            index = _scalar_end(text, index, True)
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise EditRefused("the element's mapping does not close; edit it in the file")


def _into_mapping(text: str, mapping: Any, key: str, token: str) -> str:
    """``text`` with ``key: token`` added at the end of ``mapping`` (an element's, flow or block style)."""
    if mapping.fa.flow_style():
        start = _offset(text, mapping.lc.line, mapping.lc.col)
        if text[start:start + 1] != "{":
            raise EditRefused("the element's mapping is not where it was read; reload the page", 409)
        close = _flow_close(text, start)
        at = close
        while at > start + 1 and text[at - 1] in " \t":
            at -= 1
        joint = "" if not text[start + 1:close].strip() else ", "
        return text[:at] + f"{joint}{key}: {token}" + text[at:]
    keys = list(mapping)
    indent = mapping.lc.key(keys[0])[1]
    lines = text.splitlines(keepends=True)
    end = _end_of_block(lines, mapping.lc.key(keys[-1])[0], indent)
    if end == len(lines) and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += _newline(text)
    lines.insert(end, " " * indent + f"{key}: {token}" + _newline(text))
    return "".join(lines)


def _new_item(text: str, tree: Any, element_id: str, key: str, token: str) -> str:
    """``text`` with a new element ``{id: element_id, key: token}`` at the end of its ``elements:`` list."""
    name = _written("", element_id)
    newline = _newline(text)
    if "elements" not in tree:
        tail = "" if not text or text.endswith(("\n", "\r")) else newline
        return text + tail + f"elements:{newline}  - {{id: {name}, {key}: {token}}}{newline}"
    items = tree["elements"]
    if not hasattr(items, "lc") or items.fa.flow_style() or not items:
        raise EditRefused("the layout's elements: are not a list of one item a line; add the element in the file")
    line, col = items.lc.item(len(items) - 1)
    lines = text.splitlines(keepends=True)
    dash = lines[line].rfind("-", 0, col)
    if dash < 0:
        raise EditRefused("the layout's elements: are not written one item a line; add the element in the file")
    end = _end_of_block(lines, line, dash)
    last = items[-1]
    if hasattr(last, "fa") and not last.fa.flow_style():
        added = [" " * dash + f"- id: {name}" + newline, " " * (dash + 2) + f"{key}: {token}" + newline]
    else:
        added = [" " * dash + f"- {{id: {name}, {key}: {token}}}" + newline]
    if end == len(lines) and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += newline
    return "".join(lines[:end] + added + lines[end:])


def element_add(path: Path, element_id: str, key: str, value: Any, inherited: tuple[Any, str] | None,
                extent_mm: float | None = None, precise: bool = False) -> bytes:
    """The bytes of layout ``path`` with ``key`` of element ``element_id`` set to ``value``, where ``path`` does not
    write it yet; ``inherited`` is the value the parent wrote and its token (a length keeps the parent's unit)."""
    text = path.read_bytes().decode("utf-8")
    name = display_path(path)
    tree = _parse(text, name)
    if tree is None:
        tree = {}
    if not hasattr(tree, "get"):
        raise EditRefused(f"{name}: expected a mapping at the top of the layout")
    old, old_token = inherited if inherited is not None else ("0mm", "")
    token = _token(key, old, old_token, value, extent_mm, name, precise)
    element = _element(tree, element_id)
    if element is not None and key in element:
        raise EditRefused(f"{name}: element '{element_id}' already writes '{key}'; reload the page", 409)
    new = _into_mapping(text, element, key, token) if element is not None \
        else _new_item(text, tree, element_id, key, token)
    check = _element(_parse(new, name), element_id)
    if check is None or key not in check:
        raise EditRefused(f"{name}: adding '{key}' to element '{element_id}' would not read back; add it in the file")
    return new.encode("utf-8")


def inherited_value(path: Path, element_id: str, key: str) -> tuple[Any, str] | None:
    """The value ``path`` writes for ``key`` of ``element_id`` and its token as written, or None."""
    text = path.read_bytes().decode("utf-8")
    element = _element(_parse(text, display_path(path)), element_id)
    if element is None or key not in element:
        return None
    line, col = element.lc.value(key)
    start = _offset(text, line, col)
    return element[key], text[start:_scalar_end(text, start, bool(element.fa.flow_style()))]
