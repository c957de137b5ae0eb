"""The studio's web server: the standard library's threading HTTP server on 127.0.0.1.

Routes: ``/`` the page, ``/static/…`` its script and style (package data),
``/state.json`` what the page shows, ``/events`` a server-sent event each time
that changes, ``/files/…`` what punchboard wrote for this game (its output
folder: PDFs, studio pictures), ``/proof/studio/…`` a studio picture's soft proof
(proofs.py; 422 with the reason when there is no press profile). Nothing else is served: a path that leaves the
game's output folder is refused with 403, anything unknown is 404, and a
request naming another host (DNS rebinding) is refused.

Writes (the workbench, ``workbench.py``): ``POST /edit``, ``/undo``, ``/redo``
with a JSON body. Each must carry the session's random token (printed in the
URL ``serve`` says; sent back in the ``X-Punchboard-Token`` header or the
``token`` query parameter), name this server in ``Host`` and, when it sends an
``Origin``, this server's origin; anything else is refused with 403 and
nothing is written. A read-only serve refuses every write with 403.
"""

from __future__ import annotations

import hmac
import json
import mimetypes
import secrets
import threading
import webbrowser
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qs, unquote, urlsplit

from punchboard.plumbing.errors import SpecError
from punchboard.plumbing.paths import LAYOUTS, is_inside
from punchboard.plumbing.watch import NotificationsUnavailable, follow, watch

from .edits import EditRefused
from .proofs import Proofs
from .state import FILES_PREFIX, Studio, say

HOST = "127.0.0.1"
STATIC = {"studio.js": "text/javascript", "workbench.js": "text/javascript", "studio.css": "text/css", "index.html": "text/html"}
SERVED_SUFFIXES = {".png", ".pdf", ".svg", ".md", ".json"}
KEEPALIVE = 15.0  # seconds between comments on an idle event stream
MAX_BODY = 64 * 1024  # bytes of one write request
TOKEN_HEADER = "X-Punchboard-Token"
PROOF_PREFIX = "/proof/"


def static_file(name: str) -> bytes:
    return (files("punchboard.studio") / "static" / name).read_bytes()


class StudioServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, studio: Studio, port: int, requests: Callable[[str], None] | None = None):
        self.studio = studio
        self.requests = requests  # told of every request (--verbose)
        self.stopping = threading.Event()
        self.token = secrets.token_urlsafe(18)  # writes must carry it: only who was shown the URL can write
        self.proofs = Proofs(studio.options.icc)
        super().__init__((HOST, port), StudioHandler)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_port}/"

    @property
    def page(self) -> str:
        """The page's address with the session token (what ``serve`` prints and opens)."""
        return f"{self.url}?token={self.token}"

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that went away mid-answer (a closed tab, a reload) is not an error worth a traceback;
        anything else is reported as the standard library does."""
        import sys

        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class StudioHandler(BaseHTTPRequestHandler):
    server: StudioServer
    server_version = "punchboard-studio"

    def log_message(self, format: str, *args: object) -> None:
        if self.server.requests is not None:  # the terminal shows rebuilds; requests only when asked
            self.server.requests(f"{self.address_string()} {format % args}")

    def _hosts(self) -> tuple[str, str]:
        port = self.server.server_port
        return f"{HOST}:{port}", f"localhost:{port}"

    def do_GET(self) -> None:
        if self.headers.get("Host") not in self._hosts():
            self._refuse(HTTPStatus.FORBIDDEN, "unexpected Host header")
            return
        path = unquote(urlsplit(self.path).path)
        if path in ("/", "/index.html"):
            self._send(static_file("index.html"), "text/html; charset=utf-8")
        elif path.startswith("/static/") and path[len("/static/"):] in STATIC:
            name = path[len("/static/"):]
            self._send(static_file(name), f"{STATIC[name]}; charset=utf-8")
        elif path == "/state.json":
            _, body = self.server.studio.body()
            self._send(body, "application/json; charset=utf-8")
        elif path == "/events":
            self._events()
        elif path.startswith(FILES_PREFIX):
            self._file(path[len(FILES_PREFIX):])
        elif path.startswith(PROOF_PREFIX):
            self._proof(path[len(PROOF_PREFIX):])
        else:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")

    def _write_refusal(self, writes: bool = True) -> str | None:
        """Why this POST is refused (403), or None: Host, Origin, token, and read-only for one that ``writes``."""
        hosts = self._hosts()
        if self.headers.get("Host") not in hosts:
            return "unexpected Host header"
        origin = self.headers.get("Origin")
        if origin is not None and origin not in tuple(f"http://{h}" for h in hosts):
            return "a write from another site's page"
        given = self.headers.get(TOKEN_HEADER) or parse_qs(urlsplit(self.path).query).get("token", [""])[0]
        if not hmac.compare_digest(given.encode(), self.server.token.encode()):
            return "a write without this session's token (open the address serve printed)"
        bench = self.server.studio.workbench
        if writes and (bench is None or bench.read_only):
            return "this studio is read-only (serve --read-only, or the game folder is not writable)"
        return None

    def do_POST(self) -> None:
        """``/edit``, ``/undo``, ``/redo``: a JSON answer; refusals are 403 (not allowed), 409 (the file changed,
        nothing to undo), 422 (the edit would not load: the located message). ``/language`` chooses the language
        the pictures are drawn in (no file is written: a read-only studio takes it too)."""
        path = urlsplit(self.path).path
        refusal = self._write_refusal(writes=path != "/language")
        if refusal is not None:
            self._refuse(HTTPStatus.FORBIDDEN, refusal)
            return
        bench, studio = self.server.studio.workbench, self.server.studio
        try:
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 <= length <= MAX_BODY:
                raise EditRefused(f"a request body of {length} bytes; expected at most {MAX_BODY}", 413)
            request = json.loads(self.rfile.read(length) or b"{}") if length else {}
            if not isinstance(request, dict):
                raise EditRefused("expected a JSON object")
            if path == "/language":
                answer = studio.choose_language(str(request.get("lang", "")))
            elif bench is None:
                raise EditRefused("this studio is read-only", 403)
            elif path == "/edit":
                answer = bench.edit(request, studio.game, studio.pieces, studio.originals)
            elif path in ("/undo", "/redo"):
                answer = bench.step(back=path == "/undo")
            else:
                self._refuse(HTTPStatus.NOT_FOUND, "not found")
                return
        except EditRefused as err:
            self._json({"ok": False, "error": str(err)}, HTTPStatus(err.status))
            return
        except (ValueError, UnicodeDecodeError) as err:
            self._json({"ok": False, "error": f"expected a JSON object: {err}"}, HTTPStatus.BAD_REQUEST)
            return
        self._json(answer, HTTPStatus.OK)

    def _json(self, data: object, status: HTTPStatus) -> None:
        self._send(json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8", status=status)

    def _send(self, body: bytes, content_type: str, cache: str = "no-store", status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _refuse(self, status: HTTPStatus, message: str) -> None:
        body = f"{status.value} {message}\n".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _inside(self, relative: str) -> Path | None:
        """The file ``relative`` names under OUT/<game>/, or None once refused (403 outside, 404 not served)."""
        root = self.server.studio.root
        parts = PurePosixPath(relative).parts
        if root is None or not relative or relative.startswith("/") or "\\" in relative or "\0" in relative \
                or ".." in parts:
            self._refuse(HTTPStatus.FORBIDDEN, "outside this game's output folder")
            return None
        target = root / relative
        if not is_inside(target, root):
            self._refuse(HTTPStatus.FORBIDDEN, "outside this game's output folder")
            return None
        if any(part.startswith(".") for part in parts) or target.suffix.lower() not in SERVED_SUFFIXES \
                or not target.is_file():
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return None
        return target

    def _file(self, relative: str) -> None:
        """A file under OUT/<game>/ and nowhere else."""
        target = self._inside(relative)
        if target is None:
            return
        # Studio pictures are named by their content: cache them for good.
        cache = "public, max-age=31536000, immutable" if PurePosixPath(relative).parts[0] == "studio" else "no-cache"
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        self._send(target.read_bytes(), kind, cache)

    def _proof(self, relative: str) -> None:
        """The soft proof of a studio picture (``studio/…png``), made on the first ask."""
        if PurePosixPath(relative).parts[:1] != ("studio",) or not relative.endswith(".png"):
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return
        target = self._inside(relative)
        root = self.server.studio.root
        if target is None or root is None:
            return
        try:
            proof = self.server.proofs.proof(root, relative)
        except SpecError as err:  # no press profile: the located reason, for the page to show
            self._refuse(HTTPStatus.UNPROCESSABLE_ENTITY, "; ".join(str(p) for p in err.problems))
            return
        except (OSError, ValueError) as err:  # a picture or profile littleCMS cannot read
            self._refuse(HTTPStatus.UNPROCESSABLE_ENTITY, f"no soft proof of {relative}: {err}")
            return
        self._send(proof.read_bytes(), "image/png", "public, max-age=31536000, immutable")

    def _events(self) -> None:
        """Server-sent events: ``event: state`` with the version number, now and after every publish."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        studio, seen = self.server.studio, -1
        try:
            while not self.server.stopping.is_set():
                version = studio.wait(seen, KEEPALIVE)
                if version != seen:
                    self.wfile.write(f"event: state\ndata: {version}\n\n".encode())
                    seen = version
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            return


def watch_and_rebuild(studio: Studio, stop: threading.Event, interval: float,
                      log: Callable[[str], None] = say, poll: bool = False) -> None:
    """The ``watch`` loop: build once, then rebuild after every save until ``stop`` is set
    (change notifications; polling every ``interval`` seconds with ``poll`` or where there are none)."""
    out = studio.out.resolve()
    first = [True]

    def on_change(paths: list[Path]) -> None:
        sources = [p for p in paths if not is_inside(p, out)]  # the studio's own pictures are no save
        if not sources:
            return
        log(f"changed: {', '.join(sorted({p.name for p in sources}))}")
        studio.rebuild()

    def sleep(seconds: float) -> None:
        # watch() has taken its first snapshot: build now, so a save made during this build is seen.
        if first:
            first.clear()
            studio.rebuild()
            return
        stop.wait(seconds)

    if not poll:
        try:
            follow([studio.folder, LAYOUTS], on_change, on_ready=studio.rebuild, stop=stop)
            return
        except NotificationsUnavailable as err:
            log(f"no change notifications here ({err}); checking every {interval:g} s instead")
    watch(lambda: [studio.folder, LAYOUTS], on_change, interval=interval, should_stop=stop.is_set, sleep=sleep)


def serve(server: StudioServer, open_browser: bool = False, interval: float = 0.5,
          log: Callable[[str], None] = say, poll: bool = False) -> int:
    """Serve the studio page until Ctrl-C; returns the exit code. The address is said even with --quiet."""
    studio = server.studio
    bench = studio.workbench
    mode = " (read-only)" if bench is None or bench.read_only else ""
    say(f"studio of {studio.folder} at {server.page}{mode} (Ctrl-C to stop)")
    watcher = threading.Thread(target=watch_and_rebuild, args=(studio, server.stopping, interval, log, poll),
                               name="studio-watch", daemon=True)
    watcher.start()
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(server.page,), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        log("stopped")
    finally:
        server.stopping.set()
        server.server_close()
        studio.close()
        watcher.join(timeout=5)
    return 0
