"""Translations as gettext PO files: ``GAME/translations/<lang>.po``, the second form beside ``field@lang`` columns.

Each entry's ``msgctxt`` names the component, the piece and the field (``deck/Guard/text``; a piece whose name
another entry of its component shares is ``Guard#2``, one without a name ``#3``, by its entry's place; the
component's own name is ``deck/name``), its ``msgid`` is the source text and its ``msgstr`` the translation.
:func:`write_po` makes the file from a game's columns, so a translator's tool can edit it; the loader reads it back
(:func:`read_po`) into the same :class:`~punchboard.spec.model.Translations` the columns give, so columns → PO →
load is the same model. An empty or fuzzy ``msgstr``, or one made for another source text (``msgid`` differs), is
missing (the source text is used, with its warning). A context that names nothing, or a field the columns translate
too, is a located problem.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import polib

from punchboard.plumbing.errors import Problem, display_path
from punchboard.plumbing.limits import DEFAULT_LIMITS, FLAGS
from punchboard.spec.model import Component, Game, Piece, Scalar, Translated, Translations, frozen_map

FOLDER = "translations"


def po_path(folder: Path, lang: str) -> Path:
    """Where a game keeps its translation into ``lang``."""
    return folder / FOLDER / f"{lang}.po"


def _templates(component: Component) -> list[Piece]:
    """The first piece made from each of the component's entries, in order."""
    seen: dict[int, Piece] = {}
    for piece in component.pieces:
        seen.setdefault(piece.entry, piece)
    return list(seen.values())


def _labels(component: Component) -> dict[int, str]:
    """Entry → how a context names its pieces: the name, ``name#k`` when names repeat, ``#n`` without a name."""
    templates = _templates(component)
    counts: dict[str, int] = {}
    for piece in templates:
        counts[piece.name] = counts.get(piece.name, 0) + 1
    seen: dict[str, int] = {}
    labels: dict[int, str] = {}
    for piece in templates:
        name = piece.name.replace("/", "∕")
        if not piece.name:
            labels[piece.entry] = f"#{piece.entry + 1}"
            continue
        seen[piece.name] = seen.get(piece.name, 0) + 1
        labels[piece.entry] = name if counts[piece.name] == 1 else f"{name}#{seen[piece.name]}"
    return labels


def _text(value: Scalar) -> str:
    """A value as PO text: "" for none, true/false for a boolean (as a card table writes it), else its str."""
    return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _units(component: Component, every: bool = False) -> Iterator[tuple[str, int, str, Scalar]]:
    """The component's texts to translate: (context, entry or -1 for its name, field, source value). Those of the
    fields some language translates; with ``every``, those of all its fields (what a PO file may translate)."""
    translations = component.translations
    yield f"{component.id}/name", -1, "name", component.name
    fields = (*component.fields, "name") if every else translations.fields if translations is not None else ()
    if not fields:
        return
    labels = _labels(component)
    for piece in _templates(component):
        for name in fields:
            value = piece.fields.get(name)
            if value is not None and value != "":
                yield f"{component.id}/{labels[piece.entry]}/{name}", piece.entry, name, value


def _earlier(game: Game, lang: str) -> dict[str, polib.POEntry]:
    """The entries of the game's PO file into ``lang`` as it is, by context ({} when it has none)."""
    path = po_path(game.folder, lang)
    if not path.is_file():
        return {}
    return {item.msgctxt: item for item in polib.pofile(str(path), encoding="utf-8") if item.msgctxt and not item.obsolete}


