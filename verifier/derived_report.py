"""Derived numbers and playouts in the reports: terminal lines and verify.md sections."""

from __future__ import annotations

from collections.abc import Sequence

from .findings import Result
from .playout import words as playout_words


def _by_variant(results: Sequence[Result]) -> dict[str, list[Result]]:
    grouped: dict[str, list[Result]] = {}
    for result in results:
        if result.players is not None and result.derived is not None and result.derived.sizes:
            grouped.setdefault(result.variant, []).append(result)
    return grouped


def size_rows(cells: Sequence[Result]) -> tuple[list[str], list[list[str]]]:
    """Zone names in first-seen order and one row of sizes per zone (one column per result)."""
    zones: list[str] = []
    for result in cells:
        assert result.derived is not None
        zones.extend(z.zone for z in result.derived.sizes if z.zone not in zones)
    rows = []
    for zone in zones:
        row = [zone]
        for result in cells:
            assert result.derived is not None
            found = next((z for z in result.derived.sizes if z.zone == zone), None)
            row.append(found.text() if found is not None else "—")
        rows.append(row)
    return zones, rows


def sizes_text(results: Sequence[Result]) -> list[str]:
    grouped = _by_variant(results)
    if not grouped:
        return []
    lines = ['  sizes after setup (pieces in each zone; "N each": every player\'s own zone; "a–b": differs between setups)']
    for variant, cells in grouped.items():
        _, rows = size_rows(cells)
        rows = [["  " + row[0], *row[1:]] for row in rows]
        heads = [variant] + [f"{r.players} player{'s' if r.players != 1 else ''}" for r in cells]
        widths = [max(len(x) for x in column) for column in zip(heads, *rows, strict=True)]
        lines.append("    " + "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(heads, widths, strict=True))))
        for row in rows:
            lines.append("    " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                             for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    return lines


def sums_text(results: Sequence[Result]) -> list[str]:
    lines: list[str] = []
    for result in results:
        if result.derived is None or not result.derived.sums:
            continue
        where = result.variant if result.players is None else f"{result.variant}, {result.players} players"
        lines.extend(f"    {where}: {s.text()}" for s in result.derived.sums)
    return ["  field sums"] + lines if lines else []


def playouts_text(results: Sequence[Result]) -> list[str]:
    cells = [r for r in results if r.playout is not None]
    if not cells:
        return []
    lines = ["  playouts (whole games from fresh setups; a pile runs out when a round asks it for more than it holds)"]
    rows = [("pile", "where", "P(runs out) [99.9 % interval]", "runs out in round (median, p90)",
             "game length (median, p90, mean)")]
    for r in cells:
        cell = r.playout
        assert cell is not None
        where = f"{r.variant} {r.players}"
        if cell.note:
            lines.append(f"    {where}: {cell.note}")
            continue
        length = f"{cell.length_median}, {cell.length_p90}, {cell.length_mean:g}"
        for p in cell.piles:
            first = "—" if p.first_median is None else f"{p.first_median}, {p.first_p90}"
            rows.append((p.pile, where, f"{p.probability:.4f} [{p.low:.4f}, {p.high:.4f}] ({p.runs_out}/{p.games})",
                         first, length))
    if len(rows) > 1:
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        lines.extend("    " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows)
    return lines + playout_words.outcomes_text(results) + playout_words.models_text(results)


def text(results: Sequence[Result]) -> list[str]:
    return sizes_text(results) + sums_text(results) + playouts_text(results)


def markdown(results: Sequence[Result]) -> list[str]:
    out: list[str] = []
    grouped = _by_variant(results)
    if grouped:
        out += ["## Sizes after setup", "", "Pieces in each zone after setup; \"N each\": every player's own zone; "
                "\"a–b\": the size differs between setups.", ""]
        for variant, cells in grouped.items():
            _, rows = size_rows(cells)
            out.append(f"| {variant} | " + " | ".join(f"{r.players}" for r in cells) + " |")
            out.append("|---|" + "---:|" * len(cells))
            out.extend("| " + " | ".join(row) + " |" for row in rows)
            out.append("")
    sums = [(r, s) for r in results if r.derived is not None for s in r.derived.sums]
    if sums:
        out += ["## Field sums", "", "| where | name | value | over | pieces | stated |", "|---|---|---:|---|---:|---|"]
        for r, s in sums:
            where = r.variant if r.players is None else f"{r.variant}, {r.players}"
            stated = "—" if s.stated is None else (f"{s.stated} (agrees)" if s.agrees else f"**{s.stated}** ({s.source})")
            out.append(f"| {where} | {s.name} | {s.value:g} | {s.field} over {s.over} | {s.pieces} | {stated} |")
        out.append("")
    cells = [r for r in results if r.playout is not None]
    if cells:
        out += ["## Playouts", "", "Whole games played from fresh setups with the variant's round model; a pile runs "
                "out when a round asks it for more pieces than it holds. Interval: Wilson, 99.9 %.", "",
                "| variant | players | pile | P(runs out) | 99.9 % interval | runs out in round (median, p90) | "
                "game length (median, p90, mean) | games | seed |", "|---|---:|---|---:|---|---|---|---:|---|"]
        for r in cells:
            cell = r.playout
            assert cell is not None
            if cell.note:
                out.append(f"| {r.variant} | {r.players} | — | {cell.note} | | | | 0 | `{cell.seed}` |")
                continue
            for p in cell.piles:
                first = "—" if p.first_median is None else f"{p.first_median}, {p.first_p90}"
                out.append(f"| {r.variant} | {r.players} | {p.pile} | {p.probability:.4f} | [{p.low:.4f}, {p.high:.4f}] "
                           f"| {first} | {cell.length_median}, {cell.length_p90}, {cell.length_mean:g} | {p.games} | "
                           f"`{cell.seed}` |")
        out.append("")
        out += playout_words.outcomes_markdown(results) + playout_words.models_markdown(results)
    return out
