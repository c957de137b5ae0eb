"""Print fingerprints are taken from the build's own drawing (version 2, generator/draw/fingerprint.py):
no side is drawn a second time for them, they equal the side drawn alone, they do not depend on what
else the document drew first, and prints recorded before versions (version 1) still compare."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from punchboard.generator import prints
from punchboard.generator.build import build_game
from punchboard.generator.impose.style import load_style
from punchboard.generator.options import BuildOptions

from punchboard.spec.loader import load_game, load_paper
from tests.build_helpers import make_game
from tests.conftest import ROOT, run_cli
from tests.print_records import read_record


def _record(out: Path, game: str, number: int) -> dict:
    return read_record(out / game, number)


def _alone(game_folder: Path, out: Path, options: BuildOptions) -> tuple[prints.PiecePrint, ...]:
    """Every piece's fingerprints with each side drawn alone (no build, no memo)."""
    game = load_game(game_folder)
    found = prints.fingerprint_game(game, replace(options, force=True), load_paper(options.paper), load_style(),
                                    out / game.id, None)
    return found.pieces


@pytest.mark.parametrize(("name", "flags"), [
    ("steam_court", {}),  # poker on Letter: the sheet keeps 1.12 mm of the declared 3 mm bleed
    ("belpunk", {"paper": "a4", "backs": "gutterfold"}),
    ("steamark", {"backs": "duplex-short", "packing": "gutter"}),  # turned reference cards: drawn alone
])
def test_the_build_fingerprints_are_the_sides_drawn_alone(name: str, flags: dict, tmp_path: Path) -> None:
    game = tmp_path / name
    shutil.copytree(ROOT / "components" / name, game)
    out = tmp_path / "out"
    args = [arg for key, value in flags.items() for arg in (f"--{'bleed-policy' if key == 'packing' else key}", value)]
    result = run_cli("build", str(game), "--out", str(out), "--quiet", *args)
    assert result.returncode == 0, result.stderr
    record = _record(out, name, 1)
    assert record["version"] == prints.FINGERPRINTS == 2
    built = prints._expanded(record["pieces"])
    alone = _alone(game, out, BuildOptions(quiet=True, **flags))
    assert len(built) == len(alone) > 50
    assert [p for p, q in zip(built, alone, strict=True) if p != q] == []


def test_a_build_draws_no_card_side_a_second_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards drawn upright as forms give their fingerprints while drawn: no card is drawn alone (Steam
    Court's shaped tokens are: their art is clipped to an outline, not drawn as a form)."""
    game = load_game(ROOT / "components" / "steam_court")
    alone: list[str] = []
    drawn_alone = prints._drawn_digest

    def watch(ctx, piece, *rest):  # type: ignore[no-untyped-def]
        alone.append(next(c.kind for c in game.printed if piece in c.pieces))
        return drawn_alone(ctx, piece, *rest)

    monkeypatch.setattr(prints, "_drawn_digest", watch)
    report = build_game(game, tmp_path, BuildOptions(record_print=True, quiet=True, jobs=1))
    assert any("recorded print 1" in note for note in report.notes)
    assert alone and set(alone) == {"tokens"}
    record = _record(tmp_path, "steam_court", 1)
    decks = [row for row in record["pieces"] if row["component"] in ("gear_deck", "characters")]
    assert sum(row["count"] for row in decks) == 180 and all(row["face"] and row["back"] for row in decks)


CAFE = "Café au lait"


def test_a_cards_fingerprint_does_not_depend_on_what_the_document_drew_before_it(tmp_path: Path) -> None:
    """reportlab codes a TrueType subset's characters in order of first use: a new card before this one,
    showing other accented letters first, moves every code; the fingerprint reads the characters."""
    game = make_game(tmp_path / "tiny")
    csv = game / "cards.csv"
    csv.write_text(f"name,value,text,count\nOne,1,{CAFE},1\nTwo,2,Bye,1\n", encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--quiet").returncode == 0
    csv.write_text(f"name,value,text,count\nZero,0,Ångström œuvre ñ,1\nOne,1,{CAFE},1\nTwo,2,Bye,1\n", encoding="utf-8")
    result = run_cli("build", str(game), "--out", str(out), "--changed-since", "1")
    assert result.returncode == 0, result.stderr
    first, second = (_record(out, "tiny", n) for n in (1, 2))
    face = {row["name"]: row["face"] for row in first["pieces"] if row["component"] == "cards"}
    again = {row["name"]: row["face"] for row in second["pieces"] if row["component"] == "cards"}
    assert again["One"] == face["One"] and again["Two"] == face["Two"] and "Zero" not in face
    assert "1 piece(s) to print" in result.stdout  # the new card, and nothing else

    csv.write_text(f"name,value,text,count\nZero,0,Ångström œuvre ñ,1\nOne,1,{CAFE}!,1\nTwo,2,Bye,1\n", encoding="utf-8")
    result = run_cli("build", str(game), "--out", str(out), "--changed-since", "last")
    assert result.returncode == 0, result.stderr
    third = {row["name"]: row["face"] for row in _record(out, "tiny", 3)["pieces"] if row["component"] == "cards"}
    assert third["One"] != again["One"] and third["Zero"] == again["Zero"]  # drawn differently: changed
    assert "1 piece(s) to print" in result.stdout


def test_a_print_recorded_before_versions_still_compares(tmp_path: Path) -> None:
    """A record without a version holds version-1 fingerprints: the build compares it with version-1
    fingerprints taken afresh, so an unchanged game still reads unchanged, and an edit reads as that edit."""
    game = make_game(tmp_path / "tiny")
    out = tmp_path / "out"
    options = BuildOptions(quiet=True)
    old = prints.fingerprint_game(load_game(game), options, load_paper("letter"), load_style(), out / "tiny", version=1)
    record = prints.new_record(1, prints.render_options(options), old.pieces)
    data = json.loads(record.to_json())
    del data["version"]  # as punchboard wrote them before fingerprints were versioned
    (out / "tiny" / "prints").mkdir(parents=True)
    (out / "tiny" / "prints" / "0001.json").write_text(json.dumps(data), encoding="utf-8")

    unchanged = run_cli("build", str(game), "--out", str(out), "--changed-since", "1")
    assert unchanged.returncode == 0, unchanged.stderr
    assert "no change since print 1" in unchanged.stdout and "nothing changed since print 1" in unchanged.stdout
    assert not (out / "tiny" / "prints" / "0002.json").exists()

    (game / "cards.csv").write_text((game / "cards.csv").read_text().replace("Bye", "Ciao"), encoding="utf-8")
    edited = run_cli("build", str(game), "--out", str(out), "--changed-since", "1")
    assert edited.returncode == 0, edited.stderr
    assert "recorded print 2" in edited.stdout and "reprint since print 1: 2 piece(s) to print" in edited.stdout
    assert _record(out, "tiny", 2)["version"] == 2
    again = run_cli("build", str(game), "--out", str(out), "--changed-since", "last")
    assert "no change since print 2" in again.stdout and "nothing changed since print 2" in again.stdout


def test_a_print_of_an_unknown_fingerprint_version_is_refused_with_a_message(tmp_path: Path) -> None:
    game = make_game(tmp_path / "tiny")
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--quiet").returncode == 0
    path = out / "tiny" / "prints" / "0001.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "version": 99}), encoding="utf-8")
    result = run_cli("build", str(game), "--out", str(out), "--changed-since", "1")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "fingerprints of version 99" in result.stderr and "reads versions 1 and 2" in result.stderr
