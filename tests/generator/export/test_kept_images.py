"""``punchboard images`` leaves an image whose pixels are unchanged as it is (generator/export/kept_images.py):
every export writes the files a fresh export to an empty folder writes, and rewrites only what changed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from punchboard.generator.export import images

from punchboard.incremental.sealed import read_sealed
from punchboard.spec.loader import load_game
from tests.build_helpers import make_game
from tests.conftest import run_cli


def _images(game: Path, out: Path, *flags: str) -> None:
    result = run_cli("images", str(game), "--out", str(out), "--dpi", "100", *flags)
    assert result.returncode == 0, result.stderr


def _pngs(out: Path) -> dict[str, tuple[bytes, int, int]]:
    """Each image's bytes, inode and modification time (a file written again has a new inode)."""
    return {str(p.relative_to(out)): (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*.png"))}


def _fresh(game: Path, tmp_path: Path, name: str) -> dict[str, bytes]:
    out = tmp_path / name
    _images(game, out)
    return {path: data for path, (data, _, _) in _pngs(out).items()}


def test_an_unchanged_export_rewrites_nothing_and_an_edit_rewrites_its_card(tmp_path: Path) -> None:
    game, out = make_game(tmp_path / "tiny"), tmp_path / "out"
    _images(game, out)
    first = _pngs(out)
    assert len(first) > 6
    _images(game, out, "--jobs", "2")
    assert _pngs(out) == first  # the same files, not written again

    csv = game / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Bye", "Farewell"), encoding="utf-8")
    _images(game, out)
    after = _pngs(out)
    rewritten = sorted(path for path in after if after[path][1:] != first[path][1:])
    # the card 'Three' (two copies, positions 5 and 6; its back shows its text too) and nothing else
    assert rewritten == [f"tiny/images/cards/{n:03d}-three-{side}.png" for n in (5, 6) for side in ("back", "front")]
    assert {path: data for path, (data, _, _) in after.items()} == _fresh(game, tmp_path, "fresh")


def test_a_damaged_or_missing_image_or_record_is_written_again(tmp_path: Path) -> None:
    game, out = make_game(tmp_path / "tiny"), tmp_path / "out"
    _images(game, out)
    expected = _fresh(game, tmp_path, "fresh")
    images = out / "tiny" / "images"
    one, two = images / "cards" / "001-one-front.png", images / "tokens" / "002-2-front.png"
    one.write_bytes(one.read_bytes()[:-10])  # an image edited by hand: its bytes are not what was written
    two.unlink()
    _images(game, out)
    assert {path: data for path, (data, _, _) in _pngs(out).items()} == expected

    for record in (images / ".punchboard-images").iterdir():
        record.write_text("{not json", encoding="utf-8")
    os.utime(one, ns=(0, 0))
    _images(game, out)
    assert {path: data for path, (data, _, _) in _pngs(out).items()} == expected
    kept = json.loads(read_sealed(images / ".punchboard-images" / "cards.json").decode("utf-8"))
    assert sorted(kept["files"]) == sorted(p.name for p in (images / "cards").glob("*.png"))


def test_another_dpi_is_another_image(tmp_path: Path) -> None:
    game, out = make_game(tmp_path / "tiny"), tmp_path / "out"
    _images(game, out)
    before = _pngs(out)
    result = run_cli("images", str(game), "--out", str(out), "--dpi", "120")
    assert result.returncode == 0, result.stderr
    after = _pngs(out)
    assert all(after[path][0] != before[path][0] for path in before)


def test_tts_keeps_its_sheets_the_same_way(tmp_path: Path) -> None:
    game, out = make_game(tmp_path / "tiny"), tmp_path / "out"

    def tts(target: Path) -> dict[str, tuple[bytes, int, int]]:
        result = run_cli("tts", str(game), "--out", str(target))
        assert result.returncode == 0, result.stderr
        return {str(p.relative_to(target)): (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
                for p in sorted(target.rglob("*.png"))}

    first = tts(out)
    assert tts(out) == first  # no image written again
    csv = game / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Bye", "Farewell"), encoding="utf-8")
    after = tts(out)
    rewritten = {path for path in after if after[path][1:] != first[path][1:]}
    assert rewritten and all(path.startswith("tiny/tts/cards") for path in rewritten)
    assert "tiny/tts/tokens-001-1-front.png" not in rewritten
    fresh = tts(tmp_path / "fresh")
    assert {path: data for path, (data, _, _) in after.items()} == {path: data for path, (data, _, _) in fresh.items()}


def test_a_page_drawn_as_before_is_not_rendered_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An image is rendered only when the PDF page it comes from draws differently (kept_images.drawing_key)."""
    game_folder, out = make_game(tmp_path / "tiny"), tmp_path / "out"
    rendered: list[str] = []
    real = images.rasterise

    def counting(pdf, sizes, alpha=False, pages=None):  # type: ignore[no-untyped-def]
        rendered.extend(str(n) for n in (pages if pages is not None else range(len(sizes))))
        return real(pdf, sizes, alpha, pages)

    monkeypatch.setattr(images, "rasterise", counting)

    def export() -> list[str]:
        rendered.clear()
        images.export_images(load_game(game_folder), out, dpi=100)
        return list(rendered)

    assert len(export()) > 6
    first = _pngs(out)
    assert export() == []  # nothing drawn differently: nothing rendered, nothing written
    assert _pngs(out) == first
    csv = game_folder / "cards.csv"  # the same letters in another order: only card Three draws differently
    csv.write_text(csv.read_text(encoding="utf-8").replace("Bye", "eyB"), encoding="utf-8")
    assert len(export()) == 4  # its two copies, front and back
    after = _pngs(out)
    assert sorted(path for path in after if after[path][1:] != first[path][1:]) == [
        f"tiny/images/cards/{n:03d}-three-{side}.png" for n in (5, 6) for side in ("back", "front")]
    assert {path: data for path, (data, _, _) in after.items()} == _fresh(game_folder, tmp_path, "fresh")


def test_pixels_are_digested_a_strip_at_a_time_as_one_whole() -> None:
    """A sheet is digested in strips (a whole copy of a tts sheet doubled the export's peak memory); the digest
    is the one of all its bytes at once, for any height."""
    import hashlib

    from PIL import Image
    from punchboard.generator.export import kept_images

    for mode, height in (("RGB", 1), ("RGB", kept_images.STRIP), ("RGBA", kept_images.STRIP * 3 + 7)):
        image = Image.new(mode, (37, height), (10, 20, 30, 40)[: len(mode)])
        image.putpixel((36, height - 1), (1, 2, 3, 4)[: len(mode)])
        whole = hashlib.sha256(f"{kept_images._encoder()}:{image.mode}:{image.size}:{150.0!r}\n".encode())
        whole.update(image.tobytes())
        assert kept_images.pixels_digest(image, 150.0) == whole.hexdigest()
