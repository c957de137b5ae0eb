"""``punchboard server``: commands handed to a running build server do what they do in a process of their own.

Every command here is typed as a user types it (``python -m punchboard …``, the installed entry point), with a
cache folder of the test's own, so the server it starts is the test's alone; the fixture stops it, and kills it
if it did not stop.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from punchboard.plumbing import handoff
from tests.cli.minigame import write_game, write_setup_short_of_cards
from tests.conftest import run_cli

pytestmark = pytest.mark.skipif(not hasattr(os, "getuid"), reason="the build server needs Unix sockets")

TIMEOUT = 60.0


def _pid() -> int | None:
    status = run_cli("server", "status")
    assert status.returncode == 0, status.stderr
    if "not running" in status.stdout:
        return None
    return int(status.stdout.split("(pid ")[1].split(")")[0])


def _served() -> int:
    status = run_cli("server", "status").stdout
    return int(status.split("), ")[1].split(" command")[0])


def _wait(condition, what: str, timeout: float = TIMEOUT) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _kill(pid: int | None) -> None:
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PUNCHBOARD_CACHE_DIR", str(folder))
    monkeypatch.delenv(handoff.NO_SERVER_ENV, raising=False)
    return folder


@pytest.fixture
def server(own_cache: Path) -> Iterator[int]:
    started = run_cli("server", "start", "--idle", "300")
    assert started.returncode == 0, started.stdout + started.stderr
    assert "running (pid" in started.stdout
    pid = _pid()
    assert pid is not None
    try:
        yield pid
    finally:
        stopped = run_cli("server", "stop")
        _kill(pid if _pid() is not None else None)
        assert stopped.returncode == 0


def _direct(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own, a server running or not."""
    return run_cli(*args, cwd=cwd, env={handoff.NO_SERVER_ENV: "1"})


