"""``punchboard build``: one PDF per printed component and a combined print-and-play PDF per game.

Builds are incremental: a component whose inputs have not changed since the
last build into the same folder is not drawn again (see punchboard/incremental/build_cache.py),
and the combined PDF is assembled from the component PDFs, so reused and fresh
outputs are byte-identical to a clean build's.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from punchboard.generator.impose.style import load_style

from punchboard.incremental import page_records
from punchboard.incremental.build_cache import (
    BLANK_FILE,
    FRONT_FILE,
    BuildCache,
    CachedComponent,
    drop_torn_writes,
    group_fingerprint,
    side_salt,
)
from punchboard.incremental.file_digest import file_digest
from punchboard.plumbing.atomicio import write_bytes
from punchboard.plumbing.paths import GAME_FILE, game_output, resolving_once
from punchboard.plumbing.units import mm
from punchboard.spec.loader import load_paper
from punchboard.spec.model import Component, Game

from .digests import build_digest, component_fingerprint
from .jobs import jobs_for, ordered_map
from .languages import Borrower
from .options import BuildOptions

if TYPE_CHECKING:  # the renderers (and reportlab) load only when something must be drawn
    from punchboard.generator.document.cover import ContentsLine
    from punchboard.generator.document.kept_pages import KeptPages
    from punchboard.generator.document.pages import Page
    from punchboard.generator.impose.context import BuildContext

DUPLEX = ("duplex-long", "duplex-short")


@dataclass(frozen=True)
class GameReport:
    """What one build of a game did: components drawn anew, components reused, warnings."""

    game: str
    rendered: tuple[str, ...]
    reused: tuple[str, ...]
    combined_written: bool
    warnings: tuple[str, ...]
    notes: tuple[str, ...] = ()  # the print recorded, the reprint written (generator/reprint.py)
    # for each component drawn: its distinct sides drawn, and those kept from the last build (draw/kept.py), and
    # its pages copied from the last build's file, of how many (document/kept_pages.py)
    sides: tuple[tuple[str, int, int, int, int], ...] = ()


STRICT_FAILED = "error: --preflight strict: the preflight found problems (the warnings above); the files are written"


def build_games(games: list[Game], out_dir: Path, options: BuildOptions,
                reports: list[tuple[GameReport, list[Said]]] | None = None) -> int:
    """Build every game; warnings (text that does not fit, …) go to stderr. Returns the exit code.
    ``reports`` collects each game's report and the lines printed for it (see punchboard/incremental/up_to_date.py)."""
    failed = False
    for game in games:
        report = build_game(game, out_dir, options)
        lines, strict = said_for(report, out_dir, options)
        for stream, text in lines:
            print(text, file=sys.stderr if stream == "stderr" else sys.stdout)
        if reports is not None:
            reports.append((report, lines))
        failed = failed or strict
    if failed:
        print(STRICT_FAILED, file=sys.stderr)
    return 1 if failed else 0


Said = tuple[str, str]  # ("stdout" or "stderr", a line)


def said_for(report: GameReport, out_dir: Path, options: BuildOptions) -> tuple[list[Said], bool]:
    """What a build prints for one game's report, and whether --preflight strict fails it."""
    from .preflight.findings import count, shown

    tail = f" (in {options.lang})" if options.lang else ""  # a --lang build's findings name the language
    lines: list[Said] = [("stderr", f"warning: {message}{tail}") for message in shown(report.warnings, options.preflight)]
    if not options.quiet:
        lines.append(("stdout", summary(report, out_dir, options.lang)))
    if options.verbose:
        for verb, ids in (("drew", report.rendered), ("reused", report.reused)):
            lines.extend(("stdout", f"  {verb} {game_output(out_dir, report.game, options.lang) / component}.pdf") for component in ids)
        lines.extend(("stdout", f"  {component}: {drawn} distinct side{'' if drawn == 1 else 's'} drawn, {kept} kept from the last build"
                      + (f"; {copied} of {pages} page{'' if pages == 1 else 's'} copied from it" if copied else ""))
                     for component, drawn, kept, copied, pages in report.sides if drawn or kept)
    return lines, options.preflight == "strict" and count(report.warnings) > 0


