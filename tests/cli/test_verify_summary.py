"""``verify``'s terminal output by default: the matrix, each failure or warning once by root cause, the key numbers;
expected findings (setup.yaml ``expected:``) marked, with their reason (issue 40 item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.minigame import write_game
from tests.conftest import run_cli

# Three chits dealt to each of 2–8 players from twelve: short at 5, 6, 7 and 8 players (one cause, four cells).
# The take count is left open at 3 and 4 players for one reason: one line for both counts.
SETUP = """\
variants:
  - id: standard
    players: {min: 2, max: 8}
    let:
      fresh: {by_players: {2: 1, 5: 1, 6: 1, 7: 1, 8: 1}, open: {3: "the rules say 'some'", 4: "the rules say 'some'"}}
    steps:
      - take: {component: chits, to: pool}
      - take: {from: pool, count: fresh, to: spare}
      - take: {from: pool, to: rest}
      - deal: {from: rest, to: hand, count: 3}
"""


def _game(tmp_path: Path, expected: str = "") -> Path:
    folder = write_game(tmp_path / "game")
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("max: 4", "max: 8")
    (folder / "game.yaml").write_text(text + "setup: setup.yaml\n", encoding="utf-8")
    (folder / "setup.yaml").write_text(SETUP + expected, encoding="utf-8")
    return folder


def _verify(folder: Path, *flags: str) -> tuple[int, list[str], str]:
    done = run_cli("verify", str(folder), "--trials", "0", "--out", "out", *flags, cwd=folder.parent)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout.splitlines(), done.stderr


def test_each_cause_is_one_line_over_every_cell_it_turns_up_in(tmp_path: Path):
    code, lines, _ = _verify(_game(tmp_path))
    assert code == 1
    fails = [line for line in lines if line.startswith("  FAIL")]
    assert fails == [line for line in fails if line.startswith('  FAIL standard, 5–8 players, step 4 "deal')], lines
    assert len(fails) == 1 and "need 15, have 11 (short by 4)" in fails[0], fails
    assert fails[0].endswith("[figures for standard, 5 players; each cell's in verify.md]"), fails
    opens = [line for line in lines if "left open by the rulebook" in line]
    assert len(opens) == 1 and opens[0].startswith("  WARN standard, 3–4 players, step 2"), lines
    assert opens[0].endswith("(+4 that follow from it)"), opens  # two steps skipped at each open count
    assert "  7 cells: 1 pass, 2 warn, 4 fail; 2 root causes of failures and warnings" in lines, lines
    assert not any("deal events" in line or "sizes after setup" in line for line in lines), lines
    # verify.md keeps every cell's findings one by one
    md = (tmp_path / "out" / "mini" / "verify.md").read_text(encoding="utf-8")
    assert md.count("need 15, have 11") == 1 and md.count("need 18, have 11") == 1 and md.count("skipped:") == 4


def test_verbose_prints_every_cell_and_the_derived_numbers(tmp_path: Path):
    code, lines, _ = _verify(_game(tmp_path), "--verbose")
    assert code == 1
    assert sum(1 for line in lines if line.startswith("  FAIL standard, ") and "step 4" in line) == 4, lines
    assert any("sizes after setup" in line for line in lines)


EXPECTED = """\
expected:
  - finding: step 4 "deal
    variant: standard
    players: [5, 6, 7, 8]
    reason: the box is short for big games, as printed
"""


def test_an_expected_finding_is_marked_once_with_its_reason_and_allow_expected_exits_0(tmp_path: Path):
    folder = _game(tmp_path, EXPECTED)
    code, lines, _ = _verify(folder)
    assert code == 1  # by default every failure counts, expected or not
    fails = [line for line in lines if "FAIL" in line]
    assert len(fails) == 1 and fails[0].startswith("  FAIL (expected) standard, 5–8 players, step 4"), lines
    reason = lines[lines.index(fails[0]) + 1]
    assert reason == "      expected: the box is short for big games, as printed (game/setup.yaml:12:5)", lines
    assert "2 root causes of failures and warnings (1 expected: setup.yaml expected:)" in lines[-2] + lines[-1], lines
    assert _verify(folder, "--allow-expected")[0] == 0
    assert _verify(folder, "--allow-expected", "--strict")[0] == 1  # the open count is an unexpected warning
    md = (tmp_path / "out" / "mini" / "verify.md").read_text(encoding="utf-8")
    assert md.count("*(expected: the box is short for big games, as printed)*") == 4
    data = json.loads(run_cli("verify", str(folder), "--trials", "0", "--json", "--out", "out", cwd=tmp_path).stdout)
    marked = [f for r in data for f in r["findings"] if f.get("expected")]
    assert len(marked) == 4 and all(f["severity"] == "fail" for f in marked)


def test_an_unexpected_failure_still_exits_1_with_allow_expected(tmp_path: Path):
    folder = _game(tmp_path, EXPECTED.replace("[5, 6, 7, 8]", "[5, 6, 7]"))  # 8 players is not declared
    code, lines, _ = _verify(folder, "--allow-expected")
    assert code == 1
    assert any(line.startswith("  FAIL standard, 8 players, step 4") for line in lines), lines
    assert any(line.startswith("  FAIL (expected) standard, 5–7 players, step 4") for line in lines), lines


def test_an_expected_entry_that_matches_nothing_is_a_warning(tmp_path: Path):
    folder = _game(tmp_path, EXPECTED + "  - {finding: no such words, reason: gone since the reprint}\n")
    code, lines, _ = _verify(folder, "--allow-expected")
    assert code == 0
    assert "  WARN expected: 'no such words' (game/setup.yaml:16:5) matched no finding; remove the entry or correct its words" in lines
    assert _verify(folder, "--allow-expected", "--strict")[0] == 1
    # a run of one cell cannot tell: no such warning
    assert not any("matched no finding" in line for line in _verify(folder, "--players", "5")[1])


@pytest.mark.parametrize(("entry", "said"), [
    ("  - {finding: x, variant: solo, reason: r}\n",
     "game/setup.yaml:12:27: expected: variant 'solo' is not in this setup; expected one of standard, box, rulebook numbers, stated totals, setup"),
    ("  - {finding: x, variant: standard, players: 9, reason: r}\n",
     "game/setup.yaml:12:46: expected: players: variant 'standard' does not cover 9 players; expected counts from 2–8"),
    ("  - {finding: x, reason: r, why: r}\n", "game/setup.yaml:12:29: unknown key 'why'; expected one of: finding, players, reason, variant"),
])
@pytest.mark.parametrize("verb", ["verify", "check"])
def test_a_wrong_expected_entry_is_bad_input_at_its_place(tmp_path: Path, entry: str, said: str, verb: str):
    folder = _game(tmp_path, "expected:\n" + entry)
    done = run_cli(verb, str(folder), *(["--out", "out"] if verb == "verify" else []), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(said) and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "out" / "mini" / "verify.md").exists()


def test_the_bundled_games_print_each_expected_finding_once_marked_expected(tmp_path: Path):
    done = run_cli("verify", "--trials", "0", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # knights' solo, steam court's seven and party fail, as printed
    lines = done.stdout.splitlines()
    findings = [line for line in lines if line.startswith(("  FAIL", "  WARN", "  CONTRADICTION"))]
    assert findings and all(" (expected) " in line for line in findings), findings
    assert len(findings) == 16 and len(lines) < 90, done.stdout  # 1 + 1 + 1 + 9 + 4 causes; was 313 lines
    assert sum(1 for line in lines if line.startswith("      expected: ")) == len(findings)
    allowed = run_cli("verify", "--trials", "0", "--allow-expected", "--strict", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stdout
