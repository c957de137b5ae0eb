"""Benchmark: building the Steam Court cards (gear deck and characters) as PDFs."""

from __future__ import annotations

import time
from pathlib import Path

from punchboard.generator.document.pages import render
from punchboard.generator.impose.cards import render_cards
from punchboard.generator.impose.context import BuildContext
from punchboard.generator.impose.style import load_style
from punchboard.generator.options import BuildOptions

from punchboard.plumbing.paths import COMPONENTS
from punchboard.spec.loader import load_game, load_paper


def run() -> list[dict]:
    """Time laying out and rendering each Steam Court deck per back mode (best of three)."""
    game = load_game(Path(COMPONENTS / "steam_court"))
    style = load_style()
    results = []
    for backs in ("duplex-long", "gutterfold"):
        options = BuildOptions(paper="letter", backs=backs, quiet=True)
        ctx = BuildContext(game, load_paper(options.paper), options, style)
        for component in (c for c in game.printed if c.kind == "deck"):
            best = float("inf")
            size = pages = 0
            for _ in range(3):
                start = time.perf_counter()
                page_list = render_cards(ctx, game, component, options)
                data = render(page_list, game.title, style, component.name)
                best = min(best, time.perf_counter() - start)
                size, pages = len(data), len(page_list)
            results.append({
                "name": f"steam_court/{component.id} ({backs})",
                "seconds": round(best, 4),
                "cards": component.count,
                "pages": pages,
                "cards_per_second": round(component.count / best, 1),
                "bytes": size,
            })
    return results


if __name__ == "__main__":
    for row in run():
        print(row)
