"""`punchboard verify --playouts K`: whole-game playouts through the CLI, held to analytic answers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from punchboard.verifier.playout.stats import quantile
from punchboard.verifier.probability.stats import Z_999, wilson

from punchboard.cli import main
from tests.conftest import ROOT

SUSHI = ROOT / "tests" / "fixtures" / "games" / "sushi_go"


def _game(folder: Path, playout: str, *, tokens: int = 10, cards: str = "", players: str = "[1]") -> Path:
    """A one-variant game: a pile of ``tokens`` tokens (and an optional deck of valued cards) and a round model."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text("id: drain\ntitle: Drain\nplayers: {min: 1, max: 4}\nsetup: setup.yaml\n"
                                      "components: [tokens.yaml]\n", encoding="utf-8")
    items = f"  - {{name: Token, value: 0, count: {tokens}}}\n" + cards
    (folder / "tokens.yaml").write_text(f"id: tokens\nkind: supply\nname: Tokens\nfields: [value]\nitems:\n{items}",
                                        encoding="utf-8")
    steps = "      - take: {component: tokens, where: \"name == 'Token'\", to: pile}\n"
    if cards:
        steps += "      - take: {component: tokens, where: \"name == 'Card'\", to: events}\n"
        steps += "      - shuffle: {zone: events}\n"
    (folder / "setup.yaml").write_text(f"variants:\n  - id: main\n    players: {players}\n    steps:\n{steps}"
                                       f"    playout:\n{playout}", encoding="utf-8")
    return folder


def _playouts(capsys, folder: Path, tmp_path: Path, *args: str) -> tuple[int, list[dict]]:  # type: ignore[no-untyped-def]
    code = main(["verify", str(folder), "--trials", "0", "--json", "--out", str(tmp_path / "out"), *args])
    return code, json.loads(capsys.readouterr().out)


def _cell(results: list[dict], variant: str = "main", players: int = 1) -> dict:
    return next(r for r in results if r["variant"] == variant and r["players"] == players)["playout"]


@pytest.mark.parametrize(("tokens", "rounds"), [(10, 10), (10, 11), (7, 3), (3, 12)])
def test_one_a_round_runs_out_exactly_when_the_rounds_outnumber_the_pile(tmp_path, capsys, tokens, rounds):  # type: ignore[no-untyped-def]
    model = f"      rounds: {rounds}\n      each_round:\n        - gain: {{from: pile, to: used, count: 1}}\n"
    code, results = _playouts(capsys, _game(tmp_path / "g", model, tokens=tokens), tmp_path, "--playouts", "300")
    cell = _cell(results)
    (pile,) = cell["piles"]
    assert code == 0 and pile["pile"] == "pile" and pile["games"] == 300
    if rounds > tokens:
        assert pile["runs_out"] == 300 and pile["probability"] == 1.0
        assert pile["first_round_median"] == pile["first_round_p90"] == tokens + 1
    else:
        assert pile["runs_out"] == 0 and pile["probability"] == 0.0 and pile["first_round_median"] is None
    assert cell["game_length"] == {"median": rounds, "p90": rounds, "mean": rounds}


def _first_shortfall(tokens: int, rounds: int, sides: int) -> dict[int, Fraction]:
    """Exact P(the pile first falls short in round r), a d``sides`` drawn each round: by convolution."""
    alive = {0: Fraction(1)}  # total drawn so far (never short yet) → probability
    first: dict[int, Fraction] = {}
    for r in range(1, rounds + 1):
        nxt: dict[int, Fraction] = {}
        for total, p in alive.items():
            for face in range(1, sides + 1):
                if total + face > tokens:
                    first[r] = first.get(r, Fraction(0)) + p / sides
                else:
                    nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / sides
        alive = nxt
    return first


@pytest.mark.parametrize(("tokens", "rounds", "sides"), [(20, 6, 6), (12, 5, 4)])
def test_a_dice_drain_matches_its_exact_distribution(tmp_path, capsys, tokens, rounds, sides):  # type: ignore[no-untyped-def]
    model = f"      rounds: {rounds}\n      each_round:\n        - gain: {{from: pile, to: used, count: {{roll: \"d{sides}\"}}}}\n"
    games = 4000
    code, results = _playouts(capsys, _game(tmp_path / "g", model, tokens=tokens), tmp_path, "--playouts", str(games))
    (pile,) = _cell(results)["piles"]
    first = _first_shortfall(tokens, rounds, sides)
    exact = float(sum(first.values()))
    assert 0.05 < exact < 0.95  # a figure the check can miss on either side
    assert pile["interval"][0] <= exact <= pile["interval"][1]
    assert list(wilson(pile["runs_out"], games, Z_999)) == pile["interval"]
    # the median round of the first shortfall, from the exact conditional distribution (far from a tie)
    total, running, median = sum(first.values()), Fraction(0), None
    for r in sorted(first):
        running += first[r]
        if median is None and running / total >= Fraction(1, 2):
            median = r
            assert abs(float(running / total) - 0.5) > 0.05
    assert pile["first_round_median"] == median


