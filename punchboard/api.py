"""The Python API: load, build, verify and export a game from a script or a notebook.

The same work as the ``punchboard`` command, without a subprocess::

    import punchboard

    game = punchboard.load_game("mygame")                # a folder, or a bundled game id
    report = punchboard.build(game, "output", paper="a4")
    print(report.rendered, report.warnings)
    results = punchboard.verify(game)
    print({(r.variant, r.players): r.status for r in results})
    images = punchboard.export_images(game, "output", dpi=150)

Invalid input raises :class:`punchboard.plumbing.errors.SpecError`, whose ``problems``
are the ``file:LINE:COL: message`` lines the CLI prints. Like the CLI, this module sits
above the generator and the verifier and imports them only when a function needs them,
so ``import punchboard`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields as dataclass_fields
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from punchboard.plumbing.errors import Problem, SpecError
from punchboard.plumbing.limits import DEFAULT_LIMITS, Limits
from punchboard.plumbing.paths import bundled_games, resolve_target
from punchboard.plumbing.units import UnitError, parse_length
from punchboard.spec.model import Game

if TYPE_CHECKING:
    from punchboard.generator.build import GameReport
    from punchboard.generator.export.images import ExportedImage
    from punchboard.verifier.findings import Result

GameLike = Game | str | PathLike[str]


def load_game(target: str | PathLike[str], limits: Limits = DEFAULT_LIMITS) -> Game:
    """Load and validate a game: a folder with a ``game.yaml`` (or that file), or a bundled game id.

    Returns the immutable :class:`punchboard.spec.model.Game`. Raises ``SpecError`` listing
    every problem (``file:LINE:COL: what is wrong``) when the input is invalid, exactly as
    ``punchboard check`` reports them. ``limits`` raises the input bounds (docs/limits.md).
    """
    from punchboard.spec.loader import load_game as load

    folder = resolve_target(str(target))
    if folder is None:
        known = ", ".join(p.name for p in bundled_games())
        raise SpecError([Problem(str(target), 1, 1, f"no game '{target}': expected a bundled game id ({known}) or a folder with a game.yaml")])
    return load(folder, limits)


def _game(game: GameLike) -> Game:
    return game if isinstance(game, Game) else load_game(game)


def build(game: GameLike, out: str | PathLike[str] = "output", **options: Any) -> GameReport:
    """Build a game's PDFs into ``out/<game id>/``, like ``punchboard build``; returns what was done.

    ``game`` is a loaded :class:`Game`, a folder or a bundled id. Keyword options are the build
    flags: ``paper`` ("letter", "a4", …), ``backs`` ("duplex-long", "duplex-short", "gutterfold",
    "separate", "none"), ``duplex_offset`` ((x, y) in mm), ``print_shop``, ``print_shop_preset``, ``bleed_mm``, ``proof``, ``packing``
    ("spaced" or "touching"), ``force`` (redraw everything), and the press options ``colour``
    ("cmyk": also write ``out/<game id>/press/``), ``pdfx`` ("1a"), ``icc`` (a CMYK profile's path)
    and ``rich_black``, as ``--colour``, ``--pdfx``, ``--icc`` and ``--rich-black`` (a shop preset
    that asks for CMYK writes the press files too). Builds are incremental, as on the
    command line. The report has ``rendered`` and ``reused`` component ids, the ``warnings``
    the CLI would print (text that does not fit, colours outside the press gamut, …) and its
    ``notes`` (the press files written); nothing is printed. A bad press option raises ``ValueError``.
    """
    from punchboard.generator.build import build_game
    from punchboard.generator.options import BuildOptions
    from punchboard.generator.press.run import options_problem, with_press

    known = {f.name for f in dataclass_fields(BuildOptions)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"build() got unknown option(s) {', '.join(unknown)}; expected some of {', '.join(sorted(known))}")
    chosen = BuildOptions(**{"quiet": True, **options})
    if problem := options_problem(chosen):
        raise ValueError(problem)
    loaded = _game(game)
    return with_press(loaded, Path(out), build_game(loaded, Path(out), chosen), chosen)


def verify(game: GameLike, *, variant: str | None = None, players: int | None = None, trials: int = 20000,
           seed: int = 1, out: str | PathLike[str] | None = None) -> list[Result]:
    """Simulate every setup and deal of a game, like ``punchboard verify``; returns one result per check.

    Each :class:`punchboard.verifier.findings.Result` has ``variant``, ``players``, ``status``
    ("pass", "warn" or "fail"), ``findings`` (each with its message) and ``events`` (deal
    probabilities, exact and Monte Carlo with ``trials`` deals from ``seed``). ``variant`` and
    ``players`` narrow the checks. With ``out``, ``verify.md``, ``verify.svg`` and ``verify.png`` are written to
    ``out/<game id>/`` as the CLI does.
    """
    from punchboard.plumbing import atomicio
    from punchboard.verifier import report
    from punchboard.verifier.engine import verify_game

    loaded = _game(game)
    results = verify_game(loaded, variant=variant, players=players, trials=trials, seed=seed)
    if out is not None:
        folder = Path(out) / loaded.id
        atomicio.write_text(folder / "verify.md", report.markdown(loaded.id, loaded.title, results, trials, seed))
        atomicio.write_text(folder / "verify.svg", report.svg(loaded.title, results))
        atomicio.write_bytes(folder / "verify.png", report.png(loaded.title, results))
    return results


def export_images(game: GameLike, out: str | PathLike[str] = "output", *, dpi: float = 300,
                  bleed: str | float = "0.125in", unique: bool = False,
                  warn: Callable[[str], None] | None = None) -> list[ExportedImage]:
    """Write a PNG of every piece's face and back under ``out/<game id>/images/``, like ``punchboard images``.

    ``dpi`` is the resolution; ``bleed`` a length on every edge ("3mm", "0.125in"; a bare number
    is millimetres); ``unique`` writes one image per distinct piece and a ``manifest.json`` with
    the counts. ``warn``, if given, hears each thing drawing the pieces said (text that does not
    fit, …) once, as the CLI prints them after ``warning:``. Returns the images written.
    """
    from punchboard.generator.export.images import export_images as export

    try:
        bleed_pt = parse_length(bleed)
    except UnitError as err:
        raise ValueError(f"bleed: {err}") from None
    if not 1 <= dpi <= 1200:
        raise ValueError(f"dpi must be from 1 to 1200, got {dpi}")
    return export(_game(game), Path(out), dpi, bleed_pt, unique, warn=warn)


__all__ = ["build", "export_images", "load_game", "verify"]
