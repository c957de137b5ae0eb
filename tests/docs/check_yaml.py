"""Checking a YAML block of the docs against the schema its marker names (see tests/docs/snippets.py)."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from tests.conftest import ROOT

KINDS = ("game", "component", "layout", "setup", "paper")
# The least file of each kind that a `keys` fragment is checked inside (its own keys replace these).
MINIMAL: dict[str, dict[str, Any]] = {
    "game": {"id": "example", "title": "Example", "players": {"min": 2, "max": 4}, "components": ["deck.yaml"]},
    "component": {"id": "deck", "kind": "deck", "size": "poker", "layout": "base/card", "cards": [{"name": "A"}]},
    "layout": {"elements": []},
    "setup": {"variants": [{"id": "standard", "players": {"min": 2, "max": 4}, "steps": []}]},
    "paper": {"name": "Example", "width": "210mm", "height": "297mm"},
}


class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing a key given twice in one mapping (punchboard's loader refuses it too)."""


def _no_duplicates(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    keys = [loader.construct_object(key, deep=deep) for key, _ in node.value]
    twice = sorted({str(k) for k in keys if keys.count(k) > 1})
    if twice:
        raise yaml.constructor.ConstructorError(None, None, f"key given twice: {', '.join(twice)}", node.start_mark)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


def load(text: str) -> Any:
    """The block's value, as a strict loader reads it."""
    return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass


@cache
def schema(kind: str) -> dict[str, Any]:
    return json.loads((ROOT / "punchboard" / "schema" / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _validator(kind: str, definition: str | None) -> Draft202012Validator:
    whole = schema(kind)
    if definition is None:
        return Draft202012Validator(whole)
    assert definition in whole.get("$defs", {}), f"{kind}.schema.json has no $defs/{definition}"
    return Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": whole["$defs"]})


def problems(value: Any, kind: str, definition: str | None = None) -> list[str]:
    """What the schema finds wrong with ``value`` (empty: valid)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in _validator(kind, definition).iter_errors(value)]


def check_marked(text: str, marker: str) -> list[str]:
    """Problems of a block marked ``yaml: MARKER`` (``game``, ``setup step list``, ``component keys``, …)."""
    words = marker.split()
    kind, rest = words[0], words[1:]
    assert kind in KINDS, f"unknown kind {kind!r} in marker 'yaml: {marker}' (one of {', '.join(KINDS)})"
    value = load(text)
    if not rest:
        return problems(value, kind)
    if rest == ["keys"]:
        assert isinstance(value, dict), "a keys fragment is a mapping"
        return problems({**copy.deepcopy(MINIMAL[kind]), **value}, kind)
    listed = rest[-1] == "list"
    definition = rest[0]
    if listed:
        assert isinstance(value, list), f"'yaml: {marker}' marks a list"
        return [f"item {i}: {p}" for i, item in enumerate(value) for p in problems(item, kind, definition)]
    return problems(value, kind, definition)


SETUP_ITEM_DEFS = ("step", "expectation", "event", "consumption", "playout_action", "rule_number", "table")


def infer_setup_kind(value: Any) -> str | None:
    """For docs/setup-language.md's unmarked blocks: the marker their shape calls for, or None.

    A list is a list of whichever setup item its first entry is; a mapping is a whole setup file when its keys
    are a setup file's, else keys of a variant, else keys of the ``playout`` block.
    """
    setup = schema("setup")
    if isinstance(value, list) and value and isinstance(value[0], dict):
        for definition in SETUP_ITEM_DEFS:
            if not problems(value[0], "setup", definition):
                return f"setup {definition} list"
        return "setup step list"  # reported against the step schema, the most common
    if isinstance(value, dict):
        if set(value) <= set(setup["properties"]):
            return "setup"
        if set(value) <= set(setup["$defs"]["variant"].get("properties", {})):
            return "setup variant keys"
        if set(value) <= set(setup["$defs"]["playout"].get("properties", {})):
            return "setup playout keys"
    return None


def check_setup_shaped(text: str) -> list[str]:
    """Problems of an unmarked setup-language block, checked as ``infer_setup_kind`` reads its shape."""
    value = load(text)
    marker = infer_setup_kind(value)
    if marker is None:
        return [f"not a setup file, a variant, a playout or a list of setup items: {str(value)[:80]}"]
    if marker.endswith("keys"):
        definition = marker.split()[1]
        base = copy.deepcopy(MINIMAL["setup"]["variants"][0]) if definition == "variant" else {"rounds": 1, "each_round": []}
        return problems({**base, **value}, "setup", definition)
    return check_marked(text, marker)


def load_outline(text: str) -> Any:
    """An ``outline`` block shows a shape with placeholders (``...``, ``PILE``) or alternatives one after the
    other: it must read as YAML; what it outlines is checked in the page's complete examples."""
    return yaml.safe_load(text)