def _files(folder: Path) -> dict[str, bytes]:
    """The user's outputs (the build's own stores beside them hold the files' dates)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".punchboard" not in str(p) and "prints" not in p.parts}


def test_a_handed_command_writes_what_its_own_process_writes(server: int, tmp_path: Path):
    game = write_game(tmp_path / "game")
    served = run_cli("build", "game", "--out", "out-served", cwd=tmp_path)  # relative paths: the caller's folder
    direct = _direct("build", "game", "--out", "out-direct", cwd=tmp_path)
    assert served.returncode == direct.returncode == 0, served.stderr
    assert served.stdout.replace("out-served", "OUT") == direct.stdout.replace("out-direct", "OUT")
    assert served.stderr.replace("out-served", "OUT") == direct.stderr.replace("out-direct", "OUT")
    assert "warning:" in served.stderr and "rendered" in served.stdout
    assert _files(tmp_path / "out-served") == _files(tmp_path / "out-direct")
    assert _served() == 1

    # a tweak, built again by the server, is what a build from nothing writes
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("The second card", "The second card, tweaked"), encoding="utf-8")
    again = run_cli("build", "game", "--out", "out-served", "--quiet", cwd=tmp_path)
    fresh = _direct("build", "game", "--out", "out-fresh", "--quiet", cwd=tmp_path)
    assert again.returncode == fresh.returncode == 0
    assert _files(tmp_path / "out-served") == _files(tmp_path / "out-fresh")
    assert _files(tmp_path / "out-served") != _files(tmp_path / "out-direct")
    assert _served() == 2


def test_exit_codes_and_located_errors_come_back_and_the_server_serves_on(server: int, tmp_path: Path):
    game = write_game(tmp_path / "game")
    write_setup_short_of_cards(game)
    failing = run_cli("verify", str(game), "--out", str(tmp_path / "out"))
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert failing.stdout == _direct("verify", str(game), "--out", str(tmp_path / "out"), cwd=tmp_path).stdout

    (game / "cards.yaml").write_text("id: [\n", encoding="utf-8")
    broken = run_cli("build", str(game), "--out", str(tmp_path / "out"))
    assert broken.returncode == 2
    assert broken.stderr.startswith(f"{game / 'cards.yaml'}:2:1: ") and "Traceback" not in broken.stderr
    bad_flag = run_cli("build", str(game), "--paper", "folio")
    assert bad_flag.returncode == 2 and "--paper" in bad_flag.stderr
    assert _served() == 3
    assert _pid() == server  # the same server, still serving
    assert run_cli("list", "--quiet").stdout.split() == _direct("list", "--quiet", cwd=tmp_path).stdout.split()


def _slow_build(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    game = write_game(tmp_path / "game", extra_decks=300)
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "punchboard", "build", str(game), "--out", str(out), "--jobs", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait(lambda: (out / "mini" / "deck_3.pdf").exists(), "the build to be under way")
    return process, out


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_the_command_in_the_server_and_not_the_server(server: int, tmp_path: Path, stop: int):
    process, out = _slow_build(tmp_path)
    process.send_signal(stop)
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 130, stderr
    assert stderr.rstrip().endswith("interrupted") and "Traceback" not in stderr
    assert not (out / "mini" / "mini-print-and-play.pdf").exists()  # the build stopped before its last file
    assert _pid() == server
    again = run_cli("build", str(tmp_path / "game"), "--out", str(out), "--quiet")
    assert again.returncode == 0 and (out / "mini" / "mini-print-and-play.pdf").exists()


def test_a_server_killed_during_a_command_stops_it_answers_and_stops(server: int, tmp_path: Path):
    process, out = _slow_build(tmp_path)
    os.kill(server, signal.SIGTERM)
    _, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 130 and stderr.rstrip().endswith("interrupted")
    _wait(lambda: _pid() is None, "the server to stop")
    assert not Path(handoff.socket_path()).exists()
    again = run_cli("build", str(tmp_path / "game"), "--out", str(out), "--quiet")  # in a process of its own
    assert again.returncode == 0 and (out / "mini" / "mini-print-and-play.pdf").exists()


def test_a_server_that_dies_during_a_command_says_so_and_the_command_is_not_run_twice(server: int, tmp_path: Path):
    process, out = _slow_build(tmp_path)
    os.kill(server, signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 3, stderr
    assert "the build server stopped before it answered" in stderr and "Traceback" not in stderr
    assert not (out / "mini" / "mini-print-and-play.pdf").exists()
    assert _pid() is None  # its socket is left, and nobody answers there: commands run in their own process
    again = run_cli("build", str(tmp_path / "game"), "--out", str(out), "--quiet")
    assert again.returncode == 0 and (out / "mini" / "mini-print-and-play.pdf").exists()
    started = run_cli("server", "start", "--idle", "60")  # a new server takes the socket's place (the fixture stops it)
    assert started.returncode == 0 and "running (pid" in started.stdout


def test_a_reader_that_stops_early_is_not_a_crash(server: int, tmp_path: Path):
    """`punchboard bom … | head`, handed to the server: exit 141, nothing said, and the server serves on."""
    process = subprocess.Popen([sys.executable, "-m", "punchboard", "bom", "steam_court"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(timeout=TIMEOUT) == 141
    assert errors == "" and not list(tmp_path.glob("punchboard-crash-*"))
    assert _served() == 1
    assert run_cli("bom", "steam_court").stdout == _direct("bom", "steam_court", cwd=tmp_path).stdout


def test_status_and_stop_while_the_server_runs_a_command(server: int, tmp_path: Path):
    """The server runs one command at a time: asked while it runs one, it says it is busy, and a stop waits its
    turn (the command ends whole, then the server stops)."""
    from punchboard.cli import server as server_verb

    process, out = _slow_build(tmp_path)
    assert server_verb._ask(handoff.socket_path(), {"ping": True}, 0.2) is server_verb.BUSY
    assert server_verb._ask(handoff.socket_path(), {"stop": True}, 0.2) is server_verb.BUSY
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, stderr
    assert (out / "mini" / "mini-print-and-play.pdf").exists()
    _wait(lambda: _pid() is None, "the server to stop after the command")


def test_a_caller_that_dies_stops_its_command(server: int, tmp_path: Path):
    process, out = _slow_build(tmp_path)
    process.kill()
    process.communicate(timeout=TIMEOUT)
    _wait(lambda: _served() == 1, "the server to drop the command")
    assert not (out / "mini" / "mini-print-and-play.pdf").exists()
    assert _pid() == server


def test_stop_idle_and_no_server(own_cache: Path, tmp_path: Path):
    assert run_cli("server", "stop").stdout.strip() == "punchboard server: not running"
    started = run_cli("server", "start", "--idle", "1")
    pid = _pid()
    try:
        assert started.returncode == 0 and pid is not None
        path = Path(handoff.socket_path())
        assert path.exists() and (path.parent.stat().st_mode & 0o777) == 0o700
        _wait(lambda: not path.exists(), "the idle server to stop")
        assert _pid() is None
        # without a server every command runs in its own process, as ever
        game = write_game(tmp_path / "game")
        assert run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet").returncode == 0
    finally:
        _kill(pid if _pid() is not None else None)


def test_no_server_env_and_refusals_run_the_command_in_its_own_process(server: int, tmp_path: Path):
    game = write_game(tmp_path / "game")
    assert _direct("build", str(game), "--out", str(tmp_path / "out"), cwd=tmp_path).returncode == 0
    assert _served() == 0
    # a caller of another punchboard (another Python, package or cache) is turned down; it runs on its own
    def ask(**changes: object) -> object:
        request = {"protocol": handoff.PROTOCOL, "identity": handoff.identity(), "argv": ["list"], "cwd": "/",
                   "env": dict(os.environ), "umask": 0o22, "streams": [("utf-8", "strict")] * 3, **changes}
        sock = handoff.connect(handoff.socket_path())
        assert sock is not None
        try:
            handoff.send_message(sock, request, (0, 1, 2))
            return handoff.receive_message(sock)
        finally:
            sock.close()

    assert ask(identity="another") == {"refused": "another punchboard"}
    # a command that cannot be set up there (its folder went away) is turned down before it starts
    answer = ask(cwd=str(tmp_path / "gone"))
    assert isinstance(answer, dict) and "gone" in str(answer["refused"])
    assert _served() == 0
    assert ask(argv=["list", "--quiet"]) == {"code": 0}
    assert _served() == 1


def test_the_server_stops_when_the_installed_packages_change(server: int, tmp_path: Path):
    """A package installed or removed (or punchboard's own code edited) after the server started: it turns the
    next command down and stops; the command runs in its own process, with the new code."""
    site = next(Path(p) for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())
    before = site.stat()
    os.utime(site, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    game = write_game(tmp_path / "game")
    result = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0 and (tmp_path / "out" / "mini" / "mini-print-and-play.pdf").exists()
    _wait(lambda: _pid() is None, "the server to stop")


def test_a_command_that_exits_ends_itself_and_not_the_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """A ``SystemExit`` out of a command (as from a library) gives its code and message to the caller, as it would
    from the command's own process, and the server's streams, folder and environment are its own again."""
    import socket
    import threading

    import punchboard.cli
    from punchboard.cli import server

    def leaves(argv: list[str]) -> int:
        assert os.getcwd() == str(tmp_path) and os.environ["ONLY_HERE"] == "1"
        raise SystemExit("leaving early")

    monkeypatch.setattr(punchboard.cli, "main", leaves)
    read, write = os.pipe()
    fds = [os.open(os.devnull, os.O_RDONLY), os.dup(write), os.dup(write)]
    caller, _ = socket.socketpair()
    message = {"argv": ["build"], "cwd": str(tmp_path), "env": dict(os.environ, ONLY_HERE="1"), "umask": 0o22,
               "streams": [("utf-8", "strict")] * 3}
    before = (os.getcwd(), sys.stdout, sys.stderr)
    code = server._run(message, fds, caller, server._State(), threading.main_thread().ident)
    os.close(write)
    assert code == 1 and os.read(read, 100) == b"leaving early\n"
    assert (os.getcwd(), sys.stdout, sys.stderr) == before and "ONLY_HERE" not in os.environ


def test_the_hand_off_loads_nothing_but_the_interpreters_own_modules():
    """What every command imports before it is handed over, or not: nothing from site-packages, no pathlib work."""
    code = ("import sys; before = set(sys.modules); import punchboard.plumbing.handoff; "
            "print('\\n'.join(sorted(set(sys.modules) - before)))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    stdlib = sys.stdlib_module_names
    foreign = [m for m in loaded.stdout.split() if m.split(".")[0] not in stdlib and not m.startswith("punchboard")]
    assert foreign == []


VERA = Path(__import__("reportlab").__file__).parent / "fonts"


def _font_game(folder: Path, layout: str, fonts: dict[str, str]) -> Path:
    """A one-deck game whose own layout declares ``fonts`` (name → one of reportlab's Vera files) and sets its
    text in ``Body``, with a bold word."""
    (folder / "layouts" / layout).mkdir(parents=True)
    for name, file in fonts.items():
        (folder / "layouts" / layout / f"{name}.ttf").write_bytes((VERA / file).read_bytes())
    declared = ", ".join(f"{name}: {name}.ttf" for name in fonts)
    (folder / "layouts" / layout / "card.yaml").write_text(
        f"fonts: {{{declared}}}\nelements:\n"
        "  - {id: t, type: text, x: 5%, y: 5%, width: 90%, height: 30%, text: '{name} is **bold**', font: Body}\n",
        encoding="utf-8")
    (folder / "game.yaml").write_text(f"id: {folder.name}\ntitle: Fonts\nplayers: {{min: 2, max: 4}}\n"
                                      "components: [cards.yaml]\n", encoding="utf-8")
    (folder / "cards.yaml").write_text(f"id: cards\nkind: deck\nsize: poker\nlayout: {layout}/card\n"
                                       "cards:\n  - {name: One, count: 2}\n", encoding="utf-8")
    return folder


def _font_names(pdf: Path) -> set[str]:
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(pdf).pages:
        for form in page["/Resources"].get("/XObject", {}).values():
            for font in form.get_object().get("/Resources", {}).get("/Font", {}).values():
                names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def test_a_server_that_built_another_game_writes_what_a_new_process_writes(server: int, tmp_path: Path):
    """Fonts are a layout's own: a bold face another game's layout declared (``Body-Bold``, here Vera's oblique
    file) is not this layout's, which has none and sets bold in Vera Bold, in the server as in a new process."""
    other = _font_game(tmp_path / "other", "mine", {"Body": "Vera.ttf", "Body-Bold": "VeraIt.ttf"})
    game = _font_game(tmp_path / "game", "mine", {"Body": "Vera.ttf"})
    assert run_cli("build", str(other), "--out", str(tmp_path / "out"), "--quiet").returncode == 0
    assert "BitstreamVeraSans-Oblique" in _font_names(tmp_path / "out" / "other" / "cards.pdf")
    served = run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet")
    direct = _direct("build", str(game), "--out", str(tmp_path / "fresh"), "--quiet", cwd=tmp_path)
    assert served.returncode == direct.returncode == 0, served.stderr
    assert _served() == 2
    assert "BitstreamVeraSans-Bold" in _font_names(tmp_path / "fresh" / "game" / "cards.pdf")
    assert _files(tmp_path / "out" / "game") == _files(tmp_path / "fresh" / "game")


def test_a_font_file_replaced_while_the_server_runs_is_read_again(server: int, tmp_path: Path):
    game = _font_game(tmp_path / "game", "mine", {"Body": "Vera.ttf"})
    assert run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet").returncode == 0
    assert "BitstreamVeraSans-Roman" in _font_names(tmp_path / "out" / "game" / "cards.pdf")
    (game / "layouts" / "mine" / "Body.ttf").write_bytes((VERA / "VeraIt.ttf").read_bytes())
    assert run_cli("build", str(game), "--out", str(tmp_path / "out"), "--quiet").returncode == 0
    assert _direct("build", str(game), "--out", str(tmp_path / "fresh"), "--quiet", cwd=tmp_path).returncode == 0
    assert _served() == 2
    assert "BitstreamVeraSans-Oblique" in _font_names(tmp_path / "fresh" / "game" / "cards.pdf")
    assert _files(tmp_path / "out" / "game") == _files(tmp_path / "fresh" / "game")