def summary(report: GameReport, out_dir: Path, lang: str | None = None) -> str:
    drawn = ", ".join(report.rendered) if report.rendered else "nothing"
    reused = f"; reused {len(report.reused)} unchanged" if report.reused else ""
    notes = "".join(f"\n{report.game}: {note}" for note in report.notes)
    return f"{report.game}: rendered {drawn}{reused} → {game_output(out_dir, report.game, lang)}{notes}"


@contextmanager
def _progress(total: int, label: str, quiet: bool) -> Iterator[_Tick]:
    """A progress bar on an interactive terminal, a plain line per component on stderr
    otherwise; silent with --quiet."""
    if quiet or total < 2 or not sys.stderr.isatty():
        yield _Tick(None, None, 0 if quiet or total < 2 else total)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        transient=True, console=None,
    ) as progress:
        task = progress.add_task(label, total=total)
        yield _Tick(progress, task)


class _Tick:
    def __init__(self, progress: object, task: object, lines: int = 0):
        self.progress = progress
        self.task = task
        self.lines, self.done = lines, 0  # lines: the total, when ticks are printed as plain lines

    def __call__(self, what: str) -> None:
        if self.lines:
            self.done += 1
            print(f"[{self.done}/{self.lines}] {what}", file=sys.stderr, flush=True)
        if self.progress is not None:
            self.progress.update(self.task, advance=1, description=what)  # type: ignore[attr-defined]


def _kinds() -> frozenset[str]:
    from punchboard.generator.impose.kinds import KINDS

    return frozenset(KINDS)


def drew_nothing(games: Sequence[Game], reports: Sequence[tuple[Any, Any]]) -> bool:
    """Whether the builds of ``games`` (each one's report first in ``reports``) drew nothing and wrote no combined
    PDF: every printable component reused from the build cache (what punchboard/incremental/up_to_date.py records)."""
    if len(games) != len(reports):
        return False
    kinds = _kinds()
    for game, (report, _) in zip(games, reports, strict=True):
        if report.rendered or report.combined_written:
            return False
        reused = set(report.reused)
        if any(c.kind in kinds and c.id not in reused for c in game.printed):
            return False  # tried and drew nothing: not a plain reuse
    return True


Drawn = tuple["CachedComponent | None", dict[tuple[str, int, int], str], tuple[int, int, int, int]]


def _draw(state: tuple[BuildContext, Game, Path, dict[str, str], str, int], index: int) -> Drawn:
    """Draw the ``index``-th printed component (in this process or a forked worker), with the print
    fingerprints of its sides taken while drawing them (when a print is recorded: generator/prints.py),
    and how many distinct sides were drawn and kept from the last build. With ``ahead`` > 1 (drawn
    here, with workers to spare) its new sides may be drawn ahead by that many workers."""
    ctx, game, folder, fingerprints, salt, ahead = state
    component = game.printed[index]
    entry, sides = _render_component(ctx, game, component, folder, fingerprints[component.id], salt, ahead)
    taken = ctx.side_prints or {}
    return entry, {key: digest for key, digest in taken.items() if key[0] == component.id}, sides


