"""Bill of materials: every printed component with its counts, and bought supplies."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .model import Component, Game

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


def sheets_phrase(entry: dict[str, Any], sheets: str = "sheets") -> str:
    """'19 sheets, area bound 16.87 (at least 17, 2 over)' when a build or plan counted sheets, else ''."""
    if sheets not in entry:
        return ""
    count = entry[sheets]
    phrase = f"{count} sheet{'' if count == 1 else 's'}"
    if "area_bound" in entry:
        phrase += f", area bound {entry['area_bound']:.2f} (at least {entry['least_sheets']}, {entry['over_bound']} over)"
    return phrase


def format_bom(bom: dict[str, Any]) -> str:
    lines = [f"{bom['title']} ({bom['game']}) — bill of materials", ""]
    if "paper" in bom:
        lines += [f"Paper {bom['paper']}, backs {bom['backs']}: {sheets_phrase(bom, 'total_sheets')}", ""]
    lines.append("Printed components")
    for entry in bom["components"]:
        copies = f" ({entry['copies']} × {entry['per_copy']})" if entry["copies"] > 1 else ""
        sides = ", two-sided" if entry["two_sided"] else ""
        sheets = f" — {sheets_phrase(entry)}" if "sheets" in entry else ""
        group = f" (print group {entry['print_group']})" if "print_group" in entry else ""
        lines.append(f"  {entry['count']:>4}  {entry['name']} [{entry['kind']}{sides}]{copies}{sheets}{group}")
        if len(entry["breakdown"]) > 1:
            parts = ", ".join(f"{b['label']}: {b['count']}" for b in entry["breakdown"])
            lines.append(f"        by {entry['by']}: {parts}")
    for group in bom.get("print_groups", []):
        lines.append(f"  print group {group['name']} ({', '.join(group['components'])}): {sheets_phrase(group)} together")
    lines.append("")
    lines.append("Bought supplies")
    if not bom["supplies"]:
        lines.append("  none")
    for supply in bom["supplies"]:
        notes = f" — {supply['notes']}" if supply["notes"] else ""
        lines.append(f"  {supply['count']:>4}  {supply['name']}{notes}")
    return "\n".join(lines)


def markdown_bom(bom: dict[str, Any]) -> str:
    """The bill of materials as a Markdown page (``bom --out`` writes it as bom.md)."""
    planned = "paper" in bom
    lines = [f"# {bom['title']}: bill of materials", ""]
    if planned:
        lines += [f"Paper {bom['paper']}, backs {bom['backs']}: {sheets_phrase(bom, 'total_sheets')}.", ""]
        lines += ["| count | component | kind | sides | sheets | area bound | over | breakdown |", "|---:|---|---|---|---:|---:|---:|---|"]
    else:
        lines += ["| count | component | kind | sides | breakdown |", "|---:|---|---|---|---|"]
    for entry in bom["components"]:
        copies = f" ({entry['copies']} × {entry['per_copy']})" if entry["copies"] > 1 else ""
        breakdown = ", ".join(f"{b['label']}: {b['count']}" for b in entry["breakdown"]) if len(entry["breakdown"]) > 1 else ""
        by = f"by {entry['by']}: {breakdown}" if breakdown else ""
        sides = "two" if entry["two_sided"] else "one"
        if planned:
            bound = f"{entry['area_bound']:.2f}" if "area_bound" in entry else ""
            over = str(entry.get("over_bound", ""))
            group = f" (print group {entry['print_group']})" if "print_group" in entry else ""
            lines.append(f"| {entry['count']}{copies} | {entry['name']}{group} | {entry['kind']} | {sides} | {entry['sheets']} | {bound} | {over} | {by} |")
        else:
            lines.append(f"| {entry['count']}{copies} | {entry['name']} | {entry['kind']} | {sides} | {by} |")
    for group in bom.get("print_groups", []):
        lines += ["", f"Print group {group['name']} ({', '.join(group['components'])}): {sheets_phrase(group)} together."]
    lines += ["", "## Bought supplies", ""]
    if not bom["supplies"]:
        lines.append("None.")
    for supply in bom["supplies"]:
        notes = f" — {supply['notes']}" if supply["notes"] else ""
        lines.append(f"- {supply['count']} × {supply['name']}{notes}")
    return "\n".join(lines)
