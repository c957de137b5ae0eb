"""The span tags of rich text, and what is wrong with a text's tags.

One syntax, readable in a CSV cell: ``[color=#b22222]red[/color]``, ``[size=8]small[/size]`` (points),
``[font=Title]…[/font]``, ``[u]underlined[/u]``, ``[s]struck[/s]``; ``[[`` is a literal ``[``. Tags nest and
close in the reverse order they opened; ``**bold**``, ``*italic*`` and ``:icon:`` work inside them. The
drawing (generator/draw/markup.py) reads the same tokens; :func:`tag_problems` is the check at load.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator, Sequence

TAG = re.compile(r"\[\[|\[(/?)([a-z]+)(?:=([^\]\n]*))?\]")
VALUED = ("color", "size", "font")  # tags that take a value: [color=…]
PLAIN = ("u", "s")  # tags that take none
TAGS = (*VALUED, *PLAIN)
SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(pt)?\s*")


def span_size(value: str) -> float | None:
    """The point size ``[size=…]`` asks for (``8``, ``8pt``, ``7.5``); None when it is not one."""
    match = SIZE.fullmatch(value)
    if match is None or float(match.group(1)) <= 0:
        return None
    return float(match.group(1))


def tags(text: str) -> Iterator[re.Match[str]]:
    """Every tag of ``text`` (and every ``[[``), in order."""
    return TAG.finditer(text)


def tag_problems(text: str, is_colour: Callable[[str], bool], fonts: Sequence[str]) -> list[tuple[str, str]]:
    """``(tag, what is wrong)`` for each bad tag of ``text``: unknown, a bad value, closing one not open, left open."""
    found: list[tuple[str, str]] = []
    opened: list[str] = []
    for match in tags(text):
        tag, closing, name, value = match.group(0), match.group(1), match.group(2), match.group(3)
        if tag == "[[":
            continue
        if name not in TAGS:
            near = difflib.get_close_matches(name, TAGS, 1)
            shape = "" if not near else f"[/{near[0]}]" if closing else f"[{near[0]}=…]" if near[0] in VALUED else f"[{near[0]}]"
            hint = f" (did you mean {shape}?)" if shape else ""
            found.append((tag, f"unknown tag {tag}{hint}; expected one of {', '.join(_shapes())} ([[ is a literal [)"))
        elif closing:
            if value is not None:
                found.append((tag, f"a closing tag takes no value: {tag}; expected [/{name}]"))
            elif name not in opened:
                found.append((tag, f"{tag} closes a tag that is not open; expected an opening [{name}…] before it"))
            elif opened[-1] != name:
                found.append((tag, f"{tag} comes before [/{opened[-1]}]; expected tags closed in the reverse order they opened"))
                del opened[len(opened) - 1 - opened[::-1].index(name)]
            else:
                opened.pop()
        elif name in VALUED and not value:
            found.append((tag, f"{tag} needs a value, e.g. {_example(name)}"))
        elif name in PLAIN and value is not None:
            found.append((tag, f"[{name}] takes no value: {tag}"))
        else:
            bad = _bad_value(name, value or "", is_colour, fonts)
            if bad:
                found.append((tag, bad))
            opened.append(name)
    found.extend((f"[{name}]", f"[{name}] is never closed; expected [/{name}]") for name in reversed(opened))
    return found


def _bad_value(name: str, value: str, is_colour: Callable[[str], bool], fonts: Sequence[str]) -> str:
    """What is wrong with the value of an opening ``[name=value]`` tag ('' when nothing is)."""
    if name == "color" and not is_colour(value.strip()):
        return f"[color={value}]: {value!r} is not a colour; expected #rrggbb or a palette name"
    if name == "size" and span_size(value) is None:
        return f"[size={value}]: {value!r} is not a size; expected points, e.g. [size=8] or [size=7.5pt]"
    if name == "font" and value.strip() not in fonts:
        return f"[font={value}]: unknown font {value!r}; expected one of {', '.join(fonts)}"
    return ""


def _example(name: str) -> str:
    """An example of a tag that takes a value."""
    return {"color": "[color=#b22222]", "size": "[size=8]", "font": "[font=Vera-Bold]"}[name]


def _shapes() -> list[str]:
    """Every tag as written, for messages."""
    return [*(_example(name) for name in VALUED), *(f"[{name}]" for name in PLAIN)]
