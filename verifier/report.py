"""Reports: terminal table, JSON, verify.md and the variant × player-count matrix as SVG."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from .findings import Result

COLOURS = {"pass": "#4c9a2a", "warn": "#e0a800", "fail": "#c0392b", "": "#e6e6e6"}


def matrix(results: Sequence[Result]) -> tuple[list[str], list[int], dict[tuple[str, int], str]]:
    variants: list[str] = []
    counts: set[int] = set()
    cells: dict[tuple[str, int], str] = {}
    for result in results:
        if result.players is None:
            continue
        if result.variant not in variants:
            variants.append(result.variant)
        counts.add(result.players)
        cells[(result.variant, result.players)] = result.status
    return variants, sorted(counts), cells


def reason(result: Result) -> str:
    worst = [f for f in result.findings if f.severity == result.status] or result.findings
    return worst[0].text() if worst else ""


def where(result: Result) -> str:
    if result.players is None:
        return result.variant
    return f"{result.variant}, {result.players} player{'s' if result.players != 1 else ''}"


def findings_text(results: Sequence[Result]) -> list[str]:
    return [f"  {f.severity.upper()} {where(r)}, {f.text()}" for r in results if r.status != "pass" for f in r.findings]


def plain_text(game_id: str, results: Sequence[Result]) -> str:
    variants, counts, cells = matrix(results)
    lines = [f"{game_id}"]
    width = max([len(v) for v in variants] + [7])
    lines.append(" " * (width + 3) + " ".join(f"{c:>4}" for c in counts))
    for variant in variants:
        row = " ".join(f"{cells.get((variant, c), '·'):>4}" for c in counts)
        lines.append(f"  {variant:<{width}} {row}")
    return "\n".join(lines + findings_text(results))


def rich_table(game_id: str, results: Sequence[Result]) -> object:
    from rich.table import Table

    variants, counts, cells = matrix(results)
    table = Table(title=game_id)
    table.add_column("variant")
    for count in counts:
        table.add_column(str(count), justify="center")
    style = {"pass": "green", "warn": "yellow", "fail": "bold red"}
    for variant in variants:
        row = [variant]
        for count in counts:
            status = cells.get((variant, count))
            row.append(f"[{style[status]}]{status}[/]" if status else "·")
        table.add_row(*row)
    return table


def as_json(results: Sequence[Result]) -> str:
    return json.dumps([r.as_json() for r in results], indent=2, ensure_ascii=False) + "\n"


def markdown(game_id: str, title: str, results: Sequence[Result], trials: int, seed: int) -> str:
    variants, counts, cells = matrix(results)
    out = [f"# Verification: {title}", "", f"Monte Carlo: {trials} deals per event, `--seed {seed}`.", ""]
    out.append("| variant | " + " | ".join(str(c) for c in counts) + " |")
    out.append("|---|" + "---|" * len(counts))
    for variant in variants:
        out.append(f"| {variant} | " + " | ".join(cells.get((variant, c), "·") for c in counts) + " |")
    out.append("")
    for result in results:
        out.append(f"## {where(result)}: {result.status}")
        out.append("")
        for finding in result.findings:
            out.append(f"- **{finding.severity}** {finding.text()}")
        if not result.findings:
            out.append("- every step, expectation and supply bound holds")
        if result.events:
            out.append("")
            out.append("| event | table | exact | Monte Carlo | 99.9 % interval | agrees | seed |")
            out.append("|---|---|---|---|---|---|---|")
            for e in result.events:
                exact = "—" if e.exact is None else f"{e.exact:.6f}"
                out.append(f"| {e.name} | {e.table or '—'} | {exact} | {e.estimate:.6f} ({e.hits}/{e.trials}) | "
                           f"[{e.low:.6f}, {e.high:.6f}] | {'yes' if e.agrees else 'NO'} | `{e.seed}` |")
        out.append("")
    return "\n".join(out)


def svg(game_id: str, results: Sequence[Result]) -> str:
    variants, counts, cells = matrix(results)
    cell, label = 44, 150
    width = label + cell * max(len(counts), 1) + 10
    height = 40 + cell * (len(variants) + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             'font-family="sans-serif" font-size="13">',
             f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(game_id)}: variant × players</text>']
    top = 40
    for j, count in enumerate(counts):
        parts.append(f'<text x="{label + j * cell + cell // 2}" y="{top + cell // 2 + 5}" text-anchor="middle">{count}</text>')
    for i, variant in enumerate(variants):
        y = top + (i + 1) * cell
        parts.append(f'<text x="10" y="{y + cell // 2 + 5}">{escape(variant)}</text>')
        for j, count in enumerate(counts):
            status = cells.get((variant, count), "")
            x = label + j * cell
            parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" fill="{COLOURS[status]}">'
                         f'<title>{escape(variant)}, {count} players: {status or "not covered"}</title></rect>')
            if status:
                parts.append(f'<text x="{x + cell // 2}" y="{y + cell // 2 + 4}" text-anchor="middle" fill="#fff" '
                             f'font-size="10">{status}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
