"""A big component's new sides drawn ahead in worker processes (``--jobs``), then replayed in order.

A component's PDF is one document: its sides become form XObjects numbered, and
their text given font subset codes, in the order the pages are drawn, so the
pages cannot be drawn apart and joined. What can be done apart is the drawing
itself. Each worker imposes the component as the build does and draws its share
of the pages (a contiguous run) on a canvas of its own that is never written,
keeping every side it draws as punchboard/incremental/side_store.py keeps them (its encoded
stream, its warnings and fingerprints), in a file beside the component's kept
sides. The build then draws the component as always and finds those sides as it
finds the sides of an earlier build (draw/kept.py): the worker's canvas and
the build's document fix the same fonts before their first side, so a side is
found under the same key and written the same in both. So the PDF is byte for
byte the one ``--jobs 1`` writes.

This pays only when most of a component's sides are new (a first or a forced
build, a changed card face; not a one-card edit), so :func:`worth_it` asks for
that, from what the last build kept and the layouts it drew them with.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from punchboard.generator.draw.kept import font_set
from punchboard.generator.draw.reads import reuse_key

from punchboard.incremental.side_store import AheadStore, SideStore, Warmed
from punchboard.incremental.sides import layout_digest
from punchboard.spec.model import Component, Game

from .jobs import PARALLEL_MIN_PIECES

if TYPE_CHECKING:
    from punchboard.generator.impose.context import BuildContext

    from .options import BuildOptions

WarmState = tuple["BuildContext", Game, int, Path, str, int]
"""What each worker is given: the build context, the game, the component's index in ``game.printed``, the
game's output folder, the salt of its kept sides, and how many workers share its pages."""


def layout_digests(game: Game, component: Component) -> dict[str, str]:
    """The digest of each layout the component's pieces are drawn with (draw/kept.py's, as in its sides' keys)."""
    return {name: layout_digest(game.layouts[name]) for name in sorted(component.layouts()) if name in game.layouts}


# Sides that drawing ahead must take off the build's longest path for it to pay: each worker is forked,
# imposes the whole component and replays its kept sides before it draws a new one, and the build then
# replays every side drawn ahead. Measured on the 2-core machine, clean builds, two workers: 1,000 distinct
# text cards (500 taken off the path) 2.09 → 1.58 s; 500 cards × 2 copies (none taken off: each worker's
# run of pages holds every card once) 1.25 → 1.41 s, slower. Below 300 it is not worth the risk.
MIN_SAVED = 300


def worth_it(game: Game, component: Component, store: SideStore, options: BuildOptions, shares: int,
             digests: dict[str, str]) -> bool:
    """Whether drawing ahead in ``shares`` workers pays (``digests``: :func:`layout_digests`): a component of at least :data:`PARALLEL_MIN_PIECES`
    pieces whose new distinct sides, less those the busiest worker draws, come to :data:`MIN_SAVED`. Each
    worker draws the new sides in its run of the pages (its share of the pieces, in order): a deck printed
    in two copies puts every card in both runs, and gains nothing.

    What is new is told from what the last build kept beside its sides (``<component>.layouts``): every
    side when it drew with another salt (code, options, palette) or there is no last build (or
    ``--force``); those drawn with a changed layout (a card face, not a common back) otherwise. A build
    whose layouts and salt are those of the last one (a card edited) draws nothing ahead, and pays for no
    more than comparing the layouts' digests. A print-shop or cut build imposes its pages otherwise: not
    drawn ahead."""
    pieces = component.pieces
    if len(pieces) < PARALLEL_MIN_PIECES or options.print_shop or options.cut:
        return False
    before = store.drawn_with
    changed = set(digests) if before is None or before[0] != store.salt else \
        {name for name, digest in digests.items() if before[1].get(name) != digest}
    if not changed:
        return False
    runs: list[set[tuple[str, bytes]]] = [set() for _ in range(shares)]  # the new distinct sides of each run
    for n, piece in enumerate(pieces):
        for side in (piece.face, piece.back):
            if side is not None and side.layout in changed and side.layout in game.layouts:
                runs[n * shares // len(pieces)].add((side.layout, reuse_key(game.layouts[side.layout], {**piece.fields, **side.fields})))
    new = set().union(*runs)
    if before is None:  # nothing told how the kept sides were drawn: those beyond their count are new
        if len(new) - store.known < MIN_SAVED:
            return False
    return len(new) - max(len(run) for run in runs) >= MIN_SAVED


def draw_ahead(state: WarmState, share: int) -> Warmed:
    """Worker ``share`` of ``state``'s count: impose the component and draw its share of the pages apart."""
    from punchboard.generator.document.pages import draw_apart
    from punchboard.generator.impose.kinds import KINDS

    ctx, game, index, folder, salt, shares = state
    component = game.printed[index]
    store = AheadStore(folder, component.id, salt, read=not ctx.options.force, fonts=font_set(game, component))
    ctx.kept_sides[component.id] = store
    try:
        pages = KINDS[component.kind](ctx, game, component, ctx.options)
        first, stop = len(pages) * share // shares, len(pages) * (share + 1) // shares
        draw_apart(pages, first, stop, game.title, ctx.style)
    except BaseException:
        store.drop()
        raise
    finally:
        del ctx.kept_sides[component.id]
    return store.finish()
