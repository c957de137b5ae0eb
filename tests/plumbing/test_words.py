"""punchboard's own words by language: the catalogues, the fallbacks and the numbers.

Every message the code marks (a literal first argument of ``.text``/``.plural``, or ``N_``/``NP_`` in a
table) is found with Babel's own extractor, and must be in en.po and translated in every other
catalogue with the same ``{fields}``; so no word is left untranslated silently.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from punchboard.plumbing.words import ENGLISH, catalogue_languages, words

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "punchboard" / "locale"
KEYWORDS = {"text": None, "N_": None, "plural": (2, 3), "NP_": (1, 2)}


def _code_files() -> list[Path]:
    """Every source file that writes punchboard's words (it imports the words module)."""
    found = []
    for folder in ("punchboard", "generator", "verifier"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name != "words.py" and "punchboard.plumbing.words import" in path.read_text(encoding="utf-8"):
                found.append(path)
    return found


def _used() -> dict[str | tuple[str, str], list[str]]:
    """Each message the code marks → the files that use it."""
    used: dict[str | tuple[str, str], list[str]] = {}
    for path in _code_files():
        for _line, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
            key = message if isinstance(message, str) else tuple(message)
            used.setdefault(key, []).append(str(path.relative_to(ROOT)))
    return used


def _catalogue(lang: str) -> dict[str | tuple[str, str], str | tuple[str, ...]]:
    with (LOCALE / f"{lang}.po").open("rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id}


def _fields(message: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def test_the_code_marks_messages_in_every_file_that_writes_words():
    files = {str(p.relative_to(ROOT)) for p in _code_files()}
    assert {"generator/document/cover.py", "generator/document/bom_page.py", "generator/document/swap_page.py",
            "generator/reprint.py", "punchboard/spec/bom.py"} <= files
    used = _used()
    marked_in = {f for users in used.values() for f in users}
    assert files - {"punchboard/cli/bom.py"} <= marked_in, "a file imports the words but marks no message"
    assert len(used) >= 80


def test_every_message_the_code_uses_is_in_english_and_translated_in_every_catalogue():
    used = _used()
    english = _catalogue(ENGLISH)
    missing = sorted(str(m) for m in used if m not in english)
    assert not missing, f"messages missing from en.po: {missing}"
    languages = [lang for lang in catalogue_languages() if lang != ENGLISH]
    assert "de" in languages
    for lang in languages:
        catalogue = _catalogue(lang)
        for message in used:
            translated = catalogue.get(message)
            forms = translated if isinstance(translated, tuple) else (translated,)
            assert translated and all(forms), f"{lang}.po: {message!r} is not translated"
            ids = message if isinstance(message, tuple) else (message,)
            assert all(_fields(form) == _fields(ids[0]) for form in forms), f"{lang}.po: {message!r} has other fields"


def test_no_catalogue_keeps_a_message_the_code_no_longer_uses():
    used = set(_used())
    for lang in catalogue_languages():
        stale = sorted(str(m) for m in _catalogue(lang) if m not in used)
        assert not stale, f"{lang}.po keeps messages no code uses: {stale}"


def test_german_words_plurals_and_numbers():
    w = words("de")
    assert w.lang == "de"
    assert w.text("Contents") == "Inhalt"
    assert w.text("Reprint: {title}", title="Regent") == "Nachdruck: Regent"
    assert w.plural(1, "{count} page", "{count} pages") == "1 Seite"
    assert w.plural(3, "{count} page", "{count} pages") == "3 Seiten"
    assert w.plural(12, "{count} card", "{count} cards") == "12 Karten"
    assert w.number(3.5) == "3,5"
    assert w.number(24.455, 2) == "24,45"  # rounded as f"{24.455:.2f}" rounds the float, not 24,46
    assert w.count(1234) == "1234"
    assert w.length(63.5) == "63,5 mm"
    assert w.length(63.5, "in") == "2,5 in"
    assert w.length(10, "cm") == "1 cm"


@pytest.mark.parametrize("lang", ["", None, "en", "xx", "tlh", "en-GB"])
def test_a_language_without_a_catalogue_is_english_words_and_numbers(lang: str | None):
    w = words(lang)
    assert w.lang == ENGLISH
    assert w.text("Contents") == "Contents"
    assert w.plural(2, "{count} page", "{count} pages") == "2 pages"
    assert w.number(3.5) == "3.5"
    assert w.number(24.455, 2) == f"{24.455:.2f}"


def test_a_regional_tag_finds_its_language_and_a_missing_message_is_english():
    assert words("de-AT").lang == "de"
    assert words("de_CH").lang == "de"
    assert words("de").text("A message no catalogue has: {x}", x=1) == "A message no catalogue has: 1"


def test_an_unknown_unit_is_refused():
    with pytest.raises(ValueError, match="unknown unit 'pt'"):
        words("de").length(3.0, "pt")


def test_the_catalogues_are_package_data_in_the_wheel():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["punchboard"]
    assert any(re.fullmatch(r"locale/\*\.po", p) for p in patterns)
    assert "punchboard.locale" in config["tool"]["setuptools"]["packages"]
    assert any(dep.startswith("babel") for dep in config["project"]["dependencies"])
