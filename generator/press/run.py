"""What ``build`` does for the press: the shop's product sizes, the CMYK (PDF/X-1a) files, the press preflight.

A CMYK build converts every component PDF of a game's folder (not the combined print-and-play PDF, which is
for home printers) into ``OUT/<game>/press/`` under the same name (the RGB
files stay where they are: later builds copy unchanged pages from them). A press file is made again only when
its source's bytes, the settings, the profile or this code changed (punchboard/incremental/press_record.py); the preflight's
findings are kept in the same record, so a file not converted again reports them again.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from punchboard.generator.options import BuildOptions

from punchboard.incremental import press_record
from punchboard.plumbing.paths import game_output
from punchboard.spec.model import Game

from .settings import Press, press, wanted
from .shop_sizes import shop_size_warnings

if TYPE_CHECKING:
    from punchboard.generator.build import GameReport

    from .page_pieces import Placed

PRESS_FOLDER = "press"
VERSION = 3


def _code_key(settings: Press) -> str:
    import pikepdf

    from .pdfx import ghostscript

    here = Path(__file__).parent
    gs = subprocess.run([ghostscript(), "--version"], capture_output=True, text=True, timeout=60, check=False).stdout.strip()
    parts = [str(VERSION), gs, pikepdf.__version__, repr(settings), hashlib.sha256(settings.profile.read_bytes()).hexdigest()]
    parts += [hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(here.glob("*.py"))]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _checked(game: Game, path: Path, names: set[str]) -> bool:
    """Whether the preflight reads this file: a component's own PDF, not a split copy of one (fronts, backs, one card)."""
    stem = path.stem
    split = re.fullmatch(r"(.+)-(fronts|backs|\d{3,})", stem)
    return not (split and split.group(1) in names)


def _pages(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8])
    return f"page{'s' if len(numbers) > 1 else ''} {shown}" + (f" and {len(numbers) - 8} more" if len(numbers) > 8 else "")


def findings(source: Path, converted: Path, settings: Press, named: frozenset[tuple[int, int, int]] = frozenset(),
             placed: list[list[Placed]] | None = None) -> list[str]:
    """The press preflight of one file: out-of-gamut colours (from the RGB source; those in ``named`` are left to
    the warnings that name their layout element) and heavy ink (from the press file), by page and, with ``placed``
    (page_pieces.py: each page's pieces and slots), by the pieces where the ink is over the limit."""
    from .gamut import off_gamut, pdf_colours

    pages = pdf_colours(source)
    said = []
    for colour in off_gamut(settings, {c for found in pages.values() for c in found} - named):
        where = [n for n, found in pages.items() if colour.rgb in found]
        said.append(f"{source.name} {_pages(where)}: {colour.words()}, over the {settings.delta_e:g} the press settings allow")
    for ink, numbers, pieces in _heavy(converted, settings, placed):
        shown = f" ({_named(pieces)})" if pieces else ""
        said.append(f"{source.name} {_pages(numbers)}{shown}: total ink coverage reaches {ink:g} %, over the "
                    f"{settings.coverage_limit:g} % the press allows; lighten the darkest colours")
    return said


def _heavy(converted: Path, settings: Press, placed: list[list[Placed]] | None) -> list[tuple[float, list[int], list[str]]]:
    """The pages whose ink goes over the limit, grouped by their highest ink, heaviest first, each group with
    the pieces where it does (none when the pages are not mapped)."""
    from .coverage import page_inks
    from .page_pieces import named

    heavy: dict[float, tuple[list[int], list[str]]] = {}
    pages = page_inks(converted, settings.coverage_dpi)
    if placed is not None and len(placed) != len(pages):
        placed = None  # imposed otherwise than the file was (an option page_pieces does not follow): pages only
    for number, inks in enumerate(pages, start=1):
        ink = round(float(inks.max()), 1)
        if ink <= settings.coverage_limit:
            continue
        numbers, pieces = heavy.setdefault(ink, ([], []))
        numbers.append(number)
        if placed is not None:
            height = inks.shape[0] * 72 / settings.coverage_dpi
            pieces.extend(p for p in named(placed[number - 1], inks > settings.coverage_limit, height, settings.coverage_dpi)
                          if p not in pieces)
    return [(ink, numbers, pieces) for ink, (numbers, pieces) in sorted(heavy.items(), reverse=True)]


def _named(pieces: list[str]) -> str:
    return ", ".join(pieces[:4]) + (f" and {len(pieces) - 4} more" if len(pieces) > 4 else "")


