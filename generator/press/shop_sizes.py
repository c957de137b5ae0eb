"""A deck's trim set against the card sizes its print shop sells (``layouts/shop_products.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.paths import LAYOUTS
from punchboard.plumbing.units import UnitError, parse_length, to_mm
from punchboard.spec.model import Game

PRODUCTS_FILE = LAYOUTS / "shop_products.yaml"


@dataclass(frozen=True)
class Products:
    source: str
    sizes: dict[str, tuple[float, float]]  # product name → (width, height) in mm


@lru_cache(maxsize=2)
def load_products(path: Path = PRODUCTS_FILE) -> tuple[float, dict[str, Products]]:
    """The tolerance (mm) and each shop's products, checked: every problem as ``file:line:col: …``."""
    from punchboard.spec.yamlsource import load_yaml

    doc = load_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    problems: list[Problem] = []
    shops: dict[str, Products] = {}
    try:
        tolerance = to_mm(parse_length(data.get("tolerance")))
    except UnitError as exc:
        problems.append(doc.problem(("tolerance",), f"tolerance: {exc}"))
        tolerance = 0.0
    for shop, entry in (data.get("shops") or {}).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("source"), str) or not isinstance(entry.get("products"), dict):
            problems.append(doc.problem(("shops", shop), f"{shop}: expected source (the page the sizes come from) and products"))
            continue
        sizes = {}
        for name, size in entry["products"].items():
            try:
                sizes[str(name)] = (to_mm(parse_length(size.get("width"))), to_mm(parse_length(size.get("height"))))
            except (UnitError, AttributeError) as exc:
                problems.append(doc.problem(("shops", shop, "products", name), f"{name}: expected width and height ({exc})"))
        shops[str(shop)] = Products(entry["source"], sizes)
    if problems:
        raise SpecError(problems)
    return tolerance, shops


def _distance(trim: tuple[float, float], product: tuple[float, float]) -> float:
    """How far a trim is from a product, either way round (the larger edge difference, mm)."""
    (w, h), (pw, ph) = trim, product
    return min(max(abs(w - pw), abs(h - ph)), max(abs(w - ph), abs(h - pw)))


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def shop_size_warnings(game: Game, shop: str | None) -> list[str]:
    """A warning for each deck whose trim matches none of the shop's products, naming the nearest one."""
    tolerance, shops = load_products()
    products = shops.get(shop or "")
    if products is None or not products.sizes:
        return []
    warnings = []
    for component in game.components:
        if component.kind != "deck" or component.size is None or not component.printed:
            continue
        trim = (to_mm(component.size.width), to_mm(component.size.height))
        nearest = min(products.sizes, key=lambda name: (_distance(trim, products.sizes[name]), name))
        if _distance(trim, products.sizes[nearest]) <= tolerance:
            continue
        pw, ph = products.sizes[nearest]
        warnings.append(f"{game.id} / {component.id}: the trim {_mm(trim[0])} × {_mm(trim[1])} mm is none of the card sizes "
                        f"{shop} sells; the nearest is {nearest} ({_mm(pw)} × {_mm(ph)} mm). Change the deck's size or ask the shop "
                        f"(sizes from {products.source})")
    return warnings
