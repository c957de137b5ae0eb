"""``punchboard server start|stop|status|run``: a build server that keeps punchboard loaded.

While it runs, ``build``, ``check``, ``verify``, ``bom``, ``list`` and the exports typed in any terminal of
the same user, with the same Python, punchboard and cache folder, are handed to it (punchboard/plumbing/
handoff.py) and run in it one at a time, as :func:`punchboard.cli.main` runs them in-process: same files,
same messages on the caller's own streams, same exit codes, Ctrl-C and SIGTERM passed on. A one-card tweak
then costs what drawing it costs, without the interpreter's start, the imports and the first calls' set-up.

The server stops after ``--idle`` seconds without a command, on ``punchboard server stop``, and when its own
code or the installed packages change (it then turns the next command down, and that command runs in its
own process, as every command does when no server runs).
"""

from __future__ import annotations

import argparse
import errno
import gc
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from punchboard.plumbing import handoff
from punchboard.plumbing.errors import UsageError

from .common import EXIT_OK, Voice, add_common_flags, positive_seconds

IDLE_DEFAULT = 1800.0  # seconds: half an hour without a command
START_TIMEOUT = 30.0  # seconds ``start`` waits for the new server to answer
MAX_MESSAGE = 1 << 24
TIDY_AFTER = 1.0  # seconds without a command before the collector goes over what the last commands left


class _Stop(Exception):
    """The server is asked to stop (``server stop``, SIGTERM or Ctrl-C while idle, its code changed)."""


class _NotStarted(Exception):
    """The command could not be set up here (its folder is gone, say): its caller runs it itself."""


@dataclass
class _State:
    building: bool = False
    interrupting: bool = False
    caller_stopped: bool = False  # the command running was stopped by its caller (else, when it ends with 130,
    # by a signal to the server itself: ``kill``, which stops the server once the command has answered)
    served: int = 0
    last: float = field(default_factory=time.time)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _private_folder() -> Path:
    """The sockets' folder, made if missing; only its user may enter it (else: a UsageError, exit 2)."""
    folder = Path(handoff.socket_folder())
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"cannot make {folder} for the server's socket: {err.strerror or err}") from None
    if not handoff.folder_is_private(str(folder)):
        raise UsageError(f"{folder} must belong to you and be closed to everyone else (chmod 700) to hold the "
                         "server's socket; fix it or set XDG_RUNTIME_DIR to a private folder")
    return folder


def _socket_path() -> str:
    path = handoff.socket_path()
    if len(path) > handoff.MAX_SOCKET_PATH:
        raise UsageError(f"the server's socket path {path} is longer than {handoff.MAX_SOCKET_PATH} characters; "
                         "set XDG_RUNTIME_DIR to a shorter folder")
    return path


BUSY: dict[str, Any] = {"busy": True}  # a server took the connection but runs a command: it answers after


def _ask(path: str, message: dict[str, Any], timeout: float = 5.0) -> dict[str, Any] | None:
    """The answer of the server at ``path`` to ``message``; :data:`BUSY` when one listens there but has not
    answered within ``timeout`` (it runs one command at a time); None when none listens."""
    sock = handoff.connect(path)
    if sock is None:
        return None
    try:
        sock.settimeout(timeout)
        handoff.send_message(sock, message)
        answer = handoff.receive_message(sock)
    except TimeoutError:
        return BUSY
    except OSError:
        return None
    finally:
        sock.close()
    return answer if isinstance(answer, dict) else None


def _log_path() -> Path:
    """Where the server's own errors go (those of a command go to its caller): beside the cache it shares."""
    from punchboard.plumbing.cache_root import current_cache_root

    folder = current_cache_root()
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "server.log"


def _started(path: str, voice: Voice, idle: float) -> int:
    _private_folder()
    answer = _ask(path, {"ping": True})
    if answer is not None:
        voice.say("punchboard server: already running" + (f" (pid {answer['pid']})" if answer is not BUSY else ""))
        return EXIT_OK
    log = _log_path()
    with log.open("ab") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "punchboard", "server", "run", "--idle", repr(idle)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=sink, cwd="/", start_new_session=True,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        answer = _ask(path, {"ping": True})
        if answer is not None and answer is not BUSY:
            voice.say(f"punchboard server: running (pid {answer['pid']}); build, check, verify, bom, list and the "
                      f"exports run in it until it has been idle {idle:g} s (`punchboard server stop` stops it)")
            return EXIT_OK
        if process.poll() is not None and not Path(path).exists():
            break
        time.sleep(0.02)
    tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:]
    raise UsageError("the server did not start" + (": " + " / ".join(tail) if tail else "") + f" (its log: {log})")


def _commands(count: int) -> str:
    return f"{count} command" if count == 1 else f"{count} commands"


