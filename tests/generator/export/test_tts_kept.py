"""``tts`` renders only what draws differently: a sheet whose cards (and hidden face) draw as they did when its
file was written is not rendered, pasted or digested again, nor a token or board image drawn as before; and a
deck's backs are compared by pixels remembered by drawing (kept_images.PixelsMemo). Every file is the one a fresh
export writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image
from punchboard.generator.export import images, tts
from punchboard.generator.export.kept_images import PixelsMemo

from punchboard.incremental.sealed import read_sealed
from punchboard.plumbing.paths import COMPONENTS
from punchboard.spec.loader import load_game
from tests.conftest import run_cli


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pages each rasterising pass renders."""
    passes: list[int] = []
    real = images.rasterise

    def counting(pdf, sizes, alpha=False, pages=None):  # type: ignore[no-untyped-def]
        passes.append(len(sizes))
        return real(pdf, sizes, alpha, pages)

    monkeypatch.setattr(images, "rasterise", counting)
    return passes


def _files(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_ino) for p in sorted(folder.rglob("*.png"))}


def _tweak(game: Path) -> None:
    characters = game / "characters.yaml"
    characters.write_text(characters.read_text(encoding="utf-8").replace(
        "Give one undesirable card to any player.", "Give one undesirable card to any other player.", 1), encoding="utf-8")


def test_a_second_export_renders_nothing_and_a_card_tweak_renders_its_sheet(tmp_path: Path, rendered: list[int]):
    game = tmp_path / "steam_court"
    shutil.copytree(COMPONENTS / "steam_court", game)
    out = tmp_path / "out"
    tts.export_tts(load_game(game), out)
    first = _files(out)
    assert sum(rendered) > 60 and any(name.endswith("characters-backs-1.png") for name in first)
    rendered.clear()
    tts.export_tts(load_game(game), out)
    assert rendered == []  # nothing drawn differently: nothing rendered
    assert _files(out) == first  # and nothing written

    _tweak(game)  # a character card's face: its face sheet (12 cards and the hidden face), nothing else
    tts.export_tts(load_game(game), out)
    assert sum(rendered) == 13, rendered
    after = _files(out)
    rewritten = sorted(name for name in after if after[name] != first[name])
    assert rewritten == ["steam_court/tts/characters-faces-1.png"]

    fresh = tmp_path / "fresh"
    tts.export_tts(load_game(game), fresh)
    assert {name: data for name, (data, _) in after.items()} == {name: data for name, (data, _) in _files(fresh).items()}


def test_through_the_cli_a_tweaked_export_is_a_fresh_one(tmp_path: Path):
    game = tmp_path / "steam_court"
    shutil.copytree(COMPONENTS / "steam_court", game)
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    for target in (out, out):
        result = run_cli("tts", str(game), "--out", str(target))
        assert result.returncode == 0, result.stderr
    _tweak(game)
    for target in (out, fresh):
        result = run_cli("tts", str(game), "--out", str(target))
        assert result.returncode == 0, result.stderr
    made = sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file() and not p.name.startswith("."))
    assert len(made) > 20
    for name in made:
        ours, theirs = (out / name).read_bytes(), (fresh / name).read_bytes()
        if name.suffix == ".json":  # file URLs name the folder written to
            ours, theirs = ours.replace(bytes(out), b"OUT"), theirs.replace(bytes(fresh), b"OUT")
        assert ours == theirs, f"{name} differs from a fresh export"


def _image(colour: str) -> Image.Image:
    return Image.new("RGB", (4, 3), colour)


def test_pixels_memo_renders_only_what_it_has_not_seen(tmp_path: Path):
    path = tmp_path / "backs.json"
    asked: list[list[int]] = []
    colours = {"a": "red", "b": "red", "c": "blue"}

    def render_for(keys: list[str | None]):  # type: ignore[no-untyped-def]
        def render(numbers: list[int]):  # type: ignore[no-untyped-def]
            asked.append(numbers)
            return [_image(colours.get(keys[n] or "", "green")) for n in numbers]
        return render

    memo = PixelsMemo(path)
    keys: list[str | None] = ["a", "b", "c", None]
    first = memo.digests(keys, render_for(keys))
    assert asked == [[0, 1, 2, 3]] and first[0] == first[1] != first[2]
    memo.save()
    asked.clear()
    again = PixelsMemo(path)
    assert again.digests(keys, render_for(keys)) == first
    assert asked == [[3]]  # a page without a drawing key is always rendered
    again.save()
    assert sorted(json.loads(read_sealed(path).decode("utf-8"))["pixels"]) == ["a", "b", "c"]
    path.write_text("{not json", encoding="utf-8")
    asked.clear()
    assert PixelsMemo(path).digests(keys[:1], render_for(keys)) == first[:1]
    assert asked == [[0]]


def test_a_deck_of_two_sheets_with_its_own_backs_rewrites_only_the_sheets_of_the_card_edited(tmp_path: Path):
    """80 cards whose backs show their name: two face sheets and two back sheets; renaming card 75 rewrites the
    second face and back sheets, and the export is a fresh one."""
    game = tmp_path / "ub"
    game.mkdir()
    (game / "game.yaml").write_text("id: ub\ntitle: Unique backs\nplayers: {min: 2, max: 4}\ncomponents: [cards.yaml]\n",
                                    encoding="utf-8")
    (game / "cards.yaml").write_text("id: cards\nkind: deck\nsize: poker\nlayout: base/card\nback: {layout: base/card}\n"
                                     "fields: [value]\ncsv: cards.csv\n", encoding="utf-8")
    csv = game / "cards.csv"
    csv.write_text("name,value\n" + "".join(f"Card {n},{n}\n" for n in range(1, 81)), encoding="utf-8")
    out, fresh = tmp_path / "out", tmp_path / "fresh"

    def tts(target: Path) -> dict[str, tuple[bytes, int]]:
        result = run_cli("tts", str(game), "--out", str(target))
        assert result.returncode == 0, result.stderr
        return _files(target)

    first = tts(out)
    assert sorted(first) == [f"ub/tts/cards-{side}-{n}.png" for side in ("backs", "faces") for n in (1, 2)]
    assert tts(out) == first
    csv.write_text(csv.read_text(encoding="utf-8").replace("Card 75,", "Card 75b,"), encoding="utf-8")
    after = tts(out)
    assert sorted(name for name in after if after[name] != first[name]) == ["ub/tts/cards-backs-2.png",
                                                                            "ub/tts/cards-faces-2.png"]
    assert {name: data for name, (data, _) in after.items()} == {name: data for name, (data, _) in tts(fresh).items()}
