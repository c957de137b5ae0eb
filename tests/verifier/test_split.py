"""``split``: a zone divided into near-equal piles (the larger on top), pieces shuffled into each, the piles
stacked; Pandemic's setup written with it, its epidemic timing held to brute force."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

from punchboard.verifier.setup.simulate import simulate
from punchboard.verifier.setup.zones import Pile

from punchboard.spec.loader import load_game
from punchboard.spec.setup_loader import load_setup
from tests.conftest import ROOT, run_cli
from tests.spec.test_setup_language import DECK, GAME, VISITORS

PANDEMIC = ROOT / "tests" / "fixtures" / "pandemic"
EPIDEMICS = {"introductory": 4, "standard": 5, "heroic": 6}
DEALT = {2: 4, 3: 3, 4: 2}
DRAWN = 12  # the event zone: the first 12 player cards (6 turns of 2)


def _tiny(tmp_path: Path, steps: str) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir(parents=True)
    setup = f"variants:\n  - id: standard\n    players: {{min: 2, max: 4}}\n    steps:\n{steps}"
    for name, text in (("game.yaml", GAME), ("deck.yaml", DECK), ("visitors.yaml", VISITORS), ("setup.yaml", setup)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


SPLIT = """\
      - take: {component: deck, where: "type == 'number'", to: numbers}
      - shuffle: {zone: numbers}
      - split: {from: numbers, piles: 3, to: stack, shuffle_in: {component: deck, where: "type == 'scissors'", each: 1}}
