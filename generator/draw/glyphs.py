"""Characters a text's font does not have, found before drawing: a located warning in the source language, a
located error in a translation (issue #44: a Polish text in a font without ``ł``).

Each shown text element of every side (a repeat's or grid's too) is read as the drawing reads it (its ``{field}`` values bound, its markup
parsed: ``**bold**`` picks the family's bold face, ``[font=X]`` another font; inline icons are not characters).
A character is missing when the face that draws it has no glyph for it in its character map (fontTools' cmap) and
the element's ``fallback:`` font has none either; a character the drawing replaces by a stand-in of its own
(``→`` drawn as ``->``, see text.py) and white space are not missing. A problem points at the card cell or entry
that holds the character, else at the element in the layout.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from punchboard.plumbing.errors import Problem
from punchboard.spec.binding import FIELD_REF, bind
from punchboard.spec.expressions import shows
from punchboard.spec.model import Element, Game, Layout
from punchboard.spec.repeats import every_element

from .fonts import BUILTIN, DEFAULT_FONT, VERA_DIR, VERA_FILES
from .markup import Fragment, Paragraph, parse
from .text import SUBSTITUTES

SUFFIXES = ("-BoldItalic", "-Bold", "-Italic")


@dataclass(frozen=True)
class GlyphProblem:
    """One text whose characters a font lacks: where, what, and in which language (``""``: the source text, a
    warning; a translation's language: an error for that language)."""

    problem: Problem
    language: str = ""

    @property
    def is_error(self) -> bool:
        return bool(self.language)

    def __str__(self) -> str:
        return str(self.problem)


@lru_cache(maxsize=256)
def _cmap(path: Path) -> frozenset[int]:
    """The code points ``path``'s font maps to glyphs (none if it cannot be read: the loader said so)."""
    from fontTools.ttLib import TTFont

    try:
        return frozenset(TTFont(str(path), lazy=True, fontNumber=0).getBestCmap() or {})
    except Exception:  # noqa: BLE001 - an unreadable font is reported by the loader, not here
        return frozenset()


def font_file(fonts: Mapping[str, Path], name: str) -> Path:
    """The file a layout's font ``name`` is drawn from (Vera's for a name its ``fonts`` do not have, as the drawing
    does)."""
    if name in fonts:
        return fonts[name]
    return VERA_DIR / VERA_FILES.get(name, VERA_FILES[DEFAULT_FONT])


def face(fonts: Mapping[str, Path], name: str, bold: bool, italic: bool) -> str:
    """The face the drawing uses for ``name`` made bold and/or italic (fonts.styled, for one layout's ``fonts``)."""
    base = name
    for suffix in SUFFIXES:
        if base.endswith(suffix):
            base, bold, italic = base[: -len(suffix)], bold or "Bold" in suffix, italic or "Italic" in suffix
            break
    suffix = "-BoldItalic" if bold and italic else "-Bold" if bold else "-Italic" if italic else ""
    if base + suffix in fonts or base + suffix in BUILTIN:
        return base + suffix
    if bold or italic:
        return "Vera" + suffix
    return base if base in fonts or base in BUILTIN else DEFAULT_FONT


def _fragments(paragraphs: Iterable[Paragraph]) -> Iterator[Fragment]:
    for paragraph in paragraphs:
        for word in (*paragraph.words, paragraph.marker, *(w for cell in paragraph.cells for w in cell)):
            yield from word


@lru_cache(maxsize=256)
def _common(fonts: tuple[tuple[str, Path], ...], base: str) -> frozenset[int]:
    """The code points every face of ``base`` (regular, bold, italic, both) has, among a layout's ``fonts``."""
    named = dict(fonts)
    faces = {font_file(named, face(named, base, bold, italic)) for bold in (False, True) for italic in (False, True)}
    return frozenset.intersection(*(_cmap(path) for path in faces))


def _plainly_drawn(layout: Layout, base: str, text: str) -> bool:
    """True when every character of ``text`` is in each face of ``base`` (regular, bold, italic, both) and the text
    names no other font: nothing can be missing, and the markup need not be read."""
    if "[font" in text:
        return False
    have = _common(tuple(sorted(layout.fonts.items())), base)
    return all(ord(char) in have or char.isspace() or char in SUBSTITUTES or ord(char) < 32 for char in set(text))


def missing(layout: Layout, element: Element, text: str) -> dict[str, list[str]]:
    """Face name → the characters (in order of first use) of ``text`` that face lacks and the element's
    ``fallback:`` font does not draw either."""
    base = str(element.props.get("font") or DEFAULT_FONT)
    if _plainly_drawn(layout, base, text):  # most texts: every character in every face of the element's font
        return {}
    fallback = element.props.get("fallback")
    spare = _cmap(font_file(layout.fonts, str(fallback))) if fallback else frozenset()
    out: dict[str, list[str]] = {}
    for fragment in _fragments(parse(text)):
        if fragment.icon or not fragment.text:
            continue
        style = fragment.style
        name = face(layout.fonts, style.font or base, style.bold, style.italic)
        have = _cmap(font_file(layout.fonts, name))
        for char in fragment.text:
            code = ord(char)
            if code in have or code in spare or char.isspace() or char in SUBSTITUTES or code < 32:
                continue
            lacking = out.setdefault(name, [])
            if char not in lacking:
                lacking.append(char)
    return out


def _where(element: Element, template: str, fields: Mapping[str, Any], marks: Mapping[str, str],
           chars: list[str]) -> tuple[str, str]:
    """The mark of the field holding ``chars`` (else the element's) and what the text is called there."""
    for name in FIELD_REF.findall(template):
        if name in marks and any(c in str(fields.get(name, "")) for c in chars):
            title = fields.get("name")
            return marks[name], f"'{title}' {name}" if title not in (None, "") else f"{name}"
    return element.source, f"element '{element.id}' text"


def _texts(layout: Layout) -> tuple[Element, ...]:
    """The layout's text elements whose text is written (a repeat's or grid's own too)."""
    return tuple(element for element in every_element(layout.elements)
                 if element.type == "text" and isinstance(element.props.get("text"), str))


def _side_problems(layout: Layout, texts: tuple[Element, ...], fields: Mapping[str, Any],
                   marks: Mapping[str, str]) -> Iterator[Problem]:
    for element in texts:
        template = str(element.props["text"])
        if not shows(element.props.get("when"), fields, if_broken=True):
            continue
        font = element.props.get("font")
        if isinstance(font, str) and FIELD_REF.search(font):  # a card field names the font
            element = Element(element.type, element.id, {**element.props, "font": bind(font, fields).strip()},
                              element.source)
        for name, chars in missing(layout, element, bind(template, fields)).items():
            mark, what = _where(element, template, fields, marks, chars)
            file, line, col = mark.rsplit(":", 2)
            shown = ", ".join(chars)
            yield Problem(file, int(line), int(col), f"{what} uses {shown}, which font '{name}' "
                                                     f"({font_file(layout.fonts, name).name}) does not have")


def _unknown_fallbacks(game: Game) -> Iterator[Problem]:
    """A ``fallback:`` naming no font of its layout (the text then falls back to nothing: its characters are
    drawn as ``?``)."""
    for layout in game.layouts.values():
        known = sorted(set(BUILTIN) | set(layout.fonts))
        for element in every_element(layout.elements):
            fallback = element.props.get("fallback")
            if isinstance(fallback, str) and fallback not in known:
                file, line, col = element.source.rsplit(":", 2)
                yield Problem(file, int(line), int(col), f"element '{element.id}': fallback font '{fallback}' is not "
                                                         f"one of the layout's fonts; expected one of {', '.join(known)}")


def _game_problems(game: Game) -> list[Problem]:
    """Each distinct problem of ``game``'s pieces in the language its model is in (an outside side too)."""
    found: dict[str, Problem] = {str(problem): problem for problem in _unknown_fallbacks(game)}
    for component in game.components:
        sides = [(piece.fields, piece.marks, side) for piece in component.pieces
                 for side in (piece.face, piece.back) if side is not None]
        if component.outside is not None:
            sides.append(({}, {}, component.outside))
        seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
        texts: dict[str, tuple[Element, ...]] = {}
        for fields, marks, side in sides:
            layout = game.layouts.get(side.layout)
            if layout is None:
                continue
            if side.layout not in texts:
                texts[side.layout] = _texts(layout)
            merged = {**fields, **side.fields}
            key = (side.layout, tuple(sorted((k, str(v)) for k, v in merged.items())))
            if key in seen:
                continue
            seen.add(key)
            for problem in _side_problems(layout, texts[side.layout], merged, {**marks, **side.marks}):
                found.setdefault(str(problem), problem)
    return list(found.values())


def glyph_problems(game: Game, translations: bool = True) -> list[GlyphProblem]:
    """Every text of ``game`` that uses characters its font lacks: the source text's as warnings (``language``
    ""), then, with ``translations``, each translation's own (text a translation changed) as errors for its
    language. A model already in a translation (spec/languages.py ``in_language``) has all its problems as errors
    for that language."""
    source = _game_problems(game)
    if game.languages and game.language not in ("", game.languages[0]):
        return [GlyphProblem(problem, game.language) for problem in source]
    out = [GlyphProblem(problem) for problem in source]
    others = list(game.languages[1:]) if translations else []
    if not others:
        return out
    from punchboard.spec.languages import in_language

    said = {str(problem) for problem in source}
    for lang in others:
        out.extend(GlyphProblem(problem, lang) for problem in _game_problems(in_language(game, lang))
                   if str(problem) not in said)
    return out


def glyph_warnings(game: Game) -> list[str]:
    """The build's warnings: the located problems of the text it draws, in the language it draws."""
    return [str(problem) for problem in glyph_problems(game, translations=False)]
