"""The ``auto`` bleed policy: the most bleed for the fewest sheets, and what it gives up said once, as a note.

Builds run as a user runs them; the combined PDF's cover and bill of materials are read back.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from punchboard.generator.impose.grid import kept_bleed, plan_grid
from punchboard.generator.impose.style import load_style
from pypdf import PdfReader

from punchboard.spec.loader import load_paper
from tests.conftest import run_cli

MM = 72 / 25.4
GAMES = ("astonishing", "belpunk", "knights_vs_steambots", "showcase", "steam_court", "steamark")
POKER = (63.5 * MM, 88.9 * MM)


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning")]


def test_auto_keeps_the_full_bleed_when_it_costs_no_sheet() -> None:
    style, letter = load_style(), load_paper("letter")
    for pieces in (1, 4, 6, 12):  # 6-up with the full bleed prints these on as few sheets as 9-up
        grid = plan_grid(letter, *POKER, 3 * MM, "auto", style, pieces)
        assert grid is not None and math.ceil(pieces / grid.per_page) == math.ceil(pieces / 9)
        assert abs(kept_bleed(grid) - 3 * MM) < 1e-6, pieces
    for pieces in (7, 18, 60):  # 9-up saves a sheet: cards share cut lines
        grid = plan_grid(letter, *POKER, 3 * MM, "auto", style, pieces)
        assert grid is not None and grid.per_page == 9
        assert math.ceil(pieces / 9) < math.ceil(pieces / 6)


def test_the_starter_game_builds_without_a_warning_and_notes_the_shared_cut_lines(tmp_path: Path) -> None:
    assert run_cli("init", "My Game", cwd=tmp_path).returncode == 0
    build = run_cli("build", "My Game", "--out", "out", "--verbose", cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    assert warnings(build.stderr) == []
    said = [line for line in build.stdout.splitlines() if line.startswith("my_game: bleed: ")]
    assert len(said) == 1 and "cards share cut lines" in said[0] and "--bleed-policy gutter" in said[0]
    folder = tmp_path / "out" / "my_game"
    bom = json.loads((folder / "bom.json").read_text(encoding="utf-8"))
    noted = {entry["id"]: entry["bleed_note"] for entry in bom["components"] if "bleed_note" in entry}
    assert list(noted) == ["deck"] and "9-up on US Letter" in noted["deck"]
    pages = PdfReader(folder / "my_game-print-and-play.pdf").pages
    cover, bill = ("".join(pages[n].extract_text().split()) for n in (0, 1))  # spacing as extracted varies
    assert "Bleed:Cards:" in cover and "cardssharecutlines" in cover
    assert "bleed:Cards:" in bill and "cardssharecutlines" in bill
    quiet = run_cli("build", "My Game", "--out", "again", cwd=tmp_path)  # not verbose: no note on the terminal
    assert quiet.returncode == 0 and "bleed:" not in quiet.stdout + quiet.stderr


def test_the_bundled_games_build_without_a_warning(tmp_path: Path) -> None:
    build = run_cli("build", *GAMES, "--out", str(tmp_path), "--jobs", "1")
    assert build.returncode == 0, build.stderr
    assert warnings(build.stderr) == []
    noted = [game for game in GAMES if any("bleed_note" in entry for key in ("components", "print_groups")
                                           for entry in json.loads((tmp_path / game / "bom.json").read_text())
                                           .get(key, []))]
    assert noted == list(GAMES)  # each has a deck whose 9-up sheet saves paper at the cost of shared cut lines


def test_a_policy_the_user_names_still_warns(tmp_path: Path) -> None:
    build = run_cli("build", "belpunk", "--out", str(tmp_path), "--bleed-policy", "shared")
    assert build.returncode == 0, build.stderr
    assert any("belpunk / deck: bleed 0 mm left/right" in line for line in warnings(build.stderr))
    explicit = run_cli("build", "belpunk", "--out", str(tmp_path / "b"), "--bleed", "3mm")
    assert any("belpunk / deck: bleed 0 mm left/right" in line for line in warnings(explicit.stderr))