def test_a_count_from_a_drawn_card(tmp_path, capsys):  # type: ignore[no-untyped-def]
    # every card says 2: ten tokens last five rounds; the sixth asks for more than is left
    cards = "  - {name: Card, value: 2, count: 3}\n"
    model = ("      rounds: 8\n      each_round:\n"
             "        - gain: {from: pile, to: used, count: {card: {from: events, field: value, to: seen}}}\n"
             "        - return: {from: seen, to: events}\n")
    code, results = _playouts(capsys, _game(tmp_path / "g", model, cards=cards), tmp_path, "--playouts", "50")
    piles = {p["pile"]: p for p in _cell(results)["piles"]}
    assert code == 0 and set(piles) == {"pile", "events"}
    assert piles["pile"]["runs_out"] == 50 and piles["pile"]["first_round_median"] == 6
    assert piles["events"]["runs_out"] == 0  # the card goes back every round


def test_end_conditions_and_per_player_zones(tmp_path, capsys):  # type: ignore[no-untyped-def]
    # each of 3 players takes 2 a round from a shared pile of 10: the pile ends the game after round 2
    # (12 asked of 10: short in round 2) and each player scores 1 a round, so a score of 5 never ends it first
    model = ("      rounds: 9\n      end: [{empty: pile}, {score: 5}]\n      each_round:\n"
             "        - gain: {from: pile, to: mine, count: 2, each_player: true}\n"
             "        - score: {add: 1, each_player: true}\n")
    code, results = _playouts(capsys, _game(tmp_path / "g", model, players="[3]"), tmp_path, "--playouts", "20")
    cell = _cell(results, players=3)
    assert code == 0 and cell["piles"][0]["runs_out"] == 20 and cell["piles"][0]["first_round_median"] == 2
    assert cell["game_length"]["median"] == 2
    model = model.replace("{empty: pile}, {score: 5}", "{score: 1}")
    code, results = _playouts(capsys, _game(tmp_path / "h", model, players="[3]"), tmp_path, "--playouts", "20")
    assert _cell(results, players=3)["game_length"] == {"median": 1, "p90": 1, "mean": 1}


def test_sushi_go_rounds_end_to_end(tmp_path, capsys):  # type: ignore[no-untyped-def]
    code, results = _playouts(capsys, SUSHI, tmp_path, "--playouts", "400", "--seed", "5")
    assert code == 0
    for players in (2, 3, 4, 5):  # 60, 81, 96, 105 cards of 108 over three rounds: never short
        cell = _cell(results, "standard", players)
        assert [(p["pile"], p["runs_out"]) for p in cell["piles"]] == [("deck", 0)]
        assert cell["game_length"] == {"median": 3, "p90": 3, "mean": 3} and cell["seed"] == f"5:playout:standard:{players}"
    for players, round_short in ((6, 3), (7, 3), (8, 2)):  # 7 cards each: 126, 147, 168 of 108
        (deck,) = _cell(results, "stretched", players)["piles"]
        assert deck["runs_out"] == 400 and deck["first_round_median"] == deck["first_round_p90"] == round_short
    text = (tmp_path / "out" / "sushi_go" / "verify.md").read_text(encoding="utf-8")
    assert "## Playouts" in text and "| stretched | 8 | deck | 1.0000 |" in text


