"""A fast "this document is valid" from code that fastjsonschema generates once per machine.

After an edit, the changed file must be checked against its schema. jsonschema costs 31 ms to import
before it checks anything; the validator fastjsonschema writes for the same schema checks a component
file in a tenth of a millisecond, and its compiled code (kept in the user's cache folder, beside the
remembered verdicts) loads in less than one. So a document is first put to that validator:

- it may only ever say *valid*: when it refuses a document, or cannot be made, jsonschema checks it
  as before and writes every message (:mod:`.schema_check`);
- it is asked only about plain data on which both read the schema alike. Our rules (schema_check)
  take a whole number to be an ``int`` and a number to be finite; fastjsonschema takes ``2.0`` for an
  integer and lets ``.nan`` through. A document holding such a float (or anything but mappings with
  text keys, lists, text, numbers, true/false and empty) goes to jsonschema, which says what it says.

The generated code is built without filling in defaults (fastjsonschema would write them into the
document). It is keyed by the schema, the definition, fastjsonschema's version and the Python that
compiled it; a cache folder that cannot be written keeps it for this process only.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

from punchboard.incremental import compiled_schemas

from .schema_files import definition_schema

Check = Callable[[Any], Any]


def valid(name: str, definition: str | None, instance: Any) -> bool:
    """True when the document surely passes schema ``name`` (``definition``: one of its ``$defs``);
    False means only "ask jsonschema"."""
    if not _plain(instance):
        return False
    check = _check(name, definition)
    if check is None:
        return False
    from fastjsonschema.exceptions import JsonSchemaException

    try:
        check(instance)
    except JsonSchemaException:
        return False
    except Exception:  # noqa: BLE001 - generated code tripping over odd data: jsonschema decides
        return False
    return True


def _plain(value: Any) -> bool:
    """Data both validators read alike: no float that is whole or not finite, no tuple, no key but text."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is bool or kind is int or item is None:
            continue
        if kind is float:
            if not math.isfinite(item) or item.is_integer():
                return False
        elif kind is list:
            stack.extend(item)
        elif kind is dict:
            for key, child in item.items():
                if type(key) is not str:
                    return False
                stack.append(child)
        else:
            return False
    return True


@cache
def _check(name: str, definition: str | None) -> Check | None:
    """The generated validator's entry point, loaded from the cache or generated (and kept) now."""
    try:
        import fastjsonschema
    except ImportError:
        return None
    definition_json = json.dumps(definition_schema(name, definition), sort_keys=True)
    key = hashlib.sha256(f"{fastjsonschema.VERSION};{sys.implementation.cache_tag};no-defaults;{definition_json}".encode()).hexdigest()
    code = compiled_schemas.read(key)
    if code is None:  # none yet, or a damaged file: generated again
        try:
            source = fastjsonschema.compile_to_code(json.loads(definition_json), use_default=False)
        except Exception:  # noqa: BLE001 - a schema it cannot generate: jsonschema checks everything
            return None
        code = compile(source, f"<fastjsonschema {name}{'#' + definition if definition else ''}>", "exec")
        compiled_schemas.keep(key, code)
    namespace: dict[str, Any] = {}
    try:
        exec(code, namespace)  # noqa: S102 - code fastjsonschema generated from our own schema
    except Exception:  # noqa: BLE001
        return None
    entry = next((value for key, value in namespace.items() if key.startswith("validate") and callable(value)), None)
    return entry
