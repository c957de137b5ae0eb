"""`punchboard verify` end to end."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

from punchboard.cli import main


def _verify(tmp_path: Path, capsys, *args: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    code = main(["verify", *args, "--out", str(tmp_path / "out")])
    return code, capsys.readouterr().out


def test_steam_court_has_a_verdict_for_every_variant_and_count(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = _verify(tmp_path, capsys, "steam_court", "--json", "--trials", "500", "--seed", "7",
                        "--cross-check")
    results = json.loads(out)
    assert code == 1
    cells = {(r["variant"], r["players"]): r for r in results}
    expected = {("standard", n) for n in range(2, 7)} | {("seven", 7), ("duo", 2), ("solo", 1)}
    expected |= {("party", n) for n in range(8, 13)} | {("clock", n) for n in range(2, 7)} | {("box", None)}
    assert set(cells) == expected
    assert all(r["status"] in ("pass", "warn", "fail") for r in results)
    seven = cells[("seven", 7)]["findings"][0]
    assert seven["message"].startswith('step 4 "stack gear tokens 1..N on each of the four Quarter spaces": need 28, have 24 (short by 4)')
    assert (seven["need"], seven["have"], seven["component"]) == (28, 24, "gear_tokens")
    party8 = " ".join(f["message"] for f in cells[("party", 8)]["findings"])
    assert "Jester (5)" in party8 and "Inspector's seat (8)" in party8
    coup = cells[("standard", 4)]["events"][0]
    assert coup["seed"].startswith("7:") and coup["trials"] == 500
    assert coup["interval"][0] <= coup["exact"] <= coup["interval"][1]


def test_reports_are_written_and_deterministic(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _verify(tmp_path, capsys, "steam_court", "--trials", "300")
    first = {p.name: p.read_bytes() for p in (tmp_path / "out" / "steam_court").iterdir()}
    code, out = _verify(tmp_path, capsys, "steam_court", "--trials", "300", "--verbose")  # the events: --verbose
    second = {p.name: p.read_bytes() for p in (tmp_path / "out" / "steam_court").iterdir()}
    assert code == 1 and first == second and set(first) == {"verify.md", "verify.svg", "verify.png"}
    assert b"<svg" in first["verify.svg"] and b"#c0392b" in first["verify.svg"]
    assert b"Steam Court: variant" in first["verify.svg"]  # titled with the game's title, not its id
    assert "FAIL seven, 7 players, step 4" in out
    assert "## party, 8 players: fail" in first["verify.md"].decode()
    # the PNG is the same matrix: a red cell for the failing 'seven', green for passing cells
    image = Image.open(io.BytesIO(first["verify.png"])).convert("RGB")
    colours = {image.getpixel((x, y)) for x in range(0, image.width, 4) for y in range(0, image.height, 4)}
    assert (0xC0, 0x39, 0x2B) in colours and (0x4C, 0x9A, 0x2A) in colours and image.width > 300
    # the terminal summary lists every event per variant × count with its exact figure; an exact figure needs
    # no Monte Carlo unless --cross-check asks for it
    coup = [line for line in out.splitlines() if line.strip().startswith("coup: a player is dealt all 3 Masterstrokes")]
    assert len(coup) == 5 + 1 + 1 + 2 * 4 + 5  # standard 2–6, seven, duo, party 8–10 and 12 × 2 tables, clock 2–6
    assert any("standard 4" in line and "0.023509" in line and "not needed (--cross-check runs it)" in line
               for line in coup)
    _, checked = _verify(tmp_path, capsys, "steam_court", "--trials", "300", "--cross-check", "--variant", "standard",
                         "--verbose")
    coup = [line for line in checked.splitlines() if line.strip().startswith("coup: a player is dealt all 3 Masterstrokes")]
    assert any("standard 4" in line and "0.023509" in line and line.rstrip().endswith("yes") for line in coup)


def test_filters_and_exit_codes(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out = _verify(tmp_path, capsys, "steam_court", "--variant", "duo", "--json", "--trials", "100")
    assert code == 0 and [(r["variant"], r["players"]) for r in json.loads(out)] == [("duo", 2)]
    code = main(["verify", "steam_court", "--variant", "nope", "--out", str(tmp_path / "out")])
    assert code == 2
    assert "punchboard verify: --variant: steam_court has no variant 'nope'" in capsys.readouterr().err
