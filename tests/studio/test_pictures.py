"""The studio renders only the sides that draw differently (studio/pictures.py): after an edit, a side whose
PDF page draws with the same bytes keeps its picture; every picture is the one a fresh studio draws."""

from __future__ import annotations

from pathlib import Path

import pytest
from punchboard.generator.export import images

from punchboard.spec.loader import load_game
from punchboard.studio import pictures

from .tiny_game import write_game


def _bytes(out: Path, drawn: dict[str, list[pictures.DistinctPiece]]) -> list[tuple[str, bytes]]:
    return [(p.path.split("/")[-2], (out / p.path).read_bytes()) for pieces in drawn.values() for d in pieces
            for p in (d.front, d.back) if p is not None]


def test_an_edit_renders_the_sides_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = write_game(tmp_path / "tiny")
    rendered: list[int] = []
    real = images.rasterise  # what the studio renders through (images.DrawnPages)

    def counting(pdf, sizes, alpha=False, pages=None):  # type: ignore[no-untyped-def]
        rendered.extend(pages if pages is not None else range(len(sizes)))
        return real(pdf, sizes, alpha, pages)

    monkeypatch.setattr(images, "rasterise", counting)
    studio = pictures.Pictures(tmp_path / "out")
    studio.draw(load_game(game))
    assert len(rendered) == 6  # three faces and their backs (told apart by all their fields here)
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("A coil of rope.", "A rope of coil."), encoding="utf-8")
    rendered.clear()
    drawn = studio.draw(load_game(game))
    assert len(rendered) == 1  # the rope's face: the same letters, the same font subset
    fresh_out = tmp_path / "fresh"
    assert _bytes(tmp_path / "out", drawn) == _bytes(fresh_out, pictures.Pictures(fresh_out).draw(load_game(game)))
