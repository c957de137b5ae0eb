"""A print shop's safe zone against the layouts' own, said once per build (``--shop PRESET``).

A service keeps ``safe`` (``layouts/print_shops.yaml``) between the cut and any
text or key art; a layout keeps its own ``safe:`` margin, which the preflight's
``safe_zone`` check holds its text and key art to. A layout's margin a little
narrower than the shop's — at most ``safe_slack`` (the same file: 3 mm against
1/8 in is 0.175 mm) — is a metric rounding of the same convention, not a
problem: one note per build names those layouts. A margin narrower by more is a
warning, one per build naming each layout and its margin.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from punchboard.generator.impose.print_shops import PRINT_SHOPS_FILE, load_print_shops

from punchboard.plumbing.errors import SpecError
from punchboard.plumbing.units import UnitError, parse_length, to_mm
from punchboard.spec.model import Game
from punchboard.spec.yamlsource import load_yaml

EPSILON = 1e-6  # points


@lru_cache(maxsize=2)
def safe_slack(path: Path = PRINT_SHOPS_FILE) -> float:
    """``safe_slack`` of the presets file in points (0 when absent); a bad length is a located error."""
    doc = load_yaml(path)
    value = doc.data.get("safe_slack") if isinstance(doc.data, dict) else None
    if value is None:
        return 0.0
    try:
        return parse_length(value)
    except UnitError as exc:
        raise SpecError([doc.problem(("safe_slack",), f"safe_slack: {exc}")]) from None


def _mm(points: float) -> str:
    return f"{to_mm(points):.3f}".rstrip("0").rstrip(".")


def shop_safe(game: Game, preset: str | None) -> tuple[list[str], list[str]]:
    """(warnings, notes) for the layouts the game prints whose safe zone is narrower than the ``preset``'s:
    at most one of each, naming the layouts; nothing without a named preset."""
    if not preset:
        return [], []
    shop = load_print_shops().get(preset)
    slack = safe_slack()
    used = sorted({side.layout for component in game.printed for piece in component.pieces
                   for side in (piece.face, piece.back) if side is not None and side.layout in game.layouts})
    narrow = {name: game.layouts[name].safe for name in used if game.layouts[name].safe < shop.safe - EPSILON}
    close = sorted(name for name, safe in narrow.items() if shop.safe - safe <= slack + EPSILON)
    far = sorted((name for name in narrow if name not in close), key=lambda name: (narrow[name], name))
    warnings, notes = [], []
    if far:
        listed = ", ".join(f"{name} {_mm(narrow[name])} mm" for name in far)
        warnings.append(f"{game.id}: safe zone narrower than {shop.name}'s {_mm(shop.safe)} mm between the cut and any "
                        f"text or key art in layout {listed}: widen the layout's safe: (the preflight holds text and "
                        "key art to it)")
    if close:
        by_margin: dict[float, list[str]] = {}
        for name in close:
            by_margin.setdefault(narrow[name], []).append(name)
        kept = "; ".join(f"{_mm(safe)} mm in layout {', '.join(names)}" for safe, names in sorted(by_margin.items()))
        notes.append(f"{shop.name} keeps {_mm(shop.safe)} mm clear of the cut; safe zone {kept}: within the "
                     f"{_mm(slack)} mm safe_slack of layouts/print_shops.yaml (a metric safe zone for 1/8 in)")
    return warnings, notes
