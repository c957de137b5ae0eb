"""Every snippet of the README and docs/ is real.

Each YAML block is checked against the schema its marker names (tests/docs/snippets.py has the convention); the
README and the tutorial are run as a reader runs them: in a fresh folder holding the checkout's .venv (what
``make build`` leaves), each shell line exactly as written, with ``PATH`` leading to the venv's scripts, after the
files the page has the reader write; every game folder a page writes is then built and verified. Every
``punchboard …`` line of any page is parsed by punchboard's own argument parser.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest

from punchboard.cli import build_parser
from tests.conftest import ROOT
from tests.docs import check_yaml, snippets

OWNED_ELSEWHERE = {"docs/layouts.md", "docs/setup-language.md"}
YAML_BLOCKS = snippets.yaml_blocks()


def _id(block: snippets.Block) -> str:
    return block.where


def test_the_pages_have_yaml_and_shell_to_check():
    assert len(YAML_BLOCKS) >= 40
    for page in snippets.SCRIPT_PAGES:
        assert any(b.lang in snippets.SHELL_LANGS for b in snippets.blocks(page)), page


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=_id)
def test_yaml_block_is_valid(block: snippets.Block):
    if block.marker is None:
        assert block.page in OWNED_ELSEWHERE, f"{block.where}: mark the block (<!-- yaml: KIND --> before it)"
        if block.page == "docs/setup-language.md":
            assert not check_yaml.check_setup_shaped(block.text), block.where
        else:  # docs/layouts.md: generated; its examples are built by tests/docs/test_layout_guide.py
            assert check_yaml.load(block.text) is not None
        return
    key, value = block.marker
    if key == "file":
        return  # a script page's file: written, then built and verified by test_script_page_runs
    assert key == "yaml", f"{block.where}: a YAML block's marker is yaml: or file:, not {key}:"
    if value == "outline":
        check_yaml.load_outline(block.text)
        return
    found = check_yaml.check_marked(block.text, value)
    assert not found, f"{block.where} (yaml: {value}):\n" + "\n".join(found)


def test_a_wrong_snippet_is_caught():
    """The checks above can fail: a misspelt kind, a key given twice, a step that is no step."""
    assert check_yaml.check_marked("id: deck\nkind: dek\nsize: poker\n", "component")
    with pytest.raises(Exception, match="twice"):
        check_yaml.check_marked("id: a\nid: b\n", "component keys")
    assert check_yaml.check_marked("- deal: {from: deck, to: hand, count: 7}\n- wave: {hand: 1}\n", "setup step list")
    assert check_yaml.check_setup_shaped("- remove: {from: deck, count: 1, when: 'players == 2'}\n")


def _env(tmp: Path) -> dict[str, str]:
    """A reader's shell after ``make build``: the venv's scripts first on PATH; caches kept in the test's folder."""
    venv_bin = str(tmp / ".venv" / "bin")
    return dict(
        os.environ,
        PATH=f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}",
        VIRTUAL_ENV=str(tmp / ".venv"),
        PUNCHBOARD_CACHE_DIR=str(tmp / ".cache"),
        PUNCHBOARD_NO_SERVER="1",
        PYTHONHASHSEED="0",
        COLUMNS="120",
    )


def _run_line(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _run_until_stopped(line: str, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """Start ``line``; once it has printed a line (within 120 s) and still runs, SIGTERM it; its exit code and output."""
    process = subprocess.Popen(["bash", "-c", f"exec {line}"], cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        first = process.stdout.readline() if process.stdout else ""
        deadline = time.monotonic() + 120
        while not first and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
        assert process.poll() is None, f"{line!r} ended by itself (exit {process.returncode}): {first}"
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=60)
        return process.returncode, first + out
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=30)


def _expected_exit(block: snippets.Block) -> int:
    if block.marker and block.marker[0] == "shell" and block.marker[1].startswith("exits "):
        return int(block.marker[1].split()[1])
    return 0


def _run_shell_block(block: snippets.Block, cwd: Path, env: dict[str, str]) -> None:
    if block.marker == ("shell", "make"):
        return  # checked against the Makefile by test_make_lines_are_makefile_targets
    for line in snippets.shell_lines(block):
        if block.marker == ("shell", "runs until stopped"):
            code, said = _run_until_stopped(line, cwd, env)
            assert code == 0, f"{block.where}: {line!r} ended with {code} on SIGTERM:\n{said}"
            continue
        result = _run_line(line, cwd, env)
        assert result.returncode == _expected_exit(block), (
            f"{block.where}: {line!r} exited {result.returncode}, not {_expected_exit(block)}\n{result.stdout}\n{result.stderr}"
        )


@pytest.mark.slow
@pytest.mark.parametrize("page", snippets.SCRIPT_PAGES)
def test_script_page_runs(tmp_path: Path, page: str):
    (tmp_path / ".venv").symlink_to(ROOT / ".venv", target_is_directory=True)
    env = _env(tmp_path)
    games: set[Path] = set()
    for block in snippets.script_blocks(page):
        if block.marker and block.marker[0] == "file":
            target = snippets.written_path(tmp_path, block)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text, encoding="utf-8")
            if target.name == "game.yaml" or (target.parent / "game.yaml").exists():
                games.add(target.parent if target.name == "game.yaml" else _game_folder(target, tmp_path))
        else:
            _run_shell_block(block, tmp_path, env)
    for game in sorted(games):
        for verb in ("build", "verify"):
            result = _run_line(f"punchboard {verb} {shlex.quote(str(game))} --out {tmp_path / 'checked'}", tmp_path, env)
            assert result.returncode == 0, f"{page}: the game {game.name} it writes: {verb} exit {result.returncode}\n{result.stderr}"


def _game_folder(path: Path, root: Path) -> Path:
    """The nearest folder above ``path`` holding a game.yaml."""
    for folder in path.parents:
        if (folder / "game.yaml").exists() or folder == root:
            return folder
    return root


def test_make_lines_are_makefile_targets():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), flags=re.M))
    make_blocks = [b for page in snippets.pages() for b in snippets.blocks(page) if b.marker == ("shell", "make")]
    assert make_blocks, "the README's set-up block is marked <!-- shell: make -->"
    for block in make_blocks:
        for line in snippets.shell_lines(block):
            words = shlex.split(line, comments=True)
            assert words[0] == "make" and set(words[1:]) <= targets, f"{block.where}: {line!r}"


def _punchboard_lines() -> list[tuple[str, str]]:
    found = []
    for page in snippets.pages():
        for block in snippets.blocks(page):
            if block.lang in snippets.SHELL_LANGS:
                for line in snippets.shell_lines(block):
                    words = shlex.split(line, comments=True)
                    if words and words[0] in ("punchboard", ".venv/bin/punchboard"):
                        found.append((block.where, line))
    return found


@pytest.mark.parametrize(("where", "line"), _punchboard_lines())
def test_every_punchboard_line_parses(where: str, line: str):
    """Every command a page shows, on any page, is one the argument parser takes (flags and their values)."""
    words = shlex.split(line, comments=True)[1:]
    try:
        build_parser().parse_args(words)
    except SystemExit as stop:
        assert stop.code == 0, f"{where}: {line!r} is refused by punchboard's argument parser"


def test_the_readme_links_and_pictures_resolve():
    """The README is read on the forge, outside the site: each relative link and picture names a file there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) if "://" not in t]
    assert len(targets) >= 20
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"
    assert len(text.splitlines()) <= 250
