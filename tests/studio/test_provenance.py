"""Where each property of a selected element comes from, as the server tells the page, and where an edit of it goes:
this layout, a parent along ``extends`` (overridden here unless the page says "edit there"), a default, a card field.
"""

from __future__ import annotations

from typing import Any

from .conftest import Served
from .test_writes import _post


def _element(state: dict[str, Any], side: str, element_id: str, name: str = "Lantern") -> dict[str, Any]:
    piece = next(p for c in state["components"] for p in c["pieces"] if p["name"] == name)
    return next(e for e in piece[side]["elements"] if e["id"] == element_id)


def test_each_value_says_where_it_comes_from_and_an_edit_goes_there(layered: Served):
    state = layered.wait_for(lambda s: s["status"] == "ok")
    game = layered.game
    face, back, base = (game / "layouts" / "tiny" / f"{n}.yaml" for n in ("face", "back", "backbase"))

    name = _element(state, "face", "name")["from"]
    assert name["y"] == {"kind": "layout", "at": "tiny/layouts/tiny/face.yaml:4:19", "ours": True}
    assert name["x"]["kind"] == "parent" and name["x"]["at"].endswith("layouts/base/card.yaml:12:42")
    assert name["x"]["ours"] is False  # bundled with punchboard: overridden here, never edited there
    assert name["text"] == {"kind": "field", "field": "name", "at": "tiny/cards.csv:2:1", "ours": True,
                            "template": name["text"]["template"]}
    assert name["text"]["template"].endswith("layouts/base/card.yaml:12:86")
    assert _element(state, "face", "text", "Rope")["from"]["text"]["at"] == "tiny/cards.csv:3:6"
    title = _element(state, "reverse", "title")
    assert title["from"]["align"] == {"kind": "layout", "at": "tiny/layouts/tiny/back.yaml:3:24", "ours": True}
    assert title["from"]["color"] == {"kind": "parent", "at": "tiny/layouts/tiny/backbase.yaml:3:114", "ours": True}
    assert title["from"]["font"] == {"kind": "default", "value": "Vera", "ours": True}
    assert title["values"]["font"] == "Vera"

    # A value inherited from the bundled base/card: overridden in the face, in base/card's unit (a bare number).
    before = face.read_bytes()
    edit = {"what": "element", "layout": "tiny/face", "element": "name", "key": "x", "value": 5.0,
            "sources": state["sources"]}
    status, answer = _post(layered, "/edit", edit, token=layered.token)
    assert status == 200, answer
    assert face.read_bytes() == before.replace(b"{id: name, y: 4mm}", b"{id: name, y: 4mm, x: 5}")
    state = layered.wait_for(lambda s: _element(s, "face", "name")["from"]["x"]["kind"] == "layout")
    assert _element(state, "face", "name")["values"]["x"] == 5.0
    # "edit there" of a value a bundled layout writes: refused, nothing written
    status, answer = _post(layered, "/edit", {**edit, "key": "align", "value": "left", "place": "there",
                                              "sources": state["sources"]}, token=layered.token)
    assert status == 403 and "bundled" in answer["error"], answer

    # A value inherited from the game's own parent layout: overridden here by default, edited there on request.
    back_before, base_before = back.read_bytes(), base.read_bytes()
    recolour = {"what": "element", "layout": "tiny/back", "element": "title", "key": "color", "value": "#ffffff",
                "sources": state["sources"]}
    status, answer = _post(layered, "/edit", recolour, token=layered.token)
    assert status == 200, answer
    assert back.read_bytes() == back_before.replace(b"align: center}", b'align: center, color: "#ffffff"}')
    assert base.read_bytes() == base_before
    status, answer = _post(layered, "/undo", {}, token=layered.token)
    assert status == 200 and back.read_bytes() == back_before
    state = layered.wait_for(lambda s: _element(s, "reverse", "title")["from"]["color"]["kind"] == "parent")
    status, answer = _post(layered, "/edit", {**recolour, "place": "there", "sources": state["sources"]},
                           token=layered.token)
    assert status == 200, answer
    assert base.read_bytes() == base_before.replace(b'color: "#efe3c4"', b'color: "#ffffff"')
    assert back.read_bytes() == back_before

    # A default: written into the side's own layout.
    state = layered.wait_for(lambda s: s["sources"].get("tiny/layouts/tiny/backbase.yaml") == answer["digest"])
    status, answer = _post(layered, "/edit", {**recolour, "key": "font", "value": "Vera-Bold",
                                              "sources": state["sources"]}, token=layered.token)
    assert status == 200, answer
    assert back.read_bytes() == back_before.replace(b"align: center}", b"align: center, font: Vera-Bold}")
