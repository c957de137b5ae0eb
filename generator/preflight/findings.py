"""A preflight finding is a build warning with a name: ``WHERE: preflight CODE: what and the figure [layout:LINE:COL]``.

``WHERE`` names the piece as every build warning does (``game / component / card 'Name'``),
so the studio places it on that piece; ``CODE`` is the name an element's
``preflight: {ignore: [CODE]}`` silences it by; the bracket points at the layout
element. A deck whose every card shows the same finding is summed up in one line
when warnings are printed (:func:`summarise`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from punchboard.spec.model import Element

CODES: Mapping[str, str] = {
    "low_dpi": "a raster image below 300 dpi at the size it is printed (below 150: blurry)",
    "small_text": "text set below 6 pt after shrinking to fit",
    "thin_stroke": "a line or outline thinner than 0.25 pt",
    "safe_zone": "text or key art outside the safe zone (or past the trim, in the bleed)",
    "low_contrast": "text against what lies under it below the WCAG contrast ratio (4.5:1; 3:1 from 18 pt)",
    "trim_edge": "a filled shape or picture that stops exactly at the trim of a piece with bleed (a cut that drifts shows paper)",
    "colour_blind": "a field whose values are told only by colours that look alike with protanopia, deuteranopia or tritanopia",
    "grayscale": "a field whose values are told only by colours that look alike printed in black and white",
}
MODES = ("warn", "strict", "off")
_FINDING = re.compile(r"^(?P<where>.+?): preflight (?P<code>[a-z_]+): (?P<rest>.*)$", re.DOTALL)
_PIECE = re.compile(r"^(?P<head>.+ / \S+ / \S+) (?P<label>'.*'|#\d+)$")


def message(where: str, code: str, text: str, element: Element) -> str:
    assert code in CODES, code
    return f"{where}: preflight {code}: {text} [{element.source}]"


def code_of(warning: str) -> str | None:
    """The finding's code when ``warning`` is a preflight finding, else None."""
    match = _FINDING.match(warning)
    return match.group("code") if match and match.group("code") in CODES else None


def ignored(element: Element, code: str) -> bool:
    """Whether the layout silenced ``code`` on this element (``preflight: {ignore: [low_dpi]}``)."""
    settings = element.props.get("preflight")
    if not isinstance(settings, Mapping):
        return False
    return code in (settings.get("ignore") or ())


def count(warnings: Iterable[str]) -> int:
    return sum(1 for warning in warnings if code_of(warning) is not None)


def shown(warnings: Iterable[str], mode: str) -> list[str]:
    """The warnings to print: preflight findings left out with ``--preflight off``, and one line
    for a finding every piece of a component shares (:func:`summarise`)."""
    kept = [w for w in warnings if mode != "off" or code_of(w) is None]
    return summarise(kept)


def summarise(warnings: Iterable[str]) -> list[str]:
    """Preflight findings that differ only in the piece they name become one line naming the
    first piece and how many more (``… / card 'Ace' and 12 more: preflight …``); every other
    warning stays as it is, in order."""
    order: list[str | tuple[str, str]] = []  # a warning as it is, or the key of a group of findings
    groups: dict[tuple[str, str], list[str]] = {}
    for warning in warnings:
        match = _FINDING.match(warning)
        piece = _PIECE.match(match.group("where")) if match and match.group("code") in CODES else None
        if match is None or piece is None:
            order.append(warning)
            continue
        key = (piece.group("head"), warning[len(match.group("where")):])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(piece.group("label"))
    lines = []
    for item in order:
        if isinstance(item, str):
            lines.append(item)
            continue
        labels = groups[item]
        more = f" and {len(labels) - 1} more" if len(labels) > 1 else ""
        lines.append(f"{item[0]} {labels[0]}{more}{item[1]}")
    return lines
