"""Numbers the rulebook states: one value per name, each found in the rulebook's own words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from punchboard.spec.model import Game
from punchboard.spec.setup_model import RuleNumber

from .counts import OpenValue
from .findings import Finding
from .number_words import states


def _by_name(numbers: Sequence[RuleNumber]) -> dict[str, list[RuleNumber]]:
    grouped: dict[str, list[RuleNumber]] = {}
    for number in numbers:
        grouped.setdefault(number.name, []).append(number)
    return grouped


def _stated(number: RuleNumber) -> str:
    where = f", {number.where}" if number.where else ""
    if not number.quote:  # a total setup.yaml states (numbers: sum:), not the rulebook's words
        return f"{number.value} ({number.source})"
    return f'{number.value} ("{number.quote}"{where}; {number.source})'


def number_values(numbers: Sequence[RuleNumber]) -> dict[str, Any]:
    """What counts and conditions see: the value, or an open value when the rulebook states two."""
    values: dict[str, Any] = {}
    for name, stated in _by_name(numbers).items():
        distinct = sorted({n.value for n in stated})
        if len(distinct) == 1:
            values[name] = distinct[0]
        else:
            values[name] = OpenValue(f"the rulebook states {name} as {' and as '.join(str(v) for v in distinct)}")
    return values


def rulebook_text(game: Game, rulebook: str | None = None) -> tuple[Path | None, str]:
    """The rulebook file named by game.yaml (or ``rulebook``: its rulebook@lang), looked up from the game folder and
    the folders above it."""
    name = game.rulebook if rulebook is None else rulebook
    if not name:
        return None, ""
    for base in (game.folder, *game.folder.parents):
        candidate = base / name
        if candidate.is_file():
            return candidate, candidate.read_text(encoding="utf-8", errors="replace")
    return None, ""


def _translated_quotes(game: Game, numbers: Sequence[RuleNumber]) -> list[Finding]:
    """Each quote@lang checked against game.yaml's rulebook@lang, as the source quotes against the rulebook: the
    same findings for every language the model is in (the verifier is language-blind)."""
    findings: list[Finding] = []
    for lang, rulebook in sorted(game.rulebooks.items()):
        quoted = [number for number in numbers if lang in number.quotes]
        if not quoted:
            continue
        path, text = rulebook_text(game, rulebook)
        if path is None:
            findings.append(Finding("rulebook numbers", f"quotes in {lang} not checked: the rulebook file '{rulebook}' "
                                    f"(game.yaml rulebook@{lang}) is not found from the game folder", "warn"))
            continue
        squashed = _squash(text)
        for number in quoted:
            quote = number.quotes[lang]
            if _squash(quote) not in squashed:
                findings.append(Finding(f"rulebook number {number.name}", f"the quote \"{quote}\" is not in the "
                                        f"rulebook {path.name} ({number.source}, quote@{lang})", "warn"))
    return findings


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def check_numbers(game: Game, numbers: Sequence[RuleNumber]) -> list[Finding]:
    findings: list[Finding] = []
    for name, stated in _by_name(numbers).items():
        if len({n.value for n in stated}) > 1:
            # the rulebook contradicts itself: not a shortfall of the components, so a warning of its own
            # kind (verify --strict fails on it)
            findings.append(Finding(f"rulebook number {name}", "stated with different values: "
                                    + "; and ".join(_stated(n) for n in stated), "contradiction"))
    findings.extend(_translated_quotes(game, numbers))
    numbers = [n for n in numbers if n.quote]  # a stated total without a quote is checked by its sum instead
    for number in numbers:
        if not states(number.quote, number.value):  # in digits or in words ("Deal one card": 1)
            findings.append(Finding(f"rulebook number {number.name}", f"the quote \"{number.quote}\" does not state "
                                    f"{number.value} ({number.source})", "warn"))
    if not numbers or not game.rulebook:
        return findings
    path, text = rulebook_text(game)
    if path is None:
        findings.append(Finding("rulebook numbers", f"quotes not checked: the rulebook file '{game.rulebook}' "
                                "(game.yaml) is not found from the game folder", "warn"))
        return findings
    lines = text.splitlines()
    squashed = _squash(text)
    for number in numbers:
        quote = _squash(number.quote)
        if quote not in squashed:
            findings.append(Finding(f"rulebook number {number.name}", f"the quote \"{number.quote}\" is not in the "
                                    f"rulebook {path.name} ({number.source})", "warn"))
            continue
        line = next((n for n, text_line in enumerate(lines, 1) if quote[:40] in _squash(text_line)), None)
        if line is not None:
            findings.append(Finding(f"rulebook number {number.name}", f"{number.value}: \"{number.quote}\" — "
                                    f"{path.name} line {line}", "info"))
    return findings
