"""Mutate Steam Court's inventory and check the verifier flags exactly the affected variants and player counts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from punchboard.verifier.engine import verify_game
from punchboard.verifier.findings import Result
from punchboard.verifier.inventory import Instance, build_inventory

from punchboard.cli import main
from punchboard.spec.loader import load_game
from tests.conftest import ROOT

STEAM_COURT = ROOT / "components" / "steam_court"


@pytest.fixture(scope="module")
def game():
    return load_game(STEAM_COURT)


def _without(inventory: tuple[Instance, ...], drop) -> tuple[Instance, ...]:  # type: ignore[no-untyped-def]
    """The inventory minus the first instance ``drop`` accepts, renumbered."""
    victim = next(i for i in inventory if drop(i))
    kept = [i for i in inventory if i is not victim]
    return tuple(Instance(n, i.component, i.name, i.env) for n, i in enumerate(kept))


def _findings(results: list[Result]) -> dict[tuple[str, int | None], set[str]]:
    return {(r.variant, r.players): {f.text() for f in r.findings if not f.step.startswith("event")} for r in results}


def _changed(game, inventory) -> dict[tuple[str, int | None], set[str]]:  # type: ignore[no-untyped-def]
    base = _findings(verify_game(game, trials=0))
    mutated = _findings(verify_game(game, trials=0, inventory=inventory))
    return {key: mutated[key] - base[key] for key in base if mutated[key] != base[key]}


def test_baseline_matches_the_rulebook(game) -> None:  # type: ignore[no-untyped-def]
    status = {(r.variant, r.players): r.status for r in verify_game(game, trials=0)}
    assert status[("standard", 2)] == "warn"  # the rulebook names no characters for 2
    assert all(status[("standard", n)] == "pass" for n in (3, 4, 5, 6))
    assert status[("seven", 7)] == "fail"  # gear tokens 1..7 do not exist
    assert status[("duo", 2)] == "pass"
    assert status[("solo", 1)] == "warn"  # the draw pile runs out only in the worst case
    assert [status[("party", n)] for n in (8, 9, 10, 11, 12)] == ["fail", "fail", "fail", "warn", "pass"]
    assert status[("box", None)] == "pass"


def test_missing_gear_token_fails_exactly_the_counts_that_stack_it(game) -> None:  # type: ignore[no-untyped-def]
    inventory = _without(build_inventory(game), lambda i: i.component == "gear_tokens" and i.env.get("value") == 3)
    changed = _changed(game, inventory)
    assert set(changed) == {("standard", n) for n in (3, 4, 5, 6)} | {("seven", 7)}
    four = next(r for r in verify_game(game, variant="standard", players=4, trials=0, inventory=inventory))
    shortfall = next(f for f in four.findings if f.step.startswith("step 4"))
    assert (shortfall.need, shortfall.have, shortfall.component) == (16, 15, "gear_tokens")
    assert 'standard' not in shortfall.text() and shortfall.text().startswith('step 4 "stack gear tokens')
    assert "need 16, have 15 (short by 1)" in shortfall.text()


def test_missing_character_flags_every_variant_that_seats_it(game) -> None:  # type: ignore[no-untyped-def]
    inventory = _without(build_inventory(game), lambda i: i.name == "The Jester")
    changed = _changed(game, inventory)
    assert set(changed) == {
        ("standard", 5), ("standard", 6), ("seven", 7), ("solo", 1), ("party", 12),
        ("clock", 5), ("clock", 6),
    }
    solo = next(r for r in verify_game(game, variant="solo", trials=0, inventory=inventory))
    stack = next(f for f in solo.findings if "character_stack" in f.step)
    assert (stack.need, stack.have) == (6, 5)


def test_missing_starting_token_fails_every_party_that_seats_it(game) -> None:  # type: ignore[no-untyped-def]
    inventory = _without(build_inventory(game), lambda i: i.component == "starting_tokens" and i.env.get("value") == 12)
    changed = _changed(game, inventory)
    assert set(changed) == {("party", n) for n in (8, 9, 10, 12)}  # the Vagabond (12) sits at every Renegade table
    party = next(r for r in verify_game(game, variant="party", players=12, trials=0, inventory=inventory))
    draw = next(f for f in party.findings if "each player draws a start token" in f.step)
    assert draw.step.startswith("renegade table step 6")
    assert (draw.need, draw.have) == (6, 5)


def test_second_deck_missing_a_masterstroke_shows_in_the_box_check_only(game) -> None:  # type: ignore[no-untyped-def]
    inventory = _without(build_inventory(game), lambda i: i.name == "Masterstroke" and i.env["copy"] == 1)
    assert set(_changed(game, inventory)) == set()  # setups deal whatever is there; the box check reads the model
    box = next(r for r in verify_game(game, trials=0) if r.variant == "box")
    assert box.status == "pass"


def test_shrunk_deck_in_yaml_fails_the_box_check_end_to_end(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "steam_court"
    shutil.copytree(STEAM_COURT, folder)
    deck = folder / "gear_deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("    count: 6\n", "    count: 5\n"), encoding="utf-8")
    code = main(["verify", str(folder), "--json", "--trials", "0", "--out", str(tmp_path / "out")])
    results = json.loads(capsys.readouterr().out)
    assert code == 1
    box = next(r for r in results if r["variant"] == "box")
    by_text = {f["step"]: f for f in box["findings"]}
    assert (by_text['box "6 of each gear card 1–12"']["need"], by_text['box "6 of each gear card 1–12"']["have"]) == (72, 60)
    assert (by_text['box "2 Decks of cards"']["need"], by_text['box "2 Decks of cards"']["have"]) == (168, 144)
    assert len(by_text) == 2
