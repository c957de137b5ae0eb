"""Translated fields as the loader reads them: a key or column ``field@de`` beside ``field``.

game.yaml's ``languages: [en, de]`` names the source language first; ``text@de`` then gives a piece's ``text``
in German. A language the game does not declare, or a field the component does not declare, is a located problem
(the caller locates it). What a component's entries give is gathered by template (the ``entry`` of the pieces
made from it) into a :class:`~punchboard.spec.model.Translations`, which spec/languages.py applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from punchboard.plumbing.errors import Problem
from punchboard.spec.model import Scalar, Translated, Translations, frozen_map
from punchboard.spec.yamlsource import Document

SEPARATOR = "@"
LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")  # a language code as game.schema.json's languages: take it


def split_key(key: str) -> tuple[str, str] | None:
    """``("text", "de")`` for ``text@de``; None for a key without the separator."""
    base, at, language = key.partition(SEPARATOR)
    return (base, language) if at else None


def key_problem(key: str, languages: tuple[str, ...] | None, translatable: Iterable[str]) -> str | None:
    """What is wrong with the translated key ``key`` (``field@lang``), or None when the game declares the language
    (not the source one) and ``field`` is one ``translatable`` names. ``languages`` None: game.yaml's are not valid
    (its own problem says so), and any language passes."""
    split = split_key(key)
    assert split is not None
    base, language = split
    if languages is None:
        pass
    elif not languages:
        return (f"'{key}' gives a translation, but game.yaml declares no languages; "
                f"expected languages: [<source>, {language or 'de'}] in game.yaml, or the column '{base}'")
    elif language == languages[0]:
        return f"'{key}' names the source language {language}; expected the column or key '{base}' for it"
    elif language not in languages:
        return f"'{key}' names the language '{language}'; expected one of {', '.join(languages)}"
    names = sorted(set(translatable))
    if base not in names:
        return f"'{key}' translates '{base}', which is not a field of this component; expected one of {', '.join(names)}"
    return None


@dataclass
class Gathered:
    """The translations of one component as its entries are read: language → template → field → (value, mark)."""

    entries: dict[str, dict[int, dict[str, Translated]]] = field(default_factory=dict)
    names: dict[str, Translated] = field(default_factory=dict)
    declared: set[str] = field(default_factory=set)  # fields with a column or key in some language, filled or not

    def declare(self, keys: Iterable[str]) -> None:
        """Columns or keys ``field@lang`` seen: ``field`` is translated, so a piece without it falls back (warned)."""
        self.declared.update(split[0] for key in keys if (split := split_key(key)) is not None)

    def add(self, template: int, values: Mapping[str, Scalar], marks: Mapping[str, str]) -> None:
        """The translated keys of one template's entry (``values``: key → value, keys ``field@lang``)."""
        for key, value in values.items():
            split = split_key(key)
            if split is None or value is None or value == "":
                continue
            base, language = split
            self.declared.add(base)
            self.entries.setdefault(language, {}).setdefault(template, {})[base] = (value, marks.get(key, ""))

    def frozen(self, inputs: Mapping[str, Any] | None = None) -> Translations | None:
        """The gathered translations, or None when there are none."""
        if not self.declared and not self.names:
            return None
        fields = sorted(self.declared)
        entries = {language: frozen_map({template: frozen_map(values) for template, values in sorted(by_template.items())})
                   for language, by_template in sorted(self.entries.items())}
        return Translations(frozen_map(entries), frozen_map(dict(sorted(self.names.items()))), tuple(fields),
                            frozen_map(inputs or {}))


def translated_keys(entry: Mapping[str, Any]) -> list[str]:
    """The keys of ``entry`` that give a translation (``field@lang``), in its order."""
    return [key for key in entry if SEPARATOR in key]


def translated_values(doc: Document, key: str, languages: tuple[str, ...]) -> tuple[dict[str, str], list[Problem]]:
    """game.yaml's ``key@lang`` values (``rulebook@de``) by language, and a problem for each in a language it lacks."""
    values: dict[str, str] = {}
    problems: list[Problem] = []
    for name, value in doc.data.items():
        if not name.startswith(key + SEPARATOR):
            continue
        wrong = key_problem(name, languages, [key])
        if wrong is not None:
            problems.append(doc.problem((name,), wrong, key=True))
        else:
            values[name.partition(SEPARATOR)[2]] = value
    return values, problems


def quote_problems(doc: Document, languages: tuple[str, ...]) -> list[Problem]:
    """A problem for each ``quote@lang`` of setup.yaml's ``numbers:`` in a language game.yaml does not list."""
    numbers = doc.data.get("numbers") if isinstance(doc.data, dict) else None
    problems: list[Problem] = []
    for index, spec in enumerate(numbers if isinstance(numbers, list) else []):
        for name in spec if isinstance(spec, dict) else ():
            if isinstance(name, str) and name.startswith("quote" + SEPARATOR):
                wrong = key_problem(name, languages, ["quote"])
                if wrong is not None:
                    problems.append(doc.problem(("numbers", index, name), wrong, key=True))
    return problems
