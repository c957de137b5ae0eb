"""One game in one of its languages: the model with every translated field in place of its source text.

game.yaml's ``languages: [en, de]`` names the source language first. The loader keeps each component's
translations beside its pieces (:class:`~punchboard.spec.model.Translations`, from ``field@de`` columns and keys
or ``translations/de.po``); :func:`in_language` makes the model of one language from them. A piece whose fields
read the same in both languages is the very same piece, so it compares (and fingerprints) equal and is drawn once;
a translated piece's marks point at the translated cell. A piece that lacks a translation keeps its source text,
and :func:`missing_translations` names each such piece and field, for the caller to print where it chooses.
"""

from __future__ import annotations

from dataclasses import replace

from punchboard.plumbing.errors import display_path
from punchboard.spec.model import Component, Game, Piece, Scalar, Translated, frozen_map


def _check(game: Game, lang: str) -> None:
    """Raise ValueError unless ``lang`` is one of the game's languages (or "" for a game that declares none)."""
    if lang in game.languages or (not game.languages and lang == ""):
        return
    declared = ", ".join(game.languages) if game.languages else "none (no languages: in game.yaml)"
    raise ValueError(f"game '{game.id}' is not written in '{lang}'; its languages: {declared}")


def _piece(piece: Piece, values: dict[str, Translated] | None) -> Piece:
    """``piece`` with the fields ``values`` translate; the same piece when none of them reads differently."""
    if not values:
        return piece
    changed = {name: text for name, (text, _) in values.items() if piece.fields.get(name) != text}
    if not changed:
        return piece
    marks = dict(piece.marks)
    marks.update((name, values[name][1]) for name in changed if values[name][1])
    return replace(piece, fields=frozen_map({**piece.fields, **changed}), marks=frozen_map(marks))


def _component(component: Component, lang: str) -> Component:
    """The component in ``lang``: its pieces and name translated, its translation file among its inputs."""
    translations = component.translations
    if translations is None:
        return component
    entries = translations.entries.get(lang, {})
    pieces = tuple(_piece(piece, dict(entries[piece.entry]) if piece.entry in entries else None) for piece in component.pieces)
    name = translations.names.get(lang, (component.name, ""))[0]
    source = translations.inputs.get(lang)
    inputs = component.inputs if source is None or source in component.inputs else (*component.inputs, source)
    if name == component.name and inputs == component.inputs and all(a is b for a, b in zip(pieces, component.pieces, strict=True)):
        return component
    return replace(component, pieces=pieces, name=str(name), inputs=inputs)


def in_language(game: Game, lang: str) -> Game:
    """The same immutable model in ``lang``: every translated field in place of its source text (the source text
    where a translation is missing), ``language`` set. Components and pieces that read the same are the very same
    objects. Raises ValueError for a language the game does not declare, or when ``game`` is a translated model
    (made by this function) rather than the source-language model the loader gives."""
    _check(game, lang)
    if lang == game.language:
        return game
    if game.language != game.languages[0]:  # its text is translated already: the source text is not in it
        raise ValueError(f"game '{game.id}' is in {game.language} here; expected the model as loaded, "
                         f"in {game.languages[0]}, to make its {lang}")
    return replace(game, components=tuple(_component(component, lang) for component in game.components), language=lang)


def _templates(component: Component) -> list[Piece]:
    """The first piece made from each of the component's entries, in order."""
    seen: dict[int, Piece] = {}
    for piece in component.pieces:
        seen.setdefault(piece.entry, piece)
    return list(seen.values())


def _label(component: Component, piece: Piece) -> str:
    """How a warning names a piece: its name, else its component and entry."""
    return piece.name or f"{component.id} entry {piece.entry + 1}"


def _wants_words(value: Scalar) -> bool:
    """Whether a source value is words to translate: text with a letter (not a number, nor "+2" or "—")."""
    return isinstance(value, str) and any(char.isalpha() for char in value)


def missing_translations(game: Game, lang: str) -> tuple[str, ...]:
    """``file:LINE:COL: 'Regent' has no text@de; the en text is used``: one line per piece entry and field that
    some language translates but ``lang`` does not (located at the source text), in the model's order; a value
    without a letter (a number, "+2") needs none. Empty for the source language. Raises ValueError for a language
    the game does not declare."""
    _check(game, lang)
    if not game.languages or lang == game.languages[0]:
        return ()
    source = game.languages[0]
    lines: list[str] = []
    for component in game.components:
        translations = component.translations
        if translations is None:
            continue
        if translations.names and lang not in translations.names:
            where = next(iter(translations.names.values()))[1] or f"{display_path(component.source)}:1:1"  # by the others
            lines.append(f"{where}: component '{component.name}' has no name@{lang}; the {source} name is used")
        entries = translations.entries.get(lang, {})
        for piece in _templates(component):
            given = entries.get(piece.entry, {})
            for name in translations.fields:
                if name in given or not _wants_words(piece.fields.get(name)):
                    continue
                at = piece.marks[name] if name in piece.marks else f"{display_path(component.source)}:1:1"
                lines.append(f"{at}: '{_label(component, piece)}' has no {name}@{lang}; the {source} text is used")
    return tuple(lines)
