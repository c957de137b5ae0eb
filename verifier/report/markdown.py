"""``verify.md``: the matrix, every cell's findings and its deal events."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import derived_report
from ..findings import Finding, Result
from .matrix import matrix
from .text import folded, where


def markdown(game_id: str, title: str, results: Sequence[Result], trials: int, seed: int,
             expected: Callable[[Finding], str | None] = lambda _: None) -> str:
    """The whole report; ``expected`` gives the reason a finding is declared expected (setup.yaml ``expected:``)."""
    variants, counts, cells = matrix(results)
    out = [f"# Verification: {title}", "", f"Monte Carlo: {trials} deals per event without an exact figure "
           f"(and per verdict that depends on the deal), `--seed {seed}`.", ""]
    out.append("| variant | " + " | ".join(str(c) for c in counts) + " |")
    out.append("|---|" + "---|" * len(counts))
    for variant in variants:
        out.append(f"| {variant} | " + " | ".join(cells.get((variant, c), "·") for c in counts) + " |")
    out.append("")
    for result in results:
        fails_on = f" ({result.fails_on.text()})" if result.fails_on is not None and result.status == "fail" else ""
        out.append(f"## {where(result)}: {result.status}{fails_on}")
        if result.random_steps:
            out.append("")
            out.append("The verdict depends on the deal: " + ", ".join(result.random_steps) + ".")
        out.append("")
        for finding, consequences in folded(result.findings):
            reason = expected(finding)
            mark = f" *(expected: {reason})*" if reason else ""
            out.append(f"- **{finding.severity}**{mark} {finding.text()}")
            out.extend(f"  - ↳ *follows from it:* {c.text()}" for c in consequences)
        if not result.findings:
            out.append("- every step, expectation and supply bound holds")
        if result.events:
            out.append("")
            out.append("| event | table | exact | Monte Carlo | joint 99.9 % interval | agrees | seed |")
            out.append("|---|---|---|---|---|---|---|")
            for e in result.events:
                exact = f"estimate ({e.why})" if e.exact is None else f"{e.exact:.6f}"
                if not e.trials:
                    out.append(f"| {e.name} | {e.table or '—'} | {exact} | not needed (`--cross-check` runs it) | — | — | — |")
                    continue
                out.append(f"| {e.name} | {e.table or '—'} | {exact} | {e.estimate:.6f} ({e.hits}/{e.trials}) | "
                           f"[{e.low:.6f}, {e.high:.6f}] | {'yes' if e.agrees else 'NO'} | `{e.seed}` |")
        out.append("")
    return "\n".join(out + derived_report.markdown(results))

