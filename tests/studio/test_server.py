"""The studio server as a user (and a curious neighbour) reaches it: state, pictures, refusals."""

from __future__ import annotations

import http.client
import os
import socket
from urllib.parse import urlsplit

from tests.conftest import run_cli

from .conftest import Served, start_serve
from .tiny_game import write_deck, write_game

PNG = b"\x89PNG\r\n\x1a\n"


def _get(served: Served, path: str, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """A raw GET: the path goes out exactly as written (no client-side normalising of ``..``)."""
    parts = urlsplit(served.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host or parts.netloc)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def _pieces(state: dict) -> dict[str, dict]:
    return {piece["name"]: piece for component in state["components"] for piece in component["pieces"]}


def test_state_shows_every_piece_the_verifier_and_the_bill_of_materials(served: Served):
    state = served.wait_for(lambda s: s["status"] == "ok" and s["verify"] and not s["verify"]["running"])
    assert state["game"] == {"id": "tiny", "title": "Tiny Studio Game", "folder": state["game"]["folder"], "players": [2, 3]}
    (deck,) = state["components"]
    assert (deck["id"], deck["kind"], deck["count"]) == ("deck", "deck", 3)
    pieces = _pieces(state)
    assert sorted(pieces) == ["Lantern", "Map", "Rope"]
    lantern = pieces["Lantern"]
    assert lantern["count"] == 1 and lantern["fields"]["text"] == "A lantern that never goes out."
    assert lantern["face"]["layout"] == "base/card" and lantern["reverse"]["layout"] == "tiny/back"
    assert lantern["face"]["file"].endswith("layouts/base/card.yaml")
    assert len({p["front"]["url"] for p in pieces.values()}) == 3  # three faces
    assert len({p["back"]["url"] for p in pieces.values()}) == 1  # one common back
    assert state["verify"]["counts"] == [2, 3]
    assert state["verify"]["rows"] == [{"variant": "standard", "cells": ["pass", "pass"]}]
    assert [(c["id"], c["count"]) for c in state["bom"]["components"]] == [("deck", 3)]
    assert state["files"][0]["name"] == "tiny-print-and-play.pdf"

    status, headers, body = _get(served, lantern["front"]["url"])
    assert status == 200 and headers["content-type"] == "image/png" and body.startswith(PNG)
    assert "immutable" in headers["cache-control"]  # named by content: a changed face gets a new URL
    status, headers, body = _get(served, "/files/deck.pdf")
    assert status == 200 and body.startswith(b"%PDF")
    for path in ("/", "/static/studio.js", "/static/studio.css"):
        assert _get(served, path)[0] == 200


def test_paths_outside_the_games_output_are_refused(served: Served, tmp_path):
    served.wait_for(lambda s: s["status"] == "ok")
    secret = tmp_path / "secret.png"
    secret.write_bytes(PNG + b"not for the neighbours")
    os.symlink(secret, served.out / "tiny" / "studio" / "link.png")
    refused = {
        "/files/../tiny/game.yaml": 403,
        "/files/studio/../../../tiny/game.yaml": 403,
        "/files/%2e%2e/%2e%2e/tiny/game.yaml": 403,
        "/files/..%2f..%2ftiny%2fgame.yaml": 403,
        "/files//etc/passwd": 403,
        "/files/" + str(secret): 403,
        "/files/studio/link.png": 403,  # a symlink out of the folder
        "/../../etc/passwd": 404,
        "/etc/passwd": 404,
        str(secret): 404,
        "/static/../pyproject.toml": 404,
        "/static/server.py": 404,
        "/files/.punchboard-cache.json": 404,
        "/files/nothing.png": 404,
    }
    got = {path: _get(served, path)[0] for path in refused}
    assert got == refused
    # A page on another host name (DNS rebinding) gets nothing either.
    assert _get(served, "/state.json", host="attacker.example")[0] == 403
    assert served.stop() == 0
    assert "stopped" in served.lines


def test_a_warning_lands_on_the_piece_it_concerns(served: Served):
    served.wait_for(lambda s: s["status"] == "ok")
    write_deck(served.game, "A lantern " + "that burns and burns " * 60)
    state = served.wait_for(lambda s: s["status"] == "ok" and _pieces(s)["Lantern"]["warnings"])
    pieces = _pieces(state)
    (warning,) = pieces["Lantern"]["warnings"]
    assert "does not fit" in warning and "layouts/base/card.yaml:" in warning
    assert pieces["Rope"]["warnings"] == [] and pieces["Map"]["warnings"] == []
    assert state["warnings"] == [] and state["components"][0]["warnings"] == []
    assert any(line.startswith("warning: tiny / deck / card 'Lantern'") for line in served.lines)


def test_a_taken_port_is_a_clean_input_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("serve", "belpunk", "--port", str(port), "--out", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"punchboard serve: --port: cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in result.stderr


def test_an_unknown_target_is_a_clean_input_error(tmp_path):
    result = run_cli("serve", str(tmp_path / "nowhere"), "--out", str(tmp_path))
    assert result.returncode == 2 and "no game" in result.stderr


def test_open_hands_the_page_to_the_users_browser(tmp_path):
    """``--open`` goes through the webbrowser module, which honours $BROWSER: here a script noting the URL."""
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.sh"
    script.write_text(f'#!/bin/sh\necho "$1" > {opened}\n', encoding="utf-8")
    script.chmod(0o755)
    server = start_serve(write_game(tmp_path / "tiny"), tmp_path / "out", "--open", env={"BROWSER": f"{script} %s"})
    try:
        server.wait_for(lambda s: s["status"] == "ok")
        # the page's address with the session token: the opened page may write (the workbench)
        assert opened.read_text(encoding="utf-8").strip() == f"{server.url}?token={server.token}" and server.token
    finally:
        assert server.stop() == 0


def test_quiet_says_only_the_address_and_verbose_every_request(tmp_path):
    quiet = start_serve(write_game(tmp_path / "tiny"), tmp_path / "out", "--quiet")
    try:
        quiet.wait_for(lambda s: s["status"] == "ok" and s["verify"] and not s["verify"]["running"])
    finally:
        assert quiet.stop() == 0
    assert len(quiet.lines) == 1 and quiet.lines[0].startswith("studio of ")

    verbose = start_serve(tmp_path / "tiny", tmp_path / "out", "--verbose")
    try:
        verbose.wait_for(lambda s: s["status"] == "ok")
    finally:
        assert verbose.stop() == 0
    assert any("tiny: rebuilt in" in line for line in verbose.lines)
    assert any('"GET /state.json HTTP/1.1" 200' in line for line in verbose.lines), verbose.lines
