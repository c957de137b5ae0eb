"""``punchboard build``: one PDF per printed component and a combined print-and-play PDF per game."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from punchboard.atomicio import write_bytes
from punchboard.loader import load_paper
from punchboard.model import Game

from .bom_page import bom_page, bom_with_sheets
from .calibration import calibration_pages
from .context import BuildContext
from .cover import ContentsLine, blank_page, cover_page
from .document import Page, render
from .kinds import KINDS
from .options import BuildOptions
from .style import load_style

DUPLEX = ("duplex-long", "duplex-short")


def build_games(games: list[Game], out_dir: Path, options: BuildOptions) -> int:
    """Build every game; warnings (text that does not fit, …) go to stderr. Returns the exit code."""
    for game in games:
        warnings = build_game(game, out_dir, options)
        for message in warnings:
            print(f"warning: {message}", file=sys.stderr)
    return 0


def _paired(pages: Sequence[Page], options: BuildOptions) -> list[Page]:
    """In duplex modes a component without back pages gets blank reverses, so the next
    component's fronts start on a fresh sheet of the combined PDF."""
    if options.backs not in DUPLEX or options.print_shop or any(p.role == "back" for p in pages):
        return list(pages)
    paired: list[Page] = []
    for page in pages:
        paired += [page, blank_page(page.width, page.height)]
    return paired


def build_game(game: Game, out_dir: Path, options: BuildOptions) -> list[str]:
    paper = load_paper(options.paper)
    style = load_style()
    ctx = BuildContext(game, paper, options, style)
    folder = out_dir / game.id
    contents: list[ContentsLine] = []
    body: list[Page] = []
    pages_by_component: dict[str, list[Page]] = {}
    for component in game.printed:
        renderer = KINDS.get(component.kind)
        if renderer is None:
            print(f"note: {game.id} / {component.id}: kind '{component.kind}' is not yet printable; skipped", file=sys.stderr)
            continue
        pages = renderer(ctx, game, component, options)
        if not pages:
            continue
        pages_by_component[component.id] = pages
        file = f"{component.id}.pdf"
        write_bytes(folder / file, render(pages, game.title, style, component.name))
        contents.append(ContentsLine(component.name, component.kind, component.count, len(pages), file))
        body += _paired(pages, options)
        if not options.quiet:
            print(f"{game.id}: {folder / file} ({len(pages)} pages)")
    bom = bom_with_sheets(game, pages_by_component, options)
    write_bytes(folder / "bom.json", (json.dumps(bom, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    # The bill of materials is the cover's reverse in duplex modes, so both stay one sheet.
    front: list[Page] = [cover_page(game, paper, style, options, contents), bom_page(bom, paper.width, paper.height, paper.margin, style.footer_height)]
    if options.backs in DUPLEX and not options.print_shop:
        calibration = calibration_pages(paper, style, options.backs)
        front += calibration
        write_bytes(folder / "duplex-calibration.pdf", render(calibration, game.title, style, "duplex calibration"))
    combined = folder / f"{game.id}-print-and-play.pdf"
    write_bytes(combined, render(front + body, game.title, style, "print and play"))
    if not options.quiet:
        print(f"{game.id}: {combined} ({len(front) + len(body)} pages)")
    return ctx.warnings
