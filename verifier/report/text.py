"""The report in words: the terminal's plain text and rich table, and the findings folded under their roots."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import derived_report
from ..findings import Finding, Result
from .matrix import matrix


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


def findings_text(results: Sequence[Result], expected: Callable[[Finding], str | None] = lambda _: None) -> list[str]:
    """Every cell's findings one by one, what follows from a root folded under it; ``expected`` gives the
    reason a finding is declared expected (setup.yaml ``expected:``), shown after it."""
    lines = []
    for result in results:
        if result.status == "pass":
            continue
        if result.fails_on is not None and result.fails_on.probability > 0:
            lines.append(f"  FAIL {where(result)}: fails {result.fails_on.text()}; the verdict depends on the deal: "
                         + ", ".join(result.random_steps))
        for root, consequences in folded(result.findings):
            reason = expected(root)
            mark = f" [expected: {reason}]" if reason else ""
            lines.append(f"  {root.severity.upper()} {where(result)}, {root.text()}{mark}")
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
        mc = (f"{e.estimate:.4f} [{e.low:.4f}, {e.high:.4f}]" if e.trials
              else "not needed (--cross-check runs it)" if e.exact is not None else "not run (--trials 0)")
        agrees = "—" if e.exact is None or not e.trials else ("yes" if e.agrees else "NO")
        lines.append(f"  {name:<{name_width}}  {cell:<{cell_width}}  {_probability(e.exact):>9}  {mc:<34}  {agrees}")
    return lines


def matrix_text(game_id: str, results: Sequence[Result]) -> str:
    """The variant × player-count matrix in plain text, under the game's id."""
    variants, counts, cells = matrix(results)
    lines = [f"{game_id}"]
    width = max([len(v) for v in variants] + [7])
    lines.append(" " * (width + 3) + " ".join(f"{c:>4}" for c in counts))
    for variant in variants:
        row = " ".join(f"{cells.get((variant, c), '·'):>4}" for c in counts)
        lines.append(f"  {variant:<{width}} {row}")
    return "\n".join(lines)


def plain_text(game_id: str, results: Sequence[Result]) -> str:
    """Everything: the matrix, every cell's findings, the deal events and the derived numbers."""
    return "\n".join([matrix_text(game_id, results), *findings_text(results), *events_text(results),
                      *derived_report.text(results)])


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

