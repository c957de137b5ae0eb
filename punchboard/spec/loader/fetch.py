"""Fetching a linked sheet: http and https only, within one wall-clock deadline, every failure a ``FetchError``.

``timeout:`` on a link is that deadline: the whole fetch (name lookup, connection, redirects, headers and body)
ends by then, however slowly the server drips its answer. The fetch runs on a helper thread; when the deadline
passes, its connection is shut so that thread ends too, and the caller goes on at once.
"""

from __future__ import annotations

import functools
import http.client
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

DEFAULT_DEADLINE = 10.0  # seconds a fetch may take, all of it, when the link gives no timeout:
MAX_REDIRECTS = 5
SCHEMES = ("http", "https")
_SHOWN = 120  # characters of a server's words or a link shown in a message


class FetchError(Exception):
    """The sheet could not be fetched; the text says why, in words that fit in a problem message."""


@dataclass(frozen=True)
class Answer:
    """What the server answered: 200 with the sheet, or 304 when the cached copy is still the sheet."""

    status: int
    data: bytes
    content_type: str
    etag: str | None
    last_modified: str | None


def _shown(text: object) -> str:
    """``text`` as shown in a message: on one line, cut to _SHOWN characters, saying how long it was."""
    words = " ".join(str(text).split())
    return words if len(words) <= _SHOWN else f"{words[:_SHOWN]}… ({len(words):,} characters)"


def url_problem(url: str) -> str | None:
    """What makes ``url`` no fetchable http(s) link (for a located problem), or None when it is one."""
    for at, char in enumerate(url, start=1):
        if char.isspace() or ord(char) < 0x20 or ord(char) == 0x7F:
            what = "a space" if char == " " else f"the control character {char!r}"
            return f"the link holds {what} at character {at}; expected a URL with no spaces (write a space as %20)"
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # raises for a port that is no number or out of range
    except ValueError as exc:
        return f"the link is not a well-formed URL ({exc})"
    if parts.scheme.lower() not in SCHEMES:
        return f"the link starts with '{parts.scheme}:'; expected an http:// or https:// link"
    if not parts.hostname:
        return "the link names no host; expected http://host/path or https://host/path"
    del port
    return None


class _Sockets:
    """The sockets one fetch opened, so that the caller can shut them when its deadline passes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._shut = False

    def add(self, sock: socket.socket) -> None:
        """Remember ``sock``; shut it at once when the deadline has already passed."""
        with self._lock:
            self._open.append(sock)
            if self._shut:
                _shut_down(sock)

    def shut(self) -> None:
        """Shut every socket opened so far and any opened later."""
        with self._lock:
            self._shut = True
            for sock in self._open:
                _shut_down(sock)


def _shut_down(sock: socket.socket) -> None:
    """Shut ``sock`` both ways, whatever state it is in."""
    try:
        sock.shutdown(socket.SHUT_RDWR)  # a recv blocked on another thread returns at once
    except OSError:
        pass  # already closed


class _HandsOverSocket:
    """A connection that hands the socket it opens to the fetch's sockets (mixed in before http.client's)."""

    sock: Any

    def __init__(self, *args: Any, sockets: _Sockets, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sockets = sockets

    def connect(self) -> None:
        super().connect()  # type: ignore[misc]
        self._sockets.add(self.sock)


class _HTTPConnection(_HandsOverSocket, http.client.HTTPConnection):
    pass


class _HTTPSConnection(_HandsOverSocket, http.client.HTTPSConnection):
    pass


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, sockets: _Sockets) -> None:
        super().__init__()
        self._sockets = sockets

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        """Open ``req`` on a connection whose socket the deadline can shut."""
        return self.do_open(functools.partial(_HTTPConnection, sockets=self._sockets), req)  # type: ignore[arg-type]


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, sockets: _Sockets) -> None:
        super().__init__()
        self._sockets = sockets

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        """Open ``req`` on a TLS connection whose socket the deadline can shut."""
        return self.do_open(functools.partial(_HTTPSConnection, sockets=self._sockets), req,  # type: ignore[arg-type]
                            context=self._context)  # type: ignore[attr-defined]


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follows at most MAX_REDIRECTS redirects, to http and https links only."""

    max_redirections = MAX_REDIRECTS

    def http_error_302(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any) -> Any:
        """Follow a redirect to an http(s) link; raise FetchError for any other scheme."""
        target = headers.get("location") or headers.get("uri")
        if target:
            scheme = urllib.parse.urlsplit(urllib.parse.urljoin(req.full_url, target)).scheme.lower()
            if scheme not in SCHEMES:
                fp.close()
                raise FetchError(f"the server redirected to {_shown(target)}; only http and https links are followed")
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def _opener(sockets: _Sockets) -> urllib.request.OpenerDirector:
    """An opener for http and https alone (no ftp, file or data), honouring the proxy settings of the environment."""
    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), _HTTPHandler(sockets), _HTTPSHandler(sockets), _Redirects(),
                    urllib.request.HTTPDefaultErrorHandler(), urllib.request.HTTPErrorProcessor(),
                    urllib.request.UnknownHandler()):
        opener.add_handler(handler)
    return opener


