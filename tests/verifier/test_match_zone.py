"""Selection by a field of another zone's pieces (``match: {field, zone, zone_field}`` on take and remove):
Codenames' key card, drawn at random, decides which team starts and takes the double agent."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from punchboard.verifier.setup.simulate import simulate
from punchboard.verifier.setup.words import describe_step
from punchboard.verifier.setup.zones import Scope

from punchboard.spec.loader import load_game
from punchboard.spec.setup_loader import load_setup
from tests.conftest import ROOT, run_cli
from tests.spec.test_setup_language import DECK, GAME, VISITORS

CODENAMES = ROOT / "tests" / "fixtures" / "codenames"


def _codenames(folder: Path | None = None):  # type: ignore[no-untyped-def]
    game = load_game(folder or CODENAMES)
    assert game.setup is not None
    return game, load_setup(game.setup, game.components, (game.players_min, game.players_max)).variants[0]


def test_the_key_card_decides_which_team_starts_with_nine() -> None:
    game, variant = _codenames()
    starts = set()
    for seed in range(12):
        run = simulate(game, variant, 4, f"key {seed}")
        key = [run.inventory[i] for i in run.zones["key"]]
        first = [run.inventory[i].env["team"] for i in run.zones["starting_team"]]
        second = {run.inventory[i].env["team"] for i in run.zones["second_team"]}
        colour = key[0].env["starts"]
        assert sorted(first) == sorted(["double"] + [colour] * 8) and second == ({"red", "blue"} - {colour})
        starts.add(colour)
    assert starts == {"red", "blue"}  # the key card is drawn at random


def test_codenames_verifies_and_who_starts_is_a_fair_coin(tmp_path: Path) -> None:
    done = run_cli("verify", str(CODENAMES), "--json", "--trials", "4000", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    cells = [r for r in json.loads(done.stdout) if r["players"]]
    assert [r["players"] for r in cells] == [4, 5, 6, 7, 8] and {r["status"] for r in cells} == {"pass"}
    for cell in cells:
        # the verdict reads the key card: every one of the 40 is tried, and each gives 9 and 8 agents
        assert cell["fails_on"]["kind"] == "exact" and cell["fails_on"]["deals"] == 40
        for event in cell["events"]:
            low, high = event["interval"]
            assert low <= Fraction(1, 2) <= high, event  # 20 of the 40 key cards show red


def test_a_lopsided_key_deck_moves_the_share(tmp_path: Path) -> None:
    folder = tmp_path / "codenames"
    folder.mkdir()
    for path in CODENAMES.iterdir():
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    keys = (folder / "key_cards.yaml").read_text(encoding="utf-8")
    (folder / "key_cards.yaml").write_text(keys.replace("to: 20}", "to: 30}").replace("from: 21", "from: 31"),
                                          encoding="utf-8")
    done = run_cli("verify", str(folder), "--json", "--trials", "4000", "--players", "4", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    red = next(e for r in json.loads(done.stdout) if r["players"] for e in r["events"] if e["name"].startswith("red"))
    assert red["interval"][0] <= Fraction(3, 4) <= red["interval"][1]


def test_the_step_in_words_and_an_empty_zone_selects_nothing(tmp_path: Path) -> None:
    game, variant = _codenames()
    plain = variant.steps[3].__class__(**{**variant.steps[3].__dict__, "say": ""})
    assert describe_step(plain, Scope("", 4, {})) == (
        "step 4 \"take agent_cards where team == 'red' or team == 'blue' whose team is the starts of key to starting_team\"")
    setup = (CODENAMES / "setup.yaml").read_text(encoding="utf-8").replace(
        "      - say: the spymasters choose one key card at random\n"
        "        take: {from: key_deck, count: 1, pick: random, to: key}\n",
        "      - say: the spymasters choose one key card at random\n"
        "        take: {from: key_deck, count: 1, pick: random, to: key}\n"
        "      - remove: {from: key, count: 1}\n")
    folder = tmp_path / "g"
    folder.mkdir()
    for path in CODENAMES.iterdir():
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "setup.yaml").write_text(setup, encoding="utf-8")
    done = run_cli("verify", str(folder), "--json", "--trials", "0", "--players", "4", "--out", str(tmp_path / "out"))
    assert done.returncode == 1
    cell = next(r for r in json.loads(done.stdout) if r["players"])
    first = next(f for f in cell["findings"] if f["step"].startswith("step 5"))
    assert "nothing matches" in first["message"] and (first["need"], first["have"]) == (1, 0)


def _tiny(tmp_path: Path, steps: str) -> str:
    folder = tmp_path / "tiny"
    folder.mkdir(parents=True)
    setup = f"variants:\n  - id: standard\n    players: {{min: 2, max: 4}}\n    steps:\n{steps}"
    for name, text in (("game.yaml", GAME), ("deck.yaml", DECK), ("visitors.yaml", VISITORS), ("setup.yaml", setup)):
        (folder / name).write_text(text, encoding="utf-8")
    done = run_cli("check", str(folder))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    return done.stderr


def test_bad_matches_are_located_errors(tmp_path: Path) -> None:
    lead = "      - take: {component: deck, where: \"type == 'knight'\", count: 1, to: leader}\n"
    take = "      - take: {component: deck, where: \"type == 'scissors'\", to: kit, match: {field: team, zone: %s%s}}\n"
    err = _tiny(tmp_path / "a", lead + take % ("leader", ", zone_field: taem"))
    assert "setup.yaml:6:" in err and "unknown field 'taem' (did you mean 'team'?)" in err
    err = _tiny(tmp_path / "b", lead + take % ("leadr", ""))
    assert "zone 'leadr' is empty here" in err and "did you mean 'leader'" in err
    dealt = "      - give: {component: deck, where: \"type == 'knight'\", to: leader, count: 1}\n"
    err = _tiny(tmp_path / "c", dealt + take % ("leader", ""))
    assert "match zone 'leader' is a zone each player has" in err
    each = ("      - give: {component: deck, where: \"type == 'number'\", to: hand, count: 2}\n"
            "      - take: {from: hand, count: 1, to: shown, each_player: true, match: {field: team, zone: hand}}\n")
    assert "cannot be combined with each_player: true" in _tiny(tmp_path / "d", each)
