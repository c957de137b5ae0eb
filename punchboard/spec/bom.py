"""Bill of materials: every printed component with its counts, and bought supplies."""

from __future__ import annotations

from collections import Counter
from typing import Any

from punchboard.plumbing.words import ENGLISH, N_, Words, words

from .model import Component, Game

# the kinds of component, as the bill names them (translated where it is written)
KIND_NAMES = {"deck": N_("deck"), "banknotes": N_("banknotes"), "tokens": N_("tokens"), "board": N_("board"),
              "tiles": N_("tiles"), "sheet": N_("sheet")}
BREAKDOWN_FIELDS = ("kind", "suit", "colour", "color", "type", "team", "value", "denomination")


def breakdown_field(component: Component) -> str:
    for name in BREAKDOWN_FIELDS:
        if name in component.fields:
            return name
    return "name"


def breakdown(component: Component) -> list[tuple[str, int]]:
    """Counts per kind/suit/value (the first such field the component declares), in first-seen order."""
    key = breakdown_field(component)
    counts: Counter[str] = Counter()
    order: list[str] = []
    for piece in component.pieces:
        value = piece.get(key)
        label = "—" if value in (None, "") else str(value)
        if label not in counts:
            order.append(label)
        counts[label] += 1
    return [(label, counts[label]) for label in order]


def bill_of_materials(game: Game) -> dict[str, Any]:
    printed = []
    for component in game.components:
        if component.kind == "supply":
            continue
        printed.append(
            {
                "id": component.id,
                "name": component.name,
                "kind": component.kind,
                "count": component.count,
                "copies": component.copies,
                "per_copy": component.count // component.copies,
                "printed": component.printed,
                "by": breakdown_field(component),
                "breakdown": [{"label": label, "count": n} for label, n in breakdown(component)],
                "two_sided": component.has_backs,
            }
        )
    supplies = [{"name": s.name + (f" ({', '.join(str(v) for v in s.fields.values())})" if s.fields else ""),
                 "count": s.count, "notes": s.notes} for s in game.supplies]
    return {
        "game": game.id,
        "title": game.title,
        "players": {"min": game.players_min, "max": game.players_max},
        "components": printed,
        "supplies": supplies,
    }


def sheets_phrase(entry: dict[str, Any], sheets: str = "sheets", lang: str = ENGLISH) -> str:
    """'19 sheets, area bound 16.87 (at least 17, 2 over)' when a build or plan counted sheets, else ''."""
    if sheets not in entry:
        return ""
    w = words(lang)
    phrase = w.plural(entry[sheets], "{count} sheet", "{count} sheets")
    if "area_bound" in entry:
        phrase += w.text(", area bound {bound} (at least {least}, {over} over)", bound=w.number(entry["area_bound"], 2),
                         least=w.count(entry["least_sheets"]), over=w.count(entry["over_bound"]))
    return phrase


def _kind(entry: dict[str, Any], w: Words) -> str:
    """'deck, two-sided' in the bill's language."""
    kind = w.text(KIND_NAMES.get(entry["kind"], entry["kind"]))
    return w.text("{kind}, two-sided", kind=kind) if entry["two_sided"] else kind


