"""Every record punchboard keeps to skip work obeys one rule (punchboard/incremental/sealed.py): a record that does not read back
whole is work to do again, never a wrong file. Each kind of damage — bits flipped, a file cut short, bytes
appended, a record of another component or game in its place — is done to every record of a built game (in its
output folder and in the user's cache folder) before an ordinary build after a one-card edit: the build exits 0
and every PDF equals a clean ``build --force`` of the edited game, byte for byte."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

GAME = "steam_court"
EDIT = ("Give one undesirable card to any player.", "Give one undesirable card to any player!")


def _build(game: Path, out: Path, cache: Path, *extra: str) -> None:
    done = run_cli("build", str(game), "--out", str(out), "--quiet", *extra, env={"PUNCHBOARD_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def _edit(game: Path) -> None:
    characters = game / "characters.yaml"
    text = characters.read_text(encoding="utf-8")
    assert EDIT[0] in text
    characters.write_text(text.replace(*EDIT, 1), encoding="utf-8")


def _pdfs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def _records(out: Path, cache: Path) -> list[Path]:
    """Every record a build keeps to skip work: the output folder's hidden files and the user's cache folder."""
    found = [p for p in out.rglob("*") if p.is_file() and p.suffix != ".pdf" and not p.name.endswith(".json")
             or p.name.startswith(".punchboard-") and p.is_file()]
    found += [p for p in cache.rglob("*") if p.is_file() and p.name != ".trimmed"]
    return sorted(set(p for p in found if p.name != ".punchboard.lock"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The game built once (its records), a second game's records (for foreign records), and a clean build of the
    edited game (the reference)."""
    base = tmp_path_factory.mktemp("damaged")
    game = base / "game"
    shutil.copytree(ROOT / "components" / GAME, game)
    _build(game, base / "out", base / "cache")
    _build(game, base / "out", base / "cache")  # the second build writes the unchanged-build record too
    other = base / "other"
    shutil.copytree(ROOT / "components" / "belpunk", other)
    _build(other, base / "other_out", base / "other_cache")
    edited = base / "edited"
    shutil.copytree(game, edited)
    _edit(edited)
    _build(edited, base / "clean", base / "clean_cache", "--force")
    return {"base": base, "game": game, "clean": base / "clean"}


def _flip(data: bytes, rng: random.Random) -> bytes:
    damaged = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(damaged))
        damaged[at] ^= 1 << rng.randrange(8)
    return bytes(damaged)


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))]


def _append(data: bytes, rng: random.Random) -> bytes:
    return data + bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))


DAMAGE: dict[str, Callable[[bytes, random.Random], bytes]] = {"flip": _flip, "truncate": _truncate, "append": _append}


def _foreign_for(record: Path, pool: list[Path]) -> bytes | None:
    """A record of the same kind (its suffix or, for extensionless ones, its folder) from another component or
    game; None when there is none."""
    kind = record.suffix or record.parent.parent.name
    same = [p for p in pool if (p.suffix or p.parent.parent.name) == kind and p.name != record.name and p.stat().st_size]
    return same[0].read_bytes() if same else None


@pytest.mark.parametrize("damage", ["flip-1", "flip-2", "flip-3", "truncate", "append", "foreign"])
def test_a_damaged_record_is_work_again_never_a_wrong_file(built: dict[str, Path], tmp_path: Path, damage: str):
    base = built["base"]
    game, out, cache = tmp_path / "game", tmp_path / "out", tmp_path / "cache"
    shutil.copytree(built["game"], game)
    shutil.copytree(base / "out", out)
    shutil.copytree(base / "cache", cache)
    records = _records(out, cache)
    kinds = {p.name if p.name.startswith(".punchboard-") else p.suffix or p.name for p in records}
    assert {".sides", ".index", ".runs", ".layouts", ".pages", ".looks", ".keep", ".drawn", ".last",
            ".punchboard-cache.json", ".punchboard-up-to-date.json"} <= kinds, kinds
    rng = random.Random(damage)
    pool = _records(base / "other_out", base / "other_cache") + records
    damaged = 0
    for record in records:
        data = record.read_bytes()
        if not data:
            continue  # a marker whose presence is its meaning (a validated document)
        if damage == "foreign":
            new = _foreign_for(record, pool)
            if new is None:
                continue
        else:
            new = DAMAGE[damage.split("-")[0]](data, rng)
        if new != data:
            record.write_bytes(new)
            damaged += 1
    assert damaged >= 20
    _edit(game)
    _build(game, out, cache)
    built_pdfs, clean_pdfs = _pdfs(out), _pdfs(built["clean"])
    assert built_pdfs.keys() == clean_pdfs.keys()
    wrong = [name for name in clean_pdfs if built_pdfs[name] != clean_pdfs[name]]
    assert not wrong, f"{damage}: differ from a clean build: {wrong}"