"""


def _run(folder: Path, players: int = 2, seed: str = "s"):  # type: ignore[no-untyped-def]
    game = load_game(folder)
    assert game.setup is not None
    setup = load_setup(game.setup, game.components, (game.players_min, game.players_max))
    return game, setup, simulate(game, setup.variants[0], players, seed)


def test_split_makes_near_equal_piles_larger_first_and_records_them(tmp_path: Path) -> None:
    game, _, run = _run(_tiny(tmp_path, SPLIT))
    piles = run.piles["stack"]
    assert [len(p.base) for p in piles] == [7, 7, 6]  # 20 numbers in 3 piles: the larger on top
    names = {i.id: i.name for i in run.inventory}
    assert all(len(p.added) == 1 and names[p.added[0]] == "Scissors" for p in piles)
    assert all(p.shuffled and sorted(p.ids) == sorted(p.base + p.added) for p in piles)
    assert run.zones["stack"] == [i for p in piles for i in p.ids] and run.zones.get("numbers") == []
    # the piles' own pieces are the 20 numbers, each once
    assert sorted(i for p in piles for i in p.base) == sorted(i.id for i in run.inventory if i.env.get("type") == "number")
    # where the scissors fall within their piles differs between setups
    spots = {tuple(p.ids.index(p.added[0]) for p in _run_again(game, run, seed).piles["stack"]) for seed in "abcdefgh"}
    assert len(spots) > 1
    assert isinstance(piles[0], Pile)


def _run_again(game, run, seed):  # type: ignore[no-untyped-def]
    return simulate(game, run.variant, run.players, seed)


def test_split_without_shuffle_in_keeps_the_order_and_names_the_step(tmp_path: Path) -> None:
    steps = SPLIT.replace(", to: stack, shuffle_in: {component: deck, where: \"type == 'scissors'\", each: 1}", "")
    _, setup, run = _run(_tiny(tmp_path, steps))
    assert [len(p.ids) for p in run.piles["numbers"]] == [7, 7, 6] and not run.piles["numbers"][0].shuffled
    from punchboard.verifier.setup.words import describe_step
    from punchboard.verifier.setup.zones import Scope

    assert describe_step(setup.variants[0].steps[2], Scope("", 2, {})) == 'step 3 "split numbers into 3 piles, and stack them"'


def test_too_few_pieces_to_shuffle_in_is_a_shortfall(tmp_path: Path) -> None:
    folder = _tiny(tmp_path, SPLIT.replace("piles: 3", "piles: players + 2"))
    done = run_cli("verify", str(folder), "--json", "--trials", "0", "--out", str(tmp_path / "out"))
    assert done.returncode == 1, done.stderr
    cells = {r["players"]: r for r in json.loads(done.stdout) if r["players"]}
    assert cells[2]["status"] == "fail" and cells[3]["status"] == "fail"
    finding = cells[2]["findings"][0]
    assert (finding["need"], finding["have"]) == (4, 3) and "1 to shuffle into each of 4 piles" in finding["message"]
    assert 'split numbers into players + 2 piles, shuffle 1 deck where type == \'scissors\' into each' in finding["step"]




def _check(tmp_path: Path, steps: str) -> str:
    done = run_cli("check", str(_tiny(tmp_path, steps)))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    return done.stderr


def test_bad_splits_are_located_errors(tmp_path: Path) -> None:
    assert "setup.yaml:7:39: piles: 0 splits the zone into no pile" in _check(tmp_path / "a", SPLIT.replace("piles: 3", "piles: 0"))
    err = _check(tmp_path / "b", SPLIT.replace("from: numbers, piles", "from: numbrs, piles"))
    assert "setup.yaml:7:23: zone 'numbrs' is empty here" in err and "did you mean 'numbers'" in err
    err = _check(tmp_path / "c", SPLIT.replace("component: deck, where", "component: dek, where"))
    assert "unknown component 'dek'" in err
    err = _check(tmp_path / "d", SPLIT.replace("each: 1}", "each: 1, count: 2}"))
    assert "unknown key 'count'" in err
    hand = "      - deal: {from: numbers, to: hand, count: 2}\n      - split: {from: hand, piles: 2}\n"
    err = _check(tmp_path / "e", SPLIT.splitlines(keepends=True)[0] + hand)
    assert "'hand' is a zone each player has: a split from it would pool every player's pieces" in err


# ------------------------------------------------------------------ Pandemic


def _pile_sizes(variant: str, players: int) -> list[int]:
    """The published rule by hand: 53 cards less the deal, in as-equal piles, larger on top, +1 Epidemic each."""
    rest, piles = 53 - DEALT[players] * players, EPIDEMICS[variant]
    size, larger = divmod(rest, piles)
    return [size + (1 if n < larger else 0) + 1 for n in range(piles)]


def _brute_force(sizes: list[int], at_least: int) -> Fraction:
    """Every position of every pile's Epidemic, each equally likely: the share with ``at_least`` of them among the
    first DRAWN cards."""
    starts = list(itertools.accumulate([0, *sizes[:-1]]))
    hits = total = 0
    for spots in itertools.product(*(range(s) for s in sizes)):
        total += 1
        hits += sum(start + spot < DRAWN for start, spot in zip(starts, spots, strict=True)) >= at_least
    return Fraction(hits, total)


def test_pandemic_setup_is_under_ten_steps_and_records_its_piles() -> None:
    game = load_game(PANDEMIC)
    assert game.setup is not None
    setup = load_setup(game.setup, game.components, (2, 4))
    for variant in setup.variants:
        assert len(variant.steps) < 10
        for players in variant.players:
            run = simulate(game, variant, players, f"{variant.id}{players}")
            piles = run.piles["player_deck"]
            assert [len(p.ids) for p in piles] == _pile_sizes(variant.id, players)
            names = {i.id: i.name for i in run.inventory}
            assert all([names[i] for i in p.added] == ["Epidemic"] for p in piles)
            assert all(sum(names[i] == "Epidemic" for i in p.ids) == 1 for p in piles)
            assert sum(len(run.zones[f"hand#{n}"]) for n in range(1, players + 1)) == DEALT[players] * players


def test_pandemic_verifies_and_its_epidemic_timing_matches_brute_force(tmp_path: Path) -> None:
    done = run_cli("verify", str(PANDEMIC), "--json", "--cross-check", "--trials", "4000", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    cells = [r for r in json.loads(done.stdout) if r["players"]]
    assert {r["status"] for r in cells} == {"pass"} and len(cells) == 9
    for cell in cells:
        sizes = _pile_sizes(cell["variant"], cell["players"])
        events = {e["name"]: e for e in cell["events"]}
        for name, at_least in (("an Epidemic is among the first 12 player cards drawn", 1),
                               ("two Epidemics are among the first 12 player cards drawn", 2)):
            event, truth = events[name], _brute_force(sizes, at_least)
            assert event["exact"] is not None, (cell["variant"], cell["players"], name)  # over one pile or several
            assert abs(event["exact"] - float(truth)) < 1e-12, (cell["variant"], cell["players"], name)
            low, high = event["interval"]
            assert low <= truth <= high, (cell["variant"], cell["players"], name, float(truth))
    # the brute force itself, by hand: heroic at 2 players stacks 9, 9, 9, 8, 8, 8; the first 12 cards are pile 1
    # whole (its Epidemic surely) and 3 of pile 2's 9 places
    assert _pile_sizes("heroic", 2) == [9, 9, 9, 8, 8, 8] and _brute_force([9, 9, 9, 8, 8, 8], 2) == Fraction(3, 9)
