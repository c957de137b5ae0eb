"""The oracle at the edges: player counts the rules leave open, the steps that must be skipped with them,
and piles taken from until they are empty.

The games are the enumeration oracle's (:mod:`tests.verifier.test_oracle`), with one step's count left open
at the player count asked (``{by_players: {9: n}, open: {P: …}}``) and a market taken from what is left of
the deck at the end (possibly more than is left: an empty or short pile). Which zones a skipped step leaves
unknown is written out here by hand from the game's shape, not from the verifier's own account of what a step
reads and writes: every event over such a zone must be "not computed" (said as a warning, never a figure)
and its size "open"; every event over a zone no skipped step reaches must be exactly the brute force's
figure; the setup may fall short only where a step that was run falls short.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from punchboard.verifier.engine import verify_game

from punchboard.spec.loader import load_game
from tests.verifier.test_oracle import (
    NAMES,
    SETTINGS,
    Game,
    State,
    brute_force,
    compound_truth,
    event_truth,
    games,
    write,
)

# the step left open → the zones it leaves unknown, by hand: what it changes, and what every step after it
# that reads one of those changes (deal A: the deck and the hands, so the keep, the reveal and the market)
OPEN_ZONES = {
    "remove": {"deck", "removed", "hand", "kept", "revealed", "market"},
    "deal": {"deck", "hand", "kept", "revealed", "market"},
    "deal_b": {"deck_b", "hand", "kept", "revealed"},
    "keep": {"hand", "kept", "revealed"},
    "reveal": {"hand", "revealed"},
    "": set(),
}


@dataclass(frozen=True)
class OpenGame:
    game: Game
    open: str  # the step whose count the rules leave open ('' for none)
    market: int  # cards taken from the deck at the end (0: no market)
    market_events: tuple[tuple[str, int, int | None], ...]  # (name, min, max) over the market


@st.composite
def open_games(draw: st.DrawFn) -> OpenGame:
    game = draw(games())
    steps = ["", "deal"] + (["remove"] if game.removed else []) + (["deal_b"] if game.deck_b else [])
    steps += (["keep"] if game.keep else []) + (["reveal"] if game.reveal else [])
    market = draw(st.integers(0, 3))
    events = tuple(draw(st.lists(st.tuples(st.sampled_from(NAMES), st.integers(0, 2), st.one_of(st.none(), st.integers(0, 2))),
                                 min_size=1, max_size=2))) if market else ()
    events = tuple((n, lo, hi if hi is None or hi >= lo else lo) for n, lo, hi in events)
    if market:
        game = replace(game, supply_rounds=0)  # the supply line reads the deck before the market is taken
    return OpenGame(game, draw(st.sampled_from(steps)), market, events)


def _left_open(text: str, pattern: str, players: int) -> str:
    """``text`` with the count of the one step line matching ``pattern`` left open at ``players``."""
    lines = [n for n, line in enumerate(text.splitlines()) if re.search(pattern, line)]
    assert len(lines) == 1, (pattern, text)
    rows = text.splitlines()
    rows[lines[0]] = re.sub(r"count: (\d+)", rf"count: {{by_players: {{9: \1}}, open: {{{players}: the rules stop}}}}",
                            rows[lines[0]])
    return "\n".join(rows) + "\n"


PATTERNS = {"remove": r"- remove: ", "deal": r"deal: \{from: deck, ", "deal_b": r"deal: \{from: deck_b",
            "keep": r"to: kept", "reveal": r"to: revealed"}


def write_open(folder: Path, spec: OpenGame) -> None:
    write(folder, spec.game)
    path = folder / "setup.yaml"
    text = path.read_text()
    if spec.open:
        text = _left_open(text, PATTERNS[spec.open], spec.game.players)
    if spec.market:
        head, tail = text.split("    supply:\n" if "    supply:\n" in text else "    events:\n", 1)
        sep = "    supply:\n" if "    supply:\n" in text else "    events:\n"
        text = head + f"      - take: {{from: deck, count: {spec.market}, to: market}}\n" + sep + tail
        for n, (name, low, high) in enumerate(spec.market_events):
            bound = f", max: {high}" if high is not None else ""
            text += f"      - {{name: m{n}, zone: market, where: \"name == '{name}'\", min: {low}{bound}}}\n"
    path.write_text(text)


def with_market(worlds: dict[State, Fraction], market: int) -> dict[State, Fraction]:
    """Every outcome once the market has taken the top ``market`` cards of what is left of the deck."""
    out: dict[State, Fraction] = {}
    for state, weight in worlds.items():
        zones = dict(state)
        deck = zones.get("deck", ())
        zones.update(deck=deck[market:], market=deck[:market])
        key = tuple(sorted(zones.items()))
        out[key] = out.get(key, Fraction(0)) + weight
    return out


def market_truth(worlds: dict[State, Fraction], event: tuple[str, int, int | None]) -> Fraction:
    name, low, high = event
    return sum((w for s, w in worlds.items() if low <= dict(s)["market"].count(name) and (high is None or dict(s)["market"].count(name) <= high)),
               Fraction(0))


def short_truth(spec: OpenGame) -> Fraction:
    """The probability that a step that is run falls short (a skipped one never does)."""
    game, zones = spec.game, OPEN_ZONES[spec.open]
    if spec.open in ("remove", "deal"):
        # what runs: the takes, the shuffle, a removal of at most 2 of at least 2 cards, deck B's deal of at
        # most one card to each of at most as many players as it has cards; the supply and market read the deck
        return Fraction(0)
    run = replace(game, keep=0 if "kept" in zones else game.keep, reveal=game.reveal and "revealed" not in zones,
                  deck_b=() if spec.open == "deal_b" else game.deck_b)
    worlds, short = brute_force(run)
    truth = sum((w for s, w in worlds.items() if short[s]), Fraction(0))
    if spec.market:
        truth = sum((w for s, w in worlds.items() if short[s] or len(dict(s)["deck"]) < spec.market), Fraction(0))
    return truth


def _verify(spec: OpenGame) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_open(folder, spec)
        return [r for r in verify_game(load_game(folder), trials=0, seed=1) if r.players]


def _named(result, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in result.findings if f.step == f'event "{name}"']


@SETTINGS
@given(open_games())
def test_events_over_what_a_skipped_step_reaches_are_not_computed_and_the_rest_are_exact(spec: OpenGame) -> None:
    game, zones = spec.game, OPEN_ZONES[spec.open]
    worlds = with_market(brute_force(game)[0], spec.market)
    (result,) = _verify(spec)
    stats = {e.name: e for e in result.events}
    every = [(f"e{n}", e[0], lambda e=e: event_truth(game, worlds, e)) for n, e in enumerate(game.events)]
    every += [(f"c{n}", c[1], lambda c=c: compound_truth(game, worlds, c)) for n, c in enumerate(game.compound)]
    every += [(f"m{n}", "market", lambda m=m: market_truth(worlds, m)) for n, m in enumerate(spec.market_events)]
    for name, zone, truth in every:
        if zone in zones:
            assert name not in stats, (spec, stats[name])
            assert any(m.startswith("not computed") for m in _named(result, name)), (spec, name, result.findings)
            continue
        if name not in stats:  # an empty pile or hand: said as a warning, never a figure
            assert any(m.startswith("not computed") for m in _named(result, name)), (spec, name, result.findings)
            continue
        if stats[name].exact is not None:
            assert stats[name].exact == pytest.approx(float(truth()), abs=1e-9), (spec, name, stats[name])
    sizes = {z.zone: z for z in result.derived.sizes}
    for zone, size in sizes.items():
        assert bool(size.open) == (zone in zones), (spec, zone, size)


@SETTINGS
@given(open_games())
def test_the_setup_falls_short_only_where_a_step_that_is_run_falls_short(spec: OpenGame) -> None:
    truth = short_truth(spec)
    (result,) = _verify(spec)
    fails_on = result.fails_on
    if spec.open:
        assert any("left open by the rulebook" in f.message for f in result.findings), (spec, result.findings)
    if fails_on is None or fails_on.kind == "fixed":
        assert truth in (0, 1), (spec, truth, result.findings)
        assert (result.status == "fail") == (truth == 1), (spec, truth, result.findings)
    elif fails_on.kind == "exact":
        assert fails_on.probability == pytest.approx(float(truth), abs=1e-9), (spec, truth, fails_on)
    else:
        assert 0 < truth or result.status != "fail", (spec, truth, result.findings)


def test_the_open_games_reach_every_edge() -> None:
    # a hand-made case of each kind of edge: a market over an emptied deck, each step left open
    base = Game(("X", "Y", "X"), ("X", "Y"), 2, True, 1, 1, False, 1, True, True, 0, (("kept", "X", 1, None, "any"),))
    for step in OPEN_ZONES:
        spec = OpenGame(base, step, 2, (("X", 1, None),))
        (result,) = _verify(spec)
        sizes = {z.zone: z for z in result.derived.sizes}
        assert {z for z, s in sizes.items() if s.open} == OPEN_ZONES[step] & set(sizes), (step, sizes)
        if "market" not in OPEN_ZONES[step]:  # 3 cards, 1 removed, 2 dealt: the market's 2 find an empty deck
            assert sizes["market"].low == (0,) and result.status == "fail", (step, result.findings)
