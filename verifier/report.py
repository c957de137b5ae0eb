"""Reports: terminal table, JSON, verify.md and the variant × player-count matrix as SVG."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from html import escape

from PIL import Image, ImageDraw, ImageFont

from . import derived_report
from .findings import Finding, Result

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


def folded(findings: Sequence[Finding]) -> list[tuple[Finding, list[Finding]]]:
    """Root findings, each with the findings that follow from it folded under it."""
    roots = {f.step for f in findings if not f.under}
    out: list[tuple[Finding, list[Finding]]] = []
    index: dict[str, int] = {}
    for finding in findings:
        if finding.under and finding.under in roots:
            continue
        if finding.step not in index:
            index[finding.step] = len(out)
        out.append((finding, []))
    for finding in findings:
        if finding.under and finding.under in roots:
            out[index[finding.under]][1].append(finding)
    return out


def findings_text(results: Sequence[Result]) -> list[str]:
    lines = []
    for result in results:
        if result.status == "pass":
            continue
        for root, consequences in folded(result.findings):
            lines.append(f"  {root.severity.upper()} {where(result)}, {root.text()}")
            lines.extend(f"      ↳ follows from it: {c.text()}" for c in consequences)
    return lines


def _probability(value: float | None) -> str:
    return "estimate" if value is None else f"{value:.6f}"


def events_text(results: Sequence[Result]) -> list[str]:
    """Every declared event's probability per variant × player count: exact, Monte Carlo, agrees."""
    rows = [(f"{r.variant} {r.players}" + (f" {e.table}" if e.table else ""), e) for r in results for e in r.events]
    if not rows:
        return []
    name_width = min(max(len(e.name) for _, e in rows), 60)
    cell_width = max(len(c) for c, _ in rows)
    head = f"  {'event':<{name_width}}  {'where':<{cell_width}}  {'exact':>9}  Monte Carlo [joint 99.9 % interval] agrees"
    lines = ["  deal events (probability over the whole setup; Monte Carlo re-runs it from scratch)", head]
    for cell, e in rows:
        name = e.name if len(e.name) <= name_width else e.name[: name_width - 1] + "…"
        mc = f"{e.estimate:.4f} [{e.low:.4f}, {e.high:.4f}]" if e.trials else "not run (--trials 0)"
        agrees = "—" if e.exact is None or not e.trials else ("yes" if e.agrees else "NO")
        lines.append(f"  {name:<{name_width}}  {cell:<{cell_width}}  {_probability(e.exact):>9}  {mc:<34}  {agrees}")
    return lines


def plain_text(game_id: str, results: Sequence[Result]) -> str:
    variants, counts, cells = matrix(results)
    lines = [f"{game_id}"]
    width = max([len(v) for v in variants] + [7])
    lines.append(" " * (width + 3) + " ".join(f"{c:>4}" for c in counts))
    for variant in variants:
        row = " ".join(f"{cells.get((variant, c), '·'):>4}" for c in counts)
        lines.append(f"  {variant:<{width}} {row}")
    return "\n".join(lines + findings_text(results) + events_text(results) + derived_report.text(results))


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
        for finding, consequences in folded(result.findings):
            out.append(f"- **{finding.severity}** {finding.text()}")
            out.extend(f"  - ↳ *follows from it:* {c.text()}" for c in consequences)
        if not result.findings:
            out.append("- every step, expectation and supply bound holds")
        if result.events:
            out.append("")
            out.append("| event | table | exact | Monte Carlo | joint 99.9 % interval | agrees | seed |")
            out.append("|---|---|---|---|---|---|---|")
            for e in result.events:
                exact = f"estimate ({e.why})" if e.exact is None else f"{e.exact:.6f}"
                out.append(f"| {e.name} | {e.table or '—'} | {exact} | {e.estimate:.6f} ({e.hits}/{e.trials}) | "
                           f"[{e.low:.6f}, {e.high:.6f}] | {'yes' if e.agrees else 'NO'} | `{e.seed}` |")
        out.append("")
    return "\n".join(out + derived_report.markdown(results))


def svg(title: str, results: Sequence[Result]) -> str:
    variants, counts, cells = matrix(results)
    cell, label = 44, 150
    width = label + cell * max(len(counts), 1) + 10
    height = 40 + cell * (len(variants) + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             'font-family="sans-serif" font-size="13">',
             f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(title)}: variant × players</text>']
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


def png(title: str, results: Sequence[Result]) -> bytes:
    """The matrix as a PNG (same picture as the SVG), for places that do not show SVG."""
    variants, counts, cells = matrix(results)
    scale = 2
    cell, top = 44 * scale, 40 * scale
    font = ImageFont.load_default(size=13 * scale)
    bold = ImageFont.load_default(size=15 * scale)
    small = ImageFont.load_default(size=10 * scale)
    heading = f"{title}: variant by player count"  # the built-in font has no ×
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    label = max([probe.textlength(v, font=font) for v in variants] + [140 * scale]) + 10 * scale
    width = int(max(label + cell * max(len(counts), 1) + 10 * scale, probe.textlength(heading, font=bold) + 20 * scale))
    height = top + cell * (len(variants) + 1) + 10 * scale
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((10 * scale, 8 * scale), heading, fill="black", font=bold)
    for j, count in enumerate(counts):
        draw.text((label + j * cell + cell // 2, top + cell // 2), str(count), fill="black", font=font, anchor="mm")
    for i, variant in enumerate(variants):
        y = top + (i + 1) * cell
        draw.text((10 * scale, y + cell // 2), variant, fill="black", font=font, anchor="lm")
        for j, count in enumerate(counts):
            status = cells.get((variant, count), "")
            x = int(label + j * cell)
            draw.rectangle((x + 2 * scale, y + 2 * scale, x + cell - 2 * scale, y + cell - 2 * scale), fill=COLOURS[status])
            if status:
                draw.text((x + cell // 2, y + cell // 2), status, fill="white", font=small, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
