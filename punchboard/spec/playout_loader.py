"""``playout:`` (the round model of a whole-game playout) and ``numbers: … sum:`` (a stated total), read from
setup.yaml after the schema has passed. Called by the setup loader's builder, whose located errors,
counts and expression checks it uses; every problem is a ``file:LINE:COL`` error there."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from .setup_model import (
    ACTION_KINDS,
    PLAYOUT_VARIABLES,
    REMOVED,
    SPENT,
    Action,
    Amount,
    Count,
    EndCondition,
    Playout,
    Total,
)
from .yamlsource import PathKey

DICE = re.compile(r"^\s*([0-9]*)\s*d\s*([0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*$")
MAX_DICE_SIDES = 1000


class Builder(Protocol):
    components: dict[str, Any]
    fields: set[str]
    let_names: set[str]

    def source(self, path: PathKey) -> str: ...
    def error(self, path: PathKey, message: str) -> None: ...
    def count(self, path: PathKey, raw: Any) -> Count | None: ...
    def expression(self, path: PathKey, text: str, *, condition: bool) -> str | None: ...


@contextmanager
def _playout_names(builder: Builder) -> Iterator[None]:
    """Inside a playout, counts and conditions may also read round, player, place and score."""
    before = set(builder.let_names)
    builder.let_names |= set(PLAYOUT_VARIABLES)
    try:
        yield
    finally:
        builder.let_names = before


def _amount(builder: Builder, path: PathKey, raw: Any, zones: set[str]) -> Amount | None:
    source = builder.source(path)
    if isinstance(raw, str) and DICE.match(raw) and not raw.strip().isdigit():
        builder.error(path, f"'{raw}' is dice notation: write {{roll: \"{raw.strip()}\"}} (a plain string is an expression)")
        return None
    if not isinstance(raw, dict) or "by_players" in raw:
        count = builder.count(path, raw)
        return Amount("count", source, count=count) if count is not None else None
    if "between" in raw:
        low, high = raw["between"]
        if isinstance(low, int) and isinstance(high, int) and low > high:
            builder.error(path + ("between",), f"between [{low}, {high}]: the first is more than the second")
        return Amount("between", source, low=builder.count(path + ("between", 0), low),
                      high=builder.count(path + ("between", 1), high))
    if "card" in raw:
        card = raw["card"]
        for key in ("from", "to"):
            _known(builder, path + ("card", key), card[key], zones)
        if card["field"] not in builder.fields:
            builder.error(path + ("card", "field"), f"unknown field '{card['field']}'; no component has it")
        return Amount("card", source, card_from=card["from"], card_field=card["field"], card_to=card["to"])
    roll = raw["roll"]
    if isinstance(roll, str):
        match = DICE.match(roll)
        assert match is not None  # the schema's pattern
        dice, sides = int(match.group(1) or 1), int(match.group(2))
        if not 1 <= sides <= MAX_DICE_SIDES:
            builder.error(path + ("roll",), f"'{roll}': a die needs 1 to {MAX_DICE_SIDES} sides")
            return None
        plus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        return Amount("roll", source, dice=Count(value=dice, source=source), faces=tuple(range(1, sides + 1)), plus=plus)
    return Amount("roll", source, dice=builder.count(path + ("roll", "dice"), roll["dice"]),
                  faces=tuple(roll["faces"]), plus=roll.get("plus", 0))


def _known(builder: Builder, path: PathKey, zone: str, zones: set[str]) -> None:
    if zone not in zones:
        builder.error(path, f"zone '{zone}' is never filled: neither setup nor a playout action puts pieces in it; "
                            f"zones: {', '.join(sorted(zones))}")


def read_playout(builder: Builder, path: PathKey, raw: dict[str, Any], setup_zones: set[str],
                 per_player: set[str]) -> Playout | None:
    """The round model; ``setup_zones`` and ``per_player`` are the zones the variant's setup fills."""
    with _playout_names(builder):
        return _read(builder, path, raw, setup_zones, set(per_player))