def _render_component(ctx: BuildContext, game: Game, component: Component, folder: Path,
                      fingerprint: str, salt: str, ahead: int = 1) -> tuple[CachedComponent | None, tuple[int, int, int, int]]:
    """The component's PDF and cache entry (None when it prints nothing), and its distinct sides drawn and kept;
    ``salt`` is what its kept sides and looks are keyed under besides their own inputs (build_cache.side_salt).
    With ``ahead`` > 1, that many workers draw its sides ahead when that pays (warm_sides.py)."""
    from punchboard.generator.draw.kept import font_set
    from punchboard.generator.impose.cut import cuttable
    from punchboard.generator.impose.kinds import KINDS

    from punchboard.incremental.side_store import SideStore

    from .warm_sides import draw_ahead, layout_digests, worth_it

    renderer = KINDS[component.kind]
    before = len(ctx.warnings)
    store = SideStore(folder, component.id, salt, read=not ctx.options.force, fonts=font_set(game, component))
    digests = layout_digests(game, component)
    if ahead > 1 and worth_it(game, component, store, ctx.options, ahead, digests):
        state = (ctx, game, game.printed.index(component), folder, salt, ahead)
        try:
            for path, where in ordered_map(draw_ahead, state, range(ahead), ahead):
                store.adopt(Path(path), where)
        except BaseException:
            store.discard()
            raise
    ctx.kept_sides[component.id] = store
    try:
        pages = _render_pages(ctx, game, component, folder, renderer)
    except BaseException:
        store.discard()
        raise
    finally:
        del ctx.kept_sides[component.id]
    store.save(digests)
    sides = (store.drawn, store.replayed, *ctx.pages_copied.pop(component.id, (0, 0)))
    if not pages:
        return None, sides
    cutter = ctx.options.cut
    if cutter and not cuttable(component.kind, cutter):
        ctx.warn(f"{game.id} / {component.id}: no {cutter} cut file for a {component.kind} component; printed as usual, cut by hand")
    from punchboard.generator.preflight.colour_blind import check_component

    from punchboard.incremental.look_store import LookStore

    looks = LookStore(folder, component.id, salt, read=not ctx.options.force)
    for finding in check_component(game, component, looks):  # the per-side checks ran while the pieces were drawn
        ctx.warn(finding)
    looks.save()
    return CachedComponent(fingerprint, f"{component.id}.pdf", [page.role for page in pages], ctx.warnings[before:]), sides


def _render_pages(ctx: BuildContext, game: Game, component: Component, folder: Path, renderer: Any) -> list[Page]:
    """Impose and write the component's PDF (and print-shop and cut files); its pages, empty when none."""
    from punchboard.generator.document.pages import render, render_to
    from punchboard.generator.impose.cut import cut_pages, cuttable

    cutter = ctx.options.cut
    if cutter and cuttable(component.kind, cutter):
        pages = cut_pages(ctx, component, cutter)
    else:
        pages = renderer(ctx, game, component, ctx.options)
    if not pages:
        return []
    file = f"{component.id}.pdf"
    style = ctx.style
    if ctx.options.print_shop:
        pages = _print_shop_files(ctx, folder, component, pages)
    if cutter and cuttable(component.kind, cutter):
        from punchboard.generator.export.cutfiles import write_cut_files

        pdf = render(pages, game.title, style, component.name, _duplex(ctx.options, pages))
        write_bytes(folder / file, pdf)
        write_cut_files(folder, component.id, pages, pdf, cutter)
    else:  # streamed to disk as it is written: a large deck is never held whole in memory
        kept = _kept_pages(ctx, component, folder)
        render_to(folder / file, pages, game.title, style, component.name, _duplex(ctx.options, pages), kept)
        if kept is not None:
            ctx.pages_copied[component.id] = (kept.pages_copied, len(pages))
    return pages


def _kept_pages(ctx: BuildContext, component: Component, folder: Path) -> KeptPages | None:
    """The component's pages kept from the last build (document/kept_pages.py)."""
    from punchboard.generator.document.kept_pages import KeptPages

    from punchboard.incremental.side_store import SideStore

    store = ctx.kept_sides.get(component.id)
    if not isinstance(store, SideStore):
        return None
    return KeptPages(page_records.path_for(folder, component.id), folder / f"{component.id}.pdf",
                     f"{store.salt}:{component.id}", ctx, store, read=not ctx.options.force)


def build_game(game: Game, out_dir: Path, options: BuildOptions) -> GameReport:
    with resolving_once():  # each input file's path is resolved once per build
        return _build_game(game, out_dir, options)


