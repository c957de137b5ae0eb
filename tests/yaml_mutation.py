"""Structural mutations of loaded YAML data, shared by the loader fuzzer and the CLI fuzzer."""

from __future__ import annotations

from typing import Any


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in ``data``, the root included."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, prefix + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, prefix + (index,))
    return found


def mutate(data: Any, path: tuple[Any, ...], op: str, value: Any, key: Any) -> Any:
    """``data`` with the node at ``path`` deleted, replaced, or given a new ``key`` (``op``: delete, add, replace)."""
    if not path:
        return value if op == "replace" else data
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    if op == "delete":
        del parent[path[-1]]
    elif op == "add" and isinstance(parent, dict):
        parent[key] = value
    else:
        parent[path[-1]] = value
    return data
