"""Reprint sheets: only the pieces whose drawing changed since an earlier print.

A build with ``record_print`` remembers what it drew as a numbered print
(:mod:`generator.prints`). With ``changed_since`` it also compares the drawings
with that earlier print and writes ``<game>-reprint.pdf``: a swap list first,
then the changed pieces imposed exactly like a normal build (same back mode,
marks, bleed), by handing each kind's renderer the component with only those
pieces in it.

Pieces are matched by drawing, not by position: a piece drawn exactly as one
in the earlier print is unchanged wherever it moved. What is left is paired by
name (then by place in the file) to tell "face changed", "back changed" and
"both" apart; the rest was added or removed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.units import to_mm
from punchboard.plumbing.words import ENGLISH, N_, words
from punchboard.spec.model import Component, Game, Paper

from . import prints
from .options import BuildOptions
from .prints import PiecePrint, PrintRecord

if TYPE_CHECKING:  # the renderers load only when a reprint PDF is written
    from punchboard.generator.document.swap_page import SwapLine
    from punchboard.generator.impose.context import BuildContext
    from punchboard.generator.impose.style import SheetStyle

DUPLEX = ("duplex-long", "duplex-short")
WHAT = {
    "face": N_("face"),
    "back": N_("back"),
    "both": N_("face and back"),
    "added": N_("new: whole piece"),
    "removed": N_("take out"),
}


@dataclass(frozen=True)
class Swap:
    """Alike pieces of one component and what happened to them since the earlier print."""

    component: str
    name: str
    what: str  # face | back | both | added | removed
    indexes: tuple[int, ...]  # the pieces' indexes in the current component (the earlier print's for removed)

    @property
    def count(self) -> int:
        return len(self.indexes)


def _pair(new: list[PiecePrint], old: list[PiecePrint], key: Callable[[PiecePrint], Hashable]) -> list[tuple[PiecePrint, PiecePrint]]:
    waiting: dict[Hashable, list[PiecePrint]] = defaultdict(list)
    for piece in old:
        waiting[key(piece)].append(piece)
    pairs = []
    for piece in list(new):
        bucket = waiting.get(key(piece))
        if bucket:
            partner = bucket.pop(0)
            pairs.append((piece, partner))
            new.remove(piece)
            old.remove(partner)
    return pairs


def _component_changes(old: Sequence[PiecePrint], new: Sequence[PiecePrint]) -> list[tuple[str, PiecePrint]]:
    pool: dict[tuple[str, str], list[PiecePrint]] = defaultdict(list)
    for piece in old:
        pool[(piece.face, piece.back)].append(piece)
    left_new = []
    for piece in new:
        bucket = pool.get((piece.face, piece.back))
        if bucket:
            bucket.pop(0)
        else:
            left_new.append(piece)
    left_old = sorted((p for bucket in pool.values() for p in bucket), key=lambda p: p.index)
    changes: list[tuple[str, PiecePrint]] = []
    pairs = _pair(left_new, left_old, lambda p: (p.name, p.copy)) + _pair(left_new, left_old, lambda p: (p.entry, p.copy))
    for now, before in pairs:
        if now.face != before.face and now.back != before.back:
            changes.append(("both", now))
        else:
            changes.append(("face" if now.face != before.face else "back", now))
    changes += [("added", p) for p in left_new]
    changes.sort(key=lambda change: change[1].index)
    return changes + [("removed", p) for p in left_old]


def compare(old: Sequence[PiecePrint], new: Sequence[PiecePrint]) -> list[Swap]:
    """What changed from ``old`` to ``new``, grouped by component, name and kind of change."""
    components = list(dict.fromkeys([p.component for p in new] + [p.component for p in old]))
    swaps: list[Swap] = []
    for component in components:
        grouped: dict[tuple[str, str], list[int]] = {}
        for what, piece in _component_changes([p for p in old if p.component == component],
                                              [p for p in new if p.component == component]):
            grouped.setdefault((piece.name, what), []).append(piece.index)
        swaps += [Swap(component, name, what, tuple(indexes)) for (name, what), indexes in grouped.items()]
    return swaps


# ---------------------------------------------------------------- the print a build makes


@dataclass
class PrintPlan:
    """What this build prints. The fingerprints are taken from the build's drawing (:func:`settle_print`
    after the components are drawn); with ``--stamp`` before drawing, so the stamp can carry the number."""

    folder: Path
    fingerprints: prints.Fingerprints | None
    last: PrintRecord | None
    base: PrintRecord | None  # the print --changed-since names
    number: int
    is_new: bool
    options: BuildOptions  # the build's options with the stamp label set
    paper: Paper
    style: SheetStyle
    older: dict[int, prints.Fingerprints] = field(default_factory=dict)  # by version, to compare with older prints


def plan_print(game: Game, folder: Path, options: BuildOptions, paper: Paper, style: SheetStyle) -> PrintPlan | None:
    """The prints to compare with, and (with ``--stamp``) the fingerprints and this build's print number
    (None: not asked for).

    Raises :class:`~generator.prints.PrintError` before anything is written when
    ``changed_since`` names a print that does not exist.
    """
    if not (options.record_print or options.changed_since or options.stamp):
        return None
    base = prints.resolve(folder, game.id, options.changed_since) if options.changed_since else None
    known = prints.numbers(folder)
    last = prints.load(folder, known[-1]) if known else None
    plan = PrintPlan(folder, None, last, base, 0, False, options, paper, style)
    if options.stamp:
        settle_print(plan, game, None)
        plan.options = replace(options, stamp_label=f"P{plan.number}")
    return plan


def settle_print(plan: PrintPlan, game: Game, drawn: prints.Drawn | None) -> None:
    """Take the fingerprints (``drawn``: those the build took while drawing) and decide the print number."""
    stampless = replace(plan.options, stamp_label="")
    plan.fingerprints = prints.fingerprint_game(game, stampless, plan.paper, plan.style, plan.folder, drawn)
    last = plan.last
    plan.is_new = last is None or bool(compare(last.pieces, _comparable(plan, game, last)))
    plan.number = (last.number + 1 if last is not None else 1) if plan.is_new else last.number  # type: ignore[union-attr]


def _comparable(plan: PrintPlan, game: Game, record: PrintRecord) -> tuple[PiecePrint, ...]:
    """This build's fingerprints in ``record``'s version (an older print's are taken afresh, once)."""
    assert plan.fingerprints is not None
    if record.version == plan.fingerprints.version:
        return plan.fingerprints.pieces
    if record.version not in plan.older:
        stampless = replace(plan.options, stamp_label="")
        plan.older[record.version] = prints.fingerprint_game(game, stampless, plan.paper, plan.style, plan.folder,
                                                             version=record.version)
    return plan.older[record.version].pieces


def finish_print(plan: PrintPlan | None, game: Game, context: Callable[[], BuildContext]) -> list[str]:
    """Record the print and write the reprint PDF, as the options ask; the lines to tell the user.

    ``context`` gives the build's context (made on demand: only a reprint needs the renderers).
    """
    if plan is None:
        return []
    options = plan.options
    if plan.fingerprints is None:  # nothing was drawn through the build (no printed component)
        settle_print(plan, game, None)
    assert plan.fingerprints is not None
    pieces = plan.fingerprints.pieces
    plan.fingerprints.save_memo(plan.folder)
    notes = []
    if options.record_print and plan.is_new:
        record = prints.new_record(plan.number, prints.render_options(options), pieces)
        prints.save(plan.folder, record)
        notes.append(f"recorded print {plan.number} ({len(pieces)} pieces) in {prints.prints_folder(plan.folder)}")
    elif options.record_print:
        notes.append(f"no change since print {plan.number}: no new print recorded")
    if plan.base is not None:
        swaps = compare(plan.base.pieces, _comparable(plan, game, plan.base))
        path = plan.folder / f"{game.id}-reprint.pdf"
        write_bytes(path, reprint_pdf(context(), plan, swaps))
        printed = sum(s.count for s in swaps if s.what != "removed")
        removed = sum(s.count for s in swaps if s.what == "removed")
        if not swaps:
            notes.append(f"nothing changed since print {plan.base.number}: nothing to reprint ({path} holds only the swap page)")
        else:
            out = f"; {removed} to take out" if removed else ""
            notes.append(f"reprint since print {plan.base.number}: {printed} piece(s) to print{out} → {path}")
    return notes


# ---------------------------------------------------------------- the reprint PDF


def _groups(ctx: BuildContext, component: Component, swaps: Sequence[Swap], lang: str = ENGLISH) -> list[tuple[BuildContext, Component]]:
    """The component cut down to its changed pieces: whole or face-only pieces, then backs printed alone."""
    from punchboard.generator.impose.context import BuildContext
    from punchboard.generator.impose.tiles import mirrored_cells
    from punchboard.generator.impose.tokens import mirrored_shape

    by_index = {piece.index: piece for piece in component.pieces}
    whole, backs = [], []
    for swap in swaps:
        for index in swap.indexes:
            piece = by_index[index]
            if swap.what in ("both", "added"):
                whole.append(piece)
            elif swap.what == "face":
                whole.append(replace(piece, back=None))
            elif swap.what == "back" and piece.back is not None and ctx.options.backs != "none":
                # A back printed on its own is a front: laid out as seen from behind.
                cells = mirrored_cells(piece.cells) if component.kind == "tiles" else piece.cells
                backs.append(replace(piece, face=piece.back, back=None, cells=cells))
    groups = []
    if whole:
        groups.append((ctx, replace(component, pieces=tuple(sorted(whole, key=lambda p: p.index)))))
    if backs:
        bleed = to_mm(prints.side_bleed(ctx, component))
        back_ctx = BuildContext(ctx.game, ctx.paper, replace(ctx.options, bleed_mm=bleed), ctx.style, ctx.warnings)
        shape = mirrored_shape(component.shape, True, False) if component.shape is not None else None
        cut = replace(component, name=words(lang).text("{component} — backs", component=component.name), pieces=tuple(backs), shape=shape)
        groups.append((back_ctx, cut))
    return groups


def _lines(game: Game, swaps: Sequence[Swap], backs_mode: str, lang: str = ENGLISH) -> list[SwapLine]:
    from punchboard.generator.document.swap_page import SwapLine

    w = words(lang)
    names = {c.id: c.name for c in game.components}
    lines = []
    for swap in swaps:
        note = w.text(WHAT[swap.what])
        if swap.what == "back" and backs_mode == "none":
            note += " " + w.text("(not printed: --backs none)")
        lines.append(SwapLine(swap.what, swap.count, swap.name, names.get(swap.component, swap.component), note))
    return lines


def reprint_pdf(ctx: BuildContext, plan: PrintPlan, swaps: Sequence[Swap], lang: str | None = None) -> bytes:
    """The swap list, then the changed pieces. No dates: the same prints give the same bytes.
    Its own words are in ``lang`` (default: the game's language, else English)."""
    from punchboard.generator.document.assemble import Part, assemble
    from punchboard.generator.document.cover import blank_page
    from punchboard.generator.document.pages import render
    from punchboard.generator.document.swap_page import swap_pages
    from punchboard.generator.impose.kinds import KINDS

    game, options, style = ctx.game, ctx.options, ctx.style
    assert plan.base is not None
    w = words(lang or game.language)
    if plan.number == plan.base.number:
        heading = w.text("This build compared with print {base}: it draws what print {number} drew", base=plan.base.number, number=plan.number)
    else:
        heading = w.text("Print {number} compared with print {base}", number=plan.number, base=plan.base.number)
    stamp = ""
    if options.stamp_label:
        stamp = w.text("Reprinted pieces carry the stamp {stamp} in their lower-right corner.", stamp=options.stamp_label)
    pages = swap_pages(game.title, heading, _lines(game, swaps, options.backs, w.lang), stamp, ctx.paper, style, w.lang)
    duplex = options.backs in DUPLEX and not options.print_shop
    parts = []
    for component in game.printed:
        mine = [s for s in swaps if s.component == component.id and s.what != "removed"]
        if not mine or component.kind not in KINDS:
            continue
        for group_ctx, cut in _groups(ctx, component, mine, w.lang):
            component_pages = KINDS[cut.kind](group_ctx, game, cut, group_ctx.options)
            if not component_pages:
                continue
            roles = [page.role for page in component_pages]
            parts.append(Part(render(component_pages, game.title, style, f"reprint: {cut.name}"), duplex and "back" not in roles))
    # In duplex the swap list gets blank reverses so the first pieces start on a fresh sheet.
    parts.insert(0, Part(render(pages, game.title, style, "reprint: swap list"), duplex and bool(parts)))
    blank = render([blank_page(ctx.paper.width, ctx.paper.height, w.lang)], game.title, style, "blank")
    return assemble(parts, blank, game.title, "reprint")