def _build_game(game: Game, out_dir: Path, options: BuildOptions) -> GameReport:
    paper = load_paper(options.paper)
    style = load_style()
    if options.unprintable_mm is not None:
        style = replace(style, unprintable=mm(options.unprintable_mm))
    if not (options.print_shop or options.cut):  # one-sided parts that save a sheet together share sheets
        from punchboard.generator.impose.shared_sheets import with_shared_sheets

        game = with_shared_sheets(game, options, paper, style)
    folder = game_output(out_dir, game.id, options.lang)
    plan = None
    if options.record_print or options.changed_since or options.stamp:  # plan_print's own test; it loads the renderers
        from .reprint import plan_print

        plan = plan_print(game, folder, options, paper, style)  # --stamp needs the print number before drawing
    options = plan.options if plan is not None else options
    made: list[BuildContext] = []

    def context() -> BuildContext:
        if not made:
            from punchboard.generator.impose.context import BuildContext

            made.append(BuildContext(game, paper, options, style, preflight=True))
            if plan is not None and plan.fingerprints is None:
                made[0].side_prints = {}  # the print's fingerprints are taken from the drawing
        return made[0]

    drop_torn_writes(folder)  # from a build killed mid-write
    cache = BuildCache.load(folder)
    shared = build_digest(game, options)
    rendered, reused, warnings, entries, side_prints, side_counts = _draw_components(game, folder, options, cache, shared, context)
    cache.components = entries
    if made:
        made[0].side_prints = None  # print groups and reprints draw pieces again: nothing more to take
    if plan is not None and plan.fingerprints is None:
        from .reprint import settle_print

        settle_print(plan, game, side_prints)
    groups = _build_groups(game, folder, options, shared, entries, cache, context)
    for name, (entry, drew) in groups.items():
        (rendered if drew else reused).append(name)
        warnings.extend(entry.warnings)
    cache.groups = {name: entry for name, (entry, _) in groups.items()}
    combined_written = _combined(game, folder, options, shared, entries, cache, context, bool(rendered))
    cache.save()
    notes: list[str] = []
    if plan is not None:
        from .reprint import finish_print

        notes = finish_print(plan, game, context)
    if made:
        warnings.extend(made[0].warnings)
    from punchboard.generator.draw.glyphs import glyph_warnings  # characters a text's font lacks

    warnings.extend(glyph_warnings(game))
    if options.lang:  # pieces with no text in this language: drawn in the source language's, said once a build
        from punchboard.spec.languages import missing_translations

        warnings[:0] = missing_translations(game, options.lang)
    if options.print_shop_preset:  # a service named with --shop: its safe zone, once per build
        from punchboard.generator.preflight.shop_safe import shop_safe

        shop_warnings, shop_notes = shop_safe(game, options.print_shop_preset)
        warnings.extend(shop_warnings)
        notes = [*notes, *shop_notes]
    if options.verbose:  # what the auto bleed policy gave up: a note, not a warning (generator/impose/bleed_notes.py)
        from punchboard.generator.impose.bleed_notes import bleed_notes

        notes = [*notes, *(f"bleed: {note}" for note in bleed_notes(game, options).values())]
    return GameReport(game.id, tuple(rendered), tuple(reused), combined_written, tuple(dict.fromkeys(warnings)), tuple(notes),
                      tuple(side_counts))