def press_game(game: Game, folder: Path, options: BuildOptions) -> tuple[list[str], list[str]]:
    """The press warnings and notes of one built game, writing its CMYK files when the build asks for CMYK."""
    warnings = shop_size_warnings(game, options.print_shop_preset) if options.print_shop else []
    colour, _ = wanted(options)
    if colour != "cmyk":
        return warnings, []
    from .design_colours import design_colours, gamut_warnings
    from .page_pieces import page_pieces
    from .pdfx import PDFX_CONFORMANCE, convert
    from .profile import description
    from .transparency import FLATTEN_DPI, transparent_pages

    settings = press(options)
    warnings.extend(gamut_warnings(game, settings))  # by layout element and piece; the files add the rest (SVG art, icons)
    named = frozenset(design_colours(game))
    target = folder / PRESS_FOLDER
    target.mkdir(exist_ok=True)
    old = press_record.read(target)  # a damaged record is read as missing
    key = _code_key(settings) + repr(sorted(named)) + repr(sorted((p.component, p.index, p.name) for c in game.printed for p in c.pieces))
    placed: dict[str, list[list[Placed]]] | None = None  # each file's pages' pieces, made when a file is converted
    names = {component.id for component in game.components}
    record: dict[str, Any] = {}
    notes: list[str] = []
    home = (f"{game.id}-print-and-play.pdf", f"{game.id}-reprint.pdf")  # for home printers: they stay RGB
    for source in sorted(p for p in folder.glob("*.pdf") if p.name not in home):
        data = source.read_bytes()
        digest = hashlib.sha256(data + key.encode()).hexdigest()
        entry = old.get(source.name)
        if not (isinstance(entry, dict) and entry.get("digest") == digest and (target / source.name).is_file()):
            convert(source, target / source.name, settings)
            if placed is None:
                placed = page_pieces(game, options)
            said = (findings(source, target / source.name, settings, named, placed.get(source.name))
                    if _checked(game, source, names) else [])
            entry = {"digest": digest, "findings": said, "flattened": transparent_pages(source)}
        record[source.name] = entry
        warnings.extend(f"{game.id} / {line}" for line in entry["findings"])
        if entry["flattened"]:
            notes.append(f"press: {source.name} {_pages(entry['flattened'])}: drawn with transparency (opacity, a picture's alpha), "
                         f"which PDF/X-1a does not allow: flattened into one {FLATTEN_DPI} dpi CMYK image a page, text included")
    for stale in target.glob("*.pdf"):
        if stale.name not in record:
            stale.unlink()
    press_record.write(target, record)
    kind = PDFX_CONFORMANCE if settings.pdfx else "CMYK PDF"
    return warnings, [f"press: {len(record)} {kind} file{'s' if len(record) != 1 else ''} for {description(settings.profile)} in {target}",
                      *notes]


def options_problem(options: BuildOptions) -> str | None:
    """What is wrong with a build's press options (``--flag: why``), or None: the checks ``build`` makes first."""
    from .profile import profile_problem

    if options.pdfx == "1a" and options.colour == "rgb":
        return "--pdfx 1a: PDF/X-1a files are CMYK; drop --colour rgb"
    if options.icc and (problem := profile_problem(Path(options.icc))):
        return f"--icc: {problem}"
    return None


def with_press(game: Game, out: Path, report: GameReport, options: BuildOptions) -> GameReport:
    """``report`` (what ``build_game`` did for ``game`` into ``out``) after the press step ``build`` makes: the
    shop-size and press warnings added (none with ``--preflight off``) and the press notes; for watch and the API."""
    from dataclasses import replace

    warnings, notes = press_game(game, game_output(out, game.id, options.lang), options)
    if options.preflight == "off":
        warnings = []
    return replace(report, warnings=(*report.warnings, *warnings), notes=(*report.notes, *notes))


def press_games(games: list[Game], out: Path, options: BuildOptions) -> tuple[list[tuple[str, str]], bool]:
    """Run the press step for every built game; print and return its lines (stream, text) and whether
    ``--preflight strict`` fails the build on them. Does nothing for an RGB build without a shop preset."""
    import sys

    lines: list[tuple[str, str]] = []
    for game in games:
        warnings, notes = press_game(game, game_output(out, game.id, options.lang), options)
        if options.preflight != "off":
            lines.extend(("stderr", f"warning: {text}") for text in warnings)
        if not options.quiet:
            lines.extend(("stdout", f"{game.id}: {text}") for text in notes)
    for stream, text in lines:
        print(text, file=sys.stderr if stream == "stderr" else sys.stdout)
    return lines, options.preflight == "strict" and any(stream == "stderr" for stream, _ in lines)
