"""``expected:`` in setup.yaml: findings ``verify`` is known to make, each with the reason it stays.

A bundled game transcribes a published rulebook as printed, defects included; its setup.yaml lists the findings
those defects make, so ``verify`` prints each once, marked expected, and an expected failure does not make the
exit code 1. The schema checks each entry's shape; :func:`load_expected` checks what it names (a variant the
setup has, player counts that variant covers) and reports anything else as ``setup.yaml:LINE:COL: …``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from punchboard.plumbing.errors import SpecError

# Results that are not a variant × player count: the verifier's checks of the whole game (verifier/engine.py)
WHOLE_GAME = ("box", "rulebook numbers", "stated totals", "setup")


@dataclass(frozen=True)
class Expected:
    """One ``expected:`` entry: findings whose text contains ``finding``, in ``variant`` (None: any) at
    ``players`` (None: any count); ``source`` is where the entry is written (``setup.yaml:LINE:COL``)."""

    finding: str
    reason: str
    variant: str | None
    players: tuple[int, ...] | None
    source: str

    def covers(self, variant: str, players: int | None, text: str) -> bool:
        """Whether a finding with this ``text``, in this variant × player count, is this entry's."""
        if self.variant is not None and self.variant != variant:
            return False
        if self.players is not None and players not in self.players:
            return False
        return self.finding in text


def load_expected(setup: Path | None, variants: Mapping[str, tuple[int, ...]]) -> tuple[Expected, ...]:
    """The ``expected:`` entries of a setup file (already schema-checked by the loader), each checked against
    ``variants`` (variant id → its player counts); raises SpecError listing every entry that names something
    the setup does not have. No setup, or no ``expected:``: none."""
    if setup is None:
        return ()
    from punchboard.spec.yamlsource import load_yaml

    doc = load_yaml(setup)
    raw = doc.data.get("expected") if isinstance(doc.data, dict) else None
    if not raw:
        return ()
    found, problems = [], []
    for index, entry in enumerate(raw):
        at = ("expected", index)
        variant, players = entry.get("variant"), entry.get("players")
        counts = None if players is None else tuple(sorted({players} if isinstance(players, int) else set(players)))
        problem = _named_wrongly(variant, counts, variants)
        if problem is not None:
            key = "variant" if problem.startswith("variant") else "players"
            problems.append(doc.problem((*at, key), f"expected: {problem}"))
            continue
        where = doc.problem(at, "")
        found.append(Expected(entry["finding"], entry["reason"], variant, counts, f"{where.file}:{where.line}:{where.col}"))
    if problems:
        raise SpecError(problems)
    return tuple(found)


def _named_wrongly(variant: str | None, counts: tuple[int, ...] | None, variants: Mapping[str, tuple[int, ...]]) -> str | None:
    """What is wrong with an entry's variant and players, or None."""
    if variant is not None and variant not in variants and variant not in WHOLE_GAME:
        known = ", ".join([*variants, *WHOLE_GAME])
        return f"variant '{variant}' is not in this setup; expected one of {known}"
    if counts is None:
        return None
    if variant in WHOLE_GAME:
        return f"players: '{variant}' is a check of the whole game, at no player count; expected no players:"
    covered = set(variants[variant]) if variant is not None else {n for c in variants.values() for n in c}
    outside = [n for n in counts if n not in covered]
    if outside:
        whose = f"variant '{variant}'" if variant is not None else "no variant"
        verb = "does not cover" if variant is not None else "covers"
        return f"players: {whose} {verb} {outside[0]} players; expected counts from {_runs(covered)}"
    return None


def _runs(counts: set[int]) -> str:
    """``1, 3–6``: counts as runs."""
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


__all__ = ["WHOLE_GAME", "Expected", "load_expected"]