def _stopped(path: str, voice: Voice) -> int:
    answer = _ask(path, {"stop": True})
    if answer is None:
        voice.say("punchboard server: not running")
        return EXIT_OK
    if answer is BUSY:  # the request waits its turn: the server stops once its command has answered
        voice.say("punchboard server: stops when the command it runs has ended")
        return EXIT_OK
    deadline = time.monotonic() + START_TIMEOUT
    while Path(path).exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    voice.say(f"punchboard server: stopped (pid {answer['pid']}, {_commands(answer['served'])} served)")
    return EXIT_OK


def _status(path: str, voice: Voice) -> int:
    answer = _ask(path, {"ping": True})
    if answer is None:
        voice.say("punchboard server: not running")
        return EXIT_OK
    if answer is BUSY:
        voice.say(f"punchboard server: running a command; socket {path}")
        return EXIT_OK
    voice.say(f"punchboard server: running (pid {answer['pid']}), {_commands(answer['served'])} served, idle "
              f"{answer['idle_for']:.0f} s of {answer['idle']:g} s; socket {path}")
    return EXIT_OK


# ---------------------------------------------------------------- the server itself


def _code_state() -> tuple[str, tuple[int, ...]]:
    """punchboard's own source (its digest) and when each installed-packages folder last changed: either one
    moving means the server runs other code than a new process would."""
    from punchboard.generator.cache import code_digest

    folders = []
    for entry in sys.path:
        if entry.endswith(("site-packages", "dist-packages")):
            try:
                folders.append(os.stat(entry).st_mtime_ns)
            except OSError:
                folders.append(0)
    return code_digest.__wrapped__(), tuple(folders)


def _served(path: str, idle: float) -> int:
    _private_folder()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(path)
    except OSError as err:
        if err.errno != errno.EADDRINUSE:
            raise UsageError(f"cannot listen on {path}: {err.strerror or err}") from None
        if _ask(path, {"ping": True}) is not None:  # (or is busy answering a command)
            listener.close()
            return EXIT_OK  # another server answers already
        os.unlink(path)  # left by a server that was killed
        listener.bind(path)
    listener.listen(16)
    mine = os.stat(path).st_ino
    state = _State()
    who, code = handoff.identity(), _code_state()
    main_thread = threading.main_thread().ident
    assert main_thread is not None

    def on_signal(signum: int, frame: object) -> None:
        if state.interrupting:  # from the watcher: a command's caller pressed Ctrl-C
            state.interrupting = False
            if state.building:
                raise KeyboardInterrupt
            return
        if state.building:
            raise KeyboardInterrupt
        raise _Stop

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    from punchboard.cli import GC_THRESHOLDS

    gc.set_threshold(*GC_THRESHOLDS)
    untidy = False  # a command ran since the collector last went over what commands left
    try:
        while True:
            left = idle - (time.time() - state.last)
            if left <= 0 and not untidy:
                break
            listener.settimeout(max(0.001, min(left, TIDY_AFTER) if untidy else left))  # 0 would not wait at all
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                if not untidy:
                    break
                gc.collect()  # while nobody waits: a command that comes at once does not wait for it
                untidy = False
                continue
            with conn:
                conn.settimeout(None)
                try:
                    _handle(conn, state, who, code, idle, main_thread)
                except _Stop:
                    raise
                except Exception:  # a bug of the server's own (a command's are the command's): logged, serve on
                    import traceback

                    traceback.print_exc()
            state.last = time.time()
            untidy = True
    except _Stop:
        pass
    finally:
        listener.close()
        try:
            if os.stat(path).st_ino == mine:
                os.unlink(path)
        except OSError:
            pass
    return EXIT_OK


def _receive(conn: socket.socket) -> tuple[Any, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 65536, 3)
    return handoff.receive_message(conn, data, MAX_MESSAGE), fds


def _handle(conn: socket.socket, state: _State, who: str, code: Any, idle: float, main_thread: int) -> None:
    try:
        message, fds = _receive(conn)
    except OSError:
        return
    try:
        if not isinstance(message, dict):
            return
        if message.get("ping") or message.get("stop"):
            try:
                handoff.send_message(conn, {"pid": os.getpid(), "served": state.served, "idle": idle,
                                            "idle_for": time.time() - state.last})
            except OSError:  # the asker gave up waiting (the server was busy): a stop stands all the same
                pass
            if message.get("stop"):
                raise _Stop
            return
        if len(fds) != 3 or message.get("protocol") != handoff.PROTOCOL or message.get("identity") != who:
            handoff.send_message(conn, {"refused": "another punchboard"})
            return
        if _code_state() != code:
            handoff.send_message(conn, {"refused": "the code changed"})
            raise _Stop
        taken, fds = fds, []
        try:
            answer = _run(message, taken, conn, state, main_thread)
        except _NotStarted as why:
            handoff.send_message(conn, {"refused": str(why)})
            return
        state.served += 1
        try:
            handoff.send_message(conn, {"code": answer})
        except OSError:
            pass  # the caller went away (a second Ctrl-C)
        if answer == 130 and not state.caller_stopped:
            raise _Stop  # SIGTERM (or SIGINT) to the server stopped the command it ran: the server stops too
    finally:
        for fd in fds:
            os.close(fd)


