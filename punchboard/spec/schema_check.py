"""JSON Schema validation with messages a designer can act on."""

from __future__ import annotations

import difflib
import math
from functools import cache
from typing import TYPE_CHECKING, Any

from punchboard.incremental import validated
from punchboard.plumbing.errors import Problem

from . import fast_schema
from .schema_files import definition_schema
from .yamlsource import Document, PathKey

if TYPE_CHECKING:  # jsonschema is imported only when a document is actually validated
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping of keys to values",
    "array": "a list",
    "null": "empty",
}


def _is_integer(checker: Any, value: Any) -> bool:
    """A whole number as written: ``2.0`` is a float in YAML and not a count (jsonschema would accept it)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(checker: Any, value: Any) -> bool:
    """A finite number: ``.nan`` and ``.inf`` would slip through every minimum and maximum."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)


@cache
def _strict_validator() -> Any:
    """Draft 2020-12 with whole numbers that are ints and numbers that are finite (jsonschema loads lazily)."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many({"integer": _is_integer, "number": _is_number}),
    )


@cache
def validator(name: str, definition: str | None = None) -> Draft202012Validator:
    return _strict_validator()(definition_schema(name, definition))


def suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _label(path: PathKey) -> str:
    for part in reversed(path):
        if isinstance(part, str):
            return part if part and part.strip() == part else f"the key {part!r}"
    return "the document"


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number with about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _expected_types(types: Any) -> str:
    if isinstance(types, str):
        types = [types]
    words = [TYPE_WORDS.get(t, t) for t in types]
    return " or ".join(words)


def describe(error: ValidationError, doc: Document, base: PathKey) -> list[Problem]:
    path = base + tuple(error.absolute_path)
    label = _label(path)
    kind = error.validator
    value = error.instance
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}  # the failing rule's schema
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = sorted(schema.get("properties", {}))
        problems = []
        for key in value:
            if key in allowed:
                continue
            hint = suggest(key, allowed)
            expected = ", ".join(allowed)
            problems.append(
                doc.problem(
                    path + (key,),
                    f"unknown key '{key}'{hint}; expected one of: {expected}",
                    key=True,
                )
            )
        if problems:
            return problems
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [doc.problem(path, f"missing required key '{missing}' in {label if path else doc.path.name}")]
    if kind == "type":
        return [
            doc.problem(
                path, f"{label} must be {_expected_types(error.validator_value)}, got {_show(value)}"
            )
        ]
    if kind in ("minimum", "maximum") and not _is_number(None, value):
        return []  # the type error says it better (nan, .inf, 2.5 where a whole number belongs)
    if kind in ("minimum", "maximum") and schema.get("type") == "integer" and not _is_integer(None, value):
        return []
    if kind == "minimum":
        limit = error.validator_value
        if limit == 1 and schema.get("type") == "integer":
            return [doc.problem(path, f"{label} must be a positive integer, got {_show(value)}")]
        return [doc.problem(path, f"{label} must be at least {limit}, got {_show(value)}")]
    if kind == "maximum":
        return [doc.problem(path, f"{label} must be at most {error.validator_value}, got {_show(value)}")]
    if kind in ("enum", "const"):
        choices = error.validator_value if kind == "enum" and isinstance(error.validator_value, list) else [
            error.validator_value]
        words = [str(c) for c in choices]
        hint = suggest(str(value), words) if isinstance(value, str) else ""
        return [
            doc.problem(
                path, f"{label} must be one of {', '.join(words)}, got {_show(value)}{hint}"
            )
        ]
    if kind == "pattern":
        what = schema.get("description", f"text matching {error.validator_value}")
        return [doc.problem(path, f"{label} {_show(value)} is not valid: expected {what[0].lower() + what[1:].rstrip('.')}")]
    if kind == "minItems":
        return [doc.problem(path, f"{label} must have at least {error.validator_value} entries")]
    if kind == "maxItems":
        return [doc.problem(path, f"{label} must have at most {error.validator_value} entries")]
    if kind == "uniqueItems":
        return [doc.problem(path, f"{label} must not repeat entries")]
    meant = schema.get("x-expected")  # a property's own words for what its value may be (anyOf, sizes, …)
    if isinstance(meant, str):
        return [doc.problem(path, f"{label} {_show(value)} is not valid: expected {meant}")]
    return [doc.problem(path, f"{label}: {error.message}")]


def passes_unchecked(entry: str, name: str, definition: str | None, instance: Any) -> bool:
    """True when ``instance`` is known to pass without jsonschema: its verdict ``entry`` is remembered
    (:mod:`punchboard.incremental.validated`), or the generated validator surely passes it (:mod:`.fast_schema`; remembered then)."""
    if validated.known_valid(entry):
        return True
    if fast_schema.valid(name, definition, instance):
        validated.remember_valid(entry)
        return True
    return False


def check(doc: Document, name: str, definition: str | None = None, *, data: Any = None, base: PathKey = ()) -> list[Problem]:
    """Problems of ``data`` (default: the whole document) against a schema; a verdict of "no
    problems" is remembered for exactly this data, schema and code (:mod:`punchboard.incremental.validated`)."""
    instance = doc.data if data is None else data
    whole = data is None and not base
    entry = validated.document_key(doc.path, instance, doc.text_digest if whole else None, "schema", name, definition, base)
    if passes_unchecked(entry, name, definition, instance):
        return []
    problems: list[Problem] = []
    for error in validator(name, definition).iter_errors(instance):
        if error.validator in ("if", "allOf"):
            continue
        problems.extend(describe(error, doc, base))
    if not problems:
        validated.remember_valid(entry)
    return problems
