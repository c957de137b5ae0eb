"""Text in scripts punchboard cannot shape yet (Arabic, Hebrew, Devanagari, Bengali, Thai, …), refused at load.

Contract: :func:`script_problems` reads every text a game's components carry — each piece's fields, in the
source language and in every translation (``field@ar`` columns or keys, ``translations/ar.po``), and each
component's name — and returns one located problem per value that uses a right-to-left or complex script:
``cards.csv:4:2: 'Regent' text@ar uses Arabic script, which punchboard cannot shape yet; expected Latin,
Greek or Cyrillic text``. The loader adds them to its problems, so ``check`` and ``build`` stop with exit 2
before anything is drawn as wrong glyphs (reportlab draws code points one by one, left to right: no joining,
no reordering, no vowel signs placed). Which scripts are refused is data: ``punchboard/locale/scripts.yaml``,
Unicode blocks per script.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from punchboard.plumbing.errors import Problem, display_path
from punchboard.plumbing.paths import PACKAGE
from punchboard.spec.model import Component, Piece, Scalar


def _code(point: str) -> int:
    """A code point as scripts.yaml writes it: ``U+0600``."""
    return int(str(point).removeprefix("U+"), 16)


@cache
def _table() -> tuple[re.Pattern[str], tuple[tuple[int, int, str], ...], str]:
    """The refused characters as one character class, the ranges by script, and the message's 'expected'."""
    from punchboard.spec.yamlsource import (
        load_yaml,  # kept parsed between runs (punchboard/incremental/parsed_store.py)
    )

    data: dict[str, Any] = load_yaml(PACKAGE / "locale" / "scripts.yaml").data
    ranges = tuple(sorted((_code(first), _code(last), str(script)) for script, spans in data["refused"].items()
                          for first, last in spans))
    allowed = {_code(point) for point in data.get("allowed", [])}
    parts: list[str] = []
    for first, last, _script in ranges:
        start = first
        for point in sorted(p for p in allowed if first <= p <= last) + [last + 1]:
            if point > start:
                parts.append(f"{re.escape(chr(start))}-{re.escape(chr(point - 1))}")
            start = point + 1
    return re.compile(f"[{''.join(parts)}]"), ranges, str(data["expected"])


def refused_script(text: str) -> str | None:
    """The first script in ``text`` that punchboard cannot shape (``'Arabic'``), else None."""
    pattern, ranges, _ = _table()
    found = pattern.search(text)
    if found is None:
        return None
    point = ord(found.group())
    return next(script for first, last, script in ranges if first <= point <= last)


def _values(component: Component) -> Iterator[tuple[str, str, Scalar, str]]:
    """Every text of the component: (whose, which field, value, file:LINE:COL), the source first."""
    fallback = f"{display_path(component.source)}:1:1"
    yield f"component '{component.id}'", "name", component.name, fallback
    firsts: dict[int, Piece] = {}
    for piece in component.pieces:
        firsts.setdefault(piece.entry, piece)
        for name, value in piece.fields.items():
            yield _label(component, piece), name, value, piece.marks.get(name, fallback)
    translations = component.translations
    if translations is None:
        return
    for lang, (value, mark) in translations.names.items():
        yield f"component '{component.id}'", f"name@{lang}", value, mark or fallback
    for lang, entries in translations.entries.items():
        for entry, fields in entries.items():
            first = firsts.get(entry)
            whose = _label(component, first) if first is not None else f"{component.id} entry {entry + 1}"
            for name, (value, mark) in fields.items():
                yield whose, f"{name}@{lang}", value, mark or fallback


def _label(component: Component, piece: Piece) -> str:
    """How the message names a piece: its name, else its component and entry."""
    return f"'{piece.name}'" if piece.name else f"{component.id} entry {piece.entry + 1}"


def script_problems(components: Sequence[Component]) -> list[Problem]:
    """One located problem per text value in a script punchboard cannot shape (see the module docstring)."""
    _, _, expected = _table()
    problems: list[Problem] = []
    seen: dict[str, str | None] = {}
    for component in components:
        for whose, field, value, mark in _values(component):
            if not isinstance(value, str):
                continue
            if value not in seen:
                seen[value] = refused_script(value)
            script = seen[value]
            if script is None:
                continue
            file, line, col = mark.rsplit(":", 2)
            problems.append(Problem(file, int(line), int(col), f"{whose} {field} uses {script} script, which punchboard "
                                                                   f"cannot shape yet; expected {expected}"))
    return problems