def test_same_figures_for_any_jobs_and_seed_in_the_label(tmp_path, capsys):  # type: ignore[no-untyped-def]
    outputs = []
    for jobs in ("1", "2"):
        code, results = _playouts(capsys, ROOT / "components" / "steamark", tmp_path / jobs, "--playouts", "600",
                                  "--jobs", jobs)
        outputs.append((code, results, (tmp_path / jobs / "out" / "steamark" / "verify.md").read_bytes()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 0  # playouts never change the exit code
    cell = _cell(outputs[0][1], "standard", 4)
    assert [p["pile"] for p in cell["piles"]] == ["dirt_pool", "ground_stack"] and cell["games"] == 600


def test_playouts_off_by_default_and_in_the_terminal(tmp_path, capsys):  # type: ignore[no-untyped-def]
    code, results = _playouts(capsys, SUSHI, tmp_path)
    assert code == 0 and all(r["playout"] is None for r in results)
    code = main(["verify", str(SUSHI), "--trials", "0", "--playouts", "10", "--variant", "stretched", "--players", "6",
                 "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0
    tail = out.split("  playouts (whole games from fresh setups")[1].splitlines()
    row = next(line for line in tail if line.strip().startswith("deck"))
    assert "stretched 6" in row and "1.0000" in row and "(10/10)" in row


def test_an_open_count_is_not_played_and_says_why(tmp_path, capsys):  # type: ignore[no-untyped-def]
    model = ("      rounds: {by_players: {1: 3}, open: {2: \"the rules stop at one player\"}}\n      each_round:\n"
             "        - gain: {from: pile, to: used, count: 1}\n")
    code, results = _playouts(capsys, _game(tmp_path / "g", model, players="[1, 2]"), tmp_path, "--playouts", "10")
    assert _cell(results, players=2)["note"] == ("not played: the round limit is left open by the rulebook: "
                                                 "the rules stop at one player")
    assert _cell(results, players=1)["piles"][0]["runs_out"] == 0


def test_a_negative_amount_stops_the_cell_with_its_place(tmp_path, capsys):  # type: ignore[no-untyped-def]
    model = "      rounds: 3\n      each_round:\n        - gain: {from: pile, to: used, count: \"2 - round\"}\n"
    code, results = _playouts(capsys, _game(tmp_path / "g", model), tmp_path, "--playouts", "10")
    note = _cell(results)["note"]
    assert note.startswith("not played: the count 2 - round is -1, not a whole number of pieces 0 or more")
    assert "setup.yaml:9:" in note


BAD = [
    ("        - gain: {from: pyle, to: used, count: 1}\n", "zone 'pyle' is never filled"),
    ("        - gain: {from: pile, to: used, count: \"2d6\"}\n", "'2d6' is dice notation: write {roll: \"2d6\"}"),
    ("        - gain: {from: pile, to: used, count: \"rounds\"}\n", "unknown name 'rounds'"),
    ("        - score: {add: {between: [3, 1]}}\n", "between [3, 1]: the first is more than the second"),
    ("        - gain: {from: pile, to: used, count: 1, where: \"colour == 'red'\"}\n", "unknown name 'colour'"),
]


@pytest.mark.parametrize(("action", "message"), BAD)
def test_bad_round_models_are_located_errors(tmp_path, capsys, action, message):  # type: ignore[no-untyped-def]
    folder = _game(tmp_path / "g", "      rounds: 3\n      each_round:\n" + action)
    code = main(["check", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and message in err
    assert err.startswith(f"{folder / 'setup.yaml'}:")
    code = main(["verify", str(folder), "--playouts", "5", "--out", str(tmp_path / "out")])
    assert code == 2


def test_a_zone_each_player_has_is_read_per_player(tmp_path, capsys):  # type: ignore[no-untyped-def]
    folder = tmp_path / "sushi"
    folder.mkdir()
    for name in ("game.yaml", "deck.yaml"):
        (folder / name).write_bytes((SUSHI / name).read_bytes())
    text = (SUSHI / "setup.yaml").read_text(encoding="utf-8")
    text = text.replace("        - say: pick and pass until", "        - return: {from: hand, to: deck}\n        - say: pick and pass until")
    (folder / "setup.yaml").write_text(text, encoding="utf-8")
    assert main(["check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "'hand' is a zone each player has: write each_player: true to return on each player's own 'hand'" in err
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "return: {from: hand, to: deck}" in t)
    assert f"setup.yaml:{line}:" in err


def test_end_score_needs_a_score_action(tmp_path, capsys):  # type: ignore[no-untyped-def]
    folder = _game(tmp_path / "g", "      rounds: 3\n      end: [{score: 4}]\n      each_round:\n"
                                   "        - gain: {from: pile, to: used, count: 1}\n")
    assert main(["check", str(folder)]) == 2
    assert "end: score needs a score: action in each_round" in capsys.readouterr().err


def test_nearest_rank_quantiles() -> None:
    assert quantile([], 0.5) is None
    assert quantile([4, 1, 3, 2], 0.5) == 2 and quantile([4, 1, 3, 2], 0.9) == 4
    assert quantile(list(range(1, 11)), 0.9) == 9 and quantile([7], 0.9) == 7