def _draw_components(game: Game, folder: Path, options: BuildOptions, cache: BuildCache, shared: str,
                     context: Callable[[], BuildContext]) -> tuple[list[str], list[str], list[str], dict[str, CachedComponent],
                                                                  dict[tuple[str, int, int], str], list[tuple[str, int, int, int, int]]]:
    """Each printed component's PDF, drawn (``--jobs`` workers when several) or reused from ``cache``:
    (drawn ids, reused ids, their warnings, cache entries by id, the sides' print fingerprints, side counts)."""
    rendered: list[str] = []
    reused: list[str] = []
    warnings: list[str] = []
    entries: dict[str, CachedComponent] = {}
    fingerprints = {c.id: component_fingerprint(game, c, shared) for c in game.printed}
    fresh = {} if options.force else {c.id: cache.fresh(c.id, fingerprints[c.id]) for c in game.printed}
    borrower = Borrower(folder, options)  # --lang: what the game's other languages drew alike (generator/languages.py)
    if borrower.caches:
        fresh.update({c.id: borrower.take(c.id, fingerprints[c.id]) for c in game.printed if fresh.get(c.id) is None})
    # a component reused from the cache was printable when drawn; only the others need the renderers
    printable = [c for c in game.printed if fresh.get(c.id) is not None or c.kind in _kinds()]
    chosen = {c.id for c in printable}
    to_draw = [n for n, c in enumerate(game.printed) if c.id in chosen and fresh.get(c.id) is None]
    jobs = jobs_for(options.jobs, options.jobs_auto, sum(len(game.printed[n].pieces) for n in to_draw))
    # a component drawn here (not in a worker) may have its new sides drawn ahead by workers (warm_sides.py)
    ahead = jobs if len(to_draw) == 1 else 1
    drawn = ordered_map(_draw, (context() if to_draw else None, game, folder, fingerprints, side_salt(shared), ahead),
                        to_draw, jobs)
    side_prints: dict[tuple[str, int, int], str] = {}
    side_counts: list[tuple[str, int, int, int, int]] = []
    with _progress(len(printable), f"{game.id}", options.quiet) as tick:
        for component in printable:
            entry = fresh.get(component.id)
            if entry is None:
                tick(f"{game.id}: {component.id}")
                entry, taken, counts = next(drawn)
                side_prints.update(taken)
                side_counts.append((component.id, *counts))
                if entry is None:
                    continue
                rendered.append(component.id)
            else:
                tick(f"{game.id}: {component.id} (unchanged)")
                reused.append(component.id)
            entries[component.id] = entry
            warnings.extend(entry.warnings)
    return rendered, reused, warnings, entries, side_prints, side_counts


def _combined(game: Game, folder: Path, options: BuildOptions, shared: str, entries: dict[str, CachedComponent],
              cache: BuildCache, context: Callable[[], BuildContext], drew: bool) -> bool:
    """Write the combined print-and-play PDF when a part was drawn (``drew``), a part or group changed, or
    the file is missing; whether it was written."""
    combined = folder / f"{game.id}-print-and-play.pdf"
    combined_key = shared + "".join(f"{key}:{entries[key].fingerprint}" for key in entries)
    combined_key += "".join(f"group {name}:{entry.fingerprint}" for name, entry in cache.groups.items())
    if options.force or drew or cache.combined != combined_key or not combined.is_file():
        _write_combined(context, game, entries, folder, combined, cache, shared)
        cache.combined = combined_key
        return True
    return False


def _build_groups(game: Game, folder: Path, options: BuildOptions, shared: str, entries: dict[str, CachedComponent],
                  cache: BuildCache, context: Callable[[], BuildContext]) -> dict[str, tuple[CachedComponent, bool]]:
    """Each print group's shared sheets as ``<group>.pdf`` (generator/impose/groups.py), redrawn when a
    member changed: name → (entry, drawn now). Print-shop and print-and-cut files print every
    member on its own, so they have no groups."""
    if options.print_shop or options.cut:
        return {}
    out: dict[str, tuple[CachedComponent, bool]] = {}
    for name, members in game.print_groups.items():
        if not all(m.id in entries for m in members):
            continue
        fingerprint = group_fingerprint(name, {m.id: entries[m.id].fingerprint for m in members}, shared)
        entry = None if options.force else cache.fresh(name, fingerprint, group=True)
        if entry is not None:
            out[name] = (entry, False)
            continue
        from punchboard.generator.document.pages import render_to
        from punchboard.generator.impose.groups import group_title, render_group

        ctx = context()
        before = len(ctx.warnings)
        pages = render_group(ctx, name, members)
        together, apart = _sheets([page.role for page in pages]), sum(_sheets(entries[m.id].roles) for m in members)
        if together > apart:  # tokens of a group are shelf-packed; alone, round ones pack denser
            ctx.warn(f"{game.id} / {name}: print group '{name}' takes {together} sheets, more than the {apart} its members "
                     "take printed apart (mixed tokens are shelf-packed; alone, round tokens pack denser); "
                     "remove print_group to print them apart")
        render_to(folder / f"{name}.pdf", pages, game.title, ctx.style, group_title(name), _duplex(options, pages))
        out[name] = (CachedComponent(fingerprint, f"{name}.pdf", [page.role for page in pages], ctx.warnings[before:]), True)
    return out


