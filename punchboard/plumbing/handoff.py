"""Handing a command to a running build server (``punchboard server start``; punchboard/cli/server.py).

A ``punchboard`` command spends most of a one-card tweak starting: the interpreter, reportlab, the model's
modules, the first calls' regular expressions and schema checks. A server started once keeps all of that
loaded; each command then passes it what a command is (its arguments, folder, environment, umask) and its
standard streams themselves (their file descriptors, over a Unix socket), and the server runs the command
in-process, writing straight to the caller's terminal or pipes, and answers the exit code. Without a server
(the default), or where one cannot be reached, the command runs in its own process as always.

This module is what the command runs before importing anything of punchboard's own, so it uses the
interpreter's built-in modules only. The socket lies in a folder only its user may enter; its name is a
checksum of what the server must share with the command (this Python, this punchboard, this cache folder),
and the server checks all of that again before it accepts the command.
"""

from __future__ import annotations

import _signal  # signal's and struct's own modules: their wrappers build enums and cost a millisecond at start
import _socket
import _struct
import marshal
import os
import sys
import zlib
from collections.abc import Sequence

from punchboard.plumbing.cache_root import CACHE_ENV, cache_root_text

HANDED = frozenset({"build", "check", "verify", "bom", "list", "images", "tts", "preview"})
NO_SERVER_ENV = "PUNCHBOARD_NO_SERVER"  # set (to anything but "" or "0"): every command runs in its own process
PROTOCOL = 1
_LENGTH = _struct.Struct("!I")
MAX_SOCKET_PATH = 100  # sun_path holds 104 (macOS) or 108 (Linux) bytes with its terminating zero


def identity() -> str:
    """What a server and a command must share: this interpreter, this punchboard, this cache folder."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cache = cache_root_text(os.environ.get(CACHE_ENV), os.environ.get("XDG_CACHE_HOME"))
    return "\0".join((f"protocol {PROTOCOL}", os.path.realpath(sys.executable), sys.prefix, package, cache))


def socket_folder() -> str:
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    return os.path.join(base, f"punchboard-{os.getuid()}")


def socket_path(who: str | None = None) -> str:
    data = (identity() if who is None else who).encode("utf-8", "surrogateescape")
    return os.path.join(socket_folder(), f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}.sock")


def folder_is_private(folder: str) -> bool:
    """The socket's folder is this user's and nobody else may enter it (else no command is handed over)."""
    try:
        info = os.stat(folder)
    except OSError:
        return False
    return info.st_uid == os.getuid() and info.st_mode & 0o077 == 0


def send_message(sock: _socket.socket, message: object, fds: Sequence[int] = ()) -> None:
    data = marshal.dumps(message)
    payload = _LENGTH.pack(len(data)) + data
    if fds:
        sent = sock.sendmsg([payload], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, _struct.pack(f"{len(fds)}i", *fds))])
        payload = payload[sent:]
    while payload:
        payload = payload[sock.send(payload):]


def receive_exactly(sock: _socket.socket, size: int) -> bytes | None:
    """``size`` bytes, or None when the other end closed first."""
    chunks, left = [], size
    while left:
        chunk = sock.recv(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive_message(sock: _socket.socket, already: bytes = b"", limit: int | None = None) -> object | None:
    """The message whose first bytes, ``already``, were read (the server reads them with the file descriptors);
    None when the other end closed first, or the message is longer than ``limit`` or is not one."""
    data = already
    if len(data) < _LENGTH.size:
        more = receive_exactly(sock, _LENGTH.size - len(data))
        if more is None:
            return None
        data += more
    size = _LENGTH.unpack(data[:_LENGTH.size])[0]
    if limit is not None and size > limit:
        return None
    body = data[_LENGTH.size:]
    if len(body) < size:
        more = receive_exactly(sock, size - len(body))
        if more is None:
            return None
        body += more
    try:
        return marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None


def connect(path: str) -> _socket.socket | None:
    """A connection to the server listening at ``path``, or None when none is."""
    if len(path) > MAX_SOCKET_PATH or not folder_is_private(os.path.dirname(path)):
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    return sock


def _streams() -> list[tuple[str, str]] | None:
    """Each standard stream's encoding and error handler, as this process would write with them; None when one
    of the three is closed (the command then runs here, where Python deals with it as usual)."""
    found = []
    for stream, fd in ((sys.stdin, 0), (sys.stdout, 1), (sys.stderr, 2)):
        try:
            os.fstat(fd)
        except OSError:
            return None
        found.append((getattr(stream, "encoding", None) or "utf-8", getattr(stream, "errors", None) or "strict"))
    return found


def hand_off(argv: Sequence[str]) -> int | None:
    """Run the command ``argv`` in a running server: its exit code, or None when it was not handed over (no
    server, another punchboard's, a verb that runs in its own process, or the server turned it down)."""
    if not argv or argv[0] not in HANDED or os.environ.get(NO_SERVER_ENV, "") not in ("", "0"):
        return None
    if not hasattr(_socket, "AF_UNIX") or not hasattr(_socket.socket, "sendmsg"):
        return None
    streams = _streams()
    if streams is None:
        return None
    who = identity()
    sock = connect(socket_path(who))
    if sock is None:
        return None
    try:
        umask = os.umask(0o022)
        os.umask(umask)
        request = {"protocol": PROTOCOL, "identity": who, "argv": list(argv), "cwd": os.getcwd(),
                   "env": dict(os.environ), "umask": umask, "streams": streams}
        send_message(sock, request, (0, 1, 2))
    except OSError:  # the server went away before it took the command (or our folder did): it runs here
        sock.close()
        return None
    try:
        return _answer(sock)
    finally:
        sock.close()


def _answer(sock: _socket.socket) -> int | None:
    """The server's answer. Ctrl-C or SIGTERM here is passed on (the server stops the work as the command would
    have, says ``interrupted`` and answers 130); a second one leaves at once, with 130."""
    asked = []

    def interrupt(signum: int, frame: object) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(signum)
        try:
            sock.send(b"i")
        except OSError:
            pass

    previous = [_signal.signal(number, interrupt) for number in (_signal.SIGINT, _signal.SIGTERM)]
    try:
        answer = receive_message(sock)
    except KeyboardInterrupt:
        return 130
    except OSError:  # the server went away while it ran the command: not run again here (it may have written)
        answer = None
    finally:
        _signal.signal(_signal.SIGINT, previous[0])
        _signal.signal(_signal.SIGTERM, previous[1])
    if not isinstance(answer, dict):
        print("punchboard: internal error: the build server stopped before it answered; run the command again "
              f"(`{NO_SERVER_ENV}=1` runs it without the server)", file=sys.stderr)
        return 3
    if answer.get("refused"):
        return None  # another punchboard now (an upgrade, an edit of its code): it runs here
    return int(answer["code"])
