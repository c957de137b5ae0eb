"""Press settings: ``layouts/press.yaml``, a shop preset's ``colour``/``pdfx`` keys and the command line's choice."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from punchboard.generator.options import BuildOptions

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.paths import LAYOUTS
from punchboard.spec.yamlsource import load_yaml

PRESS_FILE = LAYOUTS / "press.yaml"
SHOPS_FILE = LAYOUTS / "print_shops.yaml"
INTENTS = {"perceptual": 0, "relative": 1, "saturation": 2, "absolute": 3}  # ICC numbering, as Ghostscript's RenderIntent


@dataclass(frozen=True)
class Press:
    """What a CMYK build converts with and checks against."""

    profile: Path  # the CMYK output profile (ICC, 4 channels)
    condition: str  # OutputConditionIdentifier
    intent: str  # a key of INTENTS
    black_point_compensation: bool
    coverage_limit: float  # percent
    coverage_dpi: int
    delta_e: float
    pdfx: bool  # write PDF/X-1a:2003 files (else plain CMYK PDFs)
    rich_black: tuple[float, float, float, float] | None = None  # --rich-black: large black areas' C, M, Y, K (0–1)
    text_below: float = 12.0  # points: black text smaller than this stays 100 % K under --rich-black
    area_from: float = 12.0  # points: a black fill narrower or lower than this (a rule) stays 100 % K

    @property
    def intent_number(self) -> int:
        return INTENTS[self.intent]


def _number(doc: Any, data: dict[str, Any], key: str, low: float, high: float, problems: list[Problem]) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        problems.append(doc.problem((key,), f"{key}: expected a number from {low:g} to {high:g}, got {value!r}"))
        return low
    return float(value)


@lru_cache(maxsize=2)
def _press_file(path: Path = PRESS_FILE) -> tuple[dict[str, Any], list[Problem], Any]:
    doc = load_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    problems: list[Problem] = []
    if data.get("intent") not in INTENTS:
        problems.append(doc.problem(("intent",), f"intent: expected one of {', '.join(INTENTS)}, got {data.get('intent')!r}"))
    if not isinstance(data.get("black_point_compensation"), bool):
        problems.append(doc.problem(("black_point_compensation",), "black_point_compensation: expected true or false"))
    for key in ("profile", "condition"):
        if not isinstance(data.get(key), str) or not data.get(key):
            problems.append(doc.problem((key,), f"{key}: expected a non-empty string"))
    if not isinstance(data.get("profile_dirs"), list):
        problems.append(doc.problem(("profile_dirs",), "profile_dirs: expected a list of folders"))
    return data, problems, doc


def _rich_black(doc: Any, data: dict[str, Any], problems: list[Problem]) -> tuple[tuple[float, ...], float, float]:
    """``rich_black``: its CMYK mix (0–1) and the text size and shape size (points) from which it is used."""
    from punchboard.plumbing.units import UnitError, parse_length

    entry = data.get("rich_black")
    if not isinstance(entry, dict):
        problems.append(doc.problem(("rich_black",), "rich_black: expected cmyk, text_below and area_from"))
        return (0.0, 0.0, 0.0, 1.0), 12.0, 12.0
    cmyk = entry.get("cmyk")
    if not (isinstance(cmyk, list) and len(cmyk) == 4
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 100 for v in cmyk)):
        problems.append(doc.problem(("rich_black", "cmyk"), f"cmyk: expected four percentages [C, M, Y, K], got {cmyk!r}"))
        cmyk = [0, 0, 0, 100]
    sizes = []
    for key in ("text_below", "area_from"):
        try:
            sizes.append(parse_length(entry.get(key)))
        except UnitError as exc:
            problems.append(doc.problem(("rich_black", key), f"{key}: {exc}"))
            sizes.append(12.0)
    return tuple(v / 100 for v in cmyk), sizes[0], sizes[1]


def shop_colour(preset: str | None) -> tuple[str | None, str | None]:
    """A shop preset's ``colour`` and ``pdfx`` keys (``layouts/print_shops.yaml``), None where it names none."""
    if preset is None:
        return None, None
    data = load_yaml(SHOPS_FILE).data
    entry = data.get("presets", {}).get(preset, {}) if isinstance(data, dict) else {}
    colour, pdfx = entry.get("colour"), entry.get("pdfx")
    return (str(colour) if colour else None), (str(pdfx) if pdfx else None)


def wanted(options: BuildOptions) -> tuple[str, str | None]:
    """The colour (``rgb`` or ``cmyk``) and PDF/X level (``1a`` or None) a build writes: the command line's
    choice, else the shop preset's (``--shop drivethrucards`` is CMYK PDF/X-1a), else RGB."""
    colour, pdfx = shop_colour(options.print_shop_preset) if options.print_shop else (None, None)
    pdfx = options.pdfx if options.pdfx is not None else pdfx
    colour = options.colour or colour or ("cmyk" if pdfx not in (None, "none") else "rgb")
    return colour, (pdfx if colour == "cmyk" and pdfx not in (None, "none") else None)


def press(options: BuildOptions) -> Press:
    """The press settings for a CMYK build; a bad settings file or a missing profile is a SpecError."""
    data, problems, doc = _press_file()
    limit = _number(doc, data, "coverage_limit", 100, 400, problems)
    dpi = _number(doc, data, "coverage_dpi", 9, 300, problems)
    delta_e = _number(doc, data, "delta_e", 0.5, 100, problems)
    rich, text_below, area_from = _rich_black(doc, data, problems)
    if problems:
        raise SpecError(problems)
    if options.icc:
        profile = Path(options.icc)
        condition = "Custom"
    else:
        found = [Path(d) / data["profile"] for d in data["profile_dirs"] if (Path(d) / data["profile"]).is_file()]
        if not found:
            raise SpecError([doc.problem(("profile",), f"profile: {data['profile']} is in none of profile_dirs (is Ghostscript "
                                                      "installed?); give a CMYK profile with --icc PATH")])
        profile, condition = found[0], str(data["condition"])
    return Press(profile, condition, str(data["intent"]), bool(data["black_point_compensation"]), limit, int(dpi), delta_e,
                 wanted(options)[1] == "1a", rich if options.rich_black else None, text_below, area_from)  # type: ignore[arg-type]