def format_bom(bom: dict[str, Any], lang: str = ENGLISH) -> str:
    """The bill of materials as plain text (``punchboard bom``), in ``lang``."""
    w = words(lang)
    lines = [w.text("{title} ({game}) — bill of materials", title=bom["title"], game=bom["game"]), ""]
    if "paper" in bom:
        lines += [w.text("Paper {paper}, backs {backs}: {sheets}", paper=bom["paper"], backs=bom["backs"],
                         sheets=sheets_phrase(bom, "total_sheets", w.lang)), ""]
    lines.append(w.text("Printed components"))
    for entry in bom["components"]:
        copies = f" ({w.count(entry['copies'])} × {w.count(entry['per_copy'])})" if entry["copies"] > 1 else ""
        sheets = f" — {sheets_phrase(entry, lang=w.lang)}" if "sheets" in entry else ""
        group = " " + w.text("(print group {name})", name=entry["print_group"]) if "print_group" in entry else ""
        lines.append(f"  {w.count(entry['count']):>4}  {entry['name']} [{_kind(entry, w)}]{copies}{sheets}{group}")
        if len(entry["breakdown"]) > 1:
            parts = ", ".join(f"{b['label']}: {w.count(b['count'])}" for b in entry["breakdown"])
            lines.append("        " + w.text("by {field}: {parts}", field=entry["by"], parts=parts))
    for group in bom.get("print_groups", []):
        lines.append("  " + w.text("print group {name} ({components}): {sheets} together", name=group["name"],
                                   components=", ".join(group["components"]), sheets=sheets_phrase(group, lang=w.lang)))
    lines.append("")
    lines.append(w.text("Bought supplies"))
    if not bom["supplies"]:
        lines.append("  " + w.text("none"))
    for supply in bom["supplies"]:
        notes = f" — {supply['notes']}" if supply["notes"] else ""
        lines.append(f"  {w.count(supply['count']):>4}  {supply['name']}{notes}")
    return "\n".join(lines)


def markdown_bom(bom: dict[str, Any], lang: str = ENGLISH) -> str:
    """The bill of materials as a Markdown page (``bom --out`` writes it as bom.md), in ``lang``."""
    w = words(lang)
    planned = "paper" in bom
    lines = [w.text("# {title}: bill of materials", title=bom["title"]), ""]
    if planned:
        lines += [w.text("Paper {paper}, backs {backs}: {sheets}.", paper=bom["paper"], backs=bom["backs"],
                         sheets=sheets_phrase(bom, "total_sheets", w.lang)), ""]
        lines += [w.text("| count | component | kind | sides | sheets | area bound | over | breakdown |"), "|---:|---|---|---|---:|---:|---:|---|"]
    else:
        lines += [w.text("| count | component | kind | sides | breakdown |"), "|---:|---|---|---|---|"]
    for entry in bom["components"]:
        copies = f" ({w.count(entry['copies'])} × {w.count(entry['per_copy'])})" if entry["copies"] > 1 else ""
        breakdown = ", ".join(f"{b['label']}: {w.count(b['count'])}" for b in entry["breakdown"]) if len(entry["breakdown"]) > 1 else ""
        by = w.text("by {field}: {parts}", field=entry["by"], parts=breakdown) if breakdown else ""
        sides = w.text("two") if entry["two_sided"] else w.text("one")
        kind = w.text(KIND_NAMES.get(entry["kind"], entry["kind"]))
        count = w.count(entry["count"])
        if planned:
            bound = w.number(entry["area_bound"], 2) if "area_bound" in entry else ""
            over = w.count(entry["over_bound"]) if "over_bound" in entry else ""
            group = " " + w.text("(print group {name})", name=entry["print_group"]) if "print_group" in entry else ""
            lines.append(f"| {count}{copies} | {entry['name']}{group} | {kind} | {sides} | {w.count(entry['sheets'])} | {bound} | {over} | {by} |")
        else:
            lines.append(f"| {count}{copies} | {entry['name']} | {kind} | {sides} | {by} |")
    for group in bom.get("print_groups", []):
        lines += ["", w.text("Print group {name} ({components}): {sheets} together.", name=group["name"],
                             components=", ".join(group["components"]), sheets=sheets_phrase(group, lang=w.lang))]
    lines += ["", w.text("## Bought supplies"), ""]
    if not bom["supplies"]:
        lines.append(w.text("None."))
    for supply in bom["supplies"]:
        notes = f" — {supply['notes']}" if supply["notes"] else ""
        lines.append(f"- {w.count(supply['count'])} × {supply['name']}{notes}")
    return "\n".join(lines)