def write_po(game: Game, lang: str) -> str:
    """The PO file of ``game`` (as loaded, in its source language) into ``lang``: every translatable text of its
    printed components with the translation its columns (or PO file) give, else an empty msgstr. A translation the
    PO file holds but the load did not use (fuzzy, or made for an earlier source text) stays, marked fuzzy with its
    earlier msgid, as msgmerge keeps it, for the translator to look at."""
    earlier = _earlier(game, lang)
    po = polib.POFile(wrapwidth=0)
    po.header = f"{game.title} in {lang}: msgctxt names component/piece/field, msgid is the source text ({game.languages[0]})"
    po.metadata = {"Project-Id-Version": game.title, "Language": lang, "MIME-Version": "1.0",
                   "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    for component in game.printed:
        translations = component.translations
        for context, entry, name, value in _units(component):
            given: Translated | None = None
            if translations is not None:
                given = translations.names.get(lang) if entry < 0 else translations.entries.get(lang, {}).get(entry, {}).get(name)
            item = polib.POEntry(msgctxt=context, msgid=_text(value), msgstr=_text(given[0]) if given else "")
            old = earlier.get(context)
            if given is None and old is not None and old.msgstr:
                item.msgstr, item.flags = old.msgstr, ["fuzzy"]
                if old.msgid != item.msgid:
                    item.previous_msgid = old.msgid
            po.append(item)
    return str(po) + "\n"


def _coerce(text: str) -> Scalar:
    """A msgstr as a card table's cell of the same text reads (a number stays a number)."""
    from punchboard.spec.loader.spreadsheets import coerce_cell

    value: Scalar = coerce_cell(text)
    return value


def _read(path: Path, problems: list[Problem], max_bytes: int) -> polib.POFile | None:
    """The PO file at ``path``, or None after a located problem (too large, not UTF-8, not PO syntax)."""
    name = display_path(path)
    size = path.stat().st_size
    if size > max_bytes:
        problems.append(Problem(name, 1, 1, f"file is {size} bytes, more than the limit of {max_bytes} "
                                            f"(raise it with {FLAGS['max_file_bytes']})"))
        return None
    try:
        return polib.pofile(str(path), encoding="utf-8")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        said = str(exc).replace(str(path), name)
        line = re.search(r"\(line (\d+)\)", said)
        problems.append(Problem(name, int(line.group(1)) if line else 1, 1,
                                f"not a readable PO file ({said}); expected gettext PO text in UTF-8"))
        return None


def read_po(folder: Path, languages: tuple[str, ...], components: list[Component], problems: list[Problem],
            max_bytes: int = DEFAULT_LIMITS.max_file_bytes) -> list[Component]:
    """``components`` with the translations of ``translations/<lang>.po`` for each language but the source one
    merged in; each problem (a context naming nothing, a field also translated by a column) is added."""
    for lang in languages[1:]:
        path = po_path(folder, lang)
        if not path.is_file():
            continue
        po = _read(path, problems, max_bytes)
        if po is not None:
            components = _merge(po, path, lang, components, problems)
    return components


def _merge(po: polib.POFile, path: Path, lang: str, components: list[Component],
           problems: list[Problem]) -> list[Component]:
    """The components with ``po``'s translations into ``lang``, each problem added."""
    name = display_path(path)
    units = {context: (component.id, entry, field, value)
             for component in components for context, entry, field, value in _units(component, every=True)}
    given: dict[str, dict[tuple[int, str], tuple[Scalar, str, str]]] = {}
    declared: dict[str, set[str]] = {}  # the fields each component's entries name, used or not (fuzzy, stale, empty)
    for item in po:
        if item.obsolete:
            continue
        line = item.linenum or 1
        unit = units.get(item.msgctxt or "")
        if unit is None:
            known = sorted(units)[:5]
            problems.append(Problem(name, line, 1, f"msgctxt {item.msgctxt!r} names no component, piece and field of this game "
                                                   f"(renamed or removed?); expected one like {', '.join(known)}, "
                                                   "or the entry removed or marked obsolete (#~)"))
            continue
        component_id, entry, field, value = unit
        if entry >= 0:
            declared.setdefault(component_id, set()).add(field)
        if not item.msgstr or "fuzzy" in item.flags or item.msgid != _text(value):
            continue
        given.setdefault(component_id, {})[(entry, field)] = (_coerce(item.msgstr), f"{name}:{line}:1", item.msgctxt)
    return [_with(component, lang, (given.get(component.id, {}), declared.get(component.id, set())), path, problems)
            for component in components]


def _with(component: Component, lang: str, found: tuple[dict[tuple[int, str], tuple[Scalar, str, str]], set[str]],
          path: Path, problems: list[Problem]) -> Component:
    """``component`` with the PO file's translations into ``lang`` (``found``: those used, and every field its entries
    name, so a piece left without one falls back with a warning); a clash with a column is a problem."""
    given, declared = found
    if not given and not declared:
        return component
    old = component.translations or Translations()
    entries = {key: {entry: dict(values) for entry, values in by_entry.items()} for key, by_entry in old.entries.items()}
    mine = entries.setdefault(lang, {})
    names = dict(old.names)
    for (entry, field), (value, mark, context) in given.items():
        before = names.get(lang) if entry < 0 else mine.get(entry, {}).get(field)
        if before is not None and before[0] == value:
            continue  # the file punchboard translations wrote from the columns, not yet changed: the column's mark stays
        if before is not None:
            problems.append(Problem(*_place(mark), f"'{context}' is translated into {lang} twice, as {_text(value)!r} "
                                                   f"here and as {_text(before[0])!r} at {before[1]}; expected one place "
                                                   "for it (the column or the PO file)"))
        elif entry < 0:
            names[lang] = (value, mark)
        else:
            mine.setdefault(entry, {})[field] = (value, mark)
    fields = sorted({*old.fields, *declared})
    frozen = {key: frozen_map({entry: frozen_map(values) for entry, values in sorted(by_entry.items())})
              for key, by_entry in sorted(entries.items())}
    inputs = {**old.inputs, lang: path}
    return replace(component, translations=Translations(frozen_map(frozen), frozen_map(names), tuple(fields), frozen_map(inputs)))


def _place(mark: str) -> tuple[str, int, int]:
    """``file:LINE:COL`` as (file, line, column)."""
    file, line, col = mark.rsplit(":", 2)
    return file, int(line), int(col)
