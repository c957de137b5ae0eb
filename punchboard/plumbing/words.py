"""punchboard's own words on the files it writes (cover, bill of materials, swap list), by language.

Contract: :func:`words` gives the :class:`Words` of a language: ``.text(msgid, **fields)`` and
``.plural(count, singular, plural, **fields)`` translate a message and fill its ``{fields}``;
``.number``, ``.count`` and ``.length`` write numbers the way the language writes them
(``3,5`` in German). A language without a catalogue is English throughout (words and numbers); a
message missing from a catalogue is its English msgid. English output is the msgids themselves, so
a default build writes exactly what it wrote before catalogues existed.

The catalogues are gettext PO files, package data in ``punchboard/locale/`` (``en.po`` lists every
message and is the template a translator starts from; ``de.po`` is German). They are read with
**Babel** rather than polib: one maintained library both reads PO files (``babel.messages``, compiled in
memory to a ``gettext`` catalogue, so plural forms follow each file's ``Plural-Forms`` header) and
formats numbers by the Unicode CLDR data for every language — polib would read the files, but the
numbers would still need Babel or hand-rolled rules.

Messages are marked where they are written: a literal first argument of ``.text``/``.plural``, or
:func:`N_` (:func:`NP_` with its plural) around a message kept in a table; tests/plumbing/test_words.py checks that every marked
message is in ``en.po`` and translated in every other catalogue.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO

ENGLISH = "en"


def N_(msgid: str) -> str:  # noqa: N802 — gettext's name for "a message, translated where it is used"
    """Mark ``msgid`` as a message without translating it (for tables of messages)."""
    return msgid


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 — as N_, for a message with a plural
    """Mark a message's singular and plural forms without translating them (for tables of messages)."""
    return singular, plural


@dataclass(frozen=True)
class Words:
    """punchboard's words and number formats in one language (``lang``: the catalogue found, else ``en``)."""

    lang: str
    catalogue: gettext.NullTranslations

    def text(self, msgid: str, **fields: object) -> str:
        """``msgid`` in this language, its ``{fields}`` filled (English when the catalogue lacks it)."""
        message = self.catalogue.gettext(msgid)
        return message.format(**fields) if fields else message

    def plural(self, count: int, singular: str, plural: str, **fields: object) -> str:
        """The form of a message for ``count`` (``{count}`` is filled, written as :meth:`count`)."""
        message = self.catalogue.ngettext(singular, plural, count)
        return message.format(count=self.count(count), **fields)

    def number(self, value: float, places: int | None = None) -> str:
        """A decimal number as the language writes it: ``3.5`` → ``3,5`` in German; ``places``
        fixes the digits after the point (``24.456, 2`` → ``24,46``); no thousands separator."""
        from decimal import Decimal

        from babel.numbers import format_decimal

        if places is None:
            return format_decimal(value, locale=self.lang, group_separator=False)
        exact = Decimal(f"{value:.{places}f}")  # rounded as Python's own formatting rounds (f"{x:.2f}")
        return format_decimal(exact, format="0." + "0" * places if places else "0", locale=self.lang, group_separator=False)

    def count(self, value: int) -> str:
        """A whole number of things (no thousands separator: ``1234`` in every language)."""
        return self.number(value, 0)

    def length(self, millimetres: float, unit: str = "mm", places: int = 1) -> str:
        """A length in ``mm``, ``cm`` or ``in``, as the language writes it: ``63,5 mm``, ``2,5 in``."""
        per_unit = {"mm": 1.0, "cm": 10.0, "in": 25.4}
        if unit not in per_unit:
            raise ValueError(f"unknown unit {unit!r}: expected one of {', '.join(per_unit)}")
        value = round(millimetres / per_unit[unit], places)
        shown = self.number(value, places) if value != int(value) else self.count(int(value))
        return f"{shown} {unit}"


@cache
def catalogue_languages() -> tuple[str, ...]:
    """The languages punchboard has a catalogue for, English first."""
    folder = resources.files("punchboard") / "locale"
    found = sorted(entry.name[:-3] for entry in folder.iterdir() if entry.name.endswith(".po"))
    return (ENGLISH, *(lang for lang in found if lang != ENGLISH))


def _language_of(lang: str | None) -> str:
    """``de-AT``/``de_AT`` → ``de`` when only ``de`` has a catalogue; unknown → English."""
    known = catalogue_languages()
    tag = (lang or ENGLISH).replace("-", "_")
    for candidate in (tag, tag.split("_")[0].lower()):
        if candidate in known:
            return candidate
    return ENGLISH


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    """The catalogue of a language with a PO file, compiled in memory (English: no translation)."""
    if lang == ENGLISH:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (resources.files("punchboard") / "locale" / f"{lang}.po").open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def words(lang: str | None = None) -> Words:
    """punchboard's words in ``lang`` (a language tag such as ``de``; empty or unknown: English)."""
    found = _language_of(lang)
    return Words(found, _catalogue(found))
