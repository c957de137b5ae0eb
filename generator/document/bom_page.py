"""The bill-of-materials page at the front of the combined PDF, and its JSON twin with sheet counts.

Piece counts come from :func:`punchboard.spec.bom.bill_of_materials` (the model);
sheet counts depend on paper and back mode, so only a build knows them: the
build passes the pages it made for each component.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from punchboard.generator.draw import fonts, text
from punchboard.generator.draw.geometry import Rect
from punchboard.generator.options import BuildOptions
from reportlab.pdfgen.canvas import Canvas

from punchboard.plumbing.units import mm
from punchboard.spec.bom import bill_of_materials
from punchboard.spec.model import Game

from .pages import FooterBand, Page

TITLE_FONT = "Vera-Bold"
BODY_FONT = "Vera"
INK = "#111111"
GREY = "#555555"
RULE = "#bbbbbb"


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
    bom = bill_of_materials(game)
    grouped = {member: name for name, (members, _) in (groups or {}).items() for member in members}
    for entry in bom["components"]:
        roles = roles_by_component.get(entry["id"])
        entry["pages"] = len(roles) if roles is not None else 0
        entry["sheets"] = sheets_of_paper(roles, options.backs) if roles is not None else 0
        if entry["id"] in grouped:
            entry["print_group"] = grouped[entry["id"]]
    bom["paper"] = options.paper
    bom["backs"] = options.backs
    shared = [
        {"name": name, "components": list(members), "pages": len(roles), "sheets": sheets_of_paper(roles, options.backs)}
        for name, (members, roles) in (groups or {}).items()
    ]
    if shared:
        bom["print_groups"] = shared
    bom["total_sheets"] = sum(e["sheets"] for e in bom["components"] if e["id"] not in grouped) + sum(g["sheets"] for g in shared)
    return bom


def bom_page(bom: Mapping[str, Any], width: float, height: float, margin: float, footer_height: float) -> Page:
    """A page listing every printed component (pieces, sheets) and every bought supply."""

    def draw(canvas: Canvas) -> None:
        draw_bom(canvas, bom, Rect(margin + mm(5), margin + footer_height + mm(5), width - 2 * margin - mm(10), height - 2 * margin - footer_height - mm(10)))

    band = FooterBand(Rect(margin, margin, width - 2 * margin, footer_height))
    return Page(width, height, draw, "bill of materials", "", band, role="other")


def draw_bom(canvas: Canvas, bom: Mapping[str, Any], box: Rect) -> None:
    y = box.top - 18
    canvas.setFillColor(INK)
    y = _wrapped(canvas, f"{bom['title']} — bill of materials", box.x, y, box.right, TITLE_FONT, 18, INK, min_size=12) - 16
    players = bom["players"]
    span = f"{players['min']}–{players['max']}" if players["min"] != players["max"] else str(players["min"])
    sheets = bom.get("total_sheets", 0)
    y = _wrapped(canvas, f"{span} players · paper {bom.get('paper', '?')} · backs {bom.get('backs', '?')} · "
                 f"{plural(sheets, 'sheet')} in all", box.x, y, box.right, BODY_FONT, 9, GREY) - 26
    columns = (box.x, box.x + mm(18), box.x + mm(36), box.x + mm(54))
    y = _heading(canvas, "Printed components", ("pieces", "sheets", "pages", "component"), columns, y, box)
    for entry in bom["components"]:
        if not entry.get("printed", True):
            continue
        canvas.setFont(BODY_FONT, 10)
        canvas.setFillColor(INK)
        canvas.drawRightString(columns[1] - mm(4), y, str(entry["count"]))
        canvas.drawRightString(columns[2] - mm(4), y, str(entry.get("sheets", "")))
        canvas.drawRightString(columns[3] - mm(4), y, str(entry.get("pages", "")))
        sides = ", two-sided" if entry["two_sided"] else ""
        y = _wrapped(canvas, f"{entry['name']} ({entry['kind']}{sides})", columns[3], y, box.right, BODY_FONT, 10, INK) - 12
        if len(entry["breakdown"]) > 1:
            parts = ", ".join(f"{b['label']}: {b['count']}" for b in entry["breakdown"])
            y = _wrapped(canvas, f"by {entry['by']}: {parts}", columns[3] + mm(3), y + 1, box.right, BODY_FONT, 7.5, GREY) - 11
        if y < box.y + 60:
            break
    for group in bom.get("print_groups", []):
        y = _wrapped(canvas, f"Print group {group['name']}: {', '.join(group['components'])} share "
                     f"{plural(group['sheets'], 'sheet')} ({plural(group['pages'], 'page')}) in the print-and-play PDF",
                     columns[0], y, box.right, BODY_FONT, 8, GREY) - 11
    y -= 14
    y = _heading(canvas, "Bought supplies", ("count", "", "", "item"), columns, y, box)
    canvas.setFont(BODY_FONT, 10)
    canvas.setFillColor(INK)
    if not bom["supplies"]:
        canvas.drawString(columns[3], y, "none")
    for supply in bom["supplies"]:
        canvas.drawRightString(columns[1] - mm(4), y, str(supply["count"]))
        notes = f" — {supply['notes']}" if supply["notes"] else ""
        y = _wrapped(canvas, f"{supply['name']}{notes}", columns[3], y, box.right, BODY_FONT, 10, INK) - 12
        canvas.setFont(BODY_FONT, 10)
        canvas.setFillColor(INK)


def _heading(canvas: Canvas, title: str, labels: tuple[str, str, str, str], columns: tuple[float, ...], y: float, box: Rect) -> float:
    canvas.setFillColor(INK)
    canvas.setFont(TITLE_FONT, 12)
    canvas.drawString(box.x, y, title)
    y -= 14
    canvas.setFont(BODY_FONT, 7.5)
    canvas.setFillColor(GREY)
    for index, label in enumerate(labels):
        if index < 3:
            canvas.drawRightString(columns[index + 1] - mm(4), y, label)
        else:
            canvas.drawString(columns[3], y, label)
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