def _sheets(roles: Sequence[str]) -> int:
    """Sheets of paper for pages of these roles: a back or blank page is the reverse of the page before."""
    return sum(1 for role in roles if role not in ("back", "blank"))


def _write_combined(context: Callable[[], BuildContext], game: Game, entries: dict[str, CachedComponent], folder: Path,
                    combined: Path, cache: BuildCache, shared_digest: str) -> None:
    from punchboard.generator.document.assemble import Part, assemble_to
    from punchboard.generator.document.bom_page import bom_with_sheets
    from punchboard.generator.document.cover import ContentsLine
    from punchboard.generator.document.sections import plan_combined
    from punchboard.generator.impose.groups import group_title

    options = context().options
    groups = cache.groups
    roles = {key: entry.roles for key, entry in entries.items()}
    shared = {name: (tuple(m.id for m in game.print_groups[name]), entry.roles) for name, entry in groups.items()}
    bom = bom_with_sheets(game, roles, options, shared)
    _write_if_changed(folder / "bom.json", (json.dumps(bom, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    duplex = options.backs in DUPLEX and not options.print_shop
    calibration_count = _calibration_count(context()) if duplex else 0
    # one-sided components gathered after the two-sided ones, no blank reverses (generator/document/sections.py)
    printed = {c.id: c for c in game.printed}
    members = game.print_groups
    # a print group's shared sheets stand where its first member would, in place of every member's own
    sources: dict[str, CachedComponent] = {}
    for key, entry in entries.items():
        group = printed[key].print_group
        if group in groups:
            sources.setdefault(group, groups[group])
        else:
            sources[key] = entry
    plan = plan_combined(2 + calibration_count, [(key, entry.roles) for key, entry in sources.items()], duplex)
    contents = []
    for key in plan.order:
        if key is None:
            continue
        if key in groups:
            names = ", ".join(m.name for m in members[key])
            kind, count = members[key][0].kind, sum(m.count for m in members[key])
            line = ContentsLine(f"{group_title(key)}: {names}", kind, count, len(groups[key].roles), groups[key].file, plan.pages[key])
        else:
            component = printed[key]
            line = ContentsLine(component.name, component.kind, component.count, len(entries[key].roles), entries[key].file, plan.pages[key])
        contents.append(line)
    sections = (plan.double_sided, plan.single_sided)
    # The cover, bill of materials and calibration pages are drawn again only when what they show changed.
    front_key = _digest(shared_digest, _file_digest(game.folder / GAME_FILE), repr(contents), repr(sections),
                        json.dumps(bom, sort_keys=True), duplex)
    if options.force:
        cache.pages.clear()
    front = cache.made(FRONT_FILE, front_key)
    if front is None:
        front = _render_front(context(), game, contents, sections, bom, duplex)
        cache.remember(FRONT_FILE, front_key, front)
    if duplex:
        calibration_file = folder / "duplex-calibration.pdf"
        if cache.made(calibration_file.name, front_key) is None or not calibration_file.is_file():
            from punchboard.generator.document.calibration import calibration_pages
            from punchboard.generator.document.pages import render

            ctx = context()
            pdf = render(calibration_pages(ctx.paper, ctx.style, options.backs, game.language or "en"), game.title, ctx.style,
                         "duplex calibration", _duplex(options))
            write_bytes(calibration_file, pdf)
            cache.remember(calibration_file.name, front_key)
    blank = cache.made(BLANK_FILE, shared_digest)
    if blank is None:
        from punchboard.generator.document.cover import blank_page
        from punchboard.generator.document.pages import render

        ctx = context()
        blank = render([blank_page(ctx.paper.width, ctx.paper.height, game.language or "en")], game.title, ctx.style, "blank")
        cache.remember(BLANK_FILE, shared_digest, blank)
    parts = [Part(front)]
    parts += [Part(blank) if key is None else Part(folder / sources[key].file) for key in plan.order]
    # The print dialog's defaults say what the cover says: the double-sided pages duplex (and, when
    # one-sided parts follow, only those pages: the cover asks for the rest as a single-sided job).
    double = plan.double_sided if duplex else None
    print_range = double if double is not None and plan.single_sided is not None else None
    assemble_to(combined, parts, blank, game.title, "print and play", _duplex(options) if double else "Simplex", print_range)




def _calibration_count(ctx: BuildContext) -> int:
    from punchboard.generator.document.calibration import calibration_pages

    return len(calibration_pages(ctx.paper, ctx.style, ctx.options.backs))


def _render_front(ctx: BuildContext, game: Game, contents: list[ContentsLine], sections: tuple[object, object],
                  bom: dict[str, Any], duplex: bool) -> bytes:
    from punchboard.generator.document.bom_page import bom_page
    from punchboard.generator.document.calibration import calibration_pages
    from punchboard.generator.document.cover import cover_page
    from punchboard.generator.document.pages import render
    from punchboard.generator.impose.grid import printable_margin

    options, paper, style = ctx.options, ctx.paper, ctx.style
    calibration = calibration_pages(paper, style, options.backs, game.language or "en") if duplex else []
    # The bill of materials is the cover's reverse in duplex modes, so both stay one sheet.
    front = [
        cover_page(game, paper, style, options, contents, sections),
        bom_page(bom, paper.width, paper.height, printable_margin(paper, style), style.footer_height),
        *calibration,
    ]
    return render(front, game.title, style, "print and play")


def _digest(*parts: object) -> str:
    return hashlib.sha256("\x00".join(str(p) for p in parts).encode("utf-8")).hexdigest()


def _file_digest(path: Path) -> str:
    return file_digest(path) or "<missing>"


def _write_if_changed(path: Path, data: bytes) -> None:
    """Write ``data`` unless the file already holds exactly it (no rewrite, no sync)."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return
    except OSError:
        pass
    write_bytes(path, data)


def _print_shop_files(ctx: BuildContext, folder: Path, component: Component, pages: list[Page]) -> list[Page]:
    """A print-shop preset's page order and the extra files it asks for (per side, per piece); its safe zone
    against the layouts' is said once per build (preflight/shop_safe.py)."""
    from punchboard.generator.document.pages import render
    from punchboard.generator.impose.print_shops import in_order, load_print_shops, split

    shop = load_print_shops().get(ctx.options.print_shop_preset)
    pages = in_order(pages, shop)
    for name, part in split(pages, shop, component.id).items():
        write_bytes(folder / name, render(part, ctx.game.title, ctx.style, component.name, "Simplex"))
    return pages


def _duplex(options: BuildOptions, pages: Sequence[Page] | None = None) -> str:
    """The print dialog's duplex setting for these PDFs: Simplex for print-shop files (one piece a page)
    and for any PDF without a back page (one-sided: printed duplex, one sheet would land on another's back)."""
    from punchboard.generator.document.pages import duplex_preference

    if options.print_shop or (pages is not None and not any(page.role == "back" for page in pages)):
        return "Simplex"
    return duplex_preference(options.backs)
