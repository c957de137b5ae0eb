"""The studio's language switch (pictures drawn in the chosen language, a text edited then written into its
field@lang cell) and its soft proof (each picture as the press will print it), as the page reaches them over HTTP."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops
from punchboard.generator.press.proof import proof_image, proof_settings

from .conftest import start_serve
from .test_server import _get
from .test_writes import _post
from .tiny_game import CARDS_CSV_DE, write_game, write_two_language_game


def _piece(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for c in state["components"] for p in c["pieces"] if p["name"] == name)


def test_the_language_switch_draws_the_pictures_in_it_and_a_text_edit_writes_its_column(tmp_path: Path):
    game = write_two_language_game(tmp_path / "tiny")
    cards = game / "cards.csv"
    served = start_serve(game, tmp_path / "out", cwd=tmp_path)
    try:
        state = served.wait_for(lambda s: s["status"] == "ok")
        assert state["languages"] == ["en", "de"] and state["language"] == "en"
        english = _piece(state, "Lantern")
        assert english["fields"]["text"] == "A lantern, lit"

        status, answer = _post(served, "/language", {"lang": "fr"}, token=served.token)
        assert status == 422 and "en, de" in answer["error"], answer
        status, answer = _post(served, "/language", {"lang": "de"}, origin="http://evil.example", token=served.token)
        assert status == 403
        status, answer = _post(served, "/language", {"lang": "de"}, token=served.token)
        assert status == 200, answer
        state = served.wait_for(lambda s: s["language"] == "de" and _piece(s, "Lantern")["fields"]["text"] == "Eine Laterne")
        german = _piece(state, "Lantern")
        assert german["front"]["url"] != english["front"]["url"]  # drawn again, in German
        assert german["marks"]["text"] == "tiny/cards.csv:2:26"  # the German cell
        assert _piece(state, "Rope")["fields"]["text"] == "A coil of rope."  # no German yet: the English text
        assert _piece(state, "Rope")["back"]["url"] == english["back"]["url"]  # the back reads the same: not redrawn

        # Rope in German: written into its empty text@de cell, the English cell untouched.
        rope = {"what": "field", "piece": _piece(state, "Rope")["id"], "field": "text", "value": "Ein Seil",
                "lang": "de", "sources": state["sources"]}
        status, answer = _post(served, "/edit", rope, token=served.token)
        assert status == 200, answer
        assert cards.read_bytes() == CARDS_CSV_DE.replace(b"A coil of rope.,\r\n", b"A coil of rope.,Ein Seil\r\n")
        state = served.wait_for(lambda s: _piece(s, "Rope")["fields"]["text"] == "Ein Seil")
        # Lantern in German: its German cell
        lantern = {**rope, "piece": _piece(state, "Lantern")["id"], "value": "Eine Lampe", "sources": state["sources"]}
        status, answer = _post(served, "/edit", lantern, token=served.token)
        assert status == 200, answer
        assert cards.read_bytes() == CARDS_CSV_DE.replace(b"A coil of rope.,\r\n", b"A coil of rope.,Ein Seil\r\n") \
            .replace(b"Eine Laterne", b"Eine Lampe")
        # back in English: the same edit writes the English cell
        status, answer = _post(served, "/language", {"lang": "en"}, token=served.token)
        assert status == 200
        state = served.wait_for(lambda s: s["language"] == "en" and _piece(s, "Lantern")["fields"]["text"] == "A lantern, lit")
        status, answer = _post(served, "/edit", {**lantern, "lang": "en", "value": "A lamp", "sources": state["sources"]},
                               token=served.token)
        assert status == 200, answer
        assert b"\r\nLantern,\"A lamp\",Eine Lampe\r\n" in cards.read_bytes()  # quoted as it was
    finally:
        served.stop()


def test_a_soft_proof_is_the_picture_through_the_press_profile(tmp_path: Path):
    served = start_serve(write_game(tmp_path / "tiny"), tmp_path / "out")
    try:
        state = served.wait_for(lambda s: s["status"] == "ok")
        assert state["languages"] == [] and state["language"] == ""  # a game without languages: no switch
        url = _piece(state, "Lantern")["front"]["url"]
        assert url.startswith("/files/studio/")
        status, headers, body = _get(served, url.replace("/files/", "/proof/", 1))
        assert status == 200 and headers["content-type"] == "image/png", body[:200]
        status, _, original = _get(served, url)
        with Image.open(io.BytesIO(original)) as image, Image.open(io.BytesIO(body)) as proof:
            expected = proof_image(image.convert("RGB"), proof_settings())
            assert proof.size == image.size
            assert ImageChops.difference(proof.convert("RGB"), expected.convert("RGB")).getbbox() is None
            assert ImageChops.difference(proof.convert("RGB"), image.convert("RGB")).getbbox() is not None
        assert _get(served, "/proof/deck.pdf")[0] == 404  # only studio pictures are proofed
        assert _get(served, "/proof/studio/../../x.png")[0] == 403
        assert _get(served, "/proof/studio/deck/none.png")[0] == 404
    finally:
        served.stop()


def test_serve_refuses_an_icc_that_is_no_cmyk_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from punchboard.cli import main

    game = write_game(tmp_path / "tiny")
    assert main(["serve", str(game), "--out", str(tmp_path / "out"), "--icc", str(tmp_path / "none.icc")]) == 2
    said = capsys.readouterr()
    assert f"no such file: {tmp_path / 'none.icc'}; expected a CMYK ICC profile" in said.out + said.err
    (tmp_path / "rgb.icc").write_bytes(b"not a profile")
    assert main(["serve", str(game), "--out", str(tmp_path / "out"), "--icc", str(tmp_path / "rgb.icc")]) == 2
    assert "is not an ICC profile" in "".join(capsys.readouterr())
