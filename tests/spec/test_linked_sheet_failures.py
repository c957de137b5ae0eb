"""Every failure of a linked sheet (loader/fetch.py) is a clean located message: exit 2 when there is no cached
copy, exit 0 with a warning when there is one. The server is a raw socket server on 127.0.0.1 run by a thread
of this test, so that it can answer with malformed HTTP, drip its answer, or redirect anywhere."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import run_cli

GAME = "id: linked\ntitle: Linked\nplayers: {min: 1, max: 2}\ncomponents: [deck.yaml]\n"
DECK = "id: deck\nkind: deck\nsize: bridge\nlayout: base/card\nback: none\nfields: [value, text]\ntable: {url: 'URL', timeout: 2}\n"
CSV = b"name,value,text\nOwl,3,Flies\nCog,1,Turns\n"
DRIP_FOR = 30.0  # seconds the dripping server goes on if nobody hangs up: far past the 2 s deadline
WAIT = 10.0  # the longest any wait of this test's server lasts


def _ok(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                 % (len(CSV), CSV))


ANSWERS: dict[str, bytes] = {
    "bad_status_line": b"HTTP/1.1 two hundred OK\r\n\r\nname\r\n",
    "broken_chunks": b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n"
                     b"5\r\nname,\r\nzz\r\nvalue\r\n0\r\n\r\n",
    "long_header_line": b"HTTP/1.1 200 OK\r\nX-Padding: " + b"x" * 70_000 + b"\r\n\r\n" + CSV,
    "too_many_headers": b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-H%d: %d\r\n" % (i, i) for i in range(150)) + b"\r\n" + CSV,
    "redirect_to_ftp": b"HTTP/1.1 302 Found\r\nLocation: ftp://127.0.0.1:1/deck.csv\r\nContent-Length: 0\r\n\r\n",
    "redirect_to_file": b"HTTP/1.1 301 Moved\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n",
    "redirect_loop": b"HTTP/1.1 302 Found\r\nLocation: /deck.csv\r\nContent-Length: 0\r\n\r\n",
    "short_body": b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: 100\r\n\r\nname,value\n",  # then hangs up
    "closed_at_once": b"",
    "not_http": b"SSH-2.0-OpenSSH_9.6\r\n",
}
# answers that are fine, though a careless client would trip over them later
GOOD_ANSWERS = {
    "etag_with_a_control_character": b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nETag: \"a\x01b\"\r\nContent-Length: %d\r\n"
                                     b"Connection: close\r\n\r\n%s" % (len(CSV), CSV),
}
REASONS = {
    "bad_status_line": "the server's answer is not valid HTTP (BadStatusLine: HTTP/1.1 two hundred OK)",
    "broken_chunks": "the server's answer broke off before its end",
    "long_header_line": "the server's answer is not valid HTTP (LineTooLong: got more than 65536 bytes when reading header line)",
    "too_many_headers": "the server's answer is not valid HTTP (HTTPException: got more than 100 headers)",
    "redirect_to_ftp": "the server redirected to ftp://127.0.0.1:1/deck.csv; only http and https links are followed",
    "redirect_to_file": "the server redirected to file:///etc/passwd; only http and https links are followed",
    "redirect_loop": "the server redirected more than 5 times or in a loop (HTTP 302)",
    "short_body": "the server's answer broke off before its end (11 of the 100 bytes it stated)",
    "closed_at_once": "the server closed the connection without an answer",
    "not_http": "the server's answer is not valid HTTP (BadStatusLine: SSH-2.0-OpenSSH_9.6)",
    "drip": "no complete answer within the timeout of 2 s (the whole fetch)",
}


@dataclass
class _Server:
    """Answers every request with ``failure`` (a key of ANSWERS, or 'drip'), or with the sheet when it is None."""

    port: int = 0
    failure: str | None = None
    drips: list[float] = field(default_factory=list)  # how long each dripped answer went on before the client hung up
    stop: threading.Event = field(default_factory=threading.Event)

    def handle(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(WAIT)
            request = b""
            while b"\r\n\r\n" not in request and len(request) < 65_536:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                request += chunk
            if self.failure is None:
                _ok(conn)
            elif self.failure == "drip":
                self._drip(conn)
            elif self.failure in GOOD_ANSWERS:
                conn.sendall(GOOD_ANSWERS[self.failure])
            else:
                conn.sendall(ANSWERS[self.failure])

    def _drip(self, conn: socket.socket) -> None:
        """Headers promising a large sheet, then one byte a second until the client hangs up."""
        start = time.monotonic()
        try:
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: 1000000\r\n\r\nname\n")
            while time.monotonic() - start < DRIP_FOR and not self.stop.is_set():
                conn.sendall(b"x")
                self.stop.wait(1.0)
        except OSError:
            pass  # the client hung up
        self.drips.append(time.monotonic() - start)


def _serve(server: _Server, listener: socket.socket) -> None:
    workers: list[threading.Thread] = []
    while not server.stop.is_set():
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        worker = threading.Thread(target=server.handle, args=(conn,), daemon=True)
        worker.start()
        workers.append(worker)
    for worker in workers:
        worker.join(WAIT)


@pytest.fixture
def server() -> Iterator[_Server]:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    state = _Server(port=listener.getsockname()[1])
    thread = threading.Thread(target=_serve, args=(state, listener), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.stop.set()
        thread.join(WAIT + 5)
        listener.close()


def _game(folder: Path, url: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "deck.yaml").write_text(DECK.replace("URL", url))
    return folder


def _no_proxy() -> dict[str, str]:
    return {"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"}


@pytest.mark.parametrize("failure", [*ANSWERS, "drip"])
def test_each_failure_is_a_located_message_or_the_cached_copy_with_a_warning(tmp_path: Path, server: _Server,
                                                                             failure: str):
    url = f"http://127.0.0.1:{server.port}/deck.csv"
    game = _game(tmp_path / "game", url)
    out = tmp_path / "out"
    fetched = run_cli("build", str(game), "--out", str(out), "--backs", "none", "--quiet", env=_no_proxy())
    assert fetched.returncode == 0, fetched.stderr
    sheets = tmp_path / "sheets-fetched"
    shutil.copytree(out / ".sheets", sheets)
    server.failure = failure
    # no cached copy: check stops at the link
    result = run_cli("check", str(game), cwd=tmp_path, env=_no_proxy())
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"game/deck.yaml:7:14: could not fetch {url} ({REASONS[failure]}")
    assert result.stderr.endswith(" and there is no cached copy in output/.sheets; expected a reachable published CSV link\n")
    assert result.stderr.count("\n") == 1
    # a cached copy: build uses it and says so
    shutil.rmtree(out)
    shutil.copytree(sheets, out / ".sheets")
    result = run_cli("build", str(game), "--out", str(out), "--backs", "none", env=_no_proxy())
    assert result.returncode == 0, result.stderr
    assert f"warning: {game / 'deck.yaml'}:7:14: could not fetch {url} ({REASONS[failure]}" in result.stderr
    assert "using the copy fetched at 20" in result.stderr
    assert (out / "linked" / "deck.pdf").is_file()
    if failure == "drip":  # each dripped answer was hung up on at the deadline, not when the server gave up
        given_up = time.monotonic() + WAIT  # the server hears of a hang-up only at its next byte, a second later
        while len(server.drips) < 2 and time.monotonic() < given_up:
            time.sleep(0.05)
        assert len(server.drips) == 2
        assert max(server.drips) < 2 + 5 < DRIP_FOR


@pytest.mark.parametrize(("url", "reason"), [
    ("http://127.0.0.1:PORT/my deck.csv", "the link holds a space at character 26; expected a URL with no spaces (write a space as %20)"),
    ("http://127.0.0.1:99999/deck.csv", "the link is not a well-formed URL (Port out of range 0-65535)"),
    ("http://[::1/deck.csv", "the link is not a well-formed URL (Invalid IPv6 URL)"),
    ("http:///deck.csv", "the link names no host; expected http://host/path or https://host/path"),
])
def test_a_malformed_link_is_a_located_message(tmp_path: Path, server: _Server, url: str, reason: str):
    url = url.replace("PORT", str(server.port))
    game = _game(tmp_path / "game", url)
    for verb in ("check", "build"):
        result = run_cli(verb, str(game), cwd=tmp_path, env=_no_proxy())
        assert result.returncode == 2, result.stderr
        assert result.stderr == f"game/deck.yaml:7:14: {reason}\n"


def test_a_link_without_http_is_refused_by_the_schema(tmp_path: Path):
    game = _game(tmp_path / "game", "ftp://127.0.0.1/deck.csv")
    result = run_cli("check", str(game), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("game/deck.yaml:7:14: ")
    assert "Traceback" not in result.stderr



def test_validators_a_later_request_could_not_send_are_not_kept(tmp_path: Path, server: _Server):
    """An ETag with a control character cannot be sent back (http.client refuses the header): kept, it would make
    every later fetch of the link fail. It is dropped; the next command fetches the sheet again, without a warning."""
    server.failure = "etag_with_a_control_character"
    game = _game(tmp_path / "game", f"http://127.0.0.1:{server.port}/deck.csv")
    for _ in range(2):
        result = run_cli("check", str(game), cwd=tmp_path, env=_no_proxy())
        assert result.returncode == 0, result.stderr
        assert "warning" not in result.stderr
    (stamp,) = (tmp_path / "output" / ".sheets").glob("*.json")
    assert '"etag"' not in stamp.read_text()
    assert '"sha256"' in stamp.read_text()
