"""What the verifier found: findings, event statistics and one result per variant × player count."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # derived numbers and playouts (their modules import nothing from here)
    from .choices import ChoiceSummary
    from .derived import Derived
    from .playout.stats import PlayoutCell

STATUSES = ("pass", "warn", "fail")


@dataclass(frozen=True)
class Chance:
    """On what share of deals something happens: exact, or a Monte Carlo estimate with its interval.

    ``kind`` is 'fixed' (no random step can change it: probability 1 or 0), 'exact' or 'estimate';
    ``deals`` is how many deals an estimate looked at.
    """

    probability: float
    kind: str = "fixed"
    low: float = 1.0
    high: float = 1.0
    deals: int = 0

    def percent(self) -> str:
        value = 100 * self.probability
        return f"{value:.1f} %" if 0.05 <= value <= 99.95 or value in (0, 100) else f"{value:.3g} %"

    def text(self) -> str:
        if self.kind == "fixed":
            return "always" if self.probability else "never"
        if self.kind == "exact":
            return f"on {self.percent()} of deals (exact)"
        return (f"on {self.percent()} of deals [{100 * self.low:.1f} %, {100 * self.high:.1f} %] "
                f"(Monte Carlo over {self.deals} deals)")

    def as_json(self) -> dict[str, Any]:
        return {"probability": self.probability, "kind": self.kind, "interval": [self.low, self.high],
                "deals": self.deals}


def fixed(probability: float) -> Chance:
    """A share that no random step changes: 1 (always) or 0 (never)."""
    return Chance(probability, "fixed", probability, probability)


ALWAYS = fixed(1.0)


@dataclass(frozen=True)
class Finding:
    step: str  # e.g. 'step 2 "deal 7 cards to each player"', 'expect', 'supply', 'box'
    message: str
    severity: str = "fail"  # fail | warn | contradiction (the rulebook's own texts disagree: a warning) | info
    component: str = ""
    need: int | None = None
    have: int | None = None
    under: str = ""  # the root finding's step this one follows from ('' for a root)
    unit: str = ""  # what need and have count when it is not pieces: "colour sets"
    chance: Chance | None = None  # on how many deals it happens, when that depends on the deal (None: always)

    @property
    def short_by(self) -> int | None:
        if self.need is None or self.have is None or self.have >= self.need:
            return None
        return self.need - self.have

    def text(self) -> str:
        parts = [self.step] if self.step else []
        if self.need is not None and self.have is not None:
            unit = f" {self.unit}" if self.unit else ""
            numbers = f"need {self.need}{unit}, have {self.have}"
            if self.short_by:
                numbers += f" (short by {self.short_by})"
            parts.append(numbers)
        if self.message:
            parts.append(self.message)
        if self.chance is not None:
            parts.append(self.chance.text())
        return ": ".join(parts)

    def as_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "component": self.component,
            "need": self.need,
            "have": self.have,
            "severity": self.severity,
            "message": self.text(),
            "under": self.under,
            "unit": self.unit or "pieces",
            "on_deals": (self.chance or ALWAYS).as_json(),
        }


@dataclass(frozen=True)
class EventStat:
    """An event's exact probability and its seeded Monte Carlo estimate."""

    name: str
    table: str
    exact: float | None
    estimate: float
    low: float
    high: float
    trials: int
    hits: int
    seed: str
    exact_kind: str = "exact"  # 'exact' or 'estimate' (then exact is None and why says why)
    why: str = ""

    @property
    def agrees(self) -> bool:
        return self.exact is None or self.trials == 0 or self.low <= self.exact <= self.high

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "table": self.table,
            "exact": self.exact,
            "estimate": self.estimate,
            "interval": [self.low, self.high],
            "trials": self.trials,
            "hits": self.hits,
            "seed": self.seed,
            "agrees": self.agrees,
            "exact_kind": self.exact_kind,
            "why": self.why,
        }


@dataclass
class Result:
    game: str
    variant: str
    players: int | None
    findings: list[Finding] = field(default_factory=list)
    events: list[EventStat] = field(default_factory=list)
    derived: Derived | None = None  # zone sizes after setup, field sums
    playout: PlayoutCell | None = None  # verify --playouts
    fails_on: Chance | None = None  # the share of deals on which the setup falls short, when it depends on the deal
    random_steps: tuple[str, ...] = ()  # the steps whose outcome depends on the deal
    choices: ChoiceSummary | None = None  # the cell run once for every combination of its choices

    @property
    def status(self) -> str:
        severities = {f.severity for f in self.findings}
        if "fail" in severities:
            return "fail"
        return "warn" if severities & {"warn", "contradiction"} else "pass"

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "status": self.status,
            "fails_on": (self.fails_on or fixed(1.0 if self.status == "fail" else 0.0)).as_json(),
            "findings": [f.as_json() for f in self.findings],
            "events": [e.as_json() for e in self.events],
            "derived": self.derived.as_json() if self.derived is not None else None,
            "playout": self.playout.as_json() if self.playout is not None else None,
            "choices": self.choices.as_json() if self.choices is not None else None,
        }