def _read(builder: Builder, path: PathKey, raw: dict[str, Any], setup_zones: set[str], per_player: set[str]) -> Playout | None:
    zones = set(setup_zones) | {SPENT, REMOVED}
    own: list[str] = []
    bodies = [(i, next(k for k in step if k in ACTION_KINDS), step) for i, step in enumerate(raw["each_round"])]
    shared: set[str] = set()  # new zones an action names without each_player: one zone for the table
    for _, kind, step in bodies:
        if not step[kind].get("each_player"):
            shared.update(step[kind].get(key) for key in ("from", "to", "zone") if step[kind].get(key))
    for _, kind, step in bodies:  # zones a playout action fills exist from round 1 (empty until filled)
        target = step[kind].get("to")
        if target:
            zones.add(target)
            # a new zone is each player's own only when every action that names it acts per player
            if step[kind].get("each_player") and target not in setup_zones | shared and target not in own:
                per_player.add(target)
                own.append(target)
        card = step[kind].get("count")
        if isinstance(card, dict) and "card" in card:
            zones.add(card["card"]["to"])
    actions = []
    for index, kind, step in bodies:
        at = path + ("each_round", index)
        body = step[kind]
        if "when" in step:
            builder.expression(at + ("when",), step["when"], condition=False)
        each = bool(body.get("each_player"))
        for key in ("from", "to", "zone"):
            zone = body.get(key)
            if zone is None:
                continue
            _known(builder, at + (kind, key), zone, zones)
            if zone in per_player and not each:
                builder.error(at + (kind, key), f"'{zone}' is a zone each player has: write each_player: true to "
                                                f"{kind} on each player's own '{zone}'")
        options: dict[str, Any] = {"each_player": each, "where": body.get("where")}
        if "where" in body:
            builder.expression(at + (kind, "where"), body["where"], condition=True)
        if kind == "shuffle":
            options["from_zone"] = body["zone"]
        else:
            options["from_zone"] = body.get("from", "")
            options["to"] = body.get("to", SPENT if kind == "spend" else "")
        if kind in ("gain", "spend", "return") and "count" in body:
            options["amount"] = _amount(builder, at + (kind, "count"), body["count"], zones)
        elif kind == "score":
            options["amount"] = _amount(builder, at + (kind, "add"), body["add"], zones)
        elif kind == "refill":
            options["up_to"] = builder.count(at + (kind, "up_to"), body["up_to"])
        if kind in ("gain", "refill", "spend", "return") and options["from_zone"] == options["to"]:
            builder.error(at + (kind, "to"), f"{kind} from '{options['to']}' into itself moves nothing")
        actions.append(Action(kind=kind, number=index + 1, say=step.get("say", ""), source=builder.source(at),
                              when=step.get("when"), placeholder=step.get("placeholder", ""), **options))
    end = []
    for index, spec in enumerate(raw.get("end", [])):
        at = path + ("end", index)
        said = {"means": spec.get("means", "ends"), "say": spec.get("say", "")}
        if "empty" in spec:
            _known(builder, at + ("empty",), spec["empty"], zones)
            end.append(EndCondition("empty", builder.source(at), zone=spec["empty"], **said))
        else:
            if not any(a.kind == "score" for a in actions):
                builder.error(at + ("score",), "end: score needs a score: action in each_round")
            end.append(EndCondition("score", builder.source(at), score=builder.count(at + ("score",), spec["score"]),
                                    **said))
    rounds = builder.count(path + ("rounds",), raw["rounds"])
    if rounds is None:
        return None
    return Playout(rounds=rounds, actions=tuple(actions), source=builder.source(path), end=tuple(end),
                   turn_order=raw.get("turn_order", "seat"), say=raw.get("say", ""), player_zones=tuple(own))


def read_total(builder: Builder, path: PathKey, raw: dict[str, Any]) -> Total:
    """``sum:`` of a ``numbers:`` entry (its zone is checked against the variants later: see zone_totals)."""
    component = raw.get("component")
    components = tuple([component] if isinstance(component, str) else component or [])
    for i, cid in enumerate(components):
        if cid not in builder.components:
            builder.error(path + ("component",) + ((i,) if isinstance(component, list) else ()),
                          f"unknown component '{cid}'; expected one of {', '.join(sorted(builder.components))}")
    if raw["field"] not in builder.fields:
        builder.error(path + ("field",), f"unknown field '{raw['field']}'; no component has it")
    if "where" in raw:
        builder.expression(path + ("where",), raw["where"], condition=True)
    return Total(field=raw["field"], source=builder.source(path), zone=raw.get("zone", ""), components=components,
                 where=raw.get("where"))
