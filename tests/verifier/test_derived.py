"""Derived numbers through `punchboard verify`: zone sizes after setup, field sums, stated totals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from punchboard.cli import main
from tests.conftest import ROOT


def _verify(capsys, target: Path | str, tmp_path: Path, *args: str) -> tuple[int, list[dict]]:  # type: ignore[no-untyped-def]
    code = main(["verify", str(target), "--trials", "0", "--json", "--out", str(tmp_path / "out"), *args])
    return code, json.loads(capsys.readouterr().out)


def _sizes(result: dict) -> dict[str, str]:
    return {z["zone"]: z["text"] for z in result["derived"]["sizes"]}


def test_steam_court_hands_and_court_hand_per_player_count(tmp_path, capsys):  # type: ignore[no-untyped-def]
    # "deal one deck into equal hands for each player plus the Court Hand; extras to the Court Hand":
    # 84 cards → 28/21/16+4/14/12 (rulebook p. 3)
    code, results = _verify(capsys, "steam_court", tmp_path, "--variant", "standard")
    assert code == 0
    cells = {r["players"]: _sizes(r) for r in results}
    assert [cells[n]["hand"] for n in range(2, 7)] == ["28 each", "21 each", "16 each", "14 each", "12 each"]
    assert [cells[n]["court_hand"] for n in range(2, 7)] == ["28", "21", "20", "14", "12"]
    assert cells[2]["seats"] == "open" and cells[3]["seats"] == "3"  # 2 players: the recommendations start at 3
    hand = next(z for z in results[2]["derived"]["sizes"] if z["zone"] == "hand")
    assert hand == {"zone": "hand", "per_player": True, "sizes": [16] * 4, "max_sizes": None, "open": "",
                    "text": "16 each"}


def test_steam_court_solo_piles(tmp_path, capsys):  # type: ignore[no-untyped-def]
    # "Deal 12 cards to yourself, 22 to the Court Hand, and place the rest of the cards into the draw pile"
    code, results = _verify(capsys, "steam_court", tmp_path, "--variant", "solo")
    sizes = _sizes(results[0])
    assert (sizes["hand"], sizes["court_hand"], sizes["draw_pile"], sizes["character_stack"]) == ("12 each", "22", "50", "6")


def test_box_sums_and_the_steamark_bank(tmp_path, capsys):  # type: ignore[no-untyped-def]
    code, results = _verify(capsys, "steamark", tmp_path)
    assert code == 0
    box = next(r for r in results if r["variant"] == "box")
    sums = {s["name"]: s for s in box["derived"]["sums"]}
    assert sums["banknotes.denomination"]["value"] == 30 * 1 + 20 * 5 + 30 * 10 + 4 * 50 == 630
    assert sums["banknotes.denomination"]["pieces"] == 84 and sums["rides.spaces"]["value"] == 36
    for result in results:
        if result["players"] is not None:
            (bank,) = result["derived"]["sums"]
            assert (bank["name"], bank["value"], bank["stated"], bank["agrees"]) == ("bank_total", 630, 630, True)
            assert bank["source"].startswith("components/steamark/setup.yaml:")


def _copy(tmp_path: Path, game: str) -> Path:
    folder = tmp_path / game
    shutil.copytree(ROOT / "components" / game, folder)
    return folder


def test_a_stated_total_that_differs_fails_at_its_line(tmp_path, capsys):  # type: ignore[no-untyped-def]
    folder = _copy(tmp_path, "steamark")
    setup = folder / "setup.yaml"
    text = setup.read_text(encoding="utf-8").replace("    value: 630\n", "    value: 740\n")
    setup.write_text(text, encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t == "  - name: bank_total")
    code, results = _verify(capsys, folder, tmp_path)
    assert code == 1
    failing = [f for r in results for f in r["findings"] if f["step"] == "stated total bank_total"]
    assert len(failing) == 4  # standard 2–4 and two_player 2
    assert failing[0]["severity"] == "fail"
    assert failing[0]["message"] == (f"stated total bank_total: setup.yaml states 740 ({setup}:{line}:5), but the "
                                     "denomination of the 84 pieces (bank after setup) adds up to 630")


def test_a_stated_box_total(tmp_path, capsys):  # type: ignore[no-untyped-def]
    folder = _copy(tmp_path, "steamark")
    setup = folder / "setup.yaml"
    text = setup.read_text(encoding="utf-8").replace(
        "    sum: {field: denomination, zone: bank}\n",
        "    sum: {field: denomination, zone: bank}\n  - name: big_notes\n    value: 250\n"
        "    sum: {field: denomination, component: banknotes, where: \"denomination >= 50\"}\n")
    setup.write_text(text, encoding="utf-8")
    code, results = _verify(capsys, folder, tmp_path)
    stated = next(r for r in results if r["variant"] == "stated totals")
    assert code == 1 and stated["status"] == "fail"
    assert stated["derived"]["sums"][0]["value"] == 200 and stated["derived"]["sums"][0]["pieces"] == 4
    assert "adds up to 200" in stated["findings"][0]["message"]
    md = (tmp_path / "out" / "steamark" / "verify.md").read_text(encoding="utf-8")
    assert "## Field sums" in md and "| stated totals | big_notes | 200 |" in md


def test_bad_sums_are_located_errors(tmp_path, capsys):  # type: ignore[no-untyped-def]
    folder = _copy(tmp_path, "steamark")
    setup = folder / "setup.yaml"
    original = setup.read_text(encoding="utf-8")
    for wrong, message in (("{field: denomnation, zone: bank}", "unknown field 'denomnation'"),
                           ("{field: denomination, zone: vault}", "zone 'vault' is never filled by any variant's setup"),
                           ("{field: denomination, component: notes}", "unknown component 'notes'")):
        setup.write_text(original.replace("{field: denomination, zone: bank}", wrong), encoding="utf-8")
        assert main(["check", str(folder)]) == 2
        err = capsys.readouterr().err
        assert message in err and err.startswith(f"{setup}:")
    setup.write_text(original.replace("    sum: {field: denomination, zone: bank}\n", ""), encoding="utf-8")
    assert main(["check", str(folder)]) == 2  # without sum: a number needs the rulebook's quote
    assert "quote" in capsys.readouterr().err


def test_sizes_in_the_terminal_and_verify_md(tmp_path, capsys):  # type: ignore[no-untyped-def]
    assert main(["verify", "steam_court", "--variant", "standard", "--trials", "0", "--verbose",
                 "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    lines = out.split("  sizes after setup")[1].splitlines()
    hand = next(line for line in lines if line.strip().startswith("hand"))
    assert hand.split()[1:] == ["28", "each", "21", "each", "16", "each", "14", "each", "12", "each"]
    md = (tmp_path / "out" / "steam_court" / "verify.md").read_text(encoding="utf-8")
    assert "| hand | 28 each | 21 each | 16 each | 14 each | 12 each |" in md
    assert "| court_hand | 28 | 21 | 20 | 14 | 12 |" in md


def test_playouts_never_change_a_bundled_games_exit_code(tmp_path, capsys):  # type: ignore[no-untyped-def]
    for game in ("steam_court", "astonishing", "belpunk", "knights_vs_steambots", "steamark"):
        plain = main(["verify", game, "--trials", "0", "-q", "--out", str(tmp_path / "out")])
        played = main(["verify", game, "--trials", "0", "--playouts", "20", "-q", "--out", str(tmp_path / "out")])
        capsys.readouterr()
        assert played == plain, game
        if game == "steamark":  # the corrected bank note: nothing fails
            assert plain == 0


def test_a_size_that_depends_on_the_shuffle_is_a_range(tmp_path, capsys):  # type: ignore[no-untyped-def]
    folder = tmp_path / "colours"
    folder.mkdir()
    (folder / "game.yaml").write_text("id: colours\ntitle: Colours\nplayers: {min: 2, max: 2}\nsetup: setup.yaml\n"
                                      "components: [cubes.yaml]\n", encoding="utf-8")
    (folder / "cubes.yaml").write_text("id: cubes\nkind: supply\nname: Cubes\nfields: [colour]\nitems:\n"
                                       "  - {name: Red, colour: red, count: 2}\n  - {name: Blue, colour: blue, count: 2}\n",
                                       encoding="utf-8")
    (folder / "setup.yaml").write_text(
        "variants:\n  - id: main\n    players: [2]\n    steps:\n      - take: {component: cubes, to: bag}\n"
        "      - deal: {from: bag, to: hand, count: 2}\n"
        "      - take: {from: hand, where: \"colour == 'red'\", to: reds, each_player: true}\n", encoding="utf-8")
    code, results = _verify(capsys, folder, tmp_path)
    sizes = {z["zone"]: z for z in results[1]["derived"]["sizes"]}
    # each player's 2 cubes are red in 0, 1 or 2 of them: what stays in the hand and what goes to reds differ
    # between setups, and the table says so instead of printing what one shuffle gave
    for zone in ("hand", "reds"):
        assert sizes[zone]["per_player"] and sizes[zone]["text"] == "0–2 each"
        assert sizes[zone]["sizes"] == [0, 0] and sizes[zone]["max_sizes"] == [2, 2]
    assert sizes["bag"]["text"] == "0" and sizes["bag"]["max_sizes"] is None