def _watch(conn: socket.socket, wake: int, state: _State, main_thread: int) -> None:
    """Interrupt the command when its caller asks (Ctrl-C, SIGTERM) or goes away."""
    readable, _, _ = select.select([conn, wake], [], [])
    if conn in readable:
        with state.lock:
            if state.building:
                state.interrupting = state.caller_stopped = True
                signal.pthread_kill(main_thread, signal.SIGINT)


def _run(message: dict[str, Any], fds: list[int], conn: socket.socket, state: _State, main_thread: int) -> int:
    """The command run here as its caller's own process would run it: its streams, folder, environment, umask."""
    from punchboard.cli import main

    saved_fds = [os.dup(n) for n in (0, 1, 2)]
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_umask = os.umask(int(message["umask"]))
    wake_read, wake_write = os.pipe()
    watcher = threading.Thread(target=_watch, args=(conn, wake_read, state, main_thread), daemon=True)
    code = 3
    try:
        try:
            for number, fd in enumerate(fds):
                os.dup2(fd, number)
            (in_enc, in_err), (out_enc, out_err), (err_enc, err_err) = message["streams"]
            sys.stdin = open(0, encoding=in_enc, errors=in_err, closefd=False)  # noqa: SIM115
            sys.stdout = open(1, "w", encoding=out_enc, errors=out_err, closefd=False,  # noqa: SIM115
                              buffering=1 if os.isatty(1) else -1)
            sys.stderr = open(2, "w", encoding=err_enc, errors=err_err, closefd=False, buffering=1)  # noqa: SIM115
            os.environ.clear()
            os.environ.update(message["env"])
            os.chdir(message["cwd"])
        except (OSError, LookupError, TypeError, ValueError) as err:  # a folder gone, an encoding unknown here
            raise _NotStarted(str(err)) from None
        finally:
            for fd in fds:
                os.close(fd)
        with state.lock:
            state.building, state.caller_stopped = True, False
        watcher.start()
        try:
            try:
                code = main(list(message["argv"]))
            except KeyboardInterrupt:
                print("interrupted", file=sys.stderr)
                code = 130
            except SystemExit as stop:  # ends the command, as it would end the command's own process; not the server
                if isinstance(stop.code, str):
                    print(stop.code, file=sys.stderr)
                code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
            finally:
                with state.lock:
                    state.building = False
                    state.interrupting = False
        except KeyboardInterrupt:  # arrived as the command ended
            code = 130
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            code = code or 141
        except (OSError, ValueError):
            pass
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    finally:
        os.write(wake_write, b"x")
        if watcher.is_alive():
            watcher.join()
        os.close(wake_read)
        os.close(wake_write)
        for stream in (sys.stdin, sys.stdout, sys.stderr):
            if stream not in saved_streams:
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        for number, fd in enumerate(saved_fds):
            os.dup2(fd, number)
            os.close(fd)
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
        os.umask(saved_umask)
        fonts = sys.modules.get("punchboard.generator.draw.fonts")
        if fonts is not None:  # the next command sets its text in its own layouts' fonts only
            fonts.forget_layout_fonts()
    return code


def cmd_server(args: argparse.Namespace) -> int:
    voice = Voice(args)
    if not hasattr(socket, "AF_UNIX") or not hasattr(socket, "recv_fds"):
        raise UsageError("the build server needs Unix sockets, which this system's Python does not have; "
                         "every command runs in its own process here")
    path = _socket_path()
    if args.action == "start":
        return _started(path, voice, args.idle)
    if args.action == "stop":
        return _stopped(path, voice)
    if args.action == "status":
        return _status(path, voice)
    return _served(path, args.idle)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "server", help="keep punchboard loaded, so each command starts at once",
        description="start: run a build server in the background; while it runs, build, check, verify, bom, list "
                    "and the exports typed in any terminal are handed to it and run without starting Python and "
                    "loading punchboard again (same files, messages and exit codes; Ctrl-C works as before). "
                    "stop: stop it. status: say whether it runs. run: serve in the foreground (Ctrl-C stops). "
                    f"{handoff.NO_SERVER_ENV}=1 runs a command in its own process even while a server runs.",
    )
    p.add_argument("action", choices=("start", "stop", "status", "run"), help="start, stop, status or run")
    p.add_argument("--idle", type=positive_seconds, default=IDLE_DEFAULT, metavar="SECONDS",
                   help=f"stop after this long without a command (default: {IDLE_DEFAULT:g})")
    add_common_flags(p)
    p.set_defaults(func=cmd_server)
