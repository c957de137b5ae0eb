"""Print-shop presets (``layouts/print_shops.yaml``): a card-printing service's file convention.

A preset gives the bleed of ``--print-shop`` pages (1/8 in unless a preset says otherwise),
the safe zone the service keeps clear (set against the layouts once per build: generator/preflight/shop_safe.py), its dpi, whether a piece's back or front comes
first, and how the pages are split into files (per component, per side, per piece).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from punchboard.generator.document.pages import Page

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.paths import LAYOUTS
from punchboard.plumbing.units import UnitError, parse_length
from punchboard.spec.yamlsource import load_yaml

PRINT_SHOPS_FILE = LAYOUTS / "print_shops.yaml"
ORDERS = ("front-first", "back-first")
FILES = ("component", "side", "card")


@dataclass(frozen=True)
class PrintShop:
    name: str
    bleed: float  # points
    safe: float  # points
    dpi: int
    order: str
    files: str
    source: str


@dataclass(frozen=True)
class PrintShops:
    default: str
    presets: dict[str, PrintShop]

    def get(self, name: str | None) -> PrintShop:
        return self.presets[name or self.default]


@lru_cache(maxsize=2)
def load_print_shops(path: Path = PRINT_SHOPS_FILE) -> PrintShops:
    """The presets, checked: every problem as ``file:line:col: what is wrong``."""
    doc = load_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    problems: list[Problem] = []
    presets: dict[str, PrintShop] = {}
    raw = data.get("presets")
    if not isinstance(raw, dict) or not raw:
        raise SpecError([doc.problem(("presets",), "presets: expected a mapping of preset names to settings")])
    for name, entry in raw.items():
        if not isinstance(entry, dict):
            problems.append(doc.problem(("presets", name), f"{name}: expected bleed, safe, dpi, order, files and source"))
            continue
        lengths = {}
        for key in ("bleed", "safe"):
            try:
                lengths[key] = parse_length(entry.get(key))
            except UnitError as exc:
                problems.append(doc.problem(("presets", name, key), f"{key}: {exc}"))
        dpi, order, files = entry.get("dpi"), entry.get("order"), entry.get("files")
        if not isinstance(dpi, int) or isinstance(dpi, bool) or not 72 <= dpi <= 2400:
            problems.append(doc.problem(("presets", name, "dpi"), f"dpi: expected a whole number 72–2400, got {dpi!r}"))
        if order not in ORDERS:
            problems.append(doc.problem(("presets", name, "order"), f"order: expected one of {', '.join(ORDERS)}, got {order!r}"))
        if files not in FILES:
            problems.append(doc.problem(("presets", name, "files"), f"files: expected one of {', '.join(FILES)}, got {files!r}"))
        if not problems:
            presets[str(name)] = PrintShop(str(name), lengths["bleed"], lengths["safe"], int(dpi), str(order), str(files),  # type: ignore[arg-type]
                                           str(entry.get("source", "")))
    default = data.get("default")
    if not problems and default not in presets:
        problems.append(doc.problem(("default",), f"default: expected one of the presets ({', '.join(presets)}), got {default!r}"))
    if problems:
        raise SpecError(problems)
    return PrintShops(str(default), presets)


def in_order(pages: Sequence[Page], shop: PrintShop) -> list[Page]:
    """Print-shop pages (a front, then its back when it has one) in the preset's order."""
    out = list(pages)
    if shop.order == "back-first":
        for i in range(len(out) - 1):
            if out[i].role == "front" and out[i + 1].role == "back":
                out[i], out[i + 1] = out[i + 1], out[i]
    return out


def split(pages: Sequence[Page], shop: PrintShop, stem: str) -> dict[str, list[Page]]:
    """The extra files a preset asks for beside ``<stem>.pdf``: file name → its pages."""
    if shop.files == "side":
        fronts = [p for p in pages if p.role != "back"]
        backs = [p for p in pages if p.role == "back"]
        return {f"{stem}-fronts.pdf": fronts, **({f"{stem}-backs.pdf": backs} if backs else {})}
    if shop.files == "card":
        pieces: list[list[Page]] = []
        first, second = ("back", "front") if shop.order == "back-first" else ("front", "back")
        for page in pages:
            if pieces and page.role == second and len(pieces[-1]) == 1 and pieces[-1][0].role == first:
                pieces[-1].append(page)  # the other side of the piece just begun
            else:
                pieces.append([page])
        width = max(3, len(str(len(pieces))))
        return {f"{stem}-{n:0{width}d}.pdf": piece for n, piece in enumerate(pieces, start=1)}
    return {}

