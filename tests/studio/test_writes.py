"""The workbench's writes over plain HTTP, as the page (and a hostile page or neighbour) would send them."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from .conftest import Served, start_serve
from .tiny_game import COMMENTED_BACK as BACK
from .tiny_game import write_csv_deck, write_game


def _post(served: Served, path: str, body: Any, *, token: str | None = None, origin: str | None = None,
          host: str | None = None) -> tuple[int, dict[str, Any]]:
    parts = urlsplit(served.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    data = json.dumps(body).encode()
    try:
        connection.putrequest("POST", path, skip_host=True)
        connection.putheader("Host", host or parts.netloc)
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(data)))
        if token is not None:
            connection.putheader("X-Punchboard-Token", token)
        if origin is not None:
            connection.putheader("Origin", origin)
        connection.endheaders(data)
        response = connection.getresponse()
        raw = response.read()
        try:
            answer = json.loads(raw)
        except ValueError:
            answer = {"text": raw.decode()}
        return response.status, answer
    finally:
        connection.close()


@pytest.fixture
def editable(tmp_path: Path) -> Iterator[Served]:
    game = write_game(tmp_path / "tiny")
    (game / "layouts" / "tiny" / "back.yaml").write_text(BACK, encoding="utf-8")
    server = start_serve(game, tmp_path / "out")
    try:
        yield server
    finally:
        server.stop()


def _move(state: dict[str, Any], x_mm: float) -> dict[str, Any]:
    return {"what": "element", "layout": "tiny/back", "element": "name", "key": "x", "value": x_mm,
            "sources": state["sources"]}


def test_writes_need_the_token_this_host_and_no_foreign_origin(editable: Served):
    state = editable.wait_for(lambda s: s["status"] == "ok")
    assert state["editable"] is True and editable.token
    back = editable.game / "layouts" / "tiny" / "back.yaml"
    before = back.read_bytes()
    here = editable.url.rstrip("/")
    for kwargs in ({}, {"token": "wrong"}, {"token": editable.token, "origin": "http://evil.example"},
                   {"token": editable.token, "host": "evil.example:80"},
                   {"token": editable.token, "origin": "null"}):
        status, answer = _post(editable, "/edit", _move(state, 22), **kwargs)
        assert status == 403, (kwargs, answer)
        assert back.read_bytes() == before
    status, answer = _post(editable, "/undo", {}, origin="http://evil.example")
    assert status == 403 and back.read_bytes() == before
    status, answer = _post(editable, "/edit", _move(state, 22), token=editable.token, origin=here)
    assert status == 200, answer
    assert back.read_bytes() == before.replace(b"x: 12mm, y: 40%", b"x: 22mm, y: 40%")


def test_an_edit_is_checked_written_undone_redone_and_a_stale_page_is_refused(editable: Served):
    state = editable.wait_for(lambda s: s["status"] == "ok")
    back = editable.game / "layouts" / "tiny" / "back.yaml"
    before = back.read_bytes()
    token = editable.token

    bad = {**_move(state, 0), "key": "color", "value": "#12345"}  # an invalid colour: located, nothing written
    status, answer = _post(editable, "/edit", bad, token=token)
    assert status == 422 and "back.yaml:4:" in answer["error"] and "#12345" in answer["error"], answer
    assert back.read_bytes() == before

    status, answer = _post(editable, "/edit", _move(state, 22), token=token)
    assert status == 200 and answer["undo"] == 1, answer
    moved = back.read_bytes()
    assert moved == before.replace(b"x: 12mm,", b"x: 22mm,")
    # the page's picture follows: the state's box for 'name' moves 10 mm right
    boxes = editable.wait_for(lambda s: _value(s, "name", "x") == 22.0)
    assert _value(boxes, "name", "x") == 22.0

    status, answer = _post(editable, "/edit", _move(state, 30), token=token)  # the page still has the old digest
    assert status == 409 and "changed on disk" in answer["error"] and back.read_bytes() == moved

    status, answer = _post(editable, "/undo", {}, token=token)
    assert status == 200 and back.read_bytes() == before  # byte for byte
    status, answer = _post(editable, "/redo", {}, token=token)
    assert status == 200 and back.read_bytes() == moved
    back.write_bytes(moved.replace(b"# The deck's back", b"# The back"))  # the designer saves meanwhile
    status, answer = _post(editable, "/undo", {}, token=token)
    assert status == 409 and b"# The back" in back.read_bytes()


def test_a_card_field_and_files_outside_the_game(editable: Served):
    state = editable.wait_for(lambda s: s["status"] == "ok")
    deck = editable.game / "deck.yaml"
    before = deck.read_text(encoding="utf-8")
    edit = {"what": "field", "piece": "deck/2", "field": "text", "value": "A coil of old rope.",
            "sources": state["sources"]}
    status, answer = _post(editable, "/edit", edit, token=editable.token)
    assert status == 200, answer
    assert deck.read_text(encoding="utf-8") == before.replace("A coil of rope.", "A coil of old rope.")
    # the bundled base/card layout is not the designer's file: refused, nothing written
    face = {"what": "element", "layout": "base/card", "element": "name", "key": "x", "value": 5,
            "sources": state["sources"]}
    status, answer = _post(editable, "/edit", face, token=editable.token)
    assert status == 403 and "outside the game folder" in answer["error"], answer


def test_read_only_refuses_every_write(tmp_path: Path):
    game = write_game(tmp_path / "tiny")
    served = start_serve(game, tmp_path / "out", "--read-only")
    try:
        state = served.wait_for(lambda s: s["status"] == "ok")
        assert state["editable"] is False
        assert any("(read-only)" in line for line in served.lines)
        before = (game / "layouts" / "tiny" / "back.yaml").read_bytes()
        status, answer = _post(served, "/edit", _move(state, 5), token=served.token)
        assert status == 403 and "read-only" in answer["text"]
        assert (game / "layouts" / "tiny" / "back.yaml").read_bytes() == before
    finally:
        served.stop()


def _value(state: dict[str, Any], element: str, key: str) -> float | None:
    for component in state["components"]:
        for piece in component["pieces"]:
            for found in (piece["reverse"] or {}).get("elements", []):
                if found["id"] == element:
                    return found["values"].get(key)
    return None




def test_a_card_text_edit_changes_exactly_one_cell_of_its_csv(tmp_path: Path):
    game = write_game(tmp_path / "tiny")
    cards = write_csv_deck(game)
    before = cards.read_bytes()
    served = start_serve(game, tmp_path / "out")
    try:
        state = served.wait_for(lambda s: s["status"] == "ok")
        rope = next(p for c in state["components"] for p in c["pieces"] if p["name"] == "Rope")
        assert rope["marks"]["text"].endswith("cards.csv:3:6")  # the page says where the field is written
        edit = {"what": "field", "piece": rope["id"], "field": "text", "value": "A coil, frayed",
                "sources": state["sources"]}
        status, answer = _post(served, "/edit", edit, token=served.token)
        assert status == 200, answer
        assert cards.read_bytes() == before.replace(b"Rope,A coil of rope.", b'Rope,"A coil, frayed"')
        served.wait_for(lambda s: any(p["fields"].get("text") == "A coil, frayed"
                                      for c in s["components"] for p in c["pieces"]))
        status, answer = _post(served, "/undo", {}, token=served.token)
        assert status == 200 and cards.read_bytes() == before
    finally:
        served.stop()
