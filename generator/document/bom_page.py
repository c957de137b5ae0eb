"""The bill-of-materials page at the front of the combined PDF, and its JSON twin with sheet counts.

Piece counts come from :func:`punchboard.spec.bom.bill_of_materials` (the model);
sheet counts depend on paper and back mode, so only a build knows them: the
build passes the pages it made for each component (``punchboard bom`` plans them
the same way without drawing, :func:`planned_bom`). Each component, print group and
the game are set against their *area bound* (generator/impose/paper_use.py): the
least sheets their pieces' area could fill.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from punchboard.generator.draw import fonts, text
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm
from punchboard.plumbing.words import ENGLISH, Words, words
from punchboard.spec.bom import KIND_NAMES, bill_of_materials
from punchboard.spec.loader import load_paper
from punchboard.spec.model import Game

from .pages import FooterBand, Page

TITLE_FONT = "Vera-Bold"
BODY_FONT = "Vera"
INK = "#111111"
GREY = "#555555"
RULE = "#bbbbbb"
LABEL_SIZE = 7.5  # the column labels' size, when they fit their column


def sheets_of_paper(roles: Sequence[str], backs: str) -> int:
    """Sheets a component takes, from its pages' roles: a duplex back page shares its sheet
    with the front before it."""
    if backs in ("duplex-long", "duplex-short"):
        return sum(1 for role in roles if role not in ("back", "blank"))
    return len(roles)


def bom_with_sheets(game: Game, roles_by_component: Mapping[str, Sequence[str]], options: BuildOptions,
                    groups: Mapping[str, tuple[Sequence[str], Sequence[str]]] | None = None) -> dict[str, Any]:
    """The model's bill of materials plus, per printed component, its pages and sheets on this paper
    (printed on its own); ``groups``: print group → (member ids, the shared sheets' page roles), whose
    sheets replace their members' in the total."""
    from punchboard.generator.impose.bleed_notes import bleed_notes
    from punchboard.generator.impose.paper_use import area_bound, build_style
    from punchboard.generator.impose.shared_sheets import AUTO_GROUPS, keep_apart

    bom = bill_of_materials(game)
    notes = bleed_notes(game, options)
    grouped = {member: name for name, (members, _) in (groups or {}).items() for member in members}
    paper, style = load_paper(options.paper), build_style(options)
    bounds: dict[str, float] = {}
    for entry in bom["components"]:
        roles = roles_by_component.get(entry["id"])
        entry["pages"] = len(roles) if roles is not None else 0
        entry["sheets"] = sheets_of_paper(roles, options.backs) if roles is not None else 0
        if entry["id"] in grouped:
            entry["print_group"] = grouped[entry["id"]]
        if roles is not None and entry["id"] in notes:
            entry["bleed_note"] = notes[entry["id"]]
        if roles and not options.print_shop:  # print-shop pages are the pieces themselves: no paper to fill
            bounds[entry["id"]] = area_bound(game.component(entry["id"]), paper, style, options.backs)
            _against_bound(entry, bounds[entry["id"]])
    bom["paper"] = options.paper
    bom["backs"] = options.backs
    if game.language not in ("", ENGLISH):  # the language the bill's page is written in (none: English)
        bom["language"] = game.language
    shared: list[dict[str, Any]] = [
        {"name": name, "components": list(members), "pages": len(roles), "sheets": sheets_of_paper(roles, options.backs)}
        for name, (members, roles) in (groups or {}).items()
    ]
    for group in shared:
        if group["name"] in notes:
            group["bleed_note"] = notes[group["name"]]
        if group["name"] in AUTO_GROUPS:  # put together by the build, not the designer: say how to sort them
            group["keep_apart"] = keep_apart(game.print_groups[group["name"]])
        if all(member in bounds for member in group["components"]):
            _against_bound(group, sum(bounds[member] for member in group["components"]))
    if shared:
        bom["print_groups"] = shared
    bom["total_sheets"] = sum(e["sheets"] for e in bom["components"] if e["id"] not in grouped) + sum(g["sheets"] for g in shared)
    if bounds:
        _against_bound(bom, sum(bounds.values()), "total_sheets")
    return bom


def _against_bound(entry: dict[str, Any], bound: float, sheets: str = "sheets") -> None:
    """Record the area bound beside ``entry``'s sheets: the bound (sheets, a fraction), the whole
    sheets it asks for, and how many sheets more than that the entry takes."""
    from punchboard.generator.impose.paper_use import least_sheets

    entry["area_bound"] = round(bound, 2)
    entry["least_sheets"] = least_sheets(bound)
    entry["over_bound"] = entry[sheets] - entry["least_sheets"]


def planned_bom(game: Game, options: BuildOptions) -> dict[str, Any]:
    """The bill of materials with the sheets a build with ``options`` prints, planned the way the
    build plans them (every printable component, print groups on their shared sheets) without drawing."""
    from punchboard.generator.impose.context import BuildContext
    from punchboard.generator.impose.cut import cut_pages, cuttable
    from punchboard.generator.impose.groups import render_group
    from punchboard.generator.impose.kinds import KINDS
    from punchboard.generator.impose.paper_use import build_style
    from punchboard.generator.impose.shared_sheets import with_shared_sheets

    game = with_shared_sheets(game, options, load_paper(options.paper), build_style(options))  # as the build groups them
    ctx = BuildContext(game, load_paper(options.paper), options, build_style(options))
    roles: dict[str, list[str]] = {}
    for component in game.printed:
        if component.kind not in KINDS:
            continue
        if options.cut and cuttable(component.kind, options.cut):
            pages = cut_pages(ctx, component, options.cut)
        else:
            pages = KINDS[component.kind](ctx, game, component, options)
        if pages:
            roles[component.id] = [page.role for page in pages]
    groups: dict[str, tuple[Sequence[str], Sequence[str]]] = {}
    if not (options.print_shop or options.cut):
        for name, members in game.print_groups.items():
            if all(member.id in roles for member in members):
                groups[name] = (tuple(m.id for m in members), [page.role for page in render_group(ctx, name, members)])
    return bom_with_sheets(game, roles, options, groups)


def bom_page(bom: Mapping[str, Any], width: float, height: float, margin: float, footer_height: float,
             lang: str | None = None) -> Page:
    """A page listing every printed component (pieces, sheets) and every bought supply, in ``lang``
    (default: the bill's ``language``, which :func:`bom_with_sheets` sets from the game; else English)."""

    w = words(lang or bom.get("language"))

    def draw(canvas: Canvas) -> None:
        draw_bom(canvas, bom, Rect(margin + mm(5), margin + footer_height + mm(5), width - 2 * margin - mm(10), height - 2 * margin - footer_height - mm(10)), w.lang)

    band = FooterBand(Rect(margin, margin, width - 2 * margin, footer_height))
    return Page(width, height, draw, w.text("bill of materials"), "", band, role="other", meta={"lang": w.lang})


def draw_bom(canvas: Canvas, bom: Mapping[str, Any], box: Rect, lang: str | None = None) -> None:
    """The bill of materials drawn into ``box``, in ``lang`` (default: the bill's ``language``)."""
    w = words(lang or bom.get("language"))
    y = box.top - 18
    canvas.setFillColor(INK)
    y = _wrapped(canvas, w.text("{title} — bill of materials", title=bom["title"]), box.x, y, box.right, TITLE_FONT, 18, INK, min_size=12) - 16
    players = bom["players"]
    span = f"{players['min']}–{players['max']}" if players["min"] != players["max"] else str(players["min"])
    summary = w.text("{players} players · paper {paper} · backs {backs} · {sheets} in all", players=span,
                     paper=bom.get("paper", "?"), backs=bom.get("backs", "?"),
                     sheets=w.plural(bom.get("total_sheets", 0), "{count} sheet", "{count} sheets"))
    y = _wrapped(canvas, summary + bound_phrase(bom, w.lang), box.x, y, box.right, BODY_FONT, 9, GREY) - 26
    columns = (box.x, box.x + mm(18), box.x + mm(36), box.x + mm(54), box.x + mm(72))
    labels = (w.text("pieces"), w.text("sheets"), w.text("area bound"), w.text("pages"), w.text("component"))
    y = _heading(canvas, w.text("Printed components"), labels, columns, y, box)
    for entry in bom["components"]:
        if not entry.get("printed", True):
            continue
        y = _component(canvas, entry, columns, y, box, w)
        if y < box.y + 60:
            break
    for group in bom.get("print_groups", []):
        y = _group(canvas, group, columns, y, box, w)
    y -= 14
    y = _heading(canvas, w.text("Bought supplies"), (w.text("count"), "", "", "", w.text("item")), columns, y, box)
    canvas.setFont(BODY_FONT, 10)
    canvas.setFillColor(INK)
    if not bom["supplies"]:
        canvas.drawString(columns[4], y, w.text("none"))
    for supply in bom["supplies"]:
        canvas.drawRightString(columns[1] - mm(4), y, w.count(supply["count"]))
        notes = f" — {supply['notes']}" if supply["notes"] else ""
        y = _wrapped(canvas, f"{supply['name']}{notes}", columns[4], y, box.right, BODY_FONT, 10, INK) - 12
        canvas.setFont(BODY_FONT, 10)
        canvas.setFillColor(INK)


def _component(canvas: Canvas, entry: Mapping[str, Any], columns: tuple[float, ...], y: float, box: Rect, w: Words) -> float:
    """One printed component's row of the bill (and its breakdown and bleed lines); the next baseline."""
    canvas.setFont(BODY_FONT, 10)
    canvas.setFillColor(INK)
    canvas.drawRightString(columns[1] - mm(4), y, w.count(entry["count"]))
    canvas.drawRightString(columns[2] - mm(4), y, w.count(entry["sheets"]) if "sheets" in entry else "")
    canvas.drawRightString(columns[3] - mm(4), y, w.number(entry["area_bound"], 2) if "area_bound" in entry else "")
    canvas.drawRightString(columns[4] - mm(4), y, w.count(entry["pages"]) if "pages" in entry else "")
    kind = w.text(KIND_NAMES.get(entry["kind"], entry["kind"]))
    sides = w.text("{kind}, two-sided", kind=kind) if entry["two_sided"] else kind
    y = _wrapped(canvas, f"{entry['name']} ({sides})", columns[4], y, box.right, BODY_FONT, 10, INK) - 12
    if len(entry["breakdown"]) > 1:
        parts = ", ".join(f"{b['label']}: {w.count(b['count'])}" for b in entry["breakdown"])
        y = _wrapped(canvas, w.text("by {field}: {parts}", field=entry["by"], parts=parts), columns[4] + mm(3), y + 1, box.right, BODY_FONT, 7.5, GREY) - 11
    if "bleed_note" in entry:
        y = _wrapped(canvas, w.text("bleed: {note}", note=entry["bleed_note"]), columns[4] + mm(3), y + 1, box.right, BODY_FONT, 7.5, GREY) - 11
    return y


def _group(canvas: Canvas, group: Mapping[str, Any], columns: tuple[float, ...], y: float, box: Rect, w: Words) -> float:
    """A print group's lines of the bill: what shares which sheets; the next baseline."""
    sheets = w.plural(group["sheets"], "{count} sheet", "{count} sheets")
    pages = w.plural(group["pages"], "{count} page", "{count} pages")
    if "area_bound" in group:
        pages = w.text("{pages}, area bound {bound}", pages=pages, bound=w.number(group["area_bound"], 2))
    line = w.text("Print group {name}: {components} share {sheets} ({pages}) in the print-and-play PDF",
                  name=group["name"], components=", ".join(group["components"]), sheets=sheets, pages=pages)
    y = _wrapped(canvas, line, columns[0], y, box.right, BODY_FONT, 8, GREY) - 11
    if "bleed_note" in group:
        y = _wrapped(canvas, w.text("bleed: {note}", note=group["bleed_note"]), columns[0] + mm(3), y, box.right, BODY_FONT, 7.5, GREY) - 11
    if "keep_apart" in group:
        y = _wrapped(canvas, group["keep_apart"], columns[0] + mm(3), y, box.right, BODY_FONT, 7.5, GREY) - 11
    return y


def bound_phrase(bom: Mapping[str, Any], lang: str = ENGLISH) -> str:
    """' · area bound 24.45 sheets: 7 over' (nothing when the bill has no bound: print-shop files)."""
    if "area_bound" not in bom:
        return ""
    w = words(lang)
    return w.text(" · area bound {bound} sheets (at least {least}): {over} over", bound=w.number(bom["area_bound"], 2),
                  least=w.count(bom["least_sheets"]), over=w.count(bom["over_bound"]))


def _heading(canvas: Canvas, title: str, labels: tuple[str, ...], columns: tuple[float, ...], y: float, box: Rect) -> float:
    """A section title and its column labels over a rule; a label wider than its column (a longer language's)
    is set smaller so it does not run into the next. Returns the first row's baseline."""
    canvas.setFillColor(INK)
    canvas.setFont(TITLE_FONT, 12)
    canvas.drawString(box.x, y, title)
    y -= 14
    canvas.setFont(BODY_FONT, LABEL_SIZE)
    canvas.setFillColor(GREY)
    last = len(labels) - 1
    for index, label in enumerate(labels):
        if index < last:
            room = columns[index + 1] - columns[index] - mm(2)  # 2 mm clear of the label before
            size = min(LABEL_SIZE, LABEL_SIZE * room / max(1.0, fonts.width(label, BODY_FONT, LABEL_SIZE)))
            if size < LABEL_SIZE:
                canvas.setFont(BODY_FONT, size)
            canvas.drawRightString(columns[index + 1] - mm(4), y, label)
            if size < LABEL_SIZE:
                canvas.setFont(BODY_FONT, LABEL_SIZE)
        else:
            canvas.drawString(columns[last], y, label)
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.5)
    canvas.line(box.x, y - 3, box.right, y - 3)
    return y - 15


def plural(count: int, noun: str, many: str | None = None) -> str:
    """'1 sheet', '2 sheets' (``many`` for irregular plurals)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def _wrapped(canvas: Canvas, content: str, x: float, baseline: float, right: float, font: str, size: float, ink: str, min_size: float | None = None) -> float:
    """``content`` from ``x`` to ``right`` with its first baseline at ``baseline``, shrunk to
    ``min_size`` and then wrapped when it is too long; returns the last line's baseline."""
    plain = content
    width = right - x
    fitted = text.fit(plain, font, size, min_size or size, Rect(x, 0, width, size * 1.3))
    if not fitted.fits:
        fitted = text.fit(plain, font, size, size, Rect(x, 0, width, 10_000))
    height = text.block_height(len(fitted.lines), font, fitted.size, 1.2)
    top = baseline + fonts.ascent(font, fitted.size)
    text.draw(canvas, fitted, font, Rect(x, top - height, width, height), ink)
    return baseline - (len(fitted.lines) - 1) * fitted.line_height
