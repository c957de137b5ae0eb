"""One playout: the round model of a variant played on the zones one setup left, round after round.

Zones are ordered piles of instance ids, as in setup: the top is the front, pieces put back go to the
bottom. A pile **runs out** in a round when a ``gain``, ``refill`` or drawn ``card`` asks it for more
pieces than it holds; what there is is still taken, and the game goes on. ``spend`` and ``return``
move at most what their zone holds (a player with 2 Dirt who discards 4 discards 2): they never make a
pile run out.
"""

from __future__ import annotations

import random
from collections import ChainMap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from punchboard.spec import expressions
from punchboard.spec.setup_model import Action, Amount, Count, Playout

from ..counts import names, whole
from ..inventory import Instance


class PlayoutError(Exception):
    """An amount that is not a whole number of pieces (below zero, a fraction): the cell is not played."""


@dataclass
class Table:
    """The state of one game in play."""

    zones: dict[str, list[int]]
    per_player: Mapping[str, int]  # zone base → players, for zones each player has
    players: int
    env: dict[str, Any]
    rng: random.Random
    inventory: Sequence[Instance]
    scores: dict[int, int] = field(default_factory=dict)  # player (0: the shared score) → score
    short: dict[str, int] = field(default_factory=dict)  # pile → the round it first ran out
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # values by the names they read (shareable)

    def value(self, text: str | Count, env: Mapping[str, Any]) -> Any:
        """A condition's truth or a count's value, remembered by the values of the names it reads: the same
        few (round, place, a let value) recur in every game, and the expression walker is the slow part."""
        reads = _reads(text)
        key = (id(text), text if isinstance(text, str) else None, *sorted((n, repr(env.get(n))) for n in reads))
        if key not in self.memo:
            if isinstance(text, str):
                self.memo[key] = bool(expressions.evaluate(text, env, lenient=True))
            else:
                self.memo[key] = whole(text, env)
        return self.memo[key]

    def key(self, zone: str, player: int) -> str:
        return f"{zone}#{player}" if zone in self.per_player else zone

    def pile(self, key: str) -> list[int]:
        return self.zones.setdefault(key, [])

    def matching(self, pile: list[int], where: str | None) -> list[int]:
        if where is None:
            return pile
        return [i for i in pile if expressions.evaluate(where, ChainMap(dict(self.inventory[i].env), self.env), lenient=True)]

    def take(self, source: str, target: str, need: int, player: int, *, drains: bool, where: str | None = None) -> None:
        pile = self.pile(self.key(source, player))
        found = self.matching(pile, where)
        if need > len(found) and drains:
            self.short.setdefault(source, self.env["round"])
        moved = found[:need]
        if where is None:
            del pile[:need]
        else:
            gone = set(moved)
            pile[:] = [i for i in pile if i not in gone]
        self.pile(self.key(target, player)).extend(moved)


def _reads(text: str | Count) -> frozenset[str]:
    """Every name a condition or count may read (a table by player count: players and its entries' names)."""
    if isinstance(text, str):
        return names(text)
    found = {"players"} if text.by_players is not None else set()
    entries = text.by_players.values() if text.by_players is not None else [text.value]
    for entry in entries:
        if isinstance(entry, str):
            found |= names(entry)
    return frozenset(found)


def _whole(value: Any, amount: Amount | Action, what: str) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PlayoutError(f"{what} is {value!r}, not a whole number of pieces 0 or more ({amount.source})")
    return value


def amount_of(table: Table, amount: Amount, player: int, env: Mapping[str, Any]) -> int:
    if amount.kind == "count":
        assert amount.count is not None
        return _whole(table.value(amount.count, env), amount, f"the count {amount.describe()}")
    if amount.kind == "roll":
        assert amount.dice is not None
        dice = _whole(table.value(amount.dice, env), amount, "the number of dice")
        return max(0, sum(table.rng.choices(amount.faces, k=dice)) + amount.plus)
    if amount.kind == "between":
        assert amount.low is not None and amount.high is not None
        low, high = table.value(amount.low, env), table.value(amount.high, env)
        if low > high or low < 0:
            raise PlayoutError(f"between {low} and {high} is not a range of whole numbers 0 or more ({amount.source})")
        return table.rng.randint(low, high)
    pile = table.pile(table.key(amount.card_from, player))
    if not pile:
        table.short.setdefault(amount.card_from, env["round"])
        return 0
    card = pile.pop(0)
    table.pile(table.key(amount.card_to, player)).append(card)
    value = table.inventory[card].env.get(amount.card_field)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _act(table: Table, action: Action, player: int, env: Mapping[str, Any]) -> None:
    if action.when is not None and not table.value(action.when, env):
        return
    kind = action.kind
    if kind == "shuffle":
        table.rng.shuffle(table.pile(table.key(action.from_zone, player)))
        return
    if kind == "score":
        assert action.amount is not None  # the loader requires add:
        table.scores[player] = table.scores.get(player, 0) + amount_of(table, action.amount, player, env)
        return
    if kind == "refill":
        have = len(table.pile(table.key(action.to, player)))
        assert action.up_to is not None
        need = max(0, _whole(table.value(action.up_to, env), action, "up_to") - have)
        table.take(action.from_zone, action.to, need, player, drains=True)
        return
    if action.amount is None:  # spend or return every (matching) piece
        need = len(table.pile(table.key(action.from_zone, player)))
    else:
        need = amount_of(table, action.amount, player, env)
    table.take(action.from_zone, action.to, need, player, drains=kind == "gain", where=action.where)


def _ended(table: Table, model: Playout, env: Mapping[str, Any]) -> int | None:
    """The first end condition (its index in ``model.end``) that holds, or None."""
    for index, end in enumerate(model.end):
        if end.kind == "empty":
            keys = [table.key(end.zone, p) for p in range(1, table.players + 1)] if end.zone in table.per_player else [end.zone]
            if any(not table.zones.get(k) for k in keys):
                return index
        elif table.scores and max(table.scores.values()) >= whole(end.score, env):
            return index
    return None


def play(model: Playout, table: Table) -> tuple[int, int | None]:
    """Play until the round limit or an end condition: the number of rounds played, and the end condition
    that ended the game (its index in ``model.end``; the first listed when several hold), None at the limit."""
    env = table.env
    env["round"], env["player"], env["place"], env["score"] = 0, 0, 0, 0
    limit = whole(model.rounds, env)
    players = list(range(1, table.players + 1))
    played, ended = 0, None
    for played in range(1, limit + 1):
        env["round"] = played
        order = list(players)
        if model.turn_order == "random":
            table.rng.shuffle(order)
        places = {p: n for n, p in enumerate(order, start=1)}
        for action in model.actions:
            if action.each_player:
                for player in order:
                    env["player"], env["place"], env["score"] = player, places[player], table.scores.get(player, 0)
                    _act(table, action, player, env)
            else:
                env["player"], env["place"], env["score"] = 0, 0, table.scores.get(0, 0)
                _act(table, action, 0, env)
        ended = _ended(table, model, env)
        if ended is not None:
            break
    return played, ended


def piles(model: Playout) -> tuple[str, ...]:
    """The zones the model draws from (gain, refill, card amounts), in the order the model names them."""
    found: list[str] = []
    for action in model.actions:
        names = [action.from_zone] if action.kind in ("gain", "refill") else []
        if action.amount is not None and action.amount.kind == "card":
            names.append(action.amount.card_from)
        found.extend(n for n in names if n not in found)
    return tuple(found)
