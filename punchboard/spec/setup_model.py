"""The validated setup of a game: variants, steps, expectations, supply and deal events.

Loaded from ``setup.yaml`` by :mod:`punchboard.spec.setup_loader`; simulated by the
verifier. Counts stay unevaluated here (:class:`Count`) because they depend on
the player count being checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .model import frozen_map

STEP_KINDS = ("take", "remove", "shuffle", "deal", "give", "place", "draw_keep", "seat", "split")
BOX, REMOVED = "box", "removed"
SHARED_ZONES = (BOX, REMOVED)
COUNT_VARIABLES = ("players", "table_players", "table", "table_index")
CHOICE_LIMIT = 256  # most combinations of choices (choose:, open: choices) one player count may have


@dataclass(frozen=True)
class Choice:
    """Every value a count may take at one player count: the players choose (``choose: [...]``), or the
    rulebook leaves it open and these are the values it allows (``open: {11: {choices: [...], why: ...}}``).
    The verifier runs the setup once for every value (:mod:`punchboard.verifier.choices`)."""

    values: tuple[Any, ...]
    why: str = ""
    open: bool = False  # True: left open by the rulebook; False: the players' choice
    sources: tuple[str, ...] = ()  # file:line:col of each value


@dataclass(frozen=True)
class Count:
    """A whole number, an expression, a table by player count, or a choice among values."""

    value: int | str | tuple[Any, ...] | None = None  # a tuple only for let: lists
    by_players: Mapping[int, Any] | None = None
    open: Mapping[int, str] = field(default_factory=frozen_map)  # player count → why the rulebook leaves it open
    source: str = ""
    choices: Mapping[int, Choice] = field(default_factory=frozen_map)  # player count → every value allowed there
    label: str = ""  # how reports name it when it is a choice: the let: name, or 'step 3 count'

    def describe(self) -> str:
        if self.by_players is not None:
            return "by player count (" + ", ".join(f"{k}: {v}" for k, v in sorted(self.by_players.items())) + ")"
        if self.value is None and self.choices:
            return "one of " + ", ".join(str(v) for v in next(iter(self.choices.values())).values)
        return str(self.value)


@dataclass(frozen=True)
class ZoneLimit:
    capacity: Count | None = None
    exactly: Count | None = None
    say: str = ""


@dataclass(frozen=True)
class ShuffleIn:
    """``split``'s ``shuffle_in:``: ``each`` pieces (matching ``components`` and ``where``, the first ones of
    ``from_zone``) shuffled into every pile (Pandemic: one Epidemic card into each)."""

    from_zone: str
    each: Count
    components: tuple[str, ...] = ()
    where: str | None = None


@dataclass(frozen=True)
class Step:
    """One setup step; only the options of its ``kind`` are set."""

    kind: str
    number: int  # 1-based position in its list, as reports quote it
    say: str
    source: str  # file:line:col
    when: str | None = None
    from_zone: str = "box"
    to: str = ""
    components: tuple[str, ...] = ()
    where: str | None = None
    count: Count | None = None
    pick: str = "first"
    evenly: bool = False
    extra: tuple[str, ...] = ()
    remainder: str | None = None
    same: str | None = None
    distinct: bool = False
    distinct_field: str | None = None
    match_field: str | None = None
    match_zone: str | None = None
    into: tuple[str, ...] = ()
    each: Count | None = None
    draw: Count | None = None
    keep: Count | None = None
    seats: str = ""
    by: str | None = None
    face: str = ""  # remove: 'up' or 'down' ('' when not said)
    each_player: bool = False  # take/remove: once per player, from that player's own zone
    piles: Count | None = None  # split: into this many near-equal piles (the larger on top)
    shuffle_in: ShuffleIn | None = None  # split: pieces shuffled into each pile
    # take/remove with match: {field, zone, zone_field}: the pieces whose match_field equals the zone_field of
    # the pieces in the shared zone match_zone (Codenames: the key card says which team starts)
    match_zone_field: str | None = None

    @property
    def per_player(self) -> bool:
        return self.kind in ("deal", "give", "draw_keep") or (self.kind == "take" and self.each_player)


@dataclass(frozen=True)
class Expectation:
    zone: str
    source: str
    size: Count | None = None
    min: Count | None = None
    max: Count | None = None
    equal: bool = False
    has: str | None = None
    rule: str = ""
    severity: str = "fail"


@dataclass(frozen=True)
class Table:
    name: str
    players: Count
    steps: tuple[Step, ...]
    zones: Mapping[str, ZoneLimit] = field(default_factory=frozen_map)
    expect: tuple[Expectation, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class Consumption:
    """Pieces used up round after round, bounded against what setup left in ``zones``."""

    name: str
    zones: tuple[str, ...]
    per_round: Count
    rounds: Count
    source: str
    where: str | None = None
    worst_case: Count | None = None
    returned: bool = False
    each_player: bool = False  # from a zone each player has: the need is each player's, against their own zone


@dataclass(frozen=True)
class EventTerm:
    """One count of a union: the pieces matching ``where`` number within [low, high]."""

    where: str
    low: int = 1
    high: int | None = None


@dataclass(frozen=True)
class Event:
    """A deal outcome: the count of matching pieces in a player's zone lies in [low, high]; or, with
    ``any_of``, any of its terms holds (a union); or, with ``of_a_kind``, the most pieces (matching
    ``where``) that share one value of that field lie in [low, high]."""

    name: str
    zone: str
    where: str | None
    source: str
    low: int = 1
    high: int | None = None
    who: str | int = "any"  # any | every | first | a player's number (1 = the first player)
    any_of: tuple[EventTerm, ...] = ()
    of_a_kind: str | None = None

    @property
    def conditions(self) -> tuple[str, ...]:
        """Every condition the event reads (the terms' for a union)."""
        if self.any_of:
            return tuple(term.where for term in self.any_of)
        return (self.where,) if self.where is not None else ()


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    players: tuple[int, ...]
    steps: tuple[Step, ...]
    source: str
    rules: str = ""
    notes: str = ""
    let: Mapping[str, Any] = field(default_factory=frozen_map)  # name → Count | list | int
    zones: Mapping[str, ZoneLimit] = field(default_factory=frozen_map)
    tables: tuple[Table, ...] = ()
    expect: tuple[Expectation, ...] = ()
    supply: tuple[Consumption, ...] = ()
    events: tuple[Event, ...] = ()
    numbers: tuple[RuleNumber, ...] = ()  # the setup file's rulebook numbers (shared by every variant)
    playout: Playout | None = None  # the round model of a whole-game playout (verify --playouts)


@dataclass(frozen=True)
class RuleNumber:
    """A number the rulebook states, with its words: `points_to_win: 35` from "The first player to get 35 points wins"."""

    name: str
    value: int
    quote: str
    source: str  # file:line:col in setup.yaml
    where: str = ""
    total: Total | None = None  # a stated sum of a field, checked against the pieces (quote optional then)
    quotes: Mapping[str, str] = field(default_factory=frozen_map)  # language → quote@lang: the rulebook@lang's words


@dataclass(frozen=True)
class Setup:
    path: Path
    variants: tuple[Variant, ...]
    notes: str = ""
    gaps: tuple[str, ...] = ()  # "file:line:col: message" for count tables that miss covered player counts
    numbers: tuple[RuleNumber, ...] = ()

    def variant(self, variant_id: str) -> Variant:
        for variant in self.variants:
            if variant.id == variant_id:
                return variant
        raise KeyError(variant_id)


# ================================================================ playouts and stated totals
# The round model of a whole-game playout (``playout:`` in a variant) and the field sums a ``numbers:``
# entry may state (``sum:``). Loaded by :mod:`punchboard.spec.playout_loader`; played by
# :mod:`punchboard.verifier.playout`. A playout starts from the zones a setup left and repeats
# ``each_round`` until the round limit or an ``end`` condition: pieces gained, spent, returned, refilled,
# shuffled, and a score. Amounts may be fixed, dice rolls, a uniform range or the value of a drawn card;
# they stay unevaluated here (they depend on the player count, the round and the dice).

ACTION_KINDS = ("gain", "spend", "return", "refill", "shuffle", "score")
PLAYOUT_VARIABLES = ("round", "player", "place", "score")  # besides the setup's count variables
SPENT = "spent"  # where spent pieces go unless the action names another zone


@dataclass(frozen=True)
class Amount:
    """How many: ``count`` (a number, an expression, a table by player count), ``roll`` (the sum of
    ``dice`` dice with these ``faces``, plus ``plus``), ``between`` (uniform from ``low`` to ``high``) or
    ``card`` (the ``field`` of the top piece of ``card_from``, which then goes to ``card_to``)."""

    kind: str  # count | roll | between | card
    source: str
    count: Count | None = None
    dice: Count | None = None
    faces: tuple[int, ...] = ()
    plus: int = 0
    low: Count | None = None
    high: Count | None = None
    card_from: str = ""
    card_field: str = ""
    card_to: str = ""

    def describe(self) -> str:
        if self.kind == "roll":
            dice = self.dice.describe() if self.dice else "?"
            standard = self.faces == tuple(range(1, len(self.faces) + 1))
            faces = f"d{len(self.faces)}" if standard else f" dice with faces {list(self.faces)}"
            return f"{dice}{faces}" + (f"{self.plus:+d}" if self.plus else "")
        if self.kind == "between":
            return f"{self.low.describe() if self.low else '?'} to {self.high.describe() if self.high else '?'}"
        if self.kind == "card":
            return f"the {self.card_field} of the top of {self.card_from}"
        return self.count.describe() if self.count else "all"


@dataclass(frozen=True)
class Action:
    """One thing done every round; only the options of its ``kind`` are set."""

    kind: str
    number: int
    say: str
    source: str
    when: str | None = None
    from_zone: str = ""
    to: str = ""
    amount: Amount | None = None  # None: every piece (return, spend)
    up_to: Count | None = None  # refill: until ``to`` holds this many
    each_player: bool = False  # once per player, in turn order, on that player's own zones
    where: str | None = None  # gain, spend, return: only the pieces matching it
    placeholder: str = ""  # what in this action is a guess, not the rulebook's ('' when nothing is)

    def describe(self) -> str:
        if self.say:
            return self.say
        what = self.amount.describe() if self.amount else "all"
        who = "each player " if self.each_player else ""
        if self.kind == "refill":
            return f"{who}refill {self.to} up to {self.up_to.describe() if self.up_to else '?'} from {self.from_zone}"
        if self.kind == "shuffle":
            return f"shuffle {self.from_zone}"
        if self.kind == "score":
            return f"{who}score {what}"
        return f"{who}{self.kind} {what} from {self.from_zone} to {self.to}"


@dataclass(frozen=True)
class EndCondition:
    """The game ends after the first round at whose end this holds."""

    kind: str  # 'empty' (a zone holds nothing; any player's, for a zone each player has) or 'score'
    source: str
    zone: str = ""
    score: Count | None = None  # a score of at least this (any player's)
    means: str = "ends"  # what the game's end means when this holds: 'won', 'lost' or 'ends'
    say: str = ""

    def describe(self) -> str:
        if self.say:
            return self.say
        return f"{self.zone} is empty" if self.kind == "empty" else f"a score reaches {self.score.describe() if self.score else '?'}"


OUTCOMES = ("won", "lost", "ends")  # what an end condition may mean; a game that reaches the round limit: ROUND_LIMIT
ROUND_LIMIT = "round limit"


@dataclass(frozen=True)
class Playout:
    rounds: Count  # the round limit
    actions: tuple[Action, ...]
    source: str
    end: tuple[EndCondition, ...] = ()
    turn_order: str = "seat"  # 'seat': place = player; 'random': a new random order every round
    say: str = ""
    player_zones: tuple[str, ...] = ()  # zones the playout itself gives each player (to: with each_player)


@dataclass(frozen=True)
class Total:
    """A sum of one field: over the pieces of ``components`` in the box (matching ``where``), or over what
    ``zone`` holds after setup (every player's, for a zone each player has)."""

    field: str
    source: str
    zone: str = ""
    components: tuple[str, ...] = ()
    where: str | None = None

    def describe(self) -> str:
        if self.zone:
            return f"{self.field} over {self.zone} after setup"
        what = ", ".join(self.components) or "every piece"
        cond = f" where {self.where}" if self.where else ""
        return f"{self.field} over {what}{cond} in the box"