def _get(url: str, headers: dict[str, str], deadline: float, max_bytes: int, sockets: _Sockets) -> Answer:
    """One fetch, on the helper thread; each socket operation waits at most the whole deadline."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with _opener(sockets).open(request, timeout=deadline) as response:
            data = response.read(max_bytes + 1)
            _check_length(data, response.headers.get("Content-Length"), max_bytes)
            return Answer(response.status, data, response.headers.get_content_type(),
                          _validator(response.headers.get("ETag")), _validator(response.headers.get("Last-Modified")))
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code == 304:
            return Answer(304, b"", "", None, None)
        if 300 <= exc.code < 400:
            raise FetchError(f"the server redirected more than {MAX_REDIRECTS} times or in a loop "
                             f"(HTTP {exc.code})") from None
        raise FetchError(f"the server answered HTTP {exc.code} {_shown(exc.reason)}") from None


def _check_length(data: bytes, stated: str | None, max_bytes: int) -> None:
    """Raise FetchError when the body is shorter than its Content-Length: http.client hands a body cut short by a
    closed connection over as if it were whole."""
    if stated is None or not stated.strip().isdigit() or len(data) > max_bytes:
        return
    if len(data) < int(stated):
        raise FetchError(f"the server's answer broke off before its end ({len(data):,} of the {int(stated):,} bytes "
                         "it stated)")


def _validator(value: str | None) -> str | None:
    """An ETag or Last-Modified worth sending back next time: printable ASCII of at most 1,000 characters (anything
    else would make every later request fail), or None."""
    if value is None or len(value) > 1_000 or not all(" " <= char <= "~" for char in value):
        return None
    return value


# what a fetch may raise for a bad link, a bad network or a bad server: each becomes a FetchError
_FAILURES = (FetchError, urllib.error.URLError, http.client.HTTPException, OSError, ValueError)


def _reason(exc: BaseException, deadline: float) -> str:
    """``exc`` in words for a problem message."""
    if isinstance(exc, urllib.error.URLError) and isinstance(exc.reason, BaseException):
        return _reason(exc.reason, deadline)
    if isinstance(exc, urllib.error.URLError):
        return _shown(exc.reason)
    if isinstance(exc, FetchError):
        return str(exc)
    if isinstance(exc, http.client.RemoteDisconnected):
        return "the server closed the connection without an answer"
    if isinstance(exc, http.client.IncompleteRead):
        return "the server's answer broke off before its end (a broken chunked encoding or a shortened body)"
    if isinstance(exc, http.client.HTTPException):
        return f"the server's answer is not valid HTTP ({type(exc).__name__}: {_shown(str(exc).strip())})"
    if isinstance(exc, TimeoutError):
        return f"no answer within the timeout of {deadline:g} s"
    if isinstance(exc, OSError):
        return _shown(exc.strerror or exc)
    return f"the server's answer or the link is malformed ({type(exc).__name__}: {_shown(exc)})"


def fetch(url: str, headers: dict[str, str], deadline: float, max_bytes: int) -> Answer:
    """The answer to a GET of ``url`` (at most ``max_bytes + 1`` bytes of it), within ``deadline`` seconds in all.

    Raises FetchError, saying why, for any failure: the link, the network, the server's HTTP, a redirect to
    anything but http(s), more than MAX_REDIRECTS redirects, an HTTP error status (304 is an answer), or the
    deadline passing."""
    sockets = _Sockets()
    outcome: list[Answer | BaseException] = []

    def work() -> None:
        """The fetch on the helper thread: its answer or its exception into ``outcome``."""
        try:
            outcome.append(_get(url, headers, deadline, max_bytes, sockets))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread, which decides
            outcome.append(exc)

    helper = threading.Thread(target=work, name="punchboard-sheet-fetch", daemon=True)
    helper.start()
    helper.join(deadline)
    if not outcome:
        sockets.shut()  # the helper's blocked read ends; a name lookup still running ends on its own
        raise FetchError(f"no complete answer within the timeout of {deadline:g} s (the whole fetch)")
    result = outcome[0]
    if isinstance(result, Answer):
        return result
    if isinstance(result, _FAILURES):
        raise FetchError(_reason(result, deadline)) from None
    raise result  # a bug, not a failure of the link
